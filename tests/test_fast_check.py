"""The fast check against the full judge: every verdict the same, on generated turns of every game.

Turns come from self-played games under random rule options (random bot, random dice), each
judged as recorded and in mutated forms — written differently (single steps, chained moves,
shuffled), partial, one step too many, wrong dice, a wrong point, the other side's numbering,
another legal play's moves, a pass, head and block breaches — through :meth:`Engine.check`
(fast path first) and :meth:`Engine.judge` (the full path alone); where the fast check declines,
``Engine.check`` is ``Engine.judge`` itself, so those turns are judged once. After some illegal plays the
game goes on from the recorded play, as a replay does, so standing blocks and other odd
positions are judged too. The small run is part of the normal suite; the slow one replays
100,000 turns of each game (``pytest -m slow``).
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest

from nardy_cli.analysis.selfplay import BOTS, play_game
from nardy_cli.core.engine import Engine, Play, Verdict, steps_to_moves
from nardy_cli.core.fast_check import (
    _FIELD,
    QuickCheck,
    _adds_up,
    _Board,
    _find_paths,
    _first_steps_make,
    _follow,
    _free_points,
    _may_all_be_home,
    _moved,
    _out_of_reach,
    _paths_key,
    _Search,
    _short_of_pips,
    _single_die,
    dice_paths,
    opponent_lowest,
    preferred_paths,
)
from nardy_cli.core.moves import Move, Step, parse_play, step_of
from nardy_cli.core.position import Position
from nardy_cli.core.rules import OPTIONS, Rules
from nardy_cli.core.sides import BAR, OFF, SIDES, other
from nardy_cli.core.variants import CHECKERS, HEAD, VARIANTS, OptionName, cascade_steps
from nardy_cli.replay import replay

GAMES = ("long", "short", "gulbara")
# the options the engine's verdicts depend on
ENGINE_OPTIONS: tuple[OptionName, ...] = ("head", "block", "cascade", "bearoff")


def random_rules(variant: str, rng: random.Random) -> Rules:
    settings = [f"{option}={rng.choice(OPTIONS[option][variant])}" for option in ENGINE_OPTIONS
                if variant in OPTIONS[option]]
    return Rules.preset(variant).with_options(settings)


def chained(play: Play, rng: random.Random) -> tuple[Move, ...]:
    """The play's steps with some steps of one checker written as one move (``24/13``)."""
    legs = [(step.src, step.dst) for step in play.steps]
    merged = True
    while merged and len(legs) > 1 and rng.random() < 0.8:
        merged = False
        for i, (src, dst) in enumerate(legs):
            follow = next((j for j, leg in enumerate(legs) if j != i and leg[0] == dst and dst != OFF), None)
            if follow is not None:
                legs[i] = (src, legs[follow][1])
                del legs[follow]
                merged = True
                break
    rng.shuffle(legs)
    return tuple(Move(leg) for leg in legs)


def mutations(play: Play, position: Position, dice: tuple[int, int], engine: Engine,
              rng: random.Random, passed: tuple[int, ...] | None) -> list[tuple[tuple[int, int], tuple[Move, ...]]]:
    """(dice, moves) pairs: the play written several ways, and broken several ways."""
    written = steps_to_moves(play.steps)
    single = [Move((step.src, step.dst)) for step in play.steps]
    cases = [(dice, written), (dice, chained(play, rng))]
    if single:
        shuffled = single[:]
        rng.shuffle(shuffled)
        cases.append((dice, tuple(shuffled)))
        dropped = single[:]
        del dropped[rng.randrange(len(dropped))]
        cases.append((dice, tuple(dropped)))  # partial
        src, dst = rng.choice(single).path
        cases.append((dice, tuple(single) + (Move((src, max(dst - rng.randint(1, 6), 0))),)))  # a step too many
        shifted = single[:]
        index = rng.randrange(len(shifted))
        src, dst = shifted[index].path
        shifted[index] = Move((src, min(max(dst + rng.choice((-1, 1)), 0), 24)))
        cases.append((dice, tuple(shifted)))  # a wrong point
        cases.append((dice, tuple(Move((25 - s.src if s.src < BAR else s.src, 25 - s.dst if s.dst else 0))
                                  for s in play.steps)))  # the other side's numbering
        cases.append(((rng.randint(1, 6), rng.randint(1, 6)), written))  # wrong dice
    else:
        cases.append((dice, ()))
    cases.append((dice, ()))  # a pass
    mine = position.board(position.turn)
    if mine[HEAD] > 1 and not position.variant == "short":  # two, three checkers off the head
        cases.append((dice, tuple(Move((HEAD, HEAD - die)) for die in engine.steps(position, dice)[:3])))
    other_dice = (rng.randint(1, 6), rng.randint(1, 6))
    if passed is None and other_dice[0] != other_dice[1]:  # another roll's legal play (non-maximal, ...)
        others = engine.legal_plays(position, other_dice)
        cases.append((dice, steps_to_moves(rng.choice(others).steps)))
    if len(single) > 1 and passed is None and dice[0] != dice[1]:  # one step of another legal play
        cases.append((dice, steps_to_moves(rng.choice(engine.legal_plays(position, dice)).steps[:1])))
    return cases


