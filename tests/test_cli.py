"""`nardy moves`, `nardy generate` and the command line's error handling, through CliRunner."""
import json

from click.testing import CliRunner

from nardy_cli.cli.main import cli
from nardy_cli.core import engine


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_moves_text_lists_plays_and_count():
    result = run("moves", "long", "66")
    assert result.exit_code == 0
    assert result.output.splitlines()[1:] == ["24/18(2)  long b 24x13,18x2 24x15", "1 legal play"]
    assert "head=classic" in result.output.splitlines()[0]


def test_moves_rule_option_changes_the_answer():
    assert "24/20(2)" in run("moves", "long b 24x14,4 24x15", "44").output
    strict = run("moves", "long b 24x14,4 24x15", "4-4", "--rule", "head=strict").output
    assert strict.splitlines()[1].startswith("24/20 ") and strict.endswith("1 legal play\n")


def test_moves_json():
    data = json.loads(run("moves", "short", "31", "--format", "json").output)
    assert data["dice"] == [3, 1] and data["rules"]["variant"] == "short" and data["rules"]["crawford"] == "on"
    assert len(data["plays"]) == 16
    assert {"play": "8/5 6/5", "position": "short b 24x2,13x5,8x2,6x4,5x2 24x2,13x5,8x3,6x5"} in data["plays"]


def test_moves_accepts_gnubg_ids_and_reports_a_pass():
    assert run("moves", "4HPwATDgc/ABMA", "31").output.endswith("16 legal plays\n")
    closed = run("moves", "short w bar,13x14 6x2,5x2,4x2,3x2,2x2,1x2,24x3", "65")
    assert closed.output.splitlines()[-1] == "no legal play: the roll is lost"


def test_moves_takes_the_roll_and_the_cube_of_a_gnubg_id_or_an_xgid():
    # gnubg's GNUBG ID of the opening, 6-5 rolled (tests/test_gnubg_ids.py); its XGID
    for rolled in ("4HPwATDgc/ABMA:cAkXAAAAAAAA", "XGID=-b----E-C---eE---c-e----B-:0:0:1:65:0:0:0:0:10"):
        assert run("moves", rolled).output == run("moves", "short", "65").output
        assert run("moves", rolled, "31").output == run("moves", "short", "31").output  # DICE given wins
    # a 2-cube owned by the player on roll (player 1), 5-3 rolled, in a 7-point match at 3-2
    data = json.loads(run("moves", "4HPwATDgc/ABMA:UYnuADAAEAAE", "--format", "json").output)
    assert data["position"].endswith(" cube=2w") and data["dice"] == [5, 3]
    unrolled = run("moves", "4HPwATDgc/ABMA")
    assert unrolled.exit_code == 2 and "give the DICE: the position gives no roll" in unrolled.output


def test_moves_usage_errors_exit_2_without_traceback():
    for args in (("long", "77"), ("long w 24x16 24x15", "63"), ("long", "63", "--rule", "head=sometimes"),
                 ("4HPwATDgc/ABM", "31"), ("4HPwATDgc/ABMA:cAkXAAAAAAA",), ("4HPwATDgc/ABMA:cAk*AAAAAAAA",)):
        result = run("moves", *args)
        assert result.exit_code == 2 and "Error:" in result.output and "Traceback" not in result.output


def test_generate_is_reproducible_and_valid(tmp_path):
    first = run("generate", "--variant", "short", "--games", "3", "--seed", "5")
    assert first.exit_code == 0 and first.output == run("generate", "--variant", "short", "--games", "3",
                                                         "--seed", "5").output
    path = tmp_path / "g.ntn"
    path.write_text(first.output, encoding="utf-8")
    assert run("validate", str(path)).output.startswith("1 file, 3 games")
    as_json = run("generate", "--games", "2", "--to", "jsonl", "--bot", "random", "--rule", "block=turn")
    games = [json.loads(line) for line in as_json.output.splitlines()]
    assert len(games) == 2 and games[0]["tags"]["Rules"] == "block=turn"


def test_unexpected_errors_are_reported_not_raised(monkeypatch):
    monkeypatch.setattr(engine.Engine, "legal_plays", lambda *args: 1 / 0)
    result = run("moves", "long", "63")
    assert result.exit_code == 2
    assert "ZeroDivisionError" in result.output and "--debug" in result.output
    assert isinstance(run("--debug", "moves", "long", "63").exception, ZeroDivisionError)
