"""The Jellyfish .mat reader and writer: every dialect quirk, errors, round trips, GNU Backgammon import."""
from __future__ import annotations

import dataclasses
import io
import itertools
import json
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from locations import corpus_files, needs_corpus
from nardy_cli.cli.main import cli
from nardy_cli.core.moves import Move, parse_play
from nardy_cli.core.sides import BAR, BLACK, OFF, WHITE
from nardy_cli.notations import mat, sgf
from nardy_cli.record import Action, GameRecord
from nardy_cli.replay import replay

DATA = Path(__file__).parent / "data" / "mat"
CORPUS_FILES = corpus_files("bglab-sample/*.txt", "tournament/*.mat", "tournament/*.txt")
DIALECTS = ["gnubg.mat", "studio.mat", "galaxy.mat", "xg.mat", "ratings.mat", "long.mat"]


def read(path: Path) -> list[GameRecord]:
    """All games of a file, its lines kept with their own line ends as a caller decodes them."""
    with path.open(encoding="utf-8", newline="") as lines:
        return list(mat.read_games(lines, str(path)))


def read_text(text: str) -> list[GameRecord]:
    return list(mat.read_games(text.splitlines(keepends=True), "inline"))


def write(games: list[GameRecord]) -> tuple[str, list[str]]:
    out = io.StringIO()
    warnings = mat.write_games(games, out)
    return out.getvalue(), warnings


def comparable(game: GameRecord) -> tuple[object, ...]:
    """What a round trip must keep: tags in order, actions (not where they stood), result, comments, errors."""
    actions = [dataclasses.replace(action, line=0, column=0) for action in game.actions]
    return list(game.tags.items()), actions, game.result, game.comments, game.errors


def rolls(game: GameRecord) -> list[Action]:
    return [action for action in game.actions if action.kind == "roll"]


def non_rolls(game: GameRecord) -> list[tuple[str, str, int | None]]:
    """Cube actions and resignations as (side, kind, value)."""
    return [(a.side, a.kind, a.value) for a in game.actions if a.kind != "roll"]


# --- sniffing ----------------------------------------------------------------


@pytest.mark.parametrize("name", DIALECTS)
def test_sniff_knows_every_dialect(name: str) -> None:
    assert mat.sniff((DATA / name).read_text(encoding="utf-8")[:4096])


def test_sniff_knows_a_file_without_match_line() -> None:
    assert mat.sniff(" Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5     42: 8/4 6/4\n")


@pytest.mark.parametrize("head", ["", "[Event \"x\"]\n1. 31: 8/5 6/5\n",
                                  "Permission is hereby granted, free of charge"])
def test_sniff_rejects_other_text(head: str) -> None:
    assert not mat.sniff(head)


# --- dialects --------------------------------------------------------------------


def test_gnubg_layout() -> None:
    first, second, third = read(DATA / "gnubg.mat")
    assert list(first.tags.items()) == [
        ("Site", "Paris"), ("Event", "Test Open"), ("Round", "Final"), ("Date", "2023.11.26"),
        ("Annotator", "Ann Notator"), ("Variant", "short"), ("White", "Alice"), ("Black", "Bob"),
        ("MatchLength", "7"), ("Game", "1"), ("Score", "0-0"),
    ]
    assert (first.source, first.line, first.errors) == (str(DATA / "gnubg.mat"), 9, [])
    opening = first.actions[0]
    assert (opening.side, opening.dice, opening.number, opening.line, opening.column) == (BLACK, (5, 2), 1, 11, 34)
    assert first.actions[1].moves == (Move((6, 3), (True,)), Move((3, 1), (True,)))
    assert first.actions[2].moves == ()  # "64:" alone: no play possible
    assert first.actions[3].moves == (Move((6, OFF), count=4),)
    assert first.actions[4].moves == (Move((BAR, 23)), Move((BAR, 20)))
    assert (first.result, first.variant, "Termination" not in first.tags) == ("2-0", "short", True)
    assert non_rolls(second) == [(WHITE, "double", 2), (BLACK, "drop", None)]
    assert (second.result, second.tags["Termination"], second.tags["Score"]) == ("1-0", "drop", "2-0")
    assert rolls(third)[-1].moves == (Move((13, 11, 10)),)  # a chain
    assert non_rolls(third) == [(BLACK, "double", 2), (WHITE, "drop", None)]
    assert (third.result, third.tags["Termination"]) == ("0-1", "drop")


def test_backgammon_studio_layout() -> None:
    first, second = read(DATA / "studio.mat")
    assert first.errors == second.errors == []
    assert first.tags["ClockType"] == "Speed 168/6" and first.tags["MatchID"] == "3188437"
    assert rolls(first)[4].moves == (Move((BAR, 24)),)
    assert rolls(first)[6].moves == ()  # Cannot Move
    unrecorded = rolls(first)[-1]
    assert (unrecorded.side, unrecorded.dice, unrecorded.moves) == (WHITE, (6, 3), None)  # "63: ????"
    assert non_rolls(first) == [(BLACK, "double", 2), (WHITE, "take", None), (WHITE, "resign", 2)]
    assert (first.result, first.tags["Termination"]) == ("0-2", "resign")
    last_white = rolls(second)[-2]
    assert (last_white.number, last_white.column, last_white.moves) == (10, 7, (Move((5, 1)), Move((4, OFF))))
    assert (second.result, second.tags["Score"]) == ("1-0", "0-2")  # "  11)  Wins 1 point", numbered