def assert_same(fast: Verdict, full: Verdict, case: str) -> None:
    assert fast.finding == full.finding, case
    assert fast.position == full.position, case
    assert fast.passed == full.passed, case
    assert (fast.play is None) == (full.play is None), case
    if fast.play is not None and full.play is not None:
        assert fast.play.steps == full.play.steps, case
        assert fast.play == full.play and fast.play.position == full.play.position, case
        assert fast.play.passed == full.play.passed, case


def run_differential(variant: str, turns: int, seed: int) -> Counter[str]:
    """Judge ``turns`` recorded plays both ways; the counts of what was judged."""
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    while counts["turns"] < turns:
        rules = random_rules(variant, rng)
        engine, quick = Engine(rules), QuickCheck(rules)
        position = Position.start(variant, rng.choice(SIDES))
        pending: tuple[int, int, tuple[int, ...]] | None = None  # dice and steps passed to the side to move
        for _ in range(400):
            if position.is_over() or counts["turns"] >= turns:
                break
            if pending is not None:
                dice, passed = pending[:2], pending[2]
            else:
                dice, passed = (rng.randint(1, 6), rng.randint(1, 6)), None
            play = engine.choose_play(position, dice, rng.choice, passed)
            following: Position | None = None
            for case_dice, moves in mutations(play, position, dice, engine, rng, passed):
                case = f"{rules} | {position} | {case_dice} | {' '.join(map(str, moves)) or '-'} | passed={passed}"
                try:
                    full = engine.judge(position, case_dice, moves, passed)
                except ValueError as error:
                    with pytest.raises(ValueError, match=str(error)):
                        engine.check(position, case_dice, moves, passed)
                    continue
                counts["turns"] += 1
                counts["legal" if full.legal else "illegal"] += 1
                if quick(position, case_dice, moves, passed) is None:
                    continue  # Engine.check is then the full path itself: judging twice would prove nothing
                counts["fast"] += 1
                assert_same(engine.check(position, case_dice, moves, passed), full, case)
                if (not full.legal and full.position is not None and not full.position.is_over()
                        and case_dice == dice and rng.random() < 0.03):
                    following = full.position  # the game goes on from an illegal play, as a replay does
            if following is not None:
                position, pending = following, None
                continue
            position = play.position
            pending = (*dice, play.passed) if play.passed else None
    return counts


@pytest.mark.parametrize("variant", GAMES)
def test_fast_check_agrees_with_the_full_path(variant: str) -> None:
    counts = run_differential(variant, 2_000, seed=13)
    assert counts["legal"] and counts["illegal"] and counts["fast"]


@pytest.mark.slow
@pytest.mark.parametrize("variant", GAMES)
def test_fast_check_agrees_with_the_full_path_on_100k_turns(variant: str) -> None:
    counts = run_differential(variant, 100_000, seed=2026)
    assert counts["turns"] >= 100_000 and counts["legal"] and counts["illegal"] and counts["fast"]


def test_the_fast_check_declines_what_it_cannot_prove() -> None:
    """An illegal play goes to the full path; the head exception of a first double is the full path's."""
    start = Position.start("long")
    assert QuickCheck(Rules.preset("long"))(start, (6, 5), (Move((24, 18)), Move((24, 19)))) is None  # head
    assert QuickCheck(Rules.preset("long"))(start, (6, 5), (Move((24, 13)),)) is not None
    assert QuickCheck(Rules.preset("long"))(start, (6, 6), (Move((24, 18)), Move((24, 18)))) is not None
    for game, head in [(name, head) for name in ("long", "gulbara") for head in OPTIONS["head"][name]]:
        rules = Rules.preset(game).with_options([f"head={head}"])
        start = Position.start(game)
        for dice in ((6, 6), (4, 4), (3, 3), (2, 2)):
            die = dice[0]
            two_off, one_off = (Move((24, 24 - die)), Move((24, 24 - die))), (Move((24, 24 - 3 * die)),)
            for moves in (two_off, one_off):
                full = Engine(rules).judge(start, dice, moves)
                quick = QuickCheck(rules)(start, dice, moves)
                assert quick is None or full.legal, (game, head, dice, moves)
                assert_same(Engine(rules).check(start, dice, moves), full, f"{game} {head} {dice} {moves}")


