"""Positions per turn (position notation, GNU Position ID, XGID) and nardy find."""
import io
import json

from click.testing import CliRunner

from nardy_cli import notations
from nardy_cli.analysis.aggregates import turn_rows
from nardy_cli.cli.main import cli
from nardy_cli.core.position import Position
from nardy_cli.notations.gnubg_ids import parse_xgid
from nardy_cli.replay import replay
from nardy_cli.run.corpus import CorpusGame

SHORT = """[White "Ann"]
[Black "Boris"]
[Variant "short"]
[MatchLength "5"]
[Score "2-1"]

1. 31: 8/5 6/5                 62: 24/18 13/11
2. 66: 24/18(2) 13/7*(2)      *
"""
OTHER = """[White "Chen"]
[Black "Dina"]
[Variant "short"]

1. 31: 8/5 6/5                 64: 24/18 13/9
*
"""
LONG = """[White "Ann"]
[Black "Boris"]
[Variant "long"]

1. 63: 24/18/15                 53: 24/21/16
*
"""
START_ID = "4HPwATDgc/ABMA"  # GNU Backgammon's Position ID of the starting position


def rows(text: str):
    record = next(notations.notation("ntn").read_games(io.StringIO(text), "test.ntn"))
    game = CorpusGame("test.ntn", 1, record)
    return turn_rows(game, replay(record))


def test_turn_rows_carry_the_position_before_the_roll():
    first, second, _ = rows(SHORT)
    assert Position.parse(first["position"]) == Position.start("short")
    assert first["gnubg_id"] == START_ID
    # before the roll: dice not rolled, White (X) on roll, the cube centred, 2-1 in a 5-point match
    assert first["xgid"] == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:1:0:5:10"
    # after White's 31 (8/5 6/5) Black is on roll: Black's own checkers come first in the Position ID
    state = parse_xgid(second["xgid"])
    assert state.turn == -1 and state.x[5] == 2 and state.x[8] == 2 and state.x[6] == 4
    assert second["position"].startswith("short b 24x2,13x5,8x2,6x4,5x2 ")
    assert second["gnubg_id"] != START_ID
    long_rows = rows(LONG)
    assert long_rows[0]["position"].startswith("long w 24x15 24x15")
    assert long_rows[0]["gnubg_id"] is None and long_rows[0]["xgid"] is None


def test_find_lists_every_turn_that_reached_a_position(tmp_path):
    path = tmp_path / "games.ntn"
    path.write_text(SHORT + "\n" + OTHER, encoding="utf-8")
    after_31 = rows(SHORT)[1]
    runner = CliRunner()
    found = {}
    for query in (after_31["position"], after_31["gnubg_id"], after_31["xgid"]):
        result = runner.invoke(cli, ["find", "--position", query, "--format", "json", "-q", "-j", "1", str(path)])
        assert result.exit_code == 0, result.output
        found[query] = [(row["game"], row["turn"], row["player"]) for row in json.loads(result.stdout)]
    # both games reached it before Black's first roll, whatever the notation of the query
    assert set(map(tuple, found.values())) == {((1, 2, "Boris"), (2, 2, "Dina"))}
    start = runner.invoke(cli, ["find", "--position", START_ID, "--format", "csv", "-q", "-j", "2", str(path)])
    assert start.exit_code == 0 and start.stdout.splitlines()[0].startswith("file,game,turn,side")
    assert len(start.stdout.splitlines()) == 3
    table = runner.invoke(cli, ["find", "--position", "short", "-q", str(path)])
    assert "games.ntn:2 turn 1 (Chen, Chen – Dina): 31: 8/5 6/5" in table.stdout


def test_find_nothing_and_bad_positions(tmp_path):
    path = tmp_path / "games.ntn"
    path.write_text(LONG, encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["find", "--position", "short", "-q", str(path)]).exit_code == 1
    bad = runner.invoke(cli, ["find", "--position", "long w 24x16 24x15", "-q", str(path)])
    assert bad.exit_code == 2 and "16 checkers" in bad.output and "Traceback" not in bad.output
