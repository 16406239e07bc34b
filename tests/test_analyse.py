"""nardy analyse --engine gnubg against GNU Backgammon's own "show statistics match"."""
import csv
import io

import pytest

from gnubg_judge import run_gnubg
from nardy_cli.analysis import gnubg as gnubg_analysis
from nardy_cli.analysis.gnubg import GnubgError, analysis_rows, statistics_blocks
from nardy_cli.cli.main import cli


@pytest.fixture(scope="module")
def gnubg_own(gnubg, tournament_mat, tmp_path_factory):
    """gnubg's statistics of the tournament match, imported by gnubg itself from the original file."""
    script = tmp_path_factory.mktemp("gnubg") / "commands.txt"
    script.write_text("set analysis chequerplay evaluation plies 0\nset analysis cubedecision evaluation plies 0\n"
                      f'import mat "{tournament_mat}"\nanalyse match\nshow statistics match\n', encoding="utf-8")
    return run_gnubg(script, timeout=300)[0]


@pytest.mark.slow
def test_analyse_agrees_with_gnubgs_show_statistics_match(runner, gnubg_own, tournament_mat):
    result = runner.invoke(cli, ["analyse", "--engine", "gnubg", "--format", "csv", "-q", tournament_mat])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    # every line of gnubg's statistics of the match, as nardy wrote and read it, is gnubg's own
    ((names, _),) = statistics_blocks(gnubg_own)
    assert names == ("Kévin Unger", "Maxence Job")
    expected = analysis_rows(gnubg_own, tournament_mat, 1)
    match_rows = [row for row in rows if row["scope"] == "match"]
    assert [row["player"] for row in match_rows] == ["Kévin Unger", "Maxence Job"]
    for row, wanted in zip(match_rows, expected):
        for column, value in wanted.items():
            assert row[column] == ("" if value is None else str(value)), column
    assert (match_rows[0]["moves"], match_rows[1]["moves"]) == ("166", "165")  # gnubg's totals on this match
    assert (match_rows[0]["error_rate"], match_rows[1]["error_rate"]) == ("-14.2", "-25.0")
    # the seven games' statistics add up to the match's
    games = [row for row in rows if row["scope"] == "game"]
    assert sorted({int(row["game"]) for row in games}) == list(range(1, 8))
    for player, total in (("Kévin Unger", match_rows[0]), ("Maxence Job", match_rows[1])):
        own_games = [row for row in games if row["player"] == player]
        for column in ("moves", "unforced_moves", "blunders", "cube_decisions", "cube_errors"):
            assert sum(int(row[column]) for row in own_games) == int(total[column]), column
        assert sum(float(row["luck"]) for row in own_games) == pytest.approx(float(total["luck"]), abs=0.01)


def test_without_gnubg_it_says_how_to_install_it(runner, monkeypatch, tournament_mat):
    monkeypatch.setattr(gnubg_analysis, "find_gnubg", lambda: None)
    result = runner.invoke(cli, ["analyse", "--engine", "gnubg", tournament_mat])
    assert result.exit_code == 2 and "apt-get install gnubg" in result.output


def test_a_failing_engine_is_reported_and_the_rest_goes_on(runner, monkeypatch, tournament_mat, tmp_path):
    with pytest.raises(GnubgError, match="gnubg failed"):
        gnubg_analysis.run_gnubg("/bin/false", [], 0)
    monkeypatch.setattr(gnubg_analysis, "find_gnubg", lambda: "/bin/false")
    result = runner.invoke(cli, ["analyse", "--engine", "gnubg", "-q", tournament_mat, str(tmp_path / "none.mat")])
    assert result.exit_code == 2
    assert "none.mat" in result.output and "Unger" in result.output and "gnubg failed" in result.output


def test_a_match_of_a_variant_nardy_does_not_know_is_left_out_not_an_error(runner, monkeypatch, tmp_path):
    """It stopped the command with 'Error: unknown variant' (exit 2): the games were judged twice."""
    monkeypatch.setattr(gnubg_analysis, "find_gnubg", lambda: "/bin/false")  # never reached
    nack = tmp_path / "nack.mat"
    nack.write_text('; [Variation "Hypergammon"]\n\n 3 point match\n\n Game 1\n a : 0    b : 0\n'
                    '  1) 31: 8/5 6/5\n      Wins 1 point\n', encoding="utf-8")
    result = runner.invoke(cli, ["analyse", "--engine", "gnubg", str(nack), "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert "no match of short nardy in the inputs" in result.stderr and "Error" not in result.output


def test_the_text_table_prints_a_game_number_as_a_whole_number():
    """The match rows have no game number; the column printed 1.0 for game 1 (pandas' float column)."""
    from nardy_cli.reporting.printed import format_rows

    rows: list[dict[str, object]] = [{"scope": "match", "game": None, "player": "Ann"},
                                     {"scope": "game", "game": 1, "player": "Ann"}]
    assert [line.split() for line in format_rows(rows, ("scope", "game", "player"), "table").splitlines()] == [
        ["scope", "game", "player"], ["match", "Ann"], ["game", "1", "Ann"]]
