"""Tests of the gnubg Position ID, Match ID and XGID codecs, against literals captured from gnubg and
gnubg itself."""

from __future__ import annotations

import base64
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gnubg_judge import OPENING, gnubg_module, require_gnubg_module, side
from nardy_cli.notations.gnubg_ids import (
    BAR,
    MAX_MATCH_LENGTH,
    XGID,
    GameState,
    MatchState,
    Side,
    match_id,
    parse_match_id,
    parse_position_id,
    parse_xgid,
    position_id,
    short_position,
    xgid,
)


def _key_id(key: int, n_bytes: int, length: int) -> str:
    return base64.b64encode(key.to_bytes(n_bytes, "little")).decode()[:length]


def _pid_from_bits(bits: str) -> str:
    """A Position ID from its key written as a bit string, first bit first."""
    return _key_id(int(bits[::-1] or "0", 2), 10, 14)


# --------------------------------------------------------------------------- #
# Literals captured from gnubg 1.07 (CLI) and the gnubg 1.1 module

POSITION_IDS = [
    # the opening position
    ("4HPwATDgc/ABMA", OPENING, OPENING),
    # gnubg's `hint` with 6-5 plays 10/4 here: the side on roll holds point 10
    ("AAD4/wMA/v8AAA", side(p10=15), side(p20=15)),
    # a real game: gnubg (on roll) played 4-2 as 8/4 6/4, its opponent 3-1 as 8/5 6/5
    ("sGfwATCYZ/ABMA", side(p24=2, p13=5, p8=2, p6=4, p4=2), side(p24=2, p13=5, p8=2, p6=4, p5=2)),
    # gnubg's `hint` with 3-1 here starts bar/22*/21: a checker on the bar
    (
        "xOfgAwjgc/ABQQ",
        side(bar=1, p20=1, p13=5, p8=3, p6=5),
        side(p22=1, p13=5, p8=3, p6=5, p3=1),
    ),
]

MATCH_IDS = [
    ("MIESAAAAAAAA", MatchState(player_on_roll=0, turn=0, dice=(5, 4))),
    ("cAkXAAAAAAAA", MatchState(player_on_roll=1, turn=1, dice=(6, 5))),
    ("MAEACAAAAAAE", MatchState(match_length=64, jacoby=False)),
    ("MAETCAAAAAAE", MatchState(match_length=64, dice=(6, 4), jacoby=False)),
    (
        "UYnuADAAEAAE",
        MatchState(
            cube_value=2,
            cube_owner=1,
            player_on_roll=1,
            turn=1,
            dice=(5, 3),
            match_length=7,
            score=(3, 2),
            jacoby=False,
        ),
    ),
    (
        "URHgADAAEAAE",
        MatchState(
            cube_value=2,
            cube_owner=1,
            player_on_roll=1,
            turn=0,
            doubled=True,
            match_length=7,
            score=(3, 2),
            jacoby=False,
        ),
    ),
    (
        "UUvgADAAEAAE",
        MatchState(
            cube_value=2,
            cube_owner=1,
            player_on_roll=1,
            turn=1,
            resigned=2,
            game_state=GameState.RESIGNED,
            match_length=7,
            score=(3, 2),
            jacoby=False,
        ),
    ),
]

# XGID -> the "PositionID:MatchID" that gnubg's `setgnubgid` made of it
XGIDS = [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "4HPwATDgc/ABMA:cIkKAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:52:3:2:0:7:10", "4HPwATDgc/ABMA:AYHqACAAGAAE"),
    ("XGID=-a----E-C---eE---c-e----B-:1:1:-1:00:3:2:3:0:10", "4HPwATDgc/ABEA:EQEAAAAAAAAA"),
    ("XGID=-a----E-C---eE---c-e----B-:1:1:1:00:3:2:3:0:10", "4HPwARDwOfgAGA:UQkAAAAAAAAA"),
]


