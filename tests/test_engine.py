"""Hand-checked positions for every rule and every rule option of both games."""
import pytest

from nardy_cli.core.engine import Engine, FindingStep, Outcome, game_outcome, outcome_category
from nardy_cli.core.moves import parse_play
from nardy_cli.core.position import Position
from nardy_cli.core.rules import Rules


def plays(position: str, dice: tuple[int, int], rules: str = "") -> list[str]:
    start = Position.parse(position)
    engine = Engine(Rules.parse(f"{start.variant} {rules}"))
    return sorted(str(play) for play in engine.legal_plays(start, dice))


def verdict(position: str, dice: tuple[int, int], play: str, rules: str = ""):
    start = Position.parse(position)
    return Engine(Rules.parse(f"{start.variant} {rules}")).check(start, dice, parse_play(play))


def finding(position: str, dice: tuple[int, int], play: str, rules: str = "") -> str | None:
    found = verdict(position, dice, play, rules).finding
    return None if found is None else str(found)


def finished(rules: Rules, position: Position, *, money: bool = False) -> Outcome:
    """The outcome of a game that is over (game_outcome gives None before)."""
    outcome = game_outcome(rules, position, money=money)
    assert outcome is not None
    return outcome


LONG_START = "long w 24x15 24x15"
SHORT_START = "short w 24x2,13x5,8x3,6x5 24x2,13x5,8x3,6x5"
HEADS = ["head=classic", "head=general", "head=strict"]


# --- long nardy: the head rule and its first-turn exception ---------------------------------

@pytest.mark.parametrize("head", HEADS)
def test_first_turn_six_six_two_checkers_to_18_other_sixes_lost(head):
    assert plays(LONG_START, (6, 6), head) == ["24/18(2)"]


@pytest.mark.parametrize("head", HEADS)
def test_first_turn_four_four_two_checkers_to_16(head):
    assert plays(LONG_START, (4, 4), head) == ["24/20(2) 20/16(2)"]


@pytest.mark.parametrize("head", HEADS)
def test_first_turn_three_three_two_checkers(head):
    assert plays(LONG_START, (3, 3), head) == ["24/21(2) 21/18 18/15", "24/21(2) 21/18(2)"]


@pytest.mark.parametrize("head", HEADS)
def test_first_turn_five_five_one_checker_runs(head):
    assert plays(LONG_START, (5, 5), head) == ["24/19 19/14 14/9 9/4"]


def test_first_turn_second_checker_named_with_its_option():
    assert finding(LONG_START, (5, 5), "24/14 24/14") == (
        "head: two checkers left the head: 5-5 does not let a second checker leave the head (head=classic)")
    assert finding(LONG_START, (6, 3), "24/18 24/21") == (
        "head: two checkers left the head: only one checker may leave the head per turn (head=classic)")


# Black's first turn after White's 5-5 (White's checker on White's 4 = Black's 16):
# seed 001's note — Black's 4-4 takes one checker and plays one four under head=strict.
AFTER_WHITE_55 = "long b 24x14,4 24x15"


def test_black_four_four_after_white_five_five_by_head_option():
    assert plays(AFTER_WHITE_55, (4, 4), "head=classic") == ["24/20(2)"]
    assert plays(AFTER_WHITE_55, (4, 4), "head=strict") == ["24/20"]
    assert plays(AFTER_WHITE_55, (4, 4), "head=general") == ["24/20(2)"]
    strict = finding(AFTER_WHITE_55, (4, 4), "24/20(2)", "head=strict")
    assert strict is not None and strict.endswith("(head=strict)")


# White's 6-2 played 24/16 stands on Black's 4: Black's 5-5 from the head is stopped there.
AFTER_WHITE_62 = "long b 24x14,16 24x15"


def test_general_head_lets_any_stopped_double_take_two():
    assert plays(AFTER_WHITE_62, (5, 5), "head=classic") == ["24/19 19/14 14/9"]
    assert plays(AFTER_WHITE_62, (5, 5), "head=strict") == ["24/19 19/14 14/9"]
    general = plays(AFTER_WHITE_62, (5, 5), "head=general")
    assert "24/19(2) 19/14 14/9" in general and all(p.count("24/19") == 1 or "(2)" in p for p in general)
    assert len(general) == 2


def test_head_rule_after_the_first_turn():
    # one six from the head; 18/12 lands on Black's head; 15/9/3 runs; the fourth six is lost
    assert plays("long w 24x13,18,15 24x14,20", (6, 6)) == ["24/18 15/9 9/3"]
    head = finding("long w 24x13,18,15 24x14,20", (6, 6), "24/18(2) 18/12(2)")
    assert head is not None and head.startswith("head:")