# --- crazy nardy: self-played games of both bots, and the proof that a cascade stops ------------

def run_gulbara_games(turns: int, seed: int) -> Counter[str]:
    """Judge both ways every play of self-played crazy-nardy games (random and greedy bots, random
    rule options) until ``turns`` plays are judged, each cascade and play of passed steps also
    broken: stopped after fewer steps, one step past its stop, written in other ways (see
    :func:`mutations`), or played with steps passed that were not. Every play the fast check
    accepts is judged by the full path too (where it declines, :meth:`Engine.check` is the full
    path itself, whose exhaustive search of a broken 24-step cascade may take seconds)."""
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    while counts["turns"] < turns:
        rules = random_rules("gulbara", rng)
        engine, quick = Engine(rules), QuickCheck(rules)
        result = replay(play_game(rules, rng, rng.choice(BOTS)))
        passes = [turn.passed for turn in result.turns if turn.passed]
        plays: list[tuple[Position, tuple[int, int], tuple[Move, ...], tuple[int, ...] | None]] = [
            (turn.before, turn.dice, turn.moves, None) for turn in result.turns]
        plays += [(play.before, play.dice, play.moves, steps) for play, steps in zip(result.passed_plays, passes)]
        for position, dice, moves, passed in plays:
            counts["turns"] += 1
            cases: list[tuple[tuple[int, int], tuple[Move, ...], tuple[int, ...] | None]] = [(dice, moves, passed)]
            play = engine.check(position, dice, moves, passed).play
            if (passed is not None or dice[0] == dice[1]) and play is not None:
                steps = play.steps
                sequence = engine.steps(position, dice) if passed is None else passed
                cases += [(dice, steps_to_moves(steps[:cut]), passed)
                          for cut in {len(steps) - 1, rng.randrange(len(steps) + 1)} if 0 <= cut < len(steps)]
                if len(steps) < len(sequence):  # one more step of the next value, from some checker
                    after = play.position.board(position.turn)
                    src = rng.choice([point for point in range(1, 25) if after[point]] or [HEAD])
                    cases.append((dice, steps_to_moves(steps) + (Move((src, max(src - sequence[len(steps)], 0))),),
                                  passed))
                cases += [(case_dice, case_moves, passed)
                          for case_dice, case_moves in mutations(play, position, dice, engine, rng, passed)]
                if passed is not None and len(passed) > 1:
                    cases.append((dice, moves, passed[1:]))  # one passed step lost on the way
                if passed is None:
                    cases.append((dice, moves, sequence[len(steps):] or sequence[-1:]))  # steps passed that were not
            for case_dice, case_moves, case_passed in cases:
                counts["cases"] += 1
                if quick(position, case_dice, case_moves, case_passed) is None:
                    counts["declined"] += 1
                    continue
                counts["fast"] += 1
                counts["first-turn doubles"] += (case_passed is None and dice[0] == dice[1]
                                                 and position.turn in position.first)
                full = engine.judge(position, case_dice, case_moves, case_passed)
                counts["legal" if full.legal else "illegal"] += 1
                written = " ".join(map(str, case_moves)) or "-"
                case = f"{rules} | {position} | {case_dice} | {written} | passed={case_passed}"
                assert_same(engine.check(position, case_dice, case_moves, case_passed), full, case)
    return counts


def test_crazy_nardy_games_of_both_bots_agree() -> None:
    counts = run_gulbara_games(300, seed=5)
    assert counts["fast"] and counts["declined"] and counts["legal"]


@pytest.mark.slow
def test_crazy_nardy_games_of_both_bots_agree_on_100k_turns() -> None:
    counts = run_gulbara_games(100_000, seed=2027)
    assert counts["turns"] >= 100_000 and counts["fast"] and counts["declined"] and counts["legal"]
    assert counts["first-turn doubles"]