def rule_flags(xg: XGID) -> tuple[bool, bool, bool]:
    """Jacoby, beavers and the Crawford game, as an XGID's field 8 gives them (see :class:`XGID`)."""
    money = not xg.match_length
    return money and bool(xg.rules & 1), money and bool(xg.rules & 2), not money and xg.rules == 1


def gnubg_view_of_xgid(xg: XGID) -> str:
    """The "PositionID:MatchID" gnubg makes of an XGID.

    As gnubg's ``SetXGID`` and ``SetMatchID`` do: X is player 1, O player 0; a
    money game's score is dropped; the Crawford flag is kept only in a match
    longer than 1 point where a player is 1 point away.
    """
    on_x = xg.turn == 1
    jacoby, _, crawford = rule_flags(xg)
    one_away = xg.match_length - 1 in (xg.score_x, xg.score_o)
    state = MatchState(
        cube_value=xg.cube_value,
        cube_owner={1: 1, -1: 0, 0: None}[xg.cube_owner],
        player_on_roll=int(on_x),
        turn=int(on_x) ^ (xg.cube_action == "D"),
        doubled=xg.cube_action == "D",
        crawford=crawford and xg.match_length > 1 and one_away,
        dice=xg.dice,
        match_length=xg.match_length,
        score=(xg.score_o, xg.score_x) if xg.match_length else (0, 0),
        jacoby=jacoby,
    )
    return f"{position_id(*xg.position())}:{match_id(state)}"


@pytest.mark.parametrize(("pid", "on_roll", "opponent"), POSITION_IDS)
def test_known_position_ids(pid: str, on_roll: Side, opponent: Side) -> None:
    assert position_id(on_roll, opponent) == pid
    assert parse_position_id(pid) == (on_roll, opponent)


@pytest.mark.parametrize(("mid", "state"), MATCH_IDS)
def test_known_match_ids(mid: str, state: MatchState) -> None:
    assert match_id(state) == mid
    assert parse_match_id(mid) == state


@pytest.mark.parametrize(("text", "gnubg_id"), XGIDS)
def test_known_xgids(text: str, gnubg_id: str) -> None:
    xg = parse_xgid(text)
    assert xgid(xg) == text
    assert gnubg_view_of_xgid(xg) == gnubg_id


@pytest.mark.parametrize(("text", "gnubg_id"), XGIDS)
def test_a_gnubg_id_gives_the_position_cube_and_dice_of_its_xgid(text: str, gnubg_id: str) -> None:
    assert short_position(gnubg_id) == short_position(text)


def test_opening_xgid_fields() -> None:
    xg = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    assert xg == XGID(OPENING, OPENING, cube_value=1, cube_owner=0, turn=1, dice=(5, 2), max_cube_exponent=10)
    assert xg.position() == (OPENING, OPENING)
    assert parse_xgid("-b----E-C---eE---c-e----B-:1:0:-1:D:0:0:3:0:8").cube_action == "D"


def test_xgid_rule_flags() -> None:
    money = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10")
    assert rule_flags(money) == (True, True, False)
    match = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:1:5:10")
    assert rule_flags(match) == (False, False, True)


def test_dice_kept_higher_first() -> None:
    assert MatchState(dice=(2, 6)).dice == (6, 2)


# --------------------------------------------------------------------------- #
# Round trips


@st.composite
def boards(draw: st.DrawFn) -> tuple[Side, Side]:
    """Two sides of 15 checkers (anywhere, bar and off included) sharing no point."""
    a = [0] * 26
    for slot in draw(st.lists(st.integers(0, 25), min_size=15, max_size=15)):
        a[slot] += 1
    free = [0, BAR] + [p for p in range(1, 25) if not a[25 - p]]
    b = [0] * 26
    for slot in draw(st.lists(st.sampled_from(free), min_size=15, max_size=15)):
        b[slot] += 1
    closed_and_on_bar = [s[BAR] and all(s[p] >= 2 for p in range(1, 7)) for s in (a, b)]
    assume(not all(closed_and_on_bar))
    return tuple(a), tuple(b)