def test_first_turn_field_in_position():
    # the same board, but White already made its first turn: no exception
    assert plays("long w 24x15 24x15 b", (6, 6)) == ["24/18"]


# --- long nardy: landing, the six-block rule ---------------------------------------------

def test_no_landing_on_any_opponent_checker():
    # Black's head (Black 24) is White's 12
    assert finding("long w 24x14,18 24x15 -", (6, 1), "18/12 24/23") == \
        "blocked: 18/12: point 12 is held by Black"


BLOCK_IN_PASSING = "long w 19,17x2,16x2,15x2,14x2,13x2,1x4 24x15 -"


def test_six_block_in_passing_depends_on_block_option():
    assert finding(BLOCK_IN_PASSING, (1, 1), "19/15") == (
        "six-block: 19/18 builds six points in a row with no Black checker ahead (block=step)")
    assert finding(BLOCK_IN_PASSING, (1, 1), "19/15", "block=turn") is None
    assert finding(BLOCK_IN_PASSING, (1, 1), "19/15", "block=off") is None


def test_six_block_order_free_when_another_order_is_legal():
    # 17/16 first leaves 17 empty, so 19/18 builds no block: the record is legal under block=step
    assert finding("long w 19,17,16,15,14,13x10 24x15 -", (1, 1), "19/15") is None


def test_six_block_at_the_end_of_the_turn():
    position = "long w 20,17,16,15,14,13x10 24x15 -"
    assert finding(position, (2, 1), "20/18 15/14", "block=turn") is None  # broken again
    assert finding(position, (2, 1), "20/18 14/13", "block=turn") is None
    assert finding(position, (2, 1), "20/18 13/12", "block=turn") == "blocked: 13/12: point 12 is held by Black"
    no_checker = finding(position, (2, 1), "20/18 20/19", "block=turn")
    assert no_checker is not None and no_checker.startswith("no-checker")
    turn_block = finding("long w 20,19,17,16,15,14,13x9 24x15 -", (2, 1), "20/18 19/18", "block=turn")
    assert turn_block == ("six-block: the play ends with six points in a row and no Black checker ahead "
                          "(block=turn)")


def test_six_block_allowed_with_an_opponent_checker_ahead():
    # White's 18..13 are Black's 6..1: a Black checker ahead must be borne off
    # White 24..19 are Black 12..7; a Black checker on its 3 (White's 15) is ahead of them
    assert finding("long w 24x5,23,22,21,20x2,1x5 24x14,3 -", (5, 1), "24/19 20/19") is None
    assert finding("long w 24x5,23,22,21,20x2,1x5 24x15 -", (5, 1), "24/19 20/19") == (
        "six-block: 24/19 builds six points in a row with no Black checker ahead (block=step)")


def test_six_block_running_from_2_through_1_to_23():
    # White's 3,2,1 and 24,23 are consecutive on Black's route; landing on 22 makes six
    position = "long w 24x3,23x2,20,3x3,2x3,1x3 24x15 -"
    assert finding(position, (2, 1), "24/22 20/19") == (
        "six-block: 24/22 builds six points in a row with no Black checker ahead (block=step)")
    # with a Black checker beyond the block (Black's 9 = White's 21), the same play is legal
    assert finding("long w 24x3,23x2,20,3x3,2x3,1x3 24x14,9 -", (2, 1), "24/22 20/19") is None


def test_six_block_legal_once_opponent_bore_off():
    # Black has borne one off (an artificial board): the block through 18..13 is legal
    assert finding("long w 19,17x2,16x2,15x2,14x2,13x2,1x4 24x14 -", (1, 1), "19/15") is None


# --- both games: bearing off, dice use -----------------------------------------------------

def test_bear_off_with_higher_die_from_the_highest_point():
    assert plays("long w 5x2,3 24x15 -", (6, 4)) == ["5/1 5/off"]
    assert finding("long w 5x2,3 24x15 -", (6, 4), "5/off 3/off") == (
        "bear-off: White bears off from 3 with a 4 while a checker stands higher")
    assert plays("long w 5,3 24x15 -", (4, 1)) == ["5/1 1/off", "5/1 3/2"]
    assert finding("long w 5,3 24x15 -", (4, 1), "3/off 5/4") == (
        "bear-off: White bears off from 3 with a 4 while a checker stands higher")