def test_backgammon_galaxy_dialect() -> None:
    first, second = read(DATA / "galaxy.mat")
    assert first.errors == second.errors == []
    assert rolls(first)[2].moves == ()  # "66:" alone
    assert rolls(first)[4].moves == (Move((BAR, 22)), Move((13, 7)))  # 25 is the bar
    assert rolls(second)[-1].moves == (Move((5, OFF)), Move((1, OFF)))  # 0 is off
    # "Losses N point" on the left: the right-hand player wins, the left one resigned
    assert (first.result, first.actions[-1].kind, first.actions[-1].side) == ("0-1", "resign", WHITE)
    # on the right, with "Wins 3 point and the match" below
    assert (second.result, second.actions[-1].kind, second.actions[-1].side) == ("3-0", "resign", BLACK)
    assert second.tags["Termination"] == "resign"
    assert (first.tags["WhiteElo"], first.tags["WhiteRating"], first.tags["BlackRating"]) == ("5,00/0", "5,00", "2,00")


def test_extreme_gammon_export() -> None:
    raw = (DATA / "xg.mat").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    (game,) = read(DATA / "xg.mat")
    assert game.errors == []
    assert next(iter(game.tags)) == "Site"  # the BOM is not part of the first header
    # Player 1 is the right-hand column in XG files: the header tags follow the columns
    assert (game.tags["White"], game.tags["Black"]) == ("Kévin Unger", "Maxence Job")
    assert (game.tags["WhiteElo"], game.tags["BlackElo"]) == ("1500.00/0", "1600.00/0")
    assert game.actions[0].side == BLACK
    assert game.actions[2].moves == (Move((BAR, 23)), Move((BAR, 20)))
    assert game.actions[4].moves == ()  # Cannot Move
    assert game.actions[5].moves == (Move((4, OFF)), Move((1, OFF)))
    assert game.actions[6].moves is None  # "33: ????"
    assert (game.result, game.tags["Termination"], game.actions[-1].side) == ("2-0", "resign", BLACK)


@pytest.mark.parametrize(("cell", "moves"), [
    ("63:", ()),
    ("63: Cannot Move", ()),
    ("63: cannot move", ()),
    ("63: ???", None),
    ("63: ????", None),
    ("63: 24/18*/15", (Move((24, 18, 15), (True, False)),)),
    ("63: Bar/22 6/Off(2)", (Move((BAR, 22)), Move((6, OFF), count=2))),
    ("63: 25/22 6/0", (Move((BAR, 22)), Move((6, OFF)))),
])
def test_roll_cells(cell: str, moves: tuple[Move, ...] | None) -> None:
    (game,) = read_text(f" 1 point match\n Game 1\n a : 0   b : 0\n  1) {cell}\n      Wins 1 point\n")
    assert (game.errors, game.actions[0].dice, game.actions[0].moves) == ([], (6, 3), moves)


# The patterns the reader used before it read row numbers and roll cells by hand: the oracle of these two.
_NUMBERED_PATTERN = re.compile(r"\s*(?P<number>\d{1,9})\)")
_ROLL_PATTERN = re.compile(r"(?P<d1>[1-6])(?P<d2>[1-6]):\s*(?P<play>.*)")
_LINE_TEXT = st.text(st.sampled_from("0123456789)::  \t\u00a0\u3000\u0663\u0669٣x/*\r"), max_size=16)


@settings(max_examples=3000)
@given(_LINE_TEXT)
def test_row_numbers_are_read_as_the_pattern_reads_them(text: str) -> None:
    numbered = _NUMBERED_PATTERN.match(text)
    assert mat._row_number(text, 0, len(text)) == ((int(numbered["number"]), numbered.end()) if numbered else (-1, 0))


@settings(max_examples=3000)
@given(_LINE_TEXT)
def test_roll_cells_are_read_as_the_pattern_reads_them(text: str) -> None:
    cell = text.strip()
    roll = _ROLL_PATTERN.fullmatch(cell)
    expected = ((int(roll["d1"]), int(roll["d2"])), roll.start("play")) if roll else None
    dice = mat._roll_dice(cell, 0, len(cell))
    assert ((dice, mat._lstripped(cell, 3, len(cell))) if dice else None) == expected


@settings(max_examples=3000)
@given(_LINE_TEXT, st.integers(0, 16), st.integers(0, 16))
def test_spans_are_stripped_as_strip_strips_them(text: str, start: int, end: int) -> None:
    start, end = min(start, len(text)), min(max(start, end), len(text))
    assert text[mat._lstripped(text, start, end):end] == text[start:end].lstrip()
    assert text[start:mat._rstripped(text, start, end)] == text[start:end].rstrip()


