"""Board diagrams and pictures, and the show command."""
import io
import itertools
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from click.testing import CliRunner
from matplotlib.patches import Circle, FancyArrowPatch

from gnubg_judge import gnubg_module, require_gnubg_module
from nardy_cli import notations
from nardy_cli.cli.main import cli
from nardy_cli.core.engine import FindingStep
from nardy_cli.core.position import Position
from nardy_cli.core.sides import BLACK, WHITE, other
from nardy_cli.notations.gnubg_ids import short_position
from nardy_cli.replay import replay
from nardy_cli.reporting import board_picture
from nardy_cli.reporting.board import BoardView, board_points, over_text, text_diagram, turn_view
from nardy_cli.reporting.board_picture import board_figure
from nardy_cli.run.corpus import iter_games

ROOT = Path(__file__).resolve().parent.parent


def parse_ntn(text: str):
    return next(notations.notation("ntn").read_games(text.splitlines(keepends=True), "game.ntn"))


def run_game(path: str, number: int):
    games = list(iter_games([str(ROOT / path)], on_error=print))
    return replay(games[number - 1].record)

# Black's 62 leaves a blot on Black's 18 (White's 7); in row 2 Black's 6/1(2) hits White's blot on
# White's 24 (Black's 1); White then moves 13/11 with a checker on the bar (illegal), and Black's
# 24/20 lands on White's 5, which White holds (the replay stops there).
ILLEGAL_GAME = """[White "Ann"]
[Black "Boris"]
[Variant "short"]

1. 31: 8/5 6/5                 62: 24/18 13/11
2. 64: 24/18 13/9             55: 13/8(2) 6/1(2)
3. 21: 13/11 6/5              43: 24/20 13/10
*
"""


def diagram_rows(text: str) -> list[str]:
    """The eleven board rows of a diagram (between the borders)."""
    lines = text.splitlines()
    return lines[2:13]


def stack(rows: list[str], point: int) -> str:
    """The marks in the column of White's ``point``, from the board's edge inwards."""
    column = point - 13 if point >= 13 else 12 - point
    start = 2 + 3 * column + (5 if column >= 6 else 0)  # " |", three characters a point, "|BAR|"
    return "".join(row[start:start + 3].strip() for row in (rows[:5] if point >= 13 else rows[6:][::-1]))


def replayed_illegal_game():
    record = next(notations.notation("ntn").read_games(io.StringIO(ILLEGAL_GAME), "illegal.ntn"))
    return replay(record)


def test_board_points_put_each_side_where_it_stands():
    short = board_points(Position.start("short"))
    assert (short[24], short[1], short[12], short[6]) == ((WHITE, 2), (BLACK, 2), (BLACK, 5), (WHITE, 5))
    long = board_points(Position.start("long"))
    assert long == {24: (WHITE, 15), 12: (BLACK, 15)}


def test_text_diagram_of_the_short_start():
    text = text_diagram(BoardView(Position.start("short"), (6, 3)))
    lines = text.splitlines()
    assert lines[0].split() == [str(p) for p in range(13, 25)]
    assert lines[14].split() == [str(p) for p in range(12, 0, -1)]
    rows = diagram_rows(text)
    assert "BAR" in rows[5]
    expected = {13: "OOOOO", 17: "XXX", 19: "XXXXX", 24: "OO", 12: "XXXXX", 8: "OOO", 6: "OOOOO", 1: "XX",
                20: "", 2: ""}
    assert {point: stack(rows, point) for point in expected} == expected
    assert " O White:  pips 167, off 0" in lines and " X Black:  pips 167, off 0" in lines
    assert lines[-2] == " short nardy · White to move, dice 6-3 (points in White's numbering)"
    assert lines[-1] == " Position ID: 4HPwATDgc/ABMA"  # GNU Backgammon's, of the start


def test_text_diagram_of_long_nardy_shows_tall_stacks_with_counts_in_russian():
    position = Position.parse("long b 24x14,18 24x15")
    rows = diagram_rows(text_diagram(BoardView(position), "ru"))
    assert stack(rows, 24) == "OOOO14" and stack(rows, 18) == "O" and stack(rows, 12) == "XXXX15"
    assert "BAR" not in rows[5]
    text = text_diagram(BoardView(position), "ru")
    assert "пипсы 354" in text and "длинные нарды · ход: чёрные" in text


def test_text_diagram_shows_the_bar_and_borne_off():
    position = Position.parse("short b barx2,6x3 24,1 cube=2")
    text = text_diagram(BoardView(position))
    rows = diagram_rows(text)
    assert [row[20:25] for row in rows[:3]] == ["| O |", "| O |", "|   |"]
    assert "O White:  pips 68, off 10, bar 2" in text and "X Black:  pips 25, off 13" in text