def random_stop_position(rng: random.Random) -> tuple[list[int], list[int]]:
    """The mover's and the opponent's boards of a crazy-nardy position (mover's numbering for the
    mover, the opponent's own for the opponent), checkers often home or on the head, the opponent
    holding a few points."""
    opposite = VARIANTS["gulbara"].opposite
    me, opp = [0] * 26, [0] * 26
    top = rng.choice((6, 6, 8, 12, 18, 24))
    on_board = rng.randint(1, CHECKERS)
    me[OFF] = CHECKERS - on_board
    for _ in range(on_board):
        me[rng.randint(1, top) if rng.random() < 0.85 else rng.randint(1, 24)] += 1
    if rng.random() < 0.25:
        me[HEAD] += rng.randint(1, 4)
        while sum(me[:BAR]) > CHECKERS:
            source = OFF if me[OFF] else rng.choice([p for p in range(1, HEAD) if me[p]] or [HEAD])
            me[source] -= 1
    free = [point for point in range(1, 25) if not me[opposite.index(point)]]
    rng.shuffle(free)
    left = CHECKERS
    for point in free[:rng.randint(2, 12)]:
        if left:
            held = rng.randint(1, min(3, left))
            opp[point], left = held, left - held
    opp[OFF] = left
    return me, opp


def run_stop_proofs(positions: int, seed: int) -> Counter[str]:
    """For random positions, cascades (or their ends, as passed steps, or a double's four steps) and
    rule options, each goal of steps in turn: :func:`_out_of_reach` at every level of counting never
    proves a goal that the exhaustive search (no budget, no proof) reaches."""
    rng = random.Random(seed)
    opposite = VARIANTS["gulbara"].opposite
    counts: Counter[str] = Counter()
    for _ in range(positions):
        me, opp = random_stop_position(rng)
        sequence = cascade_steps(rng.randint(1, 6), rng.choice((4, 4, 2)))
        if rng.random() < 0.3:
            sequence = sequence[rng.randrange(len(sequence)):]
        elif rng.random() < 0.25:  # a long-nardy double, proved the same way
            sequence = sequence[:4]
        exact, block = rng.random() < 0.7, rng.choice(("step", "turn", "off"))
        head_left = me[HEAD] - (1 if rng.random() < 0.85 else 2)
        board = _Board(me, opp, opposite, False, True, head_left, HEAD, exact, block == "step",
                       opponent_lowest(tuple(opp)))
        free = _free_points(opp, opposite)
        for goal in range(1, len(sequence) + 1):
            reached = _Search(goal - 1, sequence, True, board, block == "turn", -1).deeper(0)
            board.undo(0)
            for tracked in (0, 2, 3, 4, 6):
                if _out_of_reach(board, free, 0, goal, sequence, tracked):
                    counts["proved"] += 1
                    assert not reached, (me, opp, sequence, goal, exact, block, head_left, tracked)
            if not reached:
                counts["stops"] += 1
                break
    return counts


def test_a_proof_that_a_cascade_stops_never_contradicts_the_search() -> None:
    counts = run_stop_proofs(40, seed=3)
    assert counts["proved"] and counts["stops"]


@pytest.mark.slow
def test_a_proof_that_a_cascade_stops_never_contradicts_the_search_on_many_positions() -> None:
    counts = run_stop_proofs(1_500, seed=2028)
    assert counts["proved"] > 300


@pytest.mark.parametrize("position, dice, play, passed", [
    # a head keeps its checkers: steps of the highest values counted, 6 can be played only once
    ("gulbara b 24x7,19,18x4,3x2,1 24x4,21,18,14,10,3,2x3,1x3", (1, 1),
     "24/22 22/20 21/19 20/18 19/14 18/17 18/14 17/14 14/11 14/9(2) 14/8 11/8 10/9 9/5 9/4 9/3 8/5 8/2 5/1(2) "
     "3/2 2/1", (6,)),
    # all home: each step bears off from its die's point, the 4 cannot
    ("gulbara w 5,3x4,2x4,1x5 3x2,2x3,1x6", (1, 1), "3/off(4) 2/off(4) 1/off(4)", (4,) * 4 + (5,) * 4 + (6,) * 4),
    # the last checker home comes from outside with a 3, so not to the 3-point from which the next 3 bears off
    ("gulbara b 4x2,2,1x3 12x2,3,1x12", (1, 1), "12/11 12/10 11/10 10/9 10/7 9/7 7/5 7/4 5/3 3/2 3/off",
     (3,) + (4,) * 4 + (5,) * 4 + (6,) * 4),
    # too few checkers can stand on the 5- and 6-points when all are home
    ("gulbara b 2,1x7 17,16,10,7,6,5,4,2x3,1x5", (1, 1),
     "17/15 16/15 15/12(2) 12/9 12/8 10/8 9/5 8/5 8/4 7/5 6/off 5/off(4) 4/3 4/off 3/1 2/1(2)", (6, 6, 6)),
])
def test_cascades_that_stop_are_proved_maximal_by_the_fast_check(position: str, dice: tuple[int, int], play: str,
                                                                 passed: tuple[int, ...]) -> None:
    rules, start, moves = Rules.preset("gulbara"), Position.parse(position), parse_play(play)
    engine, quick = Engine(rules), QuickCheck(rules)
    assert quick(start, dice, moves) is not None
    verdict = engine.check(start, dice, moves)
    assert verdict.play is not None and verdict.passed == passed and verdict == engine.judge(start, dice, moves)
    shorter = steps_to_moves(verdict.play.steps[:-1])  # one step less is not the longest play
    finding = engine.check(start, dice, shorter).finding
    assert quick(start, dice, shorter) is None and finding is not None and finding.code == "cascade-short"