def test_score_line_ratings_money_game_and_beaver() -> None:
    (game,) = read(DATA / "ratings.mat")
    assert game.errors == []
    assert (game.tags["White"], game.tags["WhiteRating"]) == ("alice", "1650")
    assert (game.tags["Black"], game.tags["BlackRating"]) == ("bob", "1720.5")
    assert game.tags["MatchLength"] == "0"
    assert non_rolls(game) == [
        (WHITE, "double", 2), (BLACK, "beaver", 4),  # a beaver is a take and a redouble: no take follows
        (BLACK, "double", 8), (WHITE, "drop", None),
    ]
    assert (game.result, game.tags["Termination"]) == ("0-4", "drop")


def test_long_nardy_variation() -> None:
    (game,) = read(DATA / "long.mat")
    assert (game.errors, game.variant) == ([], "long")
    text, warnings = write([game])
    assert warnings == [] and '; [Variation "LongNardy"]' in text.splitlines()


def test_a_nackgammon_match_is_short_nardy_from_the_nackgammon_start() -> None:
    """GNU Backgammon's Nackgammon match (its own export) was a variant nardy does not know, not
    judged, with a syntax finding on every game; its SGF was judged. Both read it the same way now,
    and the MAT writer gives the header back."""
    games = read(DATA / "gnubg-nackgammon.mat")
    assert [(game.variant, game.tags["Position"].split()[:2], game.errors) for game in games] == [
        ("short", ["short", "b"], []), ("short", ["short", "w"], []), ("short", ["short", "b"], []),
        ("short", ["short", "b"], [])]
    assert games[0].tags["Position"] == "short b 24x2,23x2,13x4,8x3,6x4 24x2,23x2,13x4,8x3,6x4"
    assert [replay(game).findings for game in games] == [[], [], [], []]
    text, warnings = write(games)
    assert warnings == [] and '; [Variation "NackGammon"]' in text.splitlines()
    assert [comparable(game) for game in read_text(text)] == [comparable(game) for game in games]
    other_start = dataclasses.replace(games[0], tags={**games[0].tags, "Position": "short w 6x15 6x15"})
    assert write([other_start])[1] == [
        "game 1 (gnubg – root): tag Position ('short w 6x15 6x15') cannot be expressed: a MAT game starts from "
        "the standard position"]


_DAILYGAMMON_NACKGAMMON_BOARD = "0;-2;-2;0;0;0;4;0;3;0;0;0;-4;4;0;0;0;-3;0;-4;0;0;0;2;2;0"


def as_dailygammon(text: str) -> str:
    """GNU Backgammon's MAT of a Nackgammon match as DailyGammon exports one (measured on the site by
    two public clients of it): no variation header; each game's first cell is a roll ``12:`` of the
    player who does not start, its play ``Illegal play (...)``, the site's record of the start
    (Nackgammon's) and of the first roll; when the left-hand player starts, that cell is row 1's
    right cell and the game's rows below are numbered one more."""
    out: list[str] = []
    names: list[str] = []
    shift = 0
    for line in text.splitlines():
        row = re.match(r" *(\d+)\) (.*)$", line)
        if "Variation" in line:
            continue
        if " : " in line and not row:
            names, shift = re.findall(r"(\S+) : \d+", line), 0
        if not row:
            out.append(line)
            continue
        number = int(row[1])
        if number == 1:
            left, right = line[5:33].strip(), line[33:].strip()
            starter = 1 if not left else 0
            dice = (right if starter else left)[:2]
            dump = (f"Illegal play (5;0;1;0;{1 - starter};{names[starter]};{names[1 - starter]};0;0;0;1;0;"
                    f"{_DAILYGAMMON_NACKGAMMON_BOARD};{dice[0]};{dice[1]};)")
            if starter:  # the right-hand player starts: the marker is the left cell, the roll goes on after it
                out.append(f"  1) 12: {dump} {right}")
                continue
            out.append(f"  1){' ' * 29}12: {dump}")
            shift = 1
        out.append(f"{number + shift:3d}) {row[2]}")
    return "\n".join(out) + "\n"


def test_dailygammon_s_nackgammon_marker_starts_each_game_from_the_nackgammon_start() -> None:
    """DailyGammon's export says Nackgammon only by a fake first roll whose play is ``Illegal play
    (...)``: a syntax finding and illegal plays on every game of a genuine record. gnubg's own
    Nackgammon match in that layout now reads as the same games as gnubg's MAT of it."""
    games = read(DATA / "gnubg-nackgammon.mat")
    dailygammon = read_text(as_dailygammon((DATA / "gnubg-nackgammon.mat").read_text(encoding="utf-8")))
    assert [game.errors for game in dailygammon] == [[], [], [], []]
    assert [replay(game).findings for game in dailygammon] == [[], [], [], []]

    def played(game: GameRecord) -> list[object]:
        return [(a.side, a.kind, a.dice, a.moves, a.value) for a in game.actions]

    assert [(played(game), game.tags["Position"], game.result) for game in dailygammon] == [
        (played(game), game.tags["Position"], game.result) for game in games]