def test_bear_off_only_when_all_home():
    assert finding("long w 7,3x2 24x15 -", (3, 1), "3/off 3/2") == (
        "bear-off: White bears off from 3 before all checkers are home")
    assert finding("long w 7,3x2 24x15 -", (3, 1), "3/off 7/6") is None  # 7/6 first brings all home


def test_not_maximal_and_higher_die():
    # short: one checker on 13; Black holds White's 2, so 6-5 plays only one die — the 6
    position = "short w 13 23x2,6x13"
    assert plays(position, (6, 5)) == ["13/7"]
    assert finding(position, (6, 5), "13/8") == "higher-die: only one die can be played and the 6 must be"
    assert finding(SHORT_START, (3, 1), "8/5") == "not-maximal: 1 die played where 2 can be"
    assert finding(SHORT_START, (3, 1), "-") == "not-maximal: no die played where 2 can be"


def test_dice_and_no_checker_findings():
    assert finding(SHORT_START, (6, 3), "24/18 18/14") == \
        "dice: 18/14 cannot be played with the dice left (3) of the roll 63"
    assert finding(SHORT_START, (6, 3), "24/18 13/10 8/5") == "dice: 3 moves for a roll of 63"
    assert finding(SHORT_START, (6, 3), "22/16 13/10") == "no-checker: White has no checker on 22"


def test_findings_carry_the_step_their_message_names():
    assert verdict(SHORT_START, (6, 3), "24/18 18/14").finding.step == FindingStep(18, 14)  # a move no die fits
    assert verdict(SHORT_START, (6, 1), "8/1").finding.step == FindingStep(2, 1, 1, 1)  # 8/2, then 1 is held
    # the order that got furthest plays 24/18 24/18 13/7 first: 18/12 is its fourth step
    assert verdict(SHORT_START, (6, 6), "24/18 24/18 18/12 13/7").finding.step == FindingStep(18, 12, 6, 3)
    assert verdict(SHORT_START, (6, 3), "22/16 13/10").finding.step is None  # no checker on 22: no step named
    assert verdict("short w bar,13x14 24x2,6x12,4", (4, 1), "13/9 13/12").finding.step is None


def test_chained_moves_expand_avoiding_intermediate_hits():
    v = verdict("short w 13x15 19,14", (4, 2), "13/7")  # Black blot on White's 11 (Black 14)
    assert v.legal and [str(s) for s in v.play.steps] == ["13/9", "9/7"]
    assert verdict(SHORT_START, (6, 6), "24/18(2) 13/7(2)").legal
    assert verdict(SHORT_START, (6, 6), "24/12(2)").finding.code == "blocked"


# --- short nardy: bar and hits ------------------------------------------------------------

def test_bar_entry_and_hit():
    position = "short w bar,13x14 24x2,6x12,4"  # Black blot on its 4 = White's 21
    result = plays(position, (4, 1))
    assert "bar/21* 13/12" in result and all(p.startswith("bar/") for p in result)
    assert finding(position, (4, 1), "13/9 13/12") == (
        "bar: White must enter the checker on the bar before moving 13")
    v = verdict(position, (4, 1), "bar/21* 21/20")
    assert v.legal and v.position.black[25] == 1 and v.position.white[20] == 1


def test_pass_when_bar_entry_blocked():
    position = "short w bar,13x14 6x2,5x2,4x2,3x2,2x2,1x2,24x3"  # Black's home closed
    assert plays(position, (6, 5)) == ["-"]
    assert finding(position, (6, 5), "-") is None


def test_doubles_partly_playable():
    # White enters one checker with 4-4 on 21 (Black's 4 open), then 21/17 is blocked (Black's 8)
    position = "short w bar,13x14 16x2,8x2,6x3,5x2,3x2,2x2,1x2"  # and 13/9 is blocked (Black's 16)
    assert plays(position, (4, 4)) == ["bar/21"]
    assert finding(position, (4, 4), "bar/21") is None


def test_short_outcomes_and_points():
    rules = Rules.parse("short")
    won = Position.parse("short b - 6x15")
    assert outcome_category(won, "b") == "mars"
    assert finished(rules, won).points == 2
    backgammon = Position.parse("short b - 24,6x14")
    assert finished(rules, backgammon).category == "koks"
    assert finished(rules, backgammon).points == 3
    single = Position.parse("short b - 6x14")
    assert finished(rules, single).points == 1
    cubed = Position.parse("short b - 6x14 cube=4w")
    assert finished(rules, cubed).points == 4
    jacoby = Rules.parse("short jacoby=on")
    assert finished(jacoby, won, money=True).points == 1
    assert finished(jacoby, Position.parse("short b - 6x15 cube=2b"), money=True).points == 4


