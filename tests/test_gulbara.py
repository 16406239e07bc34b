"""Crazy nardy (gulbara): cascades, passed steps and exact bear-off, hand-checked and as properties."""
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from nardy_cli.analysis.selfplay import play_game
from nardy_cli.cli.main import cli
from nardy_cli.core.engine import Engine
from nardy_cli.core.moves import parse_play
from nardy_cli.core.position import CHECKERS, Position
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import other
from nardy_cli.core.variants import VARIANTS, cascade_steps
from nardy_cli.notations import jsonl, ntn
from nardy_cli.record import Action, GameRecord
from nardy_cli.replay import replay


def engine(options: str = "") -> Engine:
    return Engine(Rules.parse(f"gulbara {options}"))


def plays(position: str, dice, options: str = "", passed=None) -> list[tuple[str, tuple[int, ...], str]]:
    found = engine(options).legal_plays(Position.parse(position), dice, passed)
    return sorted((str(play), play.passed, str(play.position)) for play in found)


def check(position: str, dice, play: str, options: str = "", passed=None):
    return engine(options).check(Position.parse(position), dice, parse_play(play), passed)


def game(text: str) -> GameRecord:
    [record] = ntn.read_games(text.splitlines(True))
    return record


def findings(text: str) -> list[str]:
    return [f"{f.line}:{f.column} {f}" for f in replay(game(text)).findings]


# --- the variant table -----------------------------------------------------------------------

def test_gulbara_is_long_nardy_with_cascades_and_its_options():
    long, crazy = VARIANTS["long"], VARIANTS["gulbara"]
    assert (crazy.start, crazy.opposite, crazy.hits, crazy.head, crazy.six_block) == \
           (long.start, long.opposite, long.hits, long.head, long.six_block)
    assert crazy.cascade and not long.cascade and not VARIANTS["short"].cascade
    assert str(Rules.preset("gulbara")) == ("gulbara opening=reroll head=classic block=step last_roll=off "
                                            "scoring=oin-mars cube=off cascade=four bearoff=exact")
    assert Rules.parse("gulbara cascade=two bearoff=standard").differences() == "cascade=two bearoff=standard"
    with pytest.raises(ValueError, match="rule option 'cascade' does not exist in long nardy"):
        Rules.parse("long cascade=two")
    assert str(Position.start("gulbara")) == "gulbara w 24x15 24x15"


def test_cascade_sequences_under_both_values_of_cascade():
    assert cascade_steps(4, 4) == (4,) * 4 + (5,) * 4 + (6,) * 4
    assert cascade_steps(4, 2) == (4, 4, 5, 5, 6, 6)
    assert cascade_steps(6, 4) == (6,) * 4
    start = Position.start("gulbara")
    assert engine().steps(start, (1, 1)) == cascade_steps(1, 4) and len(cascade_steps(1, 4)) == 24
    assert engine("cascade=two").steps(start, (6, 6)) == (6, 6)
    assert engine().steps(start, (6, 3)) == (6, 3)  # a non-double is played as in long nardy


# --- cascades, hand-checked ------------------------------------------------------------------

def test_first_turn_six_six_passes_two_sixes_and_the_opponent_keeps_its_first_turn():
    # head=classic: two checkers leave the head; 18/12 is Black's head, so two sixes pass
    assert plays("gulbara w 24x15 24x15", (6, 6)) == [("24/18(2)", (6, 6), "gulbara b 24x13,18x2 24x15")]
    # Black plays them with one checker from the head at most (18/12 is White's head): one is lost,
    # Black still rolls its own first turn (first-turn field b kept) and is still to move
    assert plays("gulbara b 24x13,18x2 24x15", (6, 6), passed=(6, 6)) == [
        ("24/18", (), "gulbara b 24x13,18x2 24x14,18 b")]