def test_an_illegal_play_marker_mid_game_says_what_it_is() -> None:
    # a position set by hand after the roll 11, in Snowie text: how XG's and gnubg's exports write an illegal play
    dump = ("Illegal play (15;0;1;0;0;Morley;Tanguay;0;9;9;1;0;0;0;0;2;2;2;2;0;2;0;1;0;-2;0;0;-3;0;-4;0;-3;2;-1;0;2;-2;"
            "0;1;6;)")
    (game,) = read_text(f"15 point match\n Game 12\n Tanguay : 9   Morley : 9\n  1) 31: 8/5 6/5   42: 8/4 6/4\n"
                        f"  2) 11: {dump} 16: 8/2 10/9\n")
    assert [(error.line, error.column) for error in game.errors] == [(5, 10)]
    assert game.errors[0].message.startswith("expected a play, found 'Illegal play (...)': a position set by hand "
                                             "here")


def test_header_keys_keep_their_order_and_unknown_keys_lose_spaces() -> None:
    (game,) = read_text('; [Some Key "v"]\n; [Player 2 Elo "1700/3"]\n; [Match ID "9"]\n; [Cube-Limit "64"]\n'
                        "3 point match\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5\n")
    assert list(game.tags)[:5] == ["SomeKey", "BlackElo", "MatchID", "CubeLimit", "Variant"]
    text, _ = write([game])
    assert text.startswith('; [SomeKey "v"]\n; [Player 2 Elo "1700/3"]\n; [Match ID "9"]\n; [CubeLimit "64"]\n')


def test_every_known_header_maps_to_its_tag_and_back() -> None:
    headers = "".join(f'; [{key} "{"Backgammon" if tag == "Variant" else tag.lower()}"]\n'
                      for key, tag in mat.HEADER_TAGS)
    (game,) = read_text(headers + " 1 point match\n Game 1\n white : 0   black : 0\n")
    assert [game.tags[tag] for _, tag in mat.HEADER_TAGS] == [
        "short" if tag == "Variant" else tag.lower() for _, tag in mat.HEADER_TAGS]
    text, _ = write([game])
    assert text.startswith(headers)


@pytest.mark.parametrize(("rule", "crawford_games"), [
    ("", ["2"]), ('; [Crawford "On"]\n', ["2"]), ('; [Crawford "Off"]\n', []),
    ('; [Rules "crawford=off"]\n', []),  # the rule the games are judged under (nardy writes it so)
    ('; [Crawford "Off"]\n; [Rules "crawford=on"]\n', ["2"]),  # which the Rules header sets, if it does
    ('; [Variation "LongNardy"]\n; [Rules "cube=on"]\n', []),  # long nardy has no Crawford rule
])
def test_the_crawford_game_is_inferred_from_the_scores(rule: str, crawford_games: list[str]) -> None:
    game = " Game {}\n a : {}   b : {}\n  1) 31: 8/5 6/5\n      Wins 1 point\n"
    text = rule + " 3 point match\n" + "".join(game.format(*args) for args in [(1, 0, 0), (2, 0, 2), (3, 1, 2)])
    games = read_text(text)
    assert [g.tags["Game"] for g in games if g.tags.get("Crawford") == "yes"] == crawford_games
    assert [comparable(g) for g in read_text(write(games)[0])] == [comparable(g) for g in games]


RULED = """; [Player 1 "a"]
; [Player 2 "b"]
; [Variation "Backgammon"]
{headers}
 {length} point match

 Game 1
 a : 0                          b : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
      Wins 1 point

"""


@pytest.mark.parametrize(("length", "headers", "rules"), [
    (3, '; [Crawford "Off"]', "crawford=off"),
    (3, '; [Crawford "On"]\n; [Jacoby "On"]', "jacoby=on"),  # as XG writes: Jacoby counts in money play only
    (0, '; [Crawford "Off"]\n; [Jacoby "On"]', "jacoby=on"),  # no Crawford rule in money play
    (3, '; [Crawford "off"]\n; [Rules "cube=off"]', "cube=off crawford=off"),
    (3, '; [Crawford "Off"]\n; [Rules "crawford=on"]', "crawford=on"),  # nardy's own Rules header says more
    (3, '; [Crawford "On"]\n; [Jacoby "maybe"]', None)])
def test_the_crawford_and_jacoby_headers_state_the_rules(length: int, headers: str, rules: str | None) -> None:
    text = RULED.format(headers=headers + "\n", length=length)
    (game,) = read_text(text)
    assert game.tags.get("Rules") == rules
    written, warnings = write([game])
    assert (written, warnings) == (text, [])  # the Rules tag is written only where it says more


@pytest.mark.parametrize("length", [0, 3])
def test_rule_headers_and_a_rules_header_read_back_the_same_after_writing(length: int) -> None:
    """Every mix of the Crawford and Jacoby headers with a Rules header: written and read again, a game
    keeps its tags and its rules. A Rules header that only repeats the other two is left out; all
    else is written as it was read."""
    for crawford, jacoby, rules in itertools.product((None, "On", "Off"), (None, "On", "off"), (
            None, "cube=off", "crawford=off", "jacoby=on", "bogus", "cube=off, jacoby=on", "short crawford=on")):
        headers = "".join(f'; [{key} "{value}"]\n' for key, value in (
            ("Crawford", crawford), ("Jacoby", jacoby), ("Rules", rules)) if value is not None)
        text = RULED.format(headers=headers, length=length)
        (game,) = read_text(text)
        written = write([game])[0]
        (again,) = read_text(written)
        assert (again.tags, str(replay(again).rules)) == (game.tags, str(replay(game).rules)), text
        repeated = rules is not None and set(rules.split()) <= set(mat.header_rules(game.tags))
        assert written == text or repeated, text