@pytest.mark.parametrize("position, dice, play, legal", [
    ("gulbara w 5,2x3 24x15", (5, 3), "5/off", True),  # no checker on the 3-point: the 5 alone
    ("gulbara w 5,2x3 24x15", (5, 3), "", False),  # the 5 bears off
    ("gulbara w 4,3 24x15", (6, 2), "", True),  # neither die bears off, and no checker moves inside home
    ("gulbara w 5,3 24x15", (5, 3), "5/off", False),  # the 3 bears off too
    ("gulbara w 5,3 24x15", (5, 3), "5/off 3/off", True),
    ("gulbara w 1 24x15", (4, 1), "1/off", True),  # the last checker, with the one die that can
])
def test_bearing_off_exactly_from_home_is_counted_by_the_fast_check(position: str, dice: tuple[int, int], play: str,
                                                                    legal: bool) -> None:
    """All home under bearoff=exact, a step can only bear off a checker from its die's point: the
    fast check counts the longest play instead of searching it, and leaves a shorter play to the
    full path."""
    rules, start, moves = Rules.preset("gulbara"), Position.parse(position), parse_play(play)
    engine = Engine(rules)
    verdict = engine.judge(start, dice, moves)
    assert verdict.legal == legal and engine.check(start, dice, moves) == verdict
    assert (QuickCheck(rules)(start, dice, moves) is not None) == legal


def test_every_play_from_home_under_exact_bearoff_is_judged_alike_both_ways() -> None:
    """All home under bearoff=exact, for random boards of both sides and every roll: each legal
    play, each of its beginnings and the pass get the same verdict from the fast check (which counts
    the longest play, or leaves the play to the full path) as from the full path."""
    rng = random.Random(41)
    rules = Rules.preset("gulbara")
    engine, quick = Engine(rules), QuickCheck(rules)
    counts: Counter[str] = Counter()
    for _ in range(60):
        on_board = rng.randint(1, CHECKERS)
        points = [rng.randint(1, 6) for _ in range(on_board)]
        mine = ",".join(f"{point}x{points.count(point)}" for point in sorted(set(points), reverse=True))
        position = Position.parse(rng.choice((f"gulbara w {mine} 24x15", f"gulbara b 24x15 {mine}")))
        for first, second in product(range(1, 7), repeat=2):
            if first == second:
                continue  # a double is a cascade, whose steps are followed in order
            dice = (first, second)
            plays = {steps_to_moves(play.steps[:cut]) for play in engine.legal_plays(position, dice)
                     for cut in range(len(play.steps) + 1)}
            for moves in plays:
                full = engine.judge(position, dice, moves)
                accepted = quick(position, dice, moves) is not None
                counts["legal" if full.legal else "illegal"] += 1
                counts["accepted"] += accepted
                assert not accepted or full.legal, (position, dice, moves)
                assert_same(engine.check(position, dice, moves), full, f"{position} {dice} {moves}")
    assert counts["illegal"] and counts["accepted"] == counts["legal"]


@pytest.mark.parametrize("position, dice, play, leaving", [
    # the first 6-6: two checkers leave the head, and the opponent's head on 12 stops both on 18
    ("long w 24x15 24x15", (6, 6), "24/18(2)", 2),
    # Black's first 5-5 lets one checker leave the head, and White's checker on 16 (Black's 4) stops it on 9
    ("long b 24x14,16 24x15", (5, 5), "24/19 19/14 14/9", 1),
])
def test_long_nardy_doubles_that_stop_short_are_proved_maximal_by_the_count(position: str, dice: tuple[int, int],
                                                                            play: str, leaving: int) -> None:
    """Long nardy's doubles are four steps in order: the count that proves a cascade's stop proves
    theirs too, before any search."""
    rules, start, moves = Rules.preset("long"), Position.parse(position), parse_play(play)
    engine, quick = Engine(rules), QuickCheck(rules)
    verdict = engine.check(start, dice, moves)
    assert verdict.play is not None and verdict.legal and verdict == engine.judge(start, dice, moves)
    steps = verdict.play.steps
    opposite = VARIANTS["long"].opposite
    theirs = start.board(other(start.turn))
    me, opp = list(start.board(start.turn)), list(theirs)
    # as the fast check makes it under long nardy's rules: no hits, a head, standard bear-off, block=step
    board = _Board(me, opp, opposite, False, True, me[HEAD] - leaving, HEAD, False, True, opponent_lowest(theirs))
    assert _out_of_reach(board, _free_points(opp, opposite), 0, len(steps) + 1, (dice[0],) * 4, 0)
    assert quick(start, dice, moves) is not None
    shorter = steps_to_moves(steps[:-1])  # one step less is not the longest play
    finding = engine.check(start, dice, shorter).finding
    assert quick(start, dice, shorter) is None and finding is not None and finding.code == "not-maximal"