def test_a_cascade_that_passes_after_its_first_step():
    # 5-5: 24/19, then 19/14 is held by Black (Black's 2) and the head is used: 3×5 4×6 pass
    assert plays("gulbara w 24x15 24x14,2 -", (5, 5)) == [
        ("24/19", (5, 5, 5, 6, 6, 6, 6), "gulbara b 24x14,19 24x14,2")]
    assert plays("gulbara b 24x14,19 24x14,2 -", (5, 5), passed=(5, 5, 5, 6, 6, 6, 6)) == [
        ("24/19 19/14 14/9 9/3", (), "gulbara b 24x14,19 24x13,3,2")]


def test_a_cascade_that_passes_at_the_fives():
    # 4-4: 24/20/16 and 10/6/2 are the four 4s; 16/11 lands on Black's 23, 2 cannot bear off
    assert plays("gulbara w 24x14,10 24x14,23 -", (4, 4)) == [
        ("24/20 20/16 10/6 6/2", (5,) * 4 + (6,) * 4, "gulbara b 24x13,16,2 24x14,23")]
    verdict = check("gulbara w 24x14,10 24x14,23 -", (4, 4), "24/20/16 10/6/2")
    assert verdict.legal and verdict.passed == (5,) * 4 + (6,) * 4


def test_four_against_two_steps_per_value():
    assert len(plays("gulbara w 24x15 24x15", (4, 4), "cascade=two")) == 7
    assert ("24/20(2) 20/15(2) 15/9(2)", (), "gulbara b 24x13,9x2 24x15") in \
        plays("gulbara w 24x15 24x15", (4, 4), "cascade=two")
    assert plays("gulbara w 24x15 24x15", (4, 4)) == [
        ("24/20(2) 20/16(2) 16/11(2) 11/6 11/5 6/1", (6, 6, 6), "gulbara b 24x13,5,1 24x15")]
    # 1-1 under two: 1 1 2 2 3, then 15/12 is Black's head: 3 4 4 5 5 6 6 pass
    assert plays("gulbara w 24x15 24x15", (1, 1), "cascade=two") == [
        ("24/23 23/22 22/20 20/18 18/15", (3, 4, 4, 5, 5, 6, 6), "gulbara b 24x14,15 24x15")]


def test_bear_off_during_a_cascade_exact_and_standard():
    position = "gulbara w 10,6x4,5x4,4x3,3x2,1 24x15 -"
    # exact: 10/6 comes home, then 4s bear off only from 4, 5s from 5, 6s from 6
    assert plays(position, (4, 4)) == [("10/6 6/off(4) 5/off(4) 4/off(3)", (), "gulbara b 6,3x2,1 24x15 -")]
    standard = plays(position, (4, 4), "bearoff=standard")
    assert len(standard) == 12 and all(not passed for _, passed, _ in standard)


def test_a_game_won_inside_a_cascade_passes_nothing():
    [(play, passed, after)] = plays("gulbara w 6x2,5x4,4x4 24x15 -", (4, 4))
    assert (play, passed, after) == ("6/off(2) 5/off(4) 4/off(4)", (), "gulbara b - 24x15 -")
    assert Position.parse(after).winner() == "w"
    verdict = check("gulbara w 6x2,5x4,4x4 24x15 -", (4, 4), "4/off(4) 5/off(4) 6/off(2)")
    assert verdict.legal and verdict.passed == ()


def test_exact_bear_off_on_an_ordinary_roll():
    assert plays("gulbara w 5x2,3 24x15 -", (6, 4)) == [("-", (), "gulbara b 5x2,3 24x15 -")]
    assert plays("gulbara w 5x2,3 24x15 -", (6, 4), "bearoff=standard") == [
        ("5/1 5/off", (), "gulbara b 3,1 24x15 -")]
    assert str(check("gulbara w 5x2,3 24x15 -", (6, 4), "5/off 5/1").finding) == (
        "bear-off: White bears off from 5 with a 6: only a checker on 6 may be borne off with it (bearoff=exact)")
    assert str(check("gulbara w 5x2,3 24x15 -", (4, 3), "5/1 3/off", "").finding).startswith(
        "bear-off: White moves 5/1 inside the home once all checkers are home (bearoff=exact)")
    # before all checkers are home, moves inside the home are allowed even under exact
    assert check("gulbara w 8,5x2,3x2,2x10 24x15 -", (3, 2), "8/5 5/3").legal


