"""nardy validate --lang ru: every finding message, its place and the summary in Russian, plurals right."""
import re
import struct
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.cli.main import cli
from nardy_cli.notations import analysis, jsonl, mat, ntn, sgf
from nardy_cli.record import ERROR_LIMIT, InputErrorBudget
from nardy_cli.replay import replay
from nardy_cli.reporting import russian
from nardy_cli.reporting.labels import plural

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_validate import CASES  # every finding code with its English line
from test_xg import footer, game_header, match_header, move, pack, read_bytes, record
from test_xg import game as xg_game

MORE = [  # messages of the replay that CASES does not reach, as the replay writes them
    ("Black has no checker on 12 (Black's points are counted from Black's own side: was the play written in "
     "White's numbering?); the replay stops here: the recorded play cannot be made on the board"),
    "22/19 is a move too many: the moves before it use every die of the roll 63",
    "3 moves for a roll of 63", "no die played where 2 can be", "2 dice played where 4 can be",
    "more than two checkers left the head",
    "two checkers left the head: one checker can play the whole 3-3 from the head",
    "White bears off from 3 before all checkers are home",
    "24/20: point 20 is made by two or more checkers of White",
    "White must enter the checker on the bar before moving 13", "Black rolled without answering the double",
    "Black moved but it was White's turn",
    "White doubled on Black's turn", "White doubled without owning the cube", "the cube goes to 4, not 8",
    "Black answered (take) no double", "a beaver is allowed only in money play", "no doubling in the Crawford game",
    "the opening dice are the first roll and cannot be a double", "a turn without dice",
    "declared 1-0 but the game is not over (no finish, drop or resignation recorded)",
    "declared a draw but Black won on a dropped double: 0-2", "declared 2-0 but White won by resignation: 1-0",
    "the game is over (the last roll made it a draw (1/2-1/2)) but marked unfinished",
    "result 0-0 names no single winner", "unreadable result 'x': expected W-B points, 1/2-1/2 or *",
    "unknown tag 'Venue' (kept): the standard tags are Event, Site",
    "the moves do not match the roll 63", "only one die can be played and the 6 must be",
]
ENGLISH = re.compile(r"\b(?!bar\b|off\b)[A-Za-z]{3,}\b")  # a word of English; bar/off are point names


def english_left(text: str) -> list[str]:
    text = re.sub(r"'[^']*'|\([a-z_]+=[a-z-]+\)|\b[A-Z][a-z]+(?:, [A-Z][a-z]+)*$", "", text)  # names, options, tags
    return ENGLISH.findall(text)


@pytest.mark.parametrize("code", sorted(CASES))
def test_every_finding_line_is_in_russian(code):
    line = russian.finding_line(CASES[code][1])
    where, rest = line.split(": ", 1)
    assert where == CASES[code][1].split(": ", 1)[0]
    assert rest.startswith("партия 1 (")
    message = line.split(f": {code}: ", 1)[1]
    assert english_left(message) == [], message


@pytest.mark.parametrize("message", MORE)
def test_every_message_of_the_replay_is_in_russian(message):
    translated = russian.message(message)
    assert translated != message and english_left(translated) == [], translated


@pytest.mark.parametrize(("error", "russian_error"), [
    ("it names short nardy, but the game is long nardy (its Variant tag)",
     "в нём правила коротких нард, а партия — длинных нард (тег Variant)"),
    ("head=clasic is not allowed in crazy nardy: expected one of classic, general, strict",
     "head=clasic не допускается в правилах бешеных нард: ожидалось одно из 'classic', 'general', 'strict'"),
    ("rule option 'cascade' does not exist in short nardy: its options are scoring=backgammon (short nardy)",
     "в правилах коротких нард нет опции 'cascade': их опции — scoring=backgammon (короткие нарды)"),
    ("unknown rule option 'x': the options are cube=off|on (long nardy); cascade=four|two (crazy nardy)",
     "неизвестная опция правил 'x'; опции — cube=off|on (длинные нарды); cascade=four|two (бешеные нарды)"),
    ("expected key=value, found 'x'", "ожидалось 'ключ=значение', найдено 'x'"),
])
def test_a_rules_tag_error_is_in_russian(error, russian_error):
    """The error itself was left in English; the rule texts stay as they are typed."""
    assert russian.message(f"Rules tag: {error}; the game is judged without the tag, under long cube=off") == (
        f"тег Rules: {russian_error}; партия проверена без него, по правилам long cube=off")