def test_a_crawford_off_match_may_double_when_a_player_is_one_point_away(tmp_path: Path) -> None:
    game = " Game {}\n a : {}                          b : {}\n  1) 31: 8/5 6/5                 64: 24/18 13/9\n{}"
    text = (' 3 point match\n\n' + game.format(1, 0, 0, "      Wins 2 points\n\n")
            + game.format(2, 2, 0, "  2)  Doubles => 2                Takes\n" + " " * 34 + "Wins 2 points\n\n")
            + game.format(3, 2, 2, "      Wins 1 point and the match\n"))
    path = tmp_path / "m.mat"
    for header, findings in (("", ["cube"]), ('; [Crawford "Off"]\n', [])):
        path.write_text(header + text, encoding="utf-8")
        report = json.loads(CliRunner().invoke(cli, ["validate", str(path), "--format", "json", "-j", "1"]).stdout)
        assert [finding["code"] for finding in report["findings"]] == findings


def test_a_game_without_moves_resigned_at_once() -> None:
    (game,) = read_text(" 3 point match\n Game 1\n a : 0   b : 0\n  1)  Losses 1 point       Wins 1 point\n")
    assert (game.errors, game.result, game.actions) == ([], "0-1", [
        Action(side=WHITE, kind="resign", value=1, number=1, line=4, column=28)])


EMPTY_PLAYS = """ 3 point match

 Game 1
 a : 0                          b : 0
  1) 31: 8/5 6/5                 42:
  2) 62: 24/18 13/11             32: 24/21 13/11
  3) 51: 13/8 6/5                64:
      Wins 1 point

 Game 2
 a : 1                          b : 0
  1) 62:
"""


def test_an_empty_play_is_no_play_possible_but_before_a_resignation_or_at_an_unfinished_end() -> None:
    """Servers leave the play of a roll empty when none was possible, and also (as Galaxy writes
    '????') when the roller resigned instead of playing, or the record stops before the play."""
    resigned, unfinished = read_text(EMPTY_PLAYS)
    assert [action.moves for action in rolls(resigned)][1::2] == [(), parse_play("24/21 13/11"), None]
    assert (resigned.result, resigned.tags["Termination"], non_rolls(resigned)) == ("1-0", "resign",
                                                                                   [(BLACK, "resign", 1)])
    assert [(finding.code, finding.line) for finding in replay(resigned).findings] == [("not-maximal", 5)]
    assert [action.moves for action in unfinished.actions] == [None] and not replay(unfinished).findings
    assert [comparable(game) for game in read_text(write([resigned, unfinished])[0])] == [
        comparable(resigned), comparable(unfinished)]


# --- errors ------------------------------------------------------------------


def test_malformed_lines_are_located_and_the_next_game_survives() -> None:
    first, second = read(DATA / "errors.mat")
    lines = (DATA / "errors.mat").read_text().splitlines()
    assert [(e.line, e.column) for e in first.errors] == [
        (5, lines[4].index("24/x3") + 1), (6, 6), (6, lines[5].index("Dubbles") + 1), (8, 1)]
    messages = [e.message for e in first.errors]
    assert "expected a move like 24/18 or 6/off(2), found '24/x3'" in messages[0]
    assert messages[1] == "expected two dice 1-6 before ':', found '71'"
    assert "'Doubles => 2'" in messages[2] and "found 'Dubbles => 2'" in messages[2]
    assert messages[3].endswith("found 'Nonsense here'")
    assert [a.dice for a in rolls(first)] == [(4, 1), (4, 2)]  # the good cells of bad lines are kept
    assert (second.errors, second.result, len(rolls(second))) == ([], "1-0", 2)


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    (" 1 point match\n Game 1\n Alice 0   Bob 0\n  1) 31: 8/5 6/5\n", 3, 1,
     "expected the score line 'name : score   name : score' after ' Game 1', found 'Alice 0   Bob 0'"),
    (" Game 1\n a : 0   b : 0\n", 1, 1, "expected 'N point match' before ' Game 1', found none"),
    ("hello\n 1 point match\n Game 1\n a : 0   b : 0\n", 1, 1,
     "expected a header '; [Key \"value\"]', 'N point match' or ' Game N', found 'hello'"),
    (" 1 point match\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n  2) 42: 8/4 6/4\n", 6, 6,
     "expected nothing after the result 1 point(s), found '42: 8/4 6/4'"),
    (" 1 point match\n Game 1\n a : 0   b : 0\n      Wins 1 point\n                                  Wins 2 points\n",
     5, 35, "expected the result stated on line 4, found a different one"),
    ("; [Site \"Kazan\"]\n 5 point match\n", 1, 1, "expected a MAT match (' Game N' and its moves), found no game"),
])
def test_error_locations(text: str, line: int, column: int, message: str) -> None:
    games = read_text(text)
    assert [(e.line, e.column, e.message) for game in games for e in game.errors] == [(line, column, message)]


