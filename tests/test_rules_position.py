"""Rule sets and the position notation."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy_cli.core.position import Position, PositionError, format_board, parse_board
from nardy_cli.core.rules import Rules, RulesError, check_overrides
from nardy_cli.core.sides import BAR, OFF


def test_presets_spell_out_every_option():
    assert str(Rules.preset("long")) == \
        "long opening=reroll head=classic block=step last_roll=off scoring=oin-mars cube=off"
    assert str(Rules.preset("short")) == "short scoring=backgammon cube=on crawford=on jacoby=off"


def test_rule_text_over_a_preset():
    rules = Rules.parse("long head=general block=turn")
    assert (rules.head, rules.block, rules.opening) == ("general", "turn", "reroll")
    assert rules.describe("head") == "head=general"
    assert rules.differences() == "head=general block=turn"
    assert Rules.parse("short jacoby=on").jacoby == "on"
    assert Rules.parse("head=strict", base="long").head == "strict"
    assert Rules.preset("long").with_options(["variant=short", "cube=off"]).variant == "short"


@pytest.mark.parametrize("text,message", [
    ("long head=sometimes", "head=sometimes is not allowed in long nardy: expected one of classic, general, strict"),
    ("long colour=red", "unknown rule option 'colour'"),
    ("short head=classic", "rule option 'head' does not exist in short nardy"),
    ("long head", "expected key=value, found 'head'"),
    ("medium", "unknown variant 'medium'"),
])
def test_bad_rule_texts_say_what_is_wrong(text, message):
    with pytest.raises(RulesError, match=message.replace("(", r"\(")):
        Rules.parse(text)


def test_overrides_for_a_mixed_corpus():
    check_overrides(["head=general", "jacoby=on"])  # each valid in one of the games
    assert Rules.preset("short").with_options(["head=general"], own_only=True) == Rules.preset("short")
    with pytest.raises(RulesError):
        check_overrides(["head=never"])


@pytest.mark.parametrize("scheme,points", [("oin-mars", (2, 2, 2, 1)), ("oin-mars-koks", (3, 2, 2, 1)),
                                           ("home-mars", (2, 3, 2, 1))])
def test_scoring_tables(scheme, points):
    rules = Rules.parse(f"long scoring={scheme}")
    assert tuple(rules.points(c) for c in ("koks", "home-mars", "mars", "oin")) == points


def test_start_positions_in_notation():
    assert str(Position.start("long")) == "long w 24x15 24x15"
    assert str(Position.start("short")) == "short w 24x2,13x5,8x3,6x5 24x2,13x5,8x3,6x5"
    assert Position.parse("long w 24x15 24x15").first == frozenset("wb")
    assert Position.parse("long b 24x14,15 24x15").first == frozenset("b")


def test_first_turn_and_cube_fields():
    position = Position.parse("long w 24x15 24x15 b")
    assert position.first == frozenset("b") and str(position) == "long w 24x15 24x15 b"
    cubed = Position.parse("short w bar,13x4,8x3,6x5,5x2 24x2,13x5,8x3,6x4,4 cube=2b")
    assert (cubed.cube_value, cubed.cube_owner, cubed.white[25]) == (2, "b", 1)
    assert str(cubed).endswith("cube=2b")
    assert Position.parse("long w 6x2,4x3,1 6x4,5x4,2x4 -").borne_off("w") == 9


@pytest.mark.parametrize("text,message", [
    ("long w 24x16 24x15", "White.s checkers: 16 checkers listed, at most 15"),
    ("long w 24x14,12 24x15", "White's point 12 holds checkers of both sides"),
    ("long w 24x14,bar 24x15", "long nardy has no bar"),
    ("long w 24x15 13-5", "Black.s checkers: expected a point like 13x5, 6 or bar, found '13-5'"),
    ("long x 24x15 24x15", "side to move must be w or b"),
    ("long w 24x15", "expected '<variant> <side> <white> <black>"),
    ("short w - - cube=3", "cube value must be a power of two"),
])
def test_bad_positions_say_what_is_wrong(text, message):
    with pytest.raises(PositionError, match=message):
        Position.parse(text)


@st.composite
def boards(draw: st.DrawFn) -> list[int]:
    """25 counts of 0 to 3 checkers (points 1-24 and the bar), 15 at most in all: every such list can
    be drawn, the slots filled in a drawn order so that none is favoured."""
    counts = [0] * 25
    for slot in draw(st.permutations(range(25))):
        counts[slot] = draw(st.integers(min_value=0, max_value=min(3, 15 - sum(counts))))
    return counts


@pytest.mark.slow
@given(boards())
def test_board_text_round_trip(counts):
    board = (15 - sum(counts), *counts)
    assert parse_board(format_board(board)) == board


def test_board_text_names_each_point_with_its_count():
    """Points highest first, the count after an x when more than one; a count no position can hold
    (an unchecked board's) is written all the same, not looked up in the table of real ones."""
    board = [0] * 26
    board[BAR], board[24], board[13], board[6], board[OFF] = 1, 2, 15, 3, -6
    assert format_board(tuple(board)) == "bar,24x2,13x15,6x3"
    board[13], board[6] = 16, -1
    assert format_board(tuple(board)) == "bar,24x2,13x16,6x-1"
    assert format_board((15,) + (0,) * 25) == "-"


def test_a_position_is_a_read_only_value():
    """Equal positions are equal and hash alike whatever made them; nothing can be changed in place;
    the copies the engine and readers make are positions like any other."""
    start = Position.start("short")
    same = Position("short", "w", start.white, start.black)
    assert start == same and hash(start) == hash(same) and start != Position.start("long")
    with pytest.raises(AttributeError):
        start.turn = "b"  # type: ignore[misc]
    assert repr(start) == (f"Position(variant='short', turn='w', white={start.white!r}, black={start.black!r}, "
                           "first=frozenset(), cube_value=1, cube_owner=None)")
    black_on_roll = start.with_turn("b")
    assert (black_on_roll.turn, black_on_roll.white, black_on_roll.black) == ("b", start.white, start.black)
    doubled = black_on_roll.with_cube(2, "w")
    assert (doubled.cube_value, doubled.cube_owner, doubled.turn) == (2, "w", "b")
    assert doubled.with_cube(1, None) == black_on_roll
    assert str(doubled) == "short b 24x2,13x5,8x3,6x5 24x2,13x5,8x3,6x5 cube=2w"


def test_a_position_pickles_and_copies():
    import copy
    import pickle

    position = Position.parse("long b 24x15 24x14,23 - cube=4b")
    assert pickle.loads(pickle.dumps(position)) == position
    assert copy.deepcopy(position) == position and copy.copy(position) == position


def test_an_unchecked_position_skips_only_the_checks():
    start = Position.start("long")
    with pytest.raises(PositionError):
        Position("long", "w", start.white, start.black[:-1])
    trusted = Position("long", "w", start.white, start.black, start.first, check=False)
    assert trusted == start