def test_turn_view_after_a_legal_roll():
    result = replayed_illegal_game()
    view = turn_view(result, 3)
    assert view.position == result.turns[2].after and view.dice == (6, 4) and view.mover == WHITE
    assert view.steps == ((24, 18), (13, 9)) and view.note is None  # the play, marked as arrows
    assert turn_view(result, 3, before=True).position == result.turns[2].before
    assert turn_view(result, 0).position == result.start
    text = text_diagram(view)
    assert "White played 6-4 · Black to move" in text


def board_ids(view: BoardView) -> list[str]:
    """The IDs a short-nardy text board ends with: its Position ID, then (a game's board) its XGID."""
    (line,) = [line for line in text_diagram(view).splitlines() if line.startswith(" Position ID: ")]
    return line.removeprefix(" Position ID: ").split("  ")


def test_a_short_game_s_board_gives_its_position_id_and_xgid_with_the_dice_to_play():
    result = replayed_illegal_game()
    for view, dice in ((turn_view(result, 3, before=True), (6, 4)), (turn_view(result, 3), None)):
        position_id, xgid = board_ids(view)
        mover_first = (view.position.board(view.position.turn), view.position.board(other(view.position.turn)))
        for text in (position_id, xgid):
            position, rolled = short_position(text)  # the side on roll as White
            assert (position.white, position.black) == mover_first
        assert rolled == dice  # the XGID's: before the roll, the dice to play
        if dice:  # pasted back, the same legal plays as the board and its roll
            plays = run("moves", str(view.position), "64").output.splitlines()[1:]
            assert plays and len(run("moves", xgid).output.splitlines()[1:]) == len(plays)


@pytest.mark.gnubg
def test_gnubg_reads_the_xgid_of_a_board_as_nardy_does():
    """Every board of the bundled short-nardy games, before and after each roll: GNU Backgammon,
    given the XGID, shows the same Position ID, and its GNUBG ID reads as the same position, cube and dice."""
    require_gnubg_module()
    checked = 0
    sample = str(Path(__file__).parents[1] / "sample_games/short/club-night-cube.ntn")
    for game in iter_games([sample], on_error=pytest.fail):
        result = replay(game.record)
        for turn, before in itertools.product((t.turn for t in result.turns), (True, False)):
            position_id, xgid = board_ids(turn_view(result, turn, before=before))
            gnubg_module.setgnubgid(xgid)
            theirs = gnubg_module.gnubgid()
            assert theirs.split(":")[0] == position_id
            (position, dice), (ours, our_dice) = short_position(theirs), short_position(xgid)
            assert position == ours and dice == (our_dice and tuple(sorted(our_dice, reverse=True)))
            checked += 1
    assert checked > 100


def test_turn_view_of_illegal_rolls_marks_the_steps():
    result = replayed_illegal_game()
    bar = turn_view(result, 5, before=True)
    assert bar.note == "bar: White must enter the checker on the bar before moving 13"
    assert bar.steps == ((13, 11), (6, 5))  # the finding names no step: the whole play is marked
    stopped = turn_view(result)
    assert stopped.position == result.final and stopped.mover == BLACK and stopped.dice == (4, 3)
    assert stopped.steps == ((24, 20), (13, 10)) and stopped.bad == 0  # the play; the finding names 24/20
    assert stopped.note is not None
    assert stopped.note.startswith("blocked: 24/20: point 20 is made by two or more checkers of White")
    text = text_diagram(stopped)
    assert " >> 24/20 13/10 = 1/5 12/15 (in White's numbering)" in text and " !! blocked: 24/20" in text
    with pytest.raises(ValueError, match="no replayed roll 7: its rolls are 1-6"):
        turn_view(result, 7)


def test_turn_view_marks_the_step_a_finding_carries_not_its_words():
    result = replayed_illegal_game()
    stopped = next(finding for finding in result.findings if finding.code == "blocked")
    assert stopped.step == FindingStep(24, 20, 4, 1)  # 13/10 made first, 24/20 the second step
    worded = replace(stopped, message="a message naming 13/10 but about another step")
    result.findings[result.findings.index(stopped)] = worded
    assert turn_view(result).bad == 0  # 24/20, the step the finding carries
    result.findings[result.findings.index(worded)] = replace(stopped, step=FindingStep(8, 4, 4, 1))
    view = turn_view(result)
    assert view.steps == ((24, 20), (13, 10), (8, 4)) and view.bad == 2  # a step not written: drawn too


