"""The play grammar (``24/18*/15 13/7 6/4(2) bar/22 6/off``): hand-checked plays and errors, and
the hand-written parser against the regular expressions it replaced, on generated text."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_cli.core.moves import BAR, OFF, Move, PlaySyntaxError, _parse_play, parse_play


@pytest.mark.parametrize(("text", "moves"), [
    ("24/18 13/11", (Move((24, 18)), Move((13, 11)))),
    ("24/18*/15", (Move((24, 18, 15), (True, False)),)),
    ("6/4(2) bar/22 6/OFF", (Move((6, 4), count=2), Move((BAR, 22)), Move((6, OFF)))),
    ("  Bar/20*\t", (Move((BAR, 20), (True,)),)),
    ("-", ()),
    ("", ()),
])
def test_plays(text, moves):
    assert parse_play(text) == moves


@pytest.mark.parametrize(("text", "message", "offset"), [
    ("24/18 13-11", "expected a move like 24/18 or 6/off(2), found '13-11'", 6),
    ("24", "expected a move like 24/18 or 6/off(2), found '24'", 0),
    ("24*/18", "expected a move like 24/18 or 6/off(2), found '24*/18'", 0),
    ("24/18(2)*", "expected a move like 24/18 or 6/off(2), found '24/18(2)*'", 0),
    ("245/18", "expected a move like 24/18 or 6/off(2), found '245/18'", 0),
    ("13/7 26/20", "point 26 is not 0-25", 5),
    ("6/4 0/2", "a move cannot start off", 4),
    ("8/25", "a move cannot end on the bar", 2),
    ("6/4 off/2", "a move cannot start off", 4),
    ("8/bar", "a move cannot end on the bar", 2),
    ("13/BAR/5", "a move cannot end on the bar", 3),
    ("6/off/2", "a path cannot go on after off", 0),
    ("6/4(5)", "repeat (5) must be 1-4", 0),
    ("6/4(0)", "repeat (0) must be 1-4", 0),
])
def test_errors_name_the_offset(text, message, offset):
    with pytest.raises(PlaySyntaxError) as error:
        _parse_play(text)
    assert (str(error.value), error.value.offset) == (message, offset)


# The grammar as regular expressions, as nardy wrote it before the hand-written parser: the oracle.
_POINT = r"(?:bar|off|\d{1,2})"
_MOVE_RE = re.compile(rf"(?P<path>{_POINT}(?:/{_POINT}\*?)+)(?:\((?P<count>\d)\))?", re.IGNORECASE)
_LANDING_RE = re.compile(rf"/({_POINT})(\*?)", re.IGNORECASE)


def regex_parse(text: str) -> tuple[Move, ...]:
    from nardy_cli.core.moves import _point
    if text.strip() == "-":
        return ()
    moves = []
    for token in re.finditer(r"\S+", text):
        word, start = token.group(), token.start()
        match = _MOVE_RE.fullmatch(word)
        if not match:
            raise PlaySyntaxError(f"expected a move like 24/18 or 6/off(2), found {word!r}", start)
        path = [_point(word.split("/", 1)[0], start, source=True)]
        hits = []
        for landing in _LANDING_RE.finditer(match.group("path")):
            path.append(_point(landing.group(1), start + landing.start(1), source=False))
            hits.append(bool(landing.group(2)))
        if any(point == OFF for point in path[1:-1]):
            raise PlaySyntaxError("a path cannot go on after off", start)
        count = int(match.group("count") or 1)
        if not 1 <= count <= 4:
            raise PlaySyntaxError(f"repeat ({count}) must be 1-4", start)
        moves.append(Move(tuple(path), tuple(hits), count))
    return tuple(moves)


def outcome(parse, text):
    try:
        return parse(text)
    except PlaySyntaxError as error:
        return str(error), error.offset


PIECES = ["24", "18", "6", "0", "25", "26", "99", "7", "bar", "BAR", "Off", "off", "ba", "/", "/", "*", "(", ")",
          "(2)", "(4)", "(5)", "(0)", " ", "  ", "\t", "\u00a0", "-", "٣", "١٢", "İ", "x", "\n"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
def test_the_parser_reads_as_the_regular_expressions_did(text):
    assert outcome(_parse_play, text) == outcome(regex_parse, text)


def test_a_move_is_a_read_only_value():
    import pickle

    from nardy_cli.core.moves import Move

    move = Move((24, 18, 15), (True, False), 2)
    assert move == Move((24, 18, 15), (True, False), 2) and hash(move) == hash(Move((24, 18, 15), (True, False), 2))
    assert Move((8, 5)) == Move((8, 5), (False,)) != Move((8, 5), (True,))
    assert move.legs == ((24, 18), (18, 15), (24, 18), (18, 15))
    assert repr(Move((8, 5))) == "Move(path=(8, 5), hits=(False,), count=1)" and str(move) == "24/18*/15(2)"
    assert pickle.loads(pickle.dumps(move)) == move
    with pytest.raises(AttributeError):
        move.count = 3  # type: ignore[misc]


PLAIN_WORDS = st.builds(lambda source, target, hit: f"{source}/{target}{hit}",
                        st.sampled_from(["0", "1", "6", "00", "09", "13", "24", "25", "26", "99", "٣", "bar"]),
                        st.sampled_from(["0", "5", "07", "18", "24", "25", "30", "off", "1٣"]),
                        st.sampled_from(["", "*", "**", "(2)", "(4)", "*(3)", "(5)", "(0)", "(x)", "(22)", "()"]))


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.tuples(PLAIN_WORDS, st.sampled_from([" ", "  ", "\t", "\u00a0"])), max_size=5)
       .map(lambda words: "".join(word + blank for word, blank in words)))
def test_plain_moves_read_by_hand_as_the_full_grammar_reads_them(text):
    """The fast path for plain moves (13/7, 8/5*) and its way back to the full grammar."""
    assert outcome(_parse_play, text) == outcome(regex_parse, text)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.tuples(st.one_of(PLAIN_WORDS, st.sampled_from(["-", "24/18/15", "bar/22*/off"])),
                          st.sampled_from([" ", "  ", "\t"])), min_size=6, max_size=14)
       .map(lambda words: "".join(word + blank for word, blank in words)))
def test_a_long_play_read_move_by_move_reads_as_a_whole(text):
    """A play too long to cache whole is looked up word by word; errors keep their offsets."""
    assert outcome(parse_play, text) == outcome(regex_parse, text)