def test_head_rule_over_the_whole_cascade_and_the_first_turn_exception():
    # 3-3 on the first turn (head=classic): two checkers leave the head over all 16 steps, no third
    for play, passed, _ in plays("gulbara w 24x15 24x15", (3, 3)):
        assert play.startswith("24/21(2)") and passed == (5, 6, 6, 6, 6)
    # 2-2 gives no exception: one checker from the head plays the whole cascade it can
    assert plays("gulbara w 24x15 24x15", (2, 2))[0][1] == (4,) * 4 + (5,) * 4 + (6,) * 4
    assert str(check("gulbara w 24x15 24x15", (2, 2), "24/22 24/22").finding) == (
        "head: two checkers left the head: 2-2 does not let a second checker leave the head (head=classic)")


@pytest.mark.parametrize("options,expected", [
    ("head=classic", [("24/19 19/14 14/9 9/4", (6, 6, 6, 6), "gulbara b 24x14,4 24x15")]),
    ("head=general", [("24/19 19/14 14/9 9/4", (6, 6, 6, 6), "gulbara b 24x14,4 24x15")]),
])
def test_first_turn_five_five_from_the_start(options, expected):
    # one checker plays all four 5s (24/19/14/9/4), so no option lets a second leave; 4 cannot bear off
    assert plays("gulbara w 24x15 24x15", (5, 5), options) == expected


def test_head_general_and_strict_judge_the_first_head_checker_on_the_rolled_double():
    position = "gulbara w 24x15 24x14,2"  # Black's 2 is White's 14: a head checker stops on 19
    assert plays(position, (5, 5), "head=general") == [
        ("24/19(2)", (5, 5, 6, 6, 6, 6), "gulbara b 24x13,19x2 24x14,2")]
    assert plays(position, (5, 5), "head=strict") == [
        ("24/19", (5, 5, 5, 6, 6, 6, 6), "gulbara b 24x14,19 24x14,2")]


def test_opening_play_forbids_a_first_cascade():
    assert findings(HEADER.replace("\n\n", '\n[Rules "opening=play"]\n\n') + "1. 66: 24/18(2) > 24/18\n*\n") == [
        "4:4 opening: the opening dice are the first roll and cannot be a double (opening=play)"]


@pytest.mark.slow
def test_validate_under_cascade_two_from_the_command_line(tmp_path):
    record = tmp_path / "crazy.ntn"
    record.write_text(HEADER + "1. 44: 24/20/15/9(2)          31: 24/23/20\n*\n", encoding="utf-8")
    four = CliRunner().invoke(cli, ["validate", str(record)])
    two = CliRunner().invoke(cli, ["validate", str(record), "--rule", "cascade=two"])
    assert "cascade-order" in four.output and four.exit_code == 1  # 30 pips: no beginning of 4×4 4×5 4×6
    assert two.exit_code == 0 and "cascade=two" in two.output


def test_six_block_applies_across_the_cascade():
    # 15/14 would make White's 19-13 seven points in a row with no Black checker ahead
    position = "gulbara w 24x8,19,18,17,16,15x2,13 24x15 -"
    for _, _, after in plays(position, (5, 5)):  # 19/14 would leave 18-13 a six-block
        white = Position.parse(after).white
        assert not all(white[p] for p in range(14, 20))
    assert str(check(position, (1, 1), "15/14").finding) == (
        "six-block: 15/14 builds six points in a row with no Black checker ahead (block=step)")
    assert str(check(position, (1, 1), "15/14", "block=turn").finding) == (
        "six-block: the play ends with six points in a row and no Black checker ahead (block=turn)")


# --- recorded cascades: findings --------------------------------------------------------------