def test_bad_point_in_a_play_is_located_at_the_point() -> None:
    (game,) = read_text(" 1 point match\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/27\n")
    (error,) = game.errors
    assert (error.line, error.column) == (4, len("  1) 31: 8/5 6/") + 1)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([
    " 3 point match", " Game 1", " Game x", " a : 0   b : 0", "  1) 31: 8/5 6/5      42: 8/4 6/4",
    "  2)  Doubles => 2   Takes", "      Wins 1 point", "  3) 99: 1/2", "; [Site \"x\"]", "; [Site", "\ufeff",
    "  4)  Losses 2 point", "  5) 63: ????   Wins 3 points", "garbage", "", ":", "  6) 11: bar/off/3(9)",
]) | st.text(max_size=40), max_size=12))
def test_the_reader_never_raises(lines: list[str]) -> None:
    for game in mat.read_games(lines):
        assert isinstance(game, GameRecord)


def test_games_are_read_one_at_a_time() -> None:
    text = (DATA / "gnubg.mat").read_text()
    consumed = 0

    def counted() -> Iterator[str]:
        nonlocal consumed
        for line in text.splitlines():
            consumed += 1
            yield line

    games = mat.read_games(counted())
    assert next(games).tags["Game"] == "1"
    assert consumed < len(text.splitlines())


# --- writer ------------------------------------------------------------------


def test_writer_uses_gnubg_layout() -> None:
    text, warnings = write(read(DATA / "xg.mat"))
    assert warnings == []
    lines = text.splitlines()
    game = lines.index(" Game 1")
    assert lines[game - 2:game + 7] == [
        " 7 point match",
        "",
        " Game 1",
        " Kévin Unger : 0                Maxence Job : 0",
        "  1)                             52: 13/11 13/8",
        "  2) 32: 6/3* 3/1*               52: bar/23 bar/20",
        "  3) 53: 10/5* 8/5               61:",
        "  4) 41: 4/off 1/off             33: ????",
        "      Wins 2 points",
    ]


def test_writer_places_cube_actions_and_results_like_gnubg() -> None:
    text, _ = write(read(DATA / "gnubg.mat"))
    assert "  2)  Doubles => 2                Drops\n      Wins 1 point\n" in text
    assert "  2) 21: 13/11/10                 Doubles => 2\n  3)  Drops                      Wins 1 point\n" in text
    text, _ = write(read(DATA / "studio.mat"))
    assert "  6) 63: ????                    Wins 2 points\n" in text
    assert " 10) 54: 5/1 4/off               11: 6/4(2)\n      Wins 1 point\n" in text


def test_writer_keeps_two_spaces_after_a_long_left_cell() -> None:
    long_play = "24/23* 23/22* 22/21* 21/20*"
    game = GameRecord(tags={"Variant": "short", "MatchLength": "1"}, result="0-1", actions=[
        Action(WHITE, dice=(1, 1), moves=tuple(Move((p, p - 1), (True,)) for p in (24, 23, 22, 21))),
        Action(BLACK, kind="double", value=2), Action(WHITE, kind="drop")])
    text, _ = write([game])
    assert f"  1) 11: {long_play}   Doubles => 2" in text
    (again,) = read_text(text)
    assert (again.errors, non_rolls(again)[0]) == ([], (BLACK, "double", 2))


def test_writer_writes_ratings_that_are_not_from_elo_headers() -> None:
    (game,) = read(DATA / "ratings.mat")
    text, _ = write([game])
    assert " alice,1650 : 0                 bob,1720.5 : 0\n" in text
    (galaxy, _) = read(DATA / "galaxy.mat")
    assert " lasse : 0 " in write([galaxy])[0]  # its ratings come from the Elo headers


def test_beaver_round_trip_and_replay() -> None:
    (game,) = read(DATA / "ratings.mat")
    text, _ = write([game])
    assert "  2)  Doubles => 2                Beavers => 4\n  3) 21: 9/7 8/7 " in text
    assert [f for f in replay(game).findings if f.code == "cube"] == []


def test_writer_computes_missing_cube_values_scores_and_game_numbers() -> None:
    def game(result: str) -> GameRecord:
        return GameRecord(tags={"White": "a", "Black": "b", "Variant": "short", "MatchLength": "5"}, result=result,
                          actions=[Action(WHITE, dice=(3, 1), moves=()), Action(BLACK, kind="double"),
                                   Action(WHITE, kind="take"), Action(WHITE, kind="double"),
                                   Action(BLACK, kind="drop")])

    text, warnings = write([game("4-0"), game("0-4")])
    assert warnings == []
    assert [line for line in text.splitlines() if " : " in line] == [
        " a : 0                          b : 0", " a : 4                          b : 0"]
    assert "Doubles => 2" in text and "Doubles => 4" in text and " Game 2\n" in text
    assert "Wins 4 points and the match" not in text.split(" Game 2")[0]