def test_board_figure_draws_checkers_arrows_and_the_finding():
    result = replayed_illegal_game()
    view = turn_view(result)
    figure = board_figure(view)
    axes = figure.axes[0]
    checkers = [patch for patch in axes.patches if isinstance(patch, Circle)]
    position = view.position
    drawn = sum(min(count, 5) for _, count in board_points(position).values())
    drawn += sum(min(position.board(side)[25], 4) for side in (WHITE, BLACK))
    assert len(checkers) == drawn
    arrows = [patch for patch in axes.patches if isinstance(patch, FancyArrowPatch)]
    assert len(arrows) == 2  # the play's steps; the one the finding names in red
    assert [arrow.get_edgecolor()[:3] for arrow in arrows] == [(0.8392156862745098, 0.15294117647058825,
                                                                  0.1568627450980392),
                                                                 (0.12156862745098039, 0.4666666666666667,
                                                                  0.7058823529411765)]
    # Black's 24/20 runs from White's 1 to White's 5 on the lower row (x = 12.5 and 8.5)
    path = arrows[0].get_path()
    vertices = cast(np.ndarray, path.vertices)  # an array: the stubs say ArrayLike
    (start_x, _), (end_x, _) = vertices[0], vertices[2]  # the curve: start, control, end
    assert start_x == pytest.approx(12.5, abs=0.2) and end_x == pytest.approx(8.5, abs=0.2)
    texts = {text.get_text(): text.get_color() for text in axes.texts}
    note = next(text for text in texts if text.startswith("blocked: 24/20"))
    assert texts[note] == "#d62728"
    assert figure.get_label() == ("O Ann (White) – X Boris (Black)\nmove 3 Black 43: 24/20 13/10\n"
                                  "short nardy · Black to move, dice 4-3 (points in White's numbering)")


KAZAN = "sample_games/long/kazan-cup-2026.ntn"


def test_show_says_the_game_is_over_who_won_how_and_the_points():
    text = run("show", KAZAN, "--game", "2").output
    assert " long nardy · White played 2-6 · game over: White won with oin, 1 point (points" in text
    assert "to move" not in text.splitlines()[-2]
    dropped = replay(parse_ntn('[Variant "short"]\n\n1. 31: 8/5 6/5  double 2\n2. drop\n0-1\n'))
    assert over_text(turn_view(dropped), "en") == "game over: Black won on a dropped double, 1 point"
    assert over_text(turn_view(dropped, before=True), "en") is None
    resigned = replay(parse_ntn('[Variant "long"]\n\n1. 63: 24/18/15  resign 2\n2-0\n'))
    assert over_text(turn_view(resigned), "ru") == "партия окончена: белые выиграли сдачей, 2 очка"


def test_show_draws_the_cube_in_the_terminal_and_the_picture(tmp_path):
    text = run("show", "sample_games/short/club-night-cube.ntn", "--turn", "20").output
    assert "· cube 2, White's (points" in text
    figure = board_figure(turn_view(replay(parse_ntn(
        (ROOT / "sample_games/short/club-night-cube.ntn").read_text(encoding="utf-8"))), 20))
    texts = [text.get_text() for text in figure.axes[0].texts]
    assert "2" in texts and "cube" in texts


def test_show_prints_blacks_play_in_both_numberings_and_names_the_move():
    text = run("show", KAZAN, "--game", "2", "--turn", "10").output
    assert text.startswith(" O Гасанова Л. (White) – X Смирнов И. (Black)\n move 5 Black 54: 24/19 24/20\n")
    assert " >> 24/19 24/20 = 12/7 12/8 (in White's numbering)" in text


def test_show_file_line_opens_the_turn_of_a_finding():
    by_place = run("show", f"{KAZAN}:73:31").output
    assert by_place == run("show", KAZAN, "--game", "2", "--turn", "10").output
    assert run("show", f"{KAZAN}:302").output == run("show", KAZAN, "--game", "5").output
    assert run("show", f"{KAZAN}:1").output == run("show", KAZAN, "--turn", "0").output  # before the first roll


def test_show_file_line_opens_a_roll_made_before_a_resignation(tmp_path):
    """The roller resigned instead of playing: the board is the one the roll came to, and the game is over."""
    game = tmp_path / "resigned.mat"
    game.write_text(" 1 point match\n\n Game 1\n a : 0                          b : 0\n"
                    "  1) 31: 8/5 6/5                 42:\n      Wins 1 point\n", encoding="utf-8")
    text = run("show", f"{game}:5:34").output
    assert "move 1 Black 42: ?" in text and "game over: White won by resignation, 1 point" in text, text
    assert "White:  pips 163, off 0" in text and "Black:  pips 167, off 0" in text  # after White's 8/5 6/5


def test_picture_of_the_tray_puts_each_count_by_its_stack():
    figure = board_figure(turn_view(run_game(KAZAN, 2)))
    counts = {text.get_text(): text.get_position() for text in figure.axes[0].texts if text.get_text() in ("15", "12")}
    assert counts["15"][1] < 6 < counts["12"][1]  # White's tray fills from the bottom, Black's from the top