def test_cascade_findings_name_code_and_option():
    assert str(check("gulbara w 24x14,10 24x14,23 -", (4, 4), "24/20/16 10/6").finding) == (
        "cascade-short: 3 steps of the cascade 4×4 4×5 4×6 played where 4 can be (cascade=four)")
    assert check("gulbara w 24x15 24x14,2 -", (5, 5), "24/19 24/19").finding.code == "cascade-past"
    assert check("gulbara w 13x3,24x12 24x15 -", (3, 3), "13/10/7/4 13/8").finding.code == "cascade-order"
    assert check("gulbara w 24x15 24x15", (4, 4), "24/20(2) 20/16(2) 16/11(2) 11/6 11/5 6/1").legal
    # the same steps in another written order are the same play
    assert check("gulbara w 24x15 24x15", (4, 4), "6/1 24/20 20/16(2) 16/11(2) 11/6 11/5 24/20").legal


HEADER = '[Variant "gulbara"]\n\n'


def test_passed_steps_in_a_record():
    assert findings(HEADER + "1. 66: 24/18(2) > 24/18     53: 24/19 19/16\n*\n") == []
    assert findings(HEADER + "1. 66: 24/18(2)     53: 24/19 19/16\n*\n") == [
        ("3:4 pass-missing: the steps 6 6 pass to Black, who plays none of them where one can be "
         "(write them after the roll: > moves) (cascade=four)")]
    assert findings(HEADER + "1. 63: 24/18/15 > 24/18   53: 24/19 19/16\n*\n") == [
        "3:17 pass-unexpected: Black plays passed steps, but no steps were passed to them (cascade=four)"]
    assert findings(HEADER + "1. 66: 24/18(2) > -   53: 24/19 19/16\n*\n") == [
        "3:17 cascade-short: 0 steps of the passed steps 2×6 played where 1 can be (cascade=four)"]
    assert findings(HEADER + "1. 66: 24/18(2) > 24/18 24/18   53: 24/19 19/16\n*\n")[0].split()[1] == \
        "cascade-past:"


def test_a_game_that_ends_in_the_passed_steps():
    # Black's 4-4 from the head: 24/20/16/12/8, 8/3, then nothing: 3×5 4×6 pass to White, who
    # bears off its last seven checkers in them and wins (Black kept checkers on its head: koks)
    text = ('[Variant "gulbara"]\n[Position "gulbara b 6x4,5x3 24x15 -"]\n\n'
            "1... 44: 24/20/16/12/8/3 > 5/off(3) 6/off(4)\n2-0\n")
    result = replay(game(text))
    assert result.findings == []
    assert (result.winner, result.ending, result.category, result.points) == ("w", "finish", "koks", 2)
    assert result.turns[0].passed == (5, 5, 5, 6, 6, 6, 6)


def test_ntn_round_trip_and_json_are_lossless():
    text = ('[Variant "gulbara"]\n\n1. 66: 24/18(2)  { две шестёрки } > 24/18  { одна пропала }\n'
            "1... 53: 24/19 19/16\n*\n")
    record = game(text)
    assert [(a.side, a.kind) for a in record.actions] == [("w", "roll"), ("b", "passed"), ("b", "roll")]
    assert record.actions[1].comments == ["одна пропала"]
    again = ntn.prepare(record).text
    assert again is not None
    assert next(ntn.read_games(again.splitlines(True))).actions == record.actions
    back = jsonl.game_from_dict(jsonl.game_to_dict(record))
    assert back.actions[1].kind == "passed" and back.actions[1].moves == record.actions[1].moves


@pytest.mark.slow
def test_mat_and_sgf_leave_crazy_games_out_with_a_warning_and_status_1(tmp_path):
    source = tmp_path / "g.ntn"
    source.write_text(HEADER + "1. 66: 24/18(2) > 24/18     53: 24/19 19/16\n*\n", encoding="utf-8")
    for target in ("mat", "sgf"):
        result = CliRunner().invoke(cli, ["convert", str(source), "--to", target, "-o", str(tmp_path / f"g.{target}")])
        assert "has no crazy nardy (gulbara)" in result.output, result.output
        assert result.exit_code == 1  # a game was not converted
    assert CliRunner().invoke(cli, ["convert", str(source), "--to", "jsonl"]).exit_code == 0