@pytest.mark.parametrize("scoring,koks,home_mars,mars", [
    ("oin-mars", 2, 2, 2), ("oin-mars-koks", 3, 2, 2), ("home-mars", 2, 3, 2)])
def test_long_scoring_schemes(scoring, koks, home_mars, mars):
    rules = Rules.parse(f"long scoring={scoring}")
    assert finished(rules, Position.parse("long b - 20,6x14 -")).points == koks
    assert finished(rules, Position.parse("long b - 6x10,1x5 -")).points == home_mars
    assert finished(rules, Position.parse("long b - 12,6x14 -")).points == mars
    assert finished(rules, Position.parse("long b - 6x14 -")).points == 1
    assert finished(rules, Position.parse("long b - 6x14 -")).category == "oin"


# --- splitting a recorded play into single-die steps (the SGF writer's question) -------------

def split(position: str, dice: tuple[int, int], play: str, rules: str = ""):
    start = Position.parse(position)
    return Engine(Rules.parse(f"{start.variant} {rules}")).split(start, dice, parse_play(play))


def test_split_lands_where_the_rules_let_the_checker_stop():
    assert split(SHORT_START, (6, 1), "13/6").paths == ((13, 7, 6),)  # White's 12 is Black's 13
    assert split("short w 24x2,13x5,8x3,6x5 24x2,21x2,13x3,8x3,6x5", (4, 1), "8/3").paths == (
        (8, 7, 3),)  # the 4 first would land on Black's 21 (White's 4)
    assert split("short w 13x15 19,14", (4, 2), "13/7").paths == ((13, 9, 7),)  # no hit on the way
    # 10/4 4/off would bear off past the checkers on 5: the 5 first
    assert split("short w 10,5x2,4x12 24x15", (6, 5), "10/off").paths == ((10, 5, 0),)


def test_split_keeps_the_written_order_and_doubles():
    assert split(SHORT_START, (3, 3), "13/10 13/7").paths == ((13, 10), (13, 10, 7))
    assert split(SHORT_START, (6, 6), "24/12(2)").paths is not None  # blocked: split by the dice alone
    assert split(SHORT_START, (6, 6), "24/18(2) 13/1").paths == ((24, 18), (24, 18), (13, 7, 1))
    entered = split("short w bar,24,13x5,8x3,6x5 24x2,13x5,8x3,6x5", (6, 3), "13/7 bar/22")
    assert entered.paths == ((13, 7), (25, 22))  # played bar first, written as recorded


@pytest.mark.parametrize("position,dice,play", [
    (SHORT_START, (6, 1), "13/7 8/7"), (SHORT_START, (4, 2), "13/7 6/4 8/2"),
    ("long w 24x14,13 24x15", (6, 5), "24/13 13/2"), (LONG_START, (5, 3), "24/16"),
    ("short w 10,5x2,4x12 24x15", (6, 5), "10/off 4/off")])
def test_split_position_is_the_checked_play_position(position, dice, play):
    checked = verdict(position, dice, play)
    assert split(position, dice, play).position == checked.position


def test_split_of_a_play_the_rules_forbid_is_by_the_dice_alone():
    on_bar = "short w bar,24,13x5,8x3,6x5 24x2,13x5,8x3,6x5"
    assert split(on_bar, (6, 1), "13/6").paths == ((13, 7, 6),)  # illegal (the bar first), made as written
    after = split(on_bar, (6, 1), "13/6").position
    assert after is not None and after.white[25] == 1 and after.white[6] == 6 and after.turn == "b"
    held = "short w bar,24,13x5,8x3,6x5 24x2,18x2,16x2,13,8x3,6x5"  # White's 7 held, a blot on 12
    assert split(held, (6, 1), "13/6").paths == ((13, 12, 6),)  # the blot before the held point
    assert split(held, (6, 1), "13/6").position.black[25] == 1  # and hit on the way
    assert split(SHORT_START, (6, 5), "13/10").paths is None  # no die fits: nothing to split
    assert split(SHORT_START, (6, 5), "13/10").position.white[10] == 1
    assert split(SHORT_START, (6, 1), "20/14").position is None  # no checker on 20: no board after it


def test_split_refuses_a_cascade():
    with pytest.raises(ValueError, match="cascade"):
        Engine(Rules.preset("gulbara")).split(Position.start("gulbara"), (4, 4), parse_play("24/20"))