@st.composite
def match_states(draw: st.DrawFn, in_play: bool = False) -> MatchState:
    """Any match state; ``in_play``: only a match nobody has won yet, or a money game at 0-0 (the
    gnubg module zeroes money-game scores, and its cubeinfo() needs a match still in play)."""
    length = draw(st.integers(0, MAX_MATCH_LENGTH))
    if in_play:
        score = st.integers(0, length - 1) if length else st.just(0)
    else:
        score = st.integers(0, length) if length else st.integers(0, 1000)
    return MatchState(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([None, 0, 1])),
        player_on_roll=draw(st.integers(0, 1)),
        crawford=bool(length) and draw(st.booleans()),
        game_state=draw(st.sampled_from(GameState)),
        turn=draw(st.integers(0, 1)),
        doubled=draw(st.booleans()),
        resigned=draw(st.integers(0, 3)),
        dice=draw(st.just((0, 0)) | st.tuples(st.integers(1, 6), st.integers(1, 6))),
        match_length=length,
        score=(draw(score), draw(score)),
        jacoby=draw(st.booleans()),
    )


@st.composite
def xgids(draw: st.DrawFn, gnubg_reads: bool = False) -> XGID:
    """Any XGID; ``gnubg_reads``: only what gnubg's setgnubgid() takes: no cube action ("B"/"R" it
    refuses, from a pending double "D" it steps back) and, in a Crawford game, no cube."""
    x, o = draw(boards())
    length = draw(st.integers(0, MAX_MATCH_LENGTH))
    score = st.integers(0, length - 1) if length else st.integers(0, 100)
    action = "" if gnubg_reads else draw(st.sampled_from(["", "", "D", "B", "R"]))
    rolled = draw(st.tuples(st.integers(1, 6), st.integers(1, 6)))
    rules = draw(st.integers(0, 1 if length else 3))
    no_cube = gnubg_reads and bool(length) and rules == 1  # a Crawford game
    return XGID(
        x=x,
        o=o,
        cube_value=1 if no_cube else 1 << draw(st.integers(0, 12)),
        cube_owner=0 if no_cube else draw(st.sampled_from([-1, 0, 1])),
        turn=draw(st.sampled_from([-1, 1])),
        dice=(0, 0) if action or draw(st.booleans()) else rolled,
        cube_action=action,
        score_x=draw(score),
        score_o=draw(score),
        rules=rules,
        match_length=length,
        max_cube_exponent=draw(st.integers(0, 15)),
    )


@given(boards())
def test_position_id_round_trip(board: tuple[Side, Side]) -> None:
    pid = position_id(*board)
    assert len(pid) == 14
    assert parse_position_id(pid) == board


@given(match_states())
def test_match_id_round_trip(state: MatchState) -> None:
    mid = match_id(state)
    assert len(mid) == 12
    assert parse_match_id(mid) == state


@given(xgids())
def test_xgid_round_trip(xg: XGID) -> None:
    text = xgid(xg)
    assert parse_xgid(text) == xg
    assert parse_xgid(text.removeprefix("XGID=")) == xg


# --------------------------------------------------------------------------- #
# Bad input