def test_moves_command_lists_what_passes():
    result = CliRunner().invoke(cli, ["moves", "gulbara", "66"])
    assert result.output.splitlines()[1:] == [
        "cascade: 4×6, played in this order", "24/18(2)  gulbara b 24x13,18x2 24x15  passes 2×6", "1 legal play"]
    two = CliRunner().invoke(cli, ["moves", "gulbara", "44", "--rule", "cascade=two"])
    assert "cascade: 2×4 2×5 2×6" in two.output and "7 legal plays" in two.output


# --- properties ----------------------------------------------------------------------------------

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
OPTIONS = st.sampled_from(["", "cascade=two", "bearoff=standard", "block=turn", "head=general"])
BOTS = st.sampled_from(["random", "greedy"])


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, OPTIONS, BOTS)
def test_a_generated_crazy_game_always_validates(seed, options, bot):
    record = play_game(Rules.parse(f"gulbara {options}"), random.Random(seed), bot)
    text = ntn.prepare(record).text  # as written and read back, the way a file is validated
    assert text is not None
    [read] = ntn.read_games(text.splitlines(True))
    assert [(a.side, a.kind, a.dice, a.moves) for a in read.actions] == \
        [(a.side, a.kind, a.dice, a.moves) for a in record.actions]
    result = replay(read)
    assert result.findings == [] and result.ending == "finish"
    assert result.final is not None and result.final.winner() is not None


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, OPTIONS)
def test_checkers_are_conserved_through_cascades_and_passes(seed, options):
    rules = Rules.parse(f"gulbara {options}")
    result = replay(play_game(rules, random.Random(seed), "random"))
    cascades = {turn.turn: turn for turn in result.turns}
    for turn in result.turns + result.passed_plays:
        for position in (turn.before, turn.after):
            assert sum(position.white) == sum(position.black) == CHECKERS
        passing = turn in result.passed_plays
        steps = cascades[turn.turn].passed if passing else Engine(rules).steps(turn.before, turn.dice)
        moved = turn.before.pips(turn.side) - turn.after.pips(turn.side)
        if rules.bearoff == "exact":  # no pip is wasted bearing off: played and lost make the roll
            assert moved + turn.pips_lost == sum(steps)
        assert moved + turn.pips_lost <= sum(steps)
        # passed steps leave their player to roll; a turn hands the roll over (unless it ended the game)
        assert turn.after.turn == (turn.side if passing else other(turn.side)) or turn.after.is_over()
    assert all(turn.passed == () or turn.dice[0] == turn.dice[1] for turn in result.turns)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.data())
def test_a_mutated_game_is_caught_at_its_turn(seed, data):
    record = play_game(Rules.parse("gulbara"), random.Random(seed), "random")
    played = [i for i, a in enumerate(record.actions) if a.kind in ("roll", "passed") and a.moves]
    cascades = []
    for i in played:
        dice = record.actions[i].dice
        assert dice is not None  # a roll's or a passed play's
        if dice[0] == dice[1]:
            cascades.append(i)
    index = data.draw(st.sampled_from(cascades or played), label="turn")
    action = record.actions[index]
    # leave out one move of the cascade: the play is now short, out of order or impossible
    record.actions[index] = Action(action.side, action.kind, action.dice, action.moves[:-1], number=action.number,
                                   line=1000 + index, column=4)
    result = replay(record)
    assert result.findings, "a cascade with a move left out was accepted"
    assert result.findings[0].line == 1000 + index


