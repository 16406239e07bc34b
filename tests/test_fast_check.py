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

import pytest

from nardy_cli.core.engine import Engine, Play, Verdict, steps_to_moves
from nardy_cli.core.fast_check import QuickCheck
from nardy_cli.core.moves import Move
from nardy_cli.core.position import Position
from nardy_cli.core.rules import OPTIONS, Rules
from nardy_cli.core.sides import BAR, OFF
from nardy_cli.core.variants import HEAD

GAMES = ("long", "short", "gulbara")
ENGINE_OPTIONS = ("head", "block", "cascade", "bearoff")  # the options the engine's verdicts depend on


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
        position = Position.start(variant, rng.choice("wb"))
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
    """An illegal play, and the head exception of a first double, go to the full path."""
    start = Position.start("long")
    assert QuickCheck(Rules.preset("long"))(start, (6, 5), (Move((24, 18)), Move((24, 19)))) is None  # head
    assert QuickCheck(Rules.preset("long"))(start, (6, 6), (Move((24, 18)), Move((24, 18)))) is None  # first turn
    assert QuickCheck(Rules.preset("long"))(start, (6, 5), (Move((24, 13)),)) is not None