@pytest.mark.parametrize(
    ("pid", "message"),
    [
        ("4HPwATDgc/ABM", "14 characters"),
        ("4HPwATDgc/ABMAA", "14 characters"),
        ("4HPwATDgc/AB!A", "outside base64: '!'"),
        ("4HPwATDgc/ABMB", "unused trailing bits"),
        ("/////////////w", "ends in the middle"),
        (_pid_from_bits("1" * 16 + "0" * 50), "16 checkers, more than 15"),
        (_pid_from_bits("0" * 50 + "1"), "bits set after both sides' checkers"),
        # the opponent's 24 point is the 1 point of the side on roll
        (_pid_from_bits("0" * 23 + "10" + "0" + "10" + "0" * 24), "both sides have checkers there"),
        (
            _pid_from_bits(("110" * 6 + "0" * 18 + "10") * 2),
            "both sides are on the bar against closed home boards",
        ),
    ],
)
def test_bad_position_id(pid: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_position_id(pid)


def test_parsers_reject_non_strings() -> None:
    with pytest.raises(TypeError, match="Position ID must be a string"):
        parse_position_id(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Match ID must be a string"):
        parse_match_id(b"cAkXAAAAAAAA")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="an XGID must be a string"):
        parse_xgid(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("on_roll", "opponent", "message"),
    [
        (OPENING[:25], OPENING, "26 entries"),
        ((-1,) + OPENING[1:], OPENING, "non-negative integers"),
        ((1,) + OPENING[1:], OPENING, "add up to 15"),
        (side(p1=1), side(p24=1), "point 1 is opponent's point 24"),
    ],
)
def test_bad_board(on_roll: Side, opponent: Side, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        position_id(on_roll, opponent)


def _mid(state: MatchState, extra: int = 0) -> str:
    """The Match ID of ``state`` with ``extra`` OR-ed into its key."""
    key = int.from_bytes(base64.b64decode(match_id(state)), "little") | extra
    return _key_id(key, 9, 12)


@pytest.mark.parametrize(
    ("mid", "message"),
    [
        ("cAkXAAAAAAA", "12 characters"),
        ("cAkXAAAA*AAA", "outside base64: '*'"),
        (_mid(MatchState(), 7 << 15), "dice must be"),
        (_mid(MatchState(dice=(3, 1)), 7 << 15), "dice must be"),
        (_mid(MatchState(), 1 << 18), "dice must be"),
        (_mid(MatchState(cube_value=2, cube_owner=0), 2 << 4), "cube owner bits 10"),
        (_mid(MatchState(), 5 << 8), "unknown game state 5"),
        (_mid(MatchState(match_length=5), 6 << 36), "exceeds the match length"),
        (_mid(MatchState(), 1 << 7), "no Crawford game"),
        (_mid(MatchState(), 65 << 21), "match_length must be 0 (money) to 64"),
        (_mid(MatchState(), 1 << 67), "bits set after the 67 used ones"),
    ],
)
def test_bad_match_id(mid: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_match_id(mid)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cube_value": 3}, "power of two"),
        ({"cube_value": 1 << 16}, "power of two"),
        ({"cube_owner": 2}, "cube_owner"),
        ({"player_on_roll": 2}, "player_on_roll and turn"),
        ({"resigned": 4}, "resigned"),
        ({"dice": (0, 3)}, "dice must be"),
        ({"score": (1, 2, 3)}, "score must be"),
        ({"game_state": 9}, "is not a valid GameState"),
    ],
)
def test_bad_match_state(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        MatchState(**kwargs)


START = "-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"XGID={START}:0:0:1:52:0:0:0:0", "10 ':'-separated fields, got 9"),
        (f"XGID={START}-:0:0:1:52:0:0:0:0:10", "26 characters"),
        (f"XGID=A{START[1:]}:0:0:1:52:0:0:0:0:10", "bad character 'A' at index 0"),
        (f"XGID={START[:25]}a:0:0:1:52:0:0:0:0:10", "bad character 'a' at index 25"),
        (f"XGID={START[:3]}x{START[4:]}:0:0:1:52:0:0:0:0:10", "bad character 'x' at index 3"),
        (f"XGID={START[:3]}A{START[4:]}:0:0:1:52:0:0:0:0:10", "16 checkers, more than 15"),
        (f"XGID={START[:6]}e{START[7:]}:0:0:1:52:0:0:0:0:10", "20 checkers, more than 15"),
        (f"XGID={START}:x:0:1:52:0:0:0:0:10", "'cube' must be an integer"),
        (f"XGID={START}:16:0:1:52:0:0:0:0:10", "cube exponent must be 0-15"),
        (f"XGID={START}:0:2:1:52:0:0:0:0:10", "cube_owner must be"),
        (f"XGID={START}:0:0:0:52:0:0:0:0:10", "turn must be"),
        (f"XGID={START}:0:0:1:72:0:0:0:0:10", "dice field"),
        (f"XGID={START}:0:0:1:5:0:0:0:0:10", "dice field"),
        (f"XGID={START}:0:0:1:50:0:0:0:0:10", "dice must be"),
        (f"XGID={START}:0:0:1:52:6:0:0:5:10", "exceed the match length"),
        (f"XGID={START}:0:0:1:52:0:0:2:5:10", "rules must be one of (0, 1)"),
        (f"XGID={START}:0:0:1:52:0:0:4:0:10", "rules must be one of (0, 1, 2, 3)"),
        (f"XGID={START}:0:0:1:52:0:0:0:-1:10", "must be non-negative"),
    ],
)
def test_bad_xgid(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_xgid(text)


def test_bad_xgid_state() -> None:
    with pytest.raises(ValueError, match="no dice can be rolled while a cube action 'D' is pending"):
        XGID(OPENING, OPENING, dice=(3, 1), cube_action="D")
    with pytest.raises(ValueError, match="cube_action must be one of"):
        XGID(OPENING, OPENING, cube_action="X")
    with pytest.raises(ValueError, match="X's point 6 is O's point 19"):
        XGID(side(p6=1), side(p19=1))


# --------------------------------------------------------------------------- #
# Against gnubg itself (the PyPI module; boards there are (opponent, on_roll) without the borne-off slot)

GNUBG_SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.gnubg
@GNUBG_SETTINGS
@given(boards())
def test_position_id_agrees_with_gnubg(board: tuple[Side, Side]) -> None:
    require_gnubg_module()
    on_roll, opponent = board
    pid = position_id(on_roll, opponent)
    assert gnubg_module.positionid((opponent[1:], on_roll[1:])) == pid
    assert gnubg_module.positionfromid(pid) == (opponent[1:], on_roll[1:])


@pytest.mark.gnubg
@GNUBG_SETTINGS
@given(match_states(in_play=True))
def test_match_id_agrees_with_gnubg(state: MatchState) -> None:
    require_gnubg_module()
    cubeinfo = gnubg_module.cubeinfo(
        state.cube_value,
        -1 if state.cube_owner is None else state.cube_owner,
        state.player_on_roll,
        state.match_length,
        state.score,
        int(state.crawford),
    )
    cubeinfo["jacoby"] = int(state.jacoby)
    posinfo = gnubg_module.posinfo(
        state.turn, state.resigned, int(state.doubled), int(state.game_state), state.dice
    )
    assert gnubg_module.matchid(cubeinfo, posinfo) == match_id(state)


@pytest.mark.gnubg
@settings(GNUBG_SETTINGS, max_examples=60)  # setgnubgid() is slow: it starts a new match each time
@given(xgids(gnubg_reads=True))
def test_xgid_agrees_with_gnubg(xg: XGID) -> None:
    """gnubg reads the XGID; its position and match IDs are what ``gnubg_view_of_xgid`` expects."""
    require_gnubg_module()
    gnubg_module.setgnubgid(xgid(xg))
    assert gnubg_module.gnubgid() == gnubg_view_of_xgid(xg)
    by_gnubg, by_xgid = short_position(gnubg_module.gnubgid()), short_position(xgid(xg))
    assert by_gnubg[0] == by_xgid[0]  # the dice in the Match ID's order, higher first
    assert by_gnubg[1] == (None if by_xgid[1] is None else tuple(sorted(by_xgid[1], reverse=True)))