@pytest.mark.parametrize("position, die, goal, proved", [
    # 18/12 lands on the opponent's head and 6/off waits for all checkers home, though the pips (24) are
    # those of the whole 6-6 cascade: bearing off all would take all four steps, so no step is the goal
    ("gulbara w 18,6 24x15", 6, 1, True),
    # from generated games: 22 steps played, and the 84 pips are the whole 1-1 cascade's, so bearing off
    # all takes 24 steps, more than the goal of 23
    ("gulbara b 15x2,6,2x3,1x9 20,16,11x2,8,4x2,2x2,1x6", 1, 23, True),
    # 12/6 6/off bears off the last checker after two steps, before the goal of three: not proved
    ("gulbara w 12 1x15", 6, 3, False),
])
def test_a_stop_is_proved_when_bearing_off_all_takes_the_goal_steps(position: str, die: int, goal: int,
                                                                  proved: bool) -> None:
    """All checkers borne off in as many steps as the goal or more is a play of the goal's steps: only
    bearing off all in fewer is left to disprove (the proof once gave up whenever the pips were those of
    a beginning of the cascade)."""
    start = Position.parse(position)
    opposite = VARIANTS["gulbara"].opposite
    me, opp = list(start.board(start.turn)), list(start.board(other(start.turn)))
    board = _Board(me, opp, opposite, False, True, me[HEAD] - 1, HEAD, True, True, opponent_lowest(tuple(opp)))
    sequence = cascade_steps(die, 4)
    assert _out_of_reach(board, _free_points(opp, opposite), 0, goal, sequence, 0) == proved
    assert _Search(goal - 1, sequence, True, board, False, -1).deeper(0) != proved


@pytest.mark.parametrize("free, pips, short", [
    (~(1 << 16), 8, False),  # 20/16 is blocked: the checkers on 20 stay, the one on 13 goes 13/9/5
    (~(1 << 16), 9, True),
    (-1, 24, False),  # each goes 8 pips
    (-1, 25, True),
    (~(1 << 12), 16, False),  # 16/12 is blocked: the checkers on 20 go 4 pips each
    (~(1 << 12), 17, True),
])
def test_checkers_short_of_pips_even_each_as_far_as_it_can(free: int, pips: int, short: bool) -> None:
    """Two checkers on 20 and one on 13, with two steps of 4."""
    assert _short_of_pips([20, 13], [2, 1], (4, 4), free & ~1, pips) == short


@pytest.mark.parametrize("ends, rest, home", [
    ([{0: 1 << 9}, {0: 1 << 5 | 1 << 3}], (), False),  # the checker on 9 cannot be home
    ([{0: 1 << 9, 1: 1 << 4}, {0: 1 << 5 | 1 << 3}], (4, 3), True),
    ([{0: 1 << 9, 1: 1 << 4}, {0: 1 << 5 | 1 << 3}], (4, 3, 3), True),  # the first kind on 4, the second on 3
    ([{0: 1 << 9, 1: 1 << 4}, {0: 1 << 5 | 1 << 3}], (4, 4, 3), False),  # only one can stand on 4
    ([{0: 1 << 9, 1: 1 << 4}, {0: 1 << 5 | 1 << 3}], (3, 3, 3), False),  # only two can stand on 3
    ([{0: 1 << 4}, {0: 1 << 4}], (4, 4, 4), True),
    ([{0: 1 << 4}, {0: 1 << 4}], (4, 4, 4, 5), False),  # nobody reaches 5
])
def test_checkers_may_all_be_home_by_where_they_reach(ends: list[dict[int, int]], rest: tuple[int, ...],
                                                     home: bool) -> None:
    """One checker of the first kind and two of the second, each kind reaching the points of its keys;
    a checker must stand on the point of each step of ``rest`` (Hall's condition)."""
    assert _may_all_be_home([1, 2], ends, rest) == home