@pytest.mark.parametrize(("change", "expected"), [
    (lambda g: g.comments.append("nice"), "comments dropped: MAT has no comments"),
    (lambda g: g.actions[0].comments.append("?!"), "comments dropped: MAT has no comments"),
    (lambda g: setattr(g, "result", "*"), "result '*' cannot be written"),
    (lambda g: setattr(g, "result", None), "a resignation with no result cannot be written"),
    (lambda g: setattr(g, "result", "1/2-1/2"), "result '1/2-1/2' cannot be written"),
    (lambda g: g.tags.update(Position="long w 15/24 15/24"),
     "tag Position ('long w 15/24 15/24') cannot be expressed"),
    (lambda g: g.tags.update(Termination="time"),
     "termination 'time' cannot be expressed: the MAT text implies resign"),
    (lambda g: g.tags.update(Result="2-0"), "Result tag '2-0' dropped"),
    (lambda g: g.tags.update(Crawford="yes"), "Crawford tag 'yes' cannot be expressed"),
    (lambda g: g.tags.update(Crawford="yes", MatchLength="7", Score="6-5", Variant="short"),
     "MAT readers infer the Crawford game from the scores, and cannot tell whether this game is the Crawford game"),
    (lambda g: g.tags.update(WhiteRating="strong"), "WhiteRating 'strong' cannot be written"),
    (lambda g: g.tags.update(MatchLength="seven"), "match length 'seven' is not a number"),
    (lambda g: g.tags.update(Event="two\nlines"), "tag Event: line breaks in its value written as spaces"),
    (lambda g: g.actions.append(Action(BLACK, dice=None)), "a roll of Black without dice cannot be written"),
    (lambda g: g.actions.append(Action(BLACK, kind="offer")),  # type: ignore[arg-type]  # no kind, on purpose
     "action 'offer' cannot be written"),
])
def test_writer_warns_about_what_mat_cannot_hold(change: Callable[[GameRecord], object], expected: str) -> None:
    (game,) = read(DATA / "long.mat")
    change(game)
    _, warnings = write([game])
    assert len(warnings) == 1 and warnings[0].startswith("game 1 (Arkady – Boris): ") and expected in warnings[0]


def test_a_game_without_a_result_is_written_without_one_and_no_warning() -> None:
    games = read(DATA / "long.mat")
    games[-1].result = None
    del games[-1].actions[-1], games[-1].tags["Termination"]  # and no resignation
    text, warnings = write(games)
    assert warnings == [] and "Wins" not in text.split(" Game ")[-1]
    assert [comparable(g) for g in read_text(text)] == [comparable(g) for g in games]


@pytest.mark.parametrize(("side", "name", "written"), [
    ("White", "#1 seed", "1 seed"), ("White", ";-)", "-)"),  # a comment line: the game lost its score line
    ("White", "Team:2 Bob", "Team 2 Bob"),  # read back as 'Team', scoring 2
    ("Black", "Bob,1500", "Bob 1500"),  # read back as 'Bob', rated 1500
    ("Black", " Ann ", "Ann")])
def test_a_name_the_score_line_cannot_hold_is_written_so_that_it_reads_back(side: str, name: str, written: str) -> None:
    (game,) = read(DATA / "long.mat")
    game.tags[side] = name
    text, warnings = write([game])
    assert len(warnings) == 1 and f"{side}'s name {name!r} would be read back from the score line" in warnings[0]
    assert warnings[0].endswith(f"written as {written!r}")
    (again,) = read_text(text)
    assert again.errors == [] and again.tags[side] == written and again.actions == game.actions


def test_writer_starts_a_new_match_when_the_match_tags_change() -> None:
    games = read(DATA / "gnubg.mat")[:1] + read(DATA / "long.mat")
    text, warnings = write(games)
    assert text.count("point match") == 2
    assert warnings == ["game 2 (Arkady – Boris): its match tags differ from the game before, so it starts a second "
                        "match in the file; GNU Backgammon imports only the first match of a file"]
    assert [comparable(g) for g in read_text(text)] == [comparable(g) for g in games]


def test_two_matches_of_the_same_players_are_two_matches_with_their_own_crawford_games() -> None:
    """Written one after the other they were one block, where the second match's Crawford game was
    'not the Crawford game' (a warning, and the reader dropped its Crawford tag)."""
    game = " Game {}\n a : {}   b : {}\n  1) 31: 8/5 6/5\n      Wins 2 points\n\n"
    played = "".join(game.format(*args) for args in [(1, 0, 0), (2, 2, 0), (3, 4, 0)])
    games = read_text(" 3 point match\n\n" + played) * 2
    assert [g.tags.get("Crawford") for g in games] == [None, "yes", None] * 2
    one_block = read_text(" 3 point match\n\n" + played + played)  # as nardy wrote them
    assert [g.tags.get("Crawford") for g in one_block] == [None, "yes", None] * 2
    text, warnings = write(games)
    assert text.count("point match") == 2
    assert warnings == ["game 4 (a – b): it is game 1 of a match, so it starts a second match in the file; GNU "
                        "Backgammon imports only the first match of a file"]
    assert [comparable(g) for g in read_text(text)] == [comparable(g) for g in games]


# --- round trips -------------------------------------------------------------------