def test_both_bots_play_cascades_and_passes():
    for bot in ("random", "greedy"):
        kinds = [a.kind for seed in range(3)
                 for a in play_game(Rules.parse("gulbara"), random.Random(seed), bot).actions]
        assert "passed" in kinds


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.data())
def test_passed_steps_left_out_are_caught_at_their_cascade(seed, data):
    record = play_game(Rules.parse("gulbara"), random.Random(seed), "random")
    for number, action in enumerate(record.actions, 1):
        action.line, action.column = number, 4
    passed = [i for i, a in enumerate(record.actions) if a.kind == "passed" and a.moves]
    assume(passed)  # nearly every game has some: its cascades pass steps the opponent plays
    index = data.draw(st.sampled_from(passed), label="passed play")
    roll = record.actions[index - 1]
    del record.actions[index]
    findings = replay(record).findings
    assert findings[0].line == roll.line  # nothing before the cascade (a result may share the last line)
    assert ("pass-missing", roll.line) in [(finding.code, finding.line) for finding in findings]


def test_a_misplaced_passed_mark_is_a_syntax_error_and_reading_goes_on():
    record = game(HEADER + "> 24/18\n1. 66: 24/18(2) > > 24/18\n2. 44: 24/20 >\n*\n")
    assert [str(error) for error in record.errors] == [
        '3:1: expected ">" right after a roll\'s play, before the steps it passes',
        '4:17: expected the passed steps after ">": moves like 24/18, "-" when none is possible or "?"',
        '4:19: expected ">" right after a roll\'s play, before the steps it passes',
        '5:14: expected the passed steps after ">": moves like 24/18, "-" when none is possible or "?"']
    assert [(a.kind, a.dice) for a in record.actions] == [
        ("roll", (6, 6)), ("passed", (6, 6)), ("roll", (4, 4)), ("passed", (4, 4))]


def test_a_cascade_written_in_many_chained_hops_is_judged_quickly():
    # Found by the fast check's differential test: 22 hops for Black's 1-1 cascade (84 pips, all
    # 24 steps) that cannot be made hop by hop, one checker each; following them tried millions of
    # interleavings (15 s here, minutes for others) before the position was reached another way.
    # Brute force: the end position is that of one of the cascade's legal plays, all 24 steps.
    position = Position.parse("gulbara b 24x2,21,20,18x5,16,4,2,1x3 24x2,21,19,11,5x5,3x3,2,1")
    moves = parse_play("3/1 10/5 2/1 15/10 18/15 3/1 17/11 7/2 21/11 3/1 19/18 5/1 11/5 5/3 5/2 5/2 "
                       "23/17 7/1 24/23 11/7 5/2 11/7")
    rules = engine("block=turn cascade=four bearoff=standard")
    verdict = rules.judge(position, (1, 1), moves)
    assert verdict.legal and verdict.passed == ()
    assert str(verdict.position) == "gulbara w 24x2,21,20,18x5,16,4,2,1x3 24,5x2,3,2x4,1x7"
    assert verdict.position in [play.position for play in rules.legal_plays(position, (1, 1))]
    assert verdict.play is not None and [step.die for step in verdict.play.steps] == list(cascade_steps(1, 4))


def test_a_cascade_written_with_more_pips_than_it_has_is_judged_without_a_search():
    # Found by the same test: 85 pips written for a 1-1 cascade of 84; no beginning of the cascade
    # takes 85 pips, so no play can end where the moves do — searching for one took 30 s.
    position = Position.parse("gulbara w 18x5,12,7x2,6,5,4,3x2,1x2 1x4")
    moves = parse_play("18/17 7/6 18/17 5/4 17/15 12/10 17/15 3/1 4/1 10/7 15/12 12/9 6/2 6/2 15/11 7/3 9/4 7/1 "
                       "11/6 6/1 18/12 18/12 12/6 18/12")
    verdict = engine("head=general block=off cascade=four bearoff=standard").judge(position, (1, 1), moves)
    assert sum(move.path[0] - move.path[-1] for move in moves) == 85 == sum(cascade_steps(1, 4)) + 1
    assert verdict.finding is not None
    assert verdict.finding.code == "dice" and verdict.finding.message.startswith("the moves take 85 pips")
    assert str(verdict.position) == "gulbara b 12x2,6,4x2,3x2,2x2,1x6 1x4" and verdict.passed == ()