def test_a_step_that_reaches_no_new_point_gives_the_same_points_back() -> None:
    """:func:`_moved` gives back its own dict when the step reaches no new point, and otherwise a new one,
    the one given unchanged: the cascade's proof keeps each step's dicts."""
    by_key = {0: 1 << 9 | 1 << 5, 1: 1 << 4}
    free = sum(1 << point for point in range(2, 25))  # the 1-point held by the opponent
    assert _moved(by_key, 4, 0, free, -1) is by_key  # 9/5 is there already, 5/1 is held, 4/0 is no point
    assert _moved(by_key, 4, 1, free, -1) == {0: 1 << 9 | 1 << 5, 1: 1 << 5 | 1 << 4}  # 9/5 counted
    assert _moved(by_key, 3, 0, free, -1) == {0: 1 << 9 | 1 << 6 | 1 << 5 | 1 << 2, 1: 1 << 4}
    assert _moved(by_key, 4, 0, free, 1 << 9) == {0: 1 << 5}  # played from 9 only
    assert by_key == {0: 1 << 9 | 1 << 5, 1: 1 << 4}


@pytest.mark.parametrize("pips, made", [(0, True), (2, True), (3, False), (4, True), (6, True), (7, False),
                                        (9, True), (10, False)])
def test_first_steps_of_a_sequence_make_pips(pips: int, made: bool) -> None:
    assert _first_steps_make((1, 1, 2, 2, 3), pips) == made


def test_legs_are_not_followed_when_their_pips_are_no_sum_of_the_first_steps() -> None:
    """24/20 is four pips: the 3-3 cascade's first steps make 3, 6, 9... (the full path judges it)."""
    start = Position.start("gulbara")
    opposite = VARIANTS["gulbara"].opposite
    me, opp = list(start.board(start.turn)), list(start.board(other(start.turn)))
    board = _Board(me, opp, opposite, False, True, me[HEAD] - 2, HEAD, True, True, opponent_lowest(tuple(opp)))
    assert not _follow([(24, 20)], cascade_steps(3, 4), board)
    assert _follow([(24, 18)], cascade_steps(3, 4), board) and len(board.steps) == 2


@pytest.mark.parametrize("counts, options, pips, key, fields, adds_up", [
    ([2], [[(0, 0), (0, 3)]], 6, 0, 0, True),
    ([2], [[(0, 0), (0, 3)]], 7, 0, 0, False),  # more pips than the checkers can move at most
    ([1, 1], [[(0, 0), (0, 1)], [(0, 5)]], 5, 0, 0, True),
    ([1, 1], [[(0, 0), (0, 1)], [(0, 5)]], 4, 0, 0, False),  # the second checker moves 5
    ([3, 1], [[(0, 0)], [(0, 4)]], 4, 0, 0, True),  # the first kind settles after one checker
    ([3, 1], [[(0, 0)], [(1, 2)]], 2, 1, 1, True),
    ([3, 1], [[(0, 0)], [(1, 2)]], 2, 0, 1, False),  # the last checker's key is counted
    ([2, 1], [[(0, 1), (1, 3)], [(0, 2)]], 6, 1, 1, True),  # 1 + 3 + 2, one key of 1
    ([2, 1], [[(0, 1), (1, 3)], [(0, 2)]], 6, 2, 1, False),  # 3 + 3 + 2 moves 8
    # two keys after the first checker, one at the end: the last checker is added from the end
    ([1, 1, 1], [[(0, 0), (1, 2)], [(0, 1)], [(0, 3), (1, 5)]], 6, 1, 1, True),  # 2 + 1 + 3 or 0 + 1 + 5
    ([1, 1, 1], [[(0, 0), (1, 2)], [(0, 1)], [(0, 3), (1, 5)]], 4, 1, 1, False),  # 4 pips only with no key
    ([1, 1, 1], [[(0, 0), (1, 2)], [(0, 1)], [(0, 3), (1, 5)]], 8, 2, 1, True),  # 2 + 1 + 5
    ([1, 1, 1], [[(0, 0), (1, 2)], [(0, 1)], [(0, 3), (1, 5)]], 7, 2, 1, False),
])
def test_checkers_add_up_to_pips_and_keys(counts: list[int], options: list[list[tuple[int, int]]], pips: int,
                                          key: int, fields: int, adds_up: bool) -> None:
    assert _adds_up(counts, options, pips, key, fields) == adds_up