@pytest.mark.slow
def test_a_text_board_imports_neither_pandas_nor_matplotlib():
    code = ("import sys; from nardy_cli.cli.main import cli\n"
            "try: cli(['show', 'sample_games/long/kazan-cup-2026.ntn', '--game', '2'])\n"
            "except SystemExit: pass\n"
            "print('pandas' in sys.modules, 'matplotlib' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.splitlines()[-1] == "False False"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_show_command(tmp_path):
    game = tmp_path / "illegal.ntn"
    game.write_text(ILLEGAL_GAME, encoding="utf-8")
    result = run("show", str(game), "--turn", "5", "--before")
    assert result.exit_code == 0 and " !! bar: White must enter" in result.output
    picture = tmp_path / "board.svg"
    result = run("show", str(game), "-o", str(picture), "--lang", "ru")
    assert result.exit_code == 0, result.output
    assert "короткие нарды · ход: чёрные, кости 4-3" in picture.read_text(encoding="utf-8")
    result = run("show", "--position", "long w 24x14,18 24x15 b", "--dice", "63")
    assert result.exit_code == 0 and "long nardy · White to move, dice 6-3" in result.output
    # a GNUBG ID gives its roll and cube: 5-3, a 2-cube of the player on roll (tests/test_gnubg_ids.py)
    result = run("show", "--position", "4HPwATDgc/ABMA:UYnuADAAEAAE")
    assert result.exit_code == 0 and "short nardy · White to move, dice 5-3 · cube 2, White's" in result.output


@pytest.mark.parametrize("args, message", [
    ((), "give either a FILE or --position"),
    (("--position", "long", "GAME"), "give either a FILE or --position"),
    (("GAME", "--dice", "63"), "--dice goes with --position"),
    (("GAME", "--turn", "9"), "no replayed roll 9"),
    (("GAME", "--game", "2"), "fewer than 2 games"),
    (("--position", "long x 24x15 24x15"), "side to move must be w or b"),
    (("--position", "long", "-o", "board.jpg"), ".png or .svg"),
    (("--position", ""), "'' is neither a position"),  # an empty --position is still the position given
])
def test_show_errors_are_usage_errors(tmp_path, args, message):
    game = tmp_path / "illegal.ntn"
    game.write_text(ILLEGAL_GAME, encoding="utf-8")
    result = run("show", *[str(game) if arg == "GAME" else arg for arg in args])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_show_move_uses_the_numbering_of_validate():
    assert run("show", KAZAN, "--game", "2", "--move", "5b").output == \
        run("show", KAZAN, "--game", "2", "--turn", "10").output
    assert run("show", KAZAN, "--game", "2", "--move", "5...").output == \
        run("show", KAZAN, "--game", "2", "--move", "5b").output
    assert run("show", KAZAN, "--game", "2", "--move", "5").output == \
        run("show", KAZAN, "--game", "2", "--turn", "9").output
    assert "has no roll of Black at move 99" in run("show", KAZAN, "--move", "99b").output
    assert "give --turn or --move" in run("show", KAZAN, "--move", "2", "--turn", "3").output


@pytest.mark.slow
def test_each_finding_of_the_report_links_to_a_picture_of_its_board(tmp_path):
    result = run("stats", KAZAN, "-q", "--out", str(tmp_path / "report"))
    assert result.exit_code == 0, result.output
    page = (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    links = [line.split('"')[1] for line in page.splitlines() if '<a href="boards/' in line]
    assert links == ["boards/finding-1.png", "boards/finding-2.png", "boards/finding-3.png",
                     "boards/finding-5.png"]  # finding 4 is a result: it has no board
    for link in links:
        assert (tmp_path / "report" / link).read_bytes().startswith(b"\x89PNG")


def test_the_report_reads_a_file_again_only_as_far_as_its_last_game_with_a_board(tmp_path, monkeypatch):
    findings = json.loads(run("validate", KAZAN, "--format", "json").output)["findings"]
    read = []

    def counted(paths, **options):
        for game in iter_games(paths, **options):
            read.append(game.index)
            yield game

    monkeypatch.setattr(board_picture, "iter_games", counted)
    assert board_picture.finding_boards(findings[:1], tmp_path) == ["boards/finding-1.png"]
    assert findings[0]["game"] == 2 and read == [1, 2]  # of the file's six games


def test_the_text_board_marks_the_play():
    lines = run("show", KAZAN, "--game", "2", "--turn", "10").output.splitlines()
    bottom = next(index for index, line in enumerate(lines) if line.split()[:2] == ["12", "11"])
    marks = lines[bottom + 1]
    numbers = lines[bottom]
    assert {numbers[i - 1:i + 1].strip(): mark for i, mark in enumerate(marks) if mark in "-+"} == \
        {"12": "-", "8": "+", "7": "+"}  # Black's 24/19 24/20: from White's 12 to 7 and 8