@pytest.mark.parametrize("name", DIALECTS)
def test_round_trip_of_each_dialect(name: str) -> None:
    games = read(DATA / name)
    text, warnings = write(games)
    assert warnings == []
    assert [comparable(game) for game in read_text(text)] == [comparable(game) for game in games]


@pytest.mark.slow
@needs_corpus
def test_every_corpus_file_reads_without_errors_and_round_trips() -> None:
    games_seen = 0
    for path in CORPUS_FILES:
        games = read(path)
        assert [str(e) for game in games for e in game.errors] == [], path
        assert all(game.result for game in games), path
        text, warnings = write(games)
        empty = [game for game in games if not all(game.tags.get(side) for side in ("White", "Black"))]
        assert len(warnings) == len(empty), path  # an empty name is written as the side's name
        for game in empty:
            game.tags.update({side: game.tags.get(side) or side for side in ("White", "Black")})
        assert [comparable(game) for game in read_text(text)] == [comparable(game) for game in games], path
        games_seen += len(games)
    assert games_seen > 800


# --- GNU Backgammon ------------------------------------------------------------

GNUBG_FILES = [  # a Galaxy match with "Losses", Studio's "????", XG's export and a tournament .mat
    "bglab-sample/lasse__match10059423.txt",
    "bglab-sample/Llabba__Llabba_-_DrVirus_13pt_Backgammon_Studio_2023_04_17_14_13_25.txt",
    "tournament/kevung_gbf__test_HSBT-Paris-2023_Unger-Job_7pt_XGstyle.txt",
    "tournament/kevung_gbf__test_HSBT-Paris-2023_Unger-Job_7pt.mat",
]
_GNUBG_NOISE = re.compile(
    r"( [|+].*|[v^]\|.*| GNU Backgammon  Position ID: .*| +Match ID +: .*|GNU Backgammon \d.*|Copyright .*"
    r"|This (program comes|is free software).*|Will not display boards for computer moves\.|)")
_GNUBG_SCORE = re.compile(r"The score \(after (\d+) games?\) is: .*? \((?:match to|money)[^)]*\)")


def test_gnubg_imports_written_files_without_warnings(gnubg: str, corpora: Path, tmp_path: Path) -> None:
    commands = ["set display off"]
    expected_games = []
    for number, name in enumerate(GNUBG_FILES):
        games = read(corpora / name)
        written = tmp_path / f"{number}.mat"
        with written.open("w", encoding="utf-8") as out:
            assert mat.write_games(games, out) == []
        commands += [f"import mat {written}", "show score"]
        expected_games.append(len(games))
    script = tmp_path / "commands.txt"
    script.write_text("\n".join(commands) + "\n")
    run = subprocess.run([gnubg, "-t", "-q", "-c", str(script)], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=60)
    output = run.stdout + run.stderr
    imported = [int(n) for n in _GNUBG_SCORE.findall(output)]
    complaints = [line for line in _GNUBG_SCORE.sub("", output).splitlines() if not _GNUBG_NOISE.fullmatch(line)]
    assert complaints == []
    assert imported == expected_games


def test_gnubg_reads_nardy_s_nackgammon_mat_and_sgf_as_nackgammon(gnubg: str, tmp_path: Path) -> None:
    """GNU Backgammon's own Nackgammon match, read by nardy and written as MAT and SGF, is a
    Nackgammon match with the same results to GNU Backgammon; nardy reads GNU Backgammon's SGF of
    each as it read the MAT, legal throughout."""
    games = read(DATA / "gnubg-nackgammon.mat")
    written_mat, written_sgf = tmp_path / "nack.mat", tmp_path / "nack.sgf"
    with written_mat.open("w", encoding="utf-8") as out:
        assert mat.write_games(games, out) == []
    with written_sgf.open("w", encoding="utf-8") as out:
        sgf.write_games(games, out)  # its warnings: SGF has no hit marks
    loads = [f"import mat {DATA / 'gnubg-nackgammon.mat'}", f"import mat {written_mat}", f"load match {written_sgf}"]
    saved = [tmp_path / f"gnubg{number}.sgf" for number in range(len(loads))]
    script = tmp_path / "commands.txt"
    commands = ["set display off", *(f"{load}\nsave match {path}" for load, path in zip(loads, saved))]
    script.write_text("\n".join(commands) + "\n")
    subprocess.run([gnubg, "-t", "-q", "-c", str(script)], capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
    for path in saved:
        records = list(sgf.read_games(path.read_text(encoding="utf-8").splitlines(True)))
        assert [(r.tags["Position"], r.result) for r in records] == [(g.tags["Position"], g.result) for g in games]
        assert all("RU[" in text and "Nackgammon" in text for text in path.read_text().split("(;")[1:])
        assert [replay(record).findings for record in records] == [[]] * len(games)


@pytest.mark.parametrize("text", ["", "\n\n", "\ufeff  \r\n\t\n"])
def test_a_blank_file_holds_no_game(text: str) -> None:
    assert read_text(text) == []  # as in every notation: the run says "no game in this input"


def test_a_match_without_a_game_is_a_short_nardy_record() -> None:
    (game,) = read_text(" 5 point match\n")
    assert game.tags["Variant"] == "short" and game.errors