def test_places_name_move_side_and_cube_actions_in_russian():
    line = ("game.ntn:5:28: game 1 (Алиев Р. – Petrov S.), move 1 Black double 2: cube: the doubling cube is not "
            "used (cube=off)")
    assert russian.finding_line(line) == ("game.ntn:5:28: партия 1 (Алиев Р. – Petrov S.), ход 1 чёрные удвоение 2: "
                                          "cube: куб удвоения не используется (cube=off)")


@pytest.mark.parametrize("n, text", [(1, "1 партия"), (2, "2 партии"), (4, "4 партии"), (5, "5 партий"),
                                     (11, "11 партий"), (21, "21 партия"), (22, "22 партии"), (112, "112 партий")])
def test_russian_plurals(n, text):
    assert plural("games", n, "ru") == text


@pytest.mark.slow
def test_validate_in_russian():
    result = CliRunner().invoke(cli, ["validate", "sample_games/long", "--lang", "ru"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[-3] == ("2 файла, 8 партий, 751 ход, 3 партии без нарушений, 5 нарушений "
                         "(dice 1, head 1, not-maximal 1, result 1, six-block 1)")
    assert lines[-1].startswith("правила: длинные нарды opening=reroll") and lines[-1].endswith("(1 партия)")
    assert "ход 5 чёрные 54: 24/19 24/20: head: с головы снято две шашки" in result.output


@pytest.mark.slow
def test_report_summary_has_russian_plurals(tmp_path):
    result = CliRunner().invoke(cli, ["stats", "sample_games/long", "-q", "--lang", "ru", "--out", str(tmp_path)])
    assert result.exit_code == 0
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<p>8 партий, 2 файла, 751 ход, 3 партии без нарушений, 5 нарушений</p>" in page


# Bad inputs for each reader; every syntax error, note and finding they give must come out in Russian.
BAD_TEXT = {
    ntn: ["1. 7x: 24/18\n", '[Event "a"]\n[Event "b"]\n', "{open\n", "1. 63 24/18 13/10\n", "hello\n",
          "0. 63: 24/18 13/10\n", "2. 63: 24/18 13/10 1. 52: 13/8 13/11\n", "1. 63: 24/18 13/10 > 1-0\n", "1. 63:\n",
          '[Result "1-0"]\n1. 63: 24/18 13/10 0-1\n', "1. 63: 27/21 13/10\n", "1. 63: 24/x\n", "1. 63: 6/off/3\n",
          "1. 63: 24/18(7)\n", "[x\n", "1. 63: 24/18 13/10 {[%analysis move played=x]}\n",
          "1. 63: 24/18 13/10 {[%analysis bad]}\n", "1. 63: 24/18 13/10 {[%analysis move played=inf]}\n",
          "1. 63: 24/18 13/10 {[%analysis move zzz=1]}\n", "[x\n" * 150],
    mat: [" 1 point match\n\n Game 1\n x\n", " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 7x: 24/18\n",
          " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 63: 24/x\n",
          " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) Foo\n", "hello\n", " Game 1\n A : 0   B : 0\n", "\n",
          " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 63: 24/18 13/10\n      Wins 1 point\n  2) 52: 13/8\n",
          (" 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 63: 24/18 13/10\n" + " " * 29 + "Wins 1 point\n"
           + " " * 29 + "Wins 2 point\n")],
    sgf: ["(;GM[6]FF[4]RU[Hypergammon]PL[X]CV[x]CP[q]AW[zz]DI[9]", "(;GM[6]FF[4]\n;W[31a])",
          "(;GM[6]FF[4]\n;W[foo])", "(x", "(;[x])", "(;ab[x])", "(;GM[6]FF[4]\n;W[31]B[52])",
          "(;GM[6]FF[4]MI[length:x]NT[x])", "(;C[x", "(;GM[6]FF[4]\n#", "(;GM", "(;GM[6]FF[4]AW[a]AB[b])",
          "(;GM[6]FF[4]\n;W[31eded]NA[bad])", "(;GM[6]FF[4]\n;W[31eded])\n(;GM[6]FF[4]\n;B[52",
          "(;GM[6]FF[4]\n(;W[31eded]\n(;GM[6]FF[4])"],
    jsonl: [f'{{"actions": [{{"side": "w", "dice": [6, 3], {field}}}]}}\n' for field in (
                '"kind": "x"', '"play": 1', '"play": "24/x"', '"value": "x"', '"analysis": 1', '"analysis": [1]',
                '"analysis": [{"x": 1}]', '"analysis": [{"level": 1}]', '"analysis": [{"best": "x"}]',
                '"analysis": [{"decision": "x"}]', '"comments": 1')]
           + ['{"tags": 1}\n', '{"actions": [{"side": "x"}]}\n', "[1]\n",
              '{"actions": [{"side": "w", "dice": [7, 1]}]}\n', '{"actions": [{"side": "w"}]}\n', '{"actions": [{}]}\n',
              '{"result": 1}\n', '{"comments": 1}\n', '{"actions": 1}\n', '{"actions": [1]}\n',
              '{"a": }\n', '{"a": 1} x\n', '{"a": 1}\n{"a" 1}\n', '[{"a": 1}\n',
              '{"a": 1, }\n', '{"a": "x\n', '{"a": 1}\n{"a": [1,]}\n', '{"a": 1}\n{"a": "\\x"}\n',
              '{"side": "w", "dice": [6, 3]}\n', '{"actions": [{"side": "w", "dice": [6, 3], "x": 1}]}\n',
              '[{"tags": {}, "side": "w"},\n{"kind": "roll"},\n{"tags": {}}]\n', '[{"x": 1},\n5]\n', '{\n"x": 1} 5\n'],
}
CROWDED = struct.pack("<26b", 0, *([1] * 20), 0, 0, 0, 0, 0)
BAD_XG = [
    [match_header(), game_header(1), record(9), *xg_game(1)[1:]],
    [match_header(), game_header(1), move(1, (3, 1), (7, 4, 5, 4), CROWDED), footer(-1, 1, 101)],
    [match_header(), game_header(1), move(1, (7, 1), (7, 4, 5, 4)), footer(-1, 1, 101)],
    [match_header(), game_header(1), move(1, (3, 1), (20, 4, 5, 4)), footer(-1, 1, 101)],
    [match_header(), record(1, {21: CROWDED, 48: struct.pack("<i", 1), 56: struct.pack("<ii", -1, -1)}),
     *xg_game(1)[1:]],
]
# words the notations spell in English and the Russian keeps: formats, tags, JSON fields and values, analysis fields
NOTATION_WORDS = {"MAT", "JSON", "Event", "Result", "null", *jsonl.GAME_FIELDS.names, *jsonl.ACTION_FIELDS.names,
                  *jsonl.KINDS, *analysis.NUMBERS, *analysis.DECISIONS, "decision", "level"}


def reader_messages() -> list[tuple[str, str]]:
    """(input, message) for every error, note and syntax finding the bad inputs give, the caps included."""
    games = [(text, game) for reader, texts in BAD_TEXT.items() for text in texts
             for game in reader.read_games(text.splitlines(keepends=True), "bad")]
    games += [(repr(records), game) for records in BAD_XG for game in read_bytes(pack(records))[0]]
    found = [(text, error.message) for text, game in games for error in [*game.errors, *game.notes]]
    found += [(text, finding.message) for text, game in games for finding in replay(game).findings
              if finding.code == "syntax"]
    budget = InputErrorBudget()
    for _ in range(ERROR_LIMIT + 3):
        budget.admit("bad.ntn")
    return found + [("bad.ntn", message) for message in budget.messages()]


def test_reader_messages_are_in_russian():
    messages = reader_messages()
    assert any("more syntax errors in this game" in message for _, message in messages)
    untranslated = []
    for text, message in messages:
        translated = russian.message(message)
        left = [word for word in english_left(translated) if word not in text and word not in NOTATION_WORDS]
        if translated == message or left:
            untranslated.append((message, translated, left))
    assert untranslated == []


def test_validate_prints_a_syntax_error_in_russian(tmp_path):
    (tmp_path / "bad.ntn").write_text("1. 7x: 24/18\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", "--lang", "ru", str(tmp_path / "bad.ntn")])
    assert (f'{tmp_path / "bad.ntn"}:1:4: партия 1 (? – ?): syntax: ожидался бросок вида 63: или 6-3:, '
            'а найдено "7x:"') in result.output


@pytest.mark.parametrize("text", ["long w 24x16 24x15", "long q 24x15 24x15", "long w 24x15,99 24x15", "foo w 1 2",
                                  "long w 24x15 24x15 cube=3", "short w 1 2 zz", "long w 24x15,24 24x15",
                                  "long w 24x15,1x0 24x15"])
def test_a_bad_position_tag_is_in_russian(text):
    from nardy_cli.core.position import Position, PositionError

    with pytest.raises(PositionError) as raised:
        Position.parse(text)
    translated = russian.message(f"Position tag: {raised.value}")
    assert english_left(translated) == [], translated
    assert english_left(russian.message("Position tag is short nardy but the game is long")) == []