def test_checkers_add_up_as_every_choice_of_theirs_does() -> None:
    """:func:`_adds_up` against trying every checker's every option, on small random cases."""
    rng = random.Random(7)
    for _ in range(3_000):
        fields = rng.randint(0, 2)
        kinds = rng.randint(1, 3)
        counts = [rng.randint(0, 3) for _ in range(kinds)]
        options = [[(sum(rng.randint(0, 2) << (_FIELD * field) for field in range(fields)), rng.randint(0, 9))
                    for _ in range(rng.randint(0, 4))] for _ in range(kinds)]
        checkers = [kind for kind, count in enumerate(counts) for _ in range(count)]
        reached = {(sum(step_key for step_key, _ in choice), sum(move for _, move in choice))
                   for choice in product(*(options[kind] for kind in checkers))}
        key = sum(rng.randint(0, 4) << (_FIELD * field) for field in range(fields))
        for pips in range(0, 20):
            assert _adds_up(counts, options, pips, key, fields) == ((key, pips) in reached), (counts, options, pips)


def test_dice_paths_are_kept_by_a_key_of_their_own() -> None:
    """Every distance, edge and dice a check can meet has its own key, and the paths kept are
    those found anew; dice beyond the key's digits are found, not kept."""
    dice_sets = {dice for length in range(5) for dice in product(range(1, 7), repeat=length)}
    keys: dict[int, tuple[int, bool, tuple[int, ...]]] = {}
    for distance in range(-25, 26):
        for to_off in (False, True):
            for dice in dice_sets:
                key = _paths_key(distance, to_off, dice)
                assert keys.setdefault(key, (distance, to_off, dice)) == (distance, to_off, dice)
                if abs(distance) < 8 and len(dice) <= 3:
                    assert dice_paths(distance, to_off, dice) == _find_paths(distance, to_off, dice)
    assert _paths_key(40, False, (6, 5)) == _paths_key(3, False, (8,)) == -1
    assert dice_paths(3, False, (8, 0)) == _find_paths(3, False, (8, 0)) == []
    assert dice_paths(8, False, (5, 3)) == [((5, 3), ()), ((3, 5), ())]


def test_a_leg_of_one_die_takes_the_first_path_of_its_dice() -> None:
    """The first of a leg's paths, when one die makes it, is found without them: the first die
    that reaches (or bears off past the edge) with the rest of the dice left."""
    for distance in range(-2, 26):
        for to_off in (False, True):
            for dice in {dice for length in range(1, 5) for dice in product(range(1, 7), repeat=length)}:
                index = _single_die(distance, to_off, dice)
                paths = dice_paths(distance, to_off, dice)
                first = paths[0] if paths and len(paths[0][0]) == 1 else None
                assert (index >= 0) == (first is not None), (distance, to_off, dice)
                if first is not None:
                    assert ((dice[index],), dice[:index] + dice[index + 1:]) == first


def test_preferred_paths_put_those_that_do_not_hit_on_the_way_first() -> None:
    """A stable sort by (dice, hits on the way), as GNU Backgammon expands ``13/7``, on random
    boards of the opponent."""
    rng = random.Random(5)
    opposite = VARIANTS["short"].opposite
    for _ in range(3000):
        opp = [rng.choice((0, 0, 1, 1, 2)) for _ in range(26)]
        src = rng.randint(2, 25)
        dice = tuple(rng.randint(1, 6) for _ in range(rng.choice((2, 4))))
        paths = dice_paths(rng.randint(1, src), rng.random() < 0.2, dice)
        ranks = [(len(path), _hits_on_the_way(opp, opposite, src, path)) for path, _ in paths]
        assert preferred_paths(opp, opposite, src, paths) == [
            entry for _, entry in sorted(zip(ranks, paths), key=lambda pair: pair[0])]


def _hits_on_the_way(opp: list[int], opposite: tuple[int, ...], src: int, path: tuple[int, ...]) -> bool:
    """Whether a checker from ``src`` stops on a blot of the opponent before the last die of ``path``."""
    points = [src - sum(path[:count]) for count in range(1, len(path))]
    return any(point > 0 and opp[opposite[point]] == 1 for point in points)


def test_steps_are_built_once_and_shared() -> None:
    step = step_of(13, 7, 6, True)
    assert type(step) is Step and step == Step(13, 7, 6, True) and step.hit is True
    assert step_of(13, 7, 6, True) is step
    assert step_of(13, 7, 6, False) == Step(13, 7, 6, False) and step_of(13, 7, 6, False).hit is False
    assert step_of(25, 0, 6, False) == (25, 0, 6, False)  # bar to off: the corners of the table
    assert step_of(30, 24, 6, False) == Step(30, 24, 6, False)  # outside the table: built, not kept
