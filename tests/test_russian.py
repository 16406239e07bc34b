"""nardy validate --lang ru: every finding message, its place and the summary in Russian, plurals right."""
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli import russian
from nardy_cli.cli import cli
from nardy_cli.labels import plural

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_validate import CASES  # every finding code with its English line

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


def test_places_name_move_side_and_cube_actions_in_russian():
    line = ("game.ntn:5:28: game 1 (Алиев Р. – Petrov S.), move 1 Black double 2: cube: the doubling cube is not "
            "used (cube=off)")
    assert russian.finding_line(line) == ("game.ntn:5:28: партия 1 (Алиев Р. – Petrov S.), ход 1 чёрные удвоение 2: "
                                          "cube: куб удвоения не используется (cube=off)")


@pytest.mark.parametrize("n, text", [(1, "1 партия"), (2, "2 партии"), (4, "4 партии"), (5, "5 партий"),
                                     (11, "11 партий"), (21, "21 партия"), (22, "22 партии"), (112, "112 партий")])
def test_russian_plurals(n, text):
    assert plural("games", n, "ru") == text


def test_validate_in_russian():
    result = CliRunner().invoke(cli, ["validate", "sample_games/long", "--lang", "ru"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[-3] == ("2 файла, 8 партий, 751 ход, 3 партии без нарушений, 5 нарушений "
                         "(dice 1, head 1, not-maximal 1, result 1, six-block 1)")
    assert lines[-1].startswith("правила: длинные нарды opening=reroll") and lines[-1].endswith("(1 партия)")
    assert "ход 5 чёрные 54: 24/19 24/20: head: с головы снято две шашки" in result.output


def test_report_summary_has_russian_plurals(tmp_path):
    result = CliRunner().invoke(cli, ["stats", "sample_games/long", "-q", "--lang", "ru", "--out", str(tmp_path)])
    assert result.exit_code == 0
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<p>8 партий, 2 файла, 751 ход, 3 партии без нарушений, 5 нарушений</p>" in page
