"""Error rates, blunders and luck from the analysis a record carries (issue 14): nardy's sums equal
XG's own stored figures, added up here straight from the files' records, independently of the reader."""
from __future__ import annotations

import json
import re
import struct
import subprocess
import zlib
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from locations import CORPORA, corpus_files
from nardy_cli.analysis.aggregates import Aggregates, game_stats
from nardy_cli.analysis.play_quality import BLUNDER, game_quality
from nardy_cli.cli.main import cli
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.record import Action, Evaluation, GameRecord
from nardy_cli.replay import replay
from nardy_cli.reporting.stats import quality_summary
from nardy_cli.run.corpus import CorpusGame, iter_games

XG_FILES = corpus_files("xg/*.xg")
needs_corpus = pytest.mark.skipif(not XG_FILES, reason="the shared corpus of .xg files is not here")
UNANALYSED = -1000.0


def xg_sums(path: Path) -> dict[str, dict[str, float]]:
    """XG's stored errors and luck per player, summed from the raw records of ``path``: -ErrMove of
    every unforced move, ErrCube of every cube decision, -ErrTake of every answer, ErrLuck of every roll."""
    data = path.read_bytes()
    start = struct.unpack_from("<I", data, 8)[0] + struct.unpack_from("<I", data, 20)[0]
    records = zlib.decompressobj().decompress(data[start:])
    sums: dict[str, dict[str, float]] = defaultdict(lambda: {"lost": 0.0, "luck": 0.0, "decisions": 0})
    names: dict[int, str] = {}
    for offset in range(0, len(records) - 2559, 2560):
        record = records[offset:offset + 2560]
        kind = record[8]
        if kind == 0:
            names = {1: unicode(record, 880), -1: unicode(record, 1138)}
        elif kind == 2:
            side, doubled = struct.unpack_from("<ii", record, 12)
            error_cube, error_take = struct.unpack_from("<d", record, 200)[0], struct.unpack_from("<d", record, 216)[0]
            if error_cube != UNANALYSED:
                add(sums[names[side]], error_cube)
            if doubled == 1 and error_take != UNANALYSED:
                add(sums[names[-side]], -error_take)
        elif kind == 3:
            side = struct.unpack_from("<i", record, 64)[0]
            error, luck = struct.unpack_from("<dd", record, 2312)
            if error != UNANALYSED and struct.unpack_from("<i", record, 124 + 64)[0] > 1:
                add(sums[names[side]], -error)
            if luck != UNANALYSED:
                sums[names[side]]["luck"] += luck
    return sums


def add(player: dict[str, float], lost: float) -> None:
    player["lost"] += lost
    player["decisions"] += 1


def unicode(record: bytes, offset: int) -> str:
    return " ".join(record[offset:offset + 258].decode("utf-16-le", errors="replace").split("\0", 1)[0].split())


@needs_corpus
@pytest.mark.parametrize("path", XG_FILES, ids=lambda path: path.name)
def test_stats_equal_the_sums_of_xg_stored_figures(path):
    aggregates = Aggregates()
    for game in iter_games([str(path)], on_error=pytest.fail):
        aggregates.add(game_stats(game, replay(game.record)))
    table = quality_summary(aggregates)
    expected = xg_sums(path)
    assert sorted(table.index) == sorted(expected)
    for player, sums in expected.items():
        row = table.loc[player]
        assert row["equity_lost"] == pytest.approx(sums["lost"], abs=1e-4)
        assert row["luck"] == pytest.approx(sums["luck"], abs=1e-4)
        assert row["decisions"] == sums["decisions"]
        assert row["error_rate"] == pytest.approx(1000 * sums["lost"] / sums["decisions"], abs=1e-3)
        assert row["luck_per_game"] == pytest.approx(sums["luck"] / row["games"], abs=1e-4)


def analysed_game() -> GameRecord:
    return GameRecord(tags={"Variant": "short", "White": "Ann", "Black": "Bob"}, actions=[
        Action(WHITE, "roll", (3, 1), (), analysis=(Evaluation("move", "4-ply", -0.1, -0.02, 0.25),)),
        Action(BLACK, "roll", (6, 5), (), analysis=(Evaluation("cube", "4-ply", 0.3, 0.3),
                                                   Evaluation("move", "4-ply", 0.1, 0.1 + BLUNDER, -0.5))),
        Action(WHITE, "double", value=2, analysis=(Evaluation("cube", "4-ply", 0.5, 0.6),)),
        Action(BLACK, "take", analysis=(Evaluation("take", "4-ply", -0.5, -0.5),)),
        Action(WHITE, "roll", (2, 1), (), analysis=(Evaluation("move", "", None, None, 0.125),)),  # forced
    ])


def test_decisions_equity_lost_blunders_and_luck_by_hand():
    quality = game_quality(analysed_game())
    ann, bob = quality["Ann"], quality["Bob"]
    assert (ann.games, ann.decisions, ann.blunders, ann.rolls) == (1, 2, 2, 2)
    assert ann.lost == pytest.approx(0.18) and ann.luck == pytest.approx(0.375)
    assert ann.error_rate == pytest.approx(90.0)
    assert (bob.decisions, bob.blunders, bob.lost, bob.luck) == (3, 1, pytest.approx(BLUNDER), -0.5)


def test_games_without_analysis_give_no_row():
    assert game_quality(GameRecord(tags={"White": "A", "Black": "B"}, actions=[Action(WHITE, "roll", (3, 1), ())])) \
        == {}


@pytest.mark.slow
def test_stats_prints_the_table_only_for_analysed_games(tmp_path):
    path = tmp_path / "games.jsonl"
    from nardy_cli.notations.jsonl import game_to_dict

    path.write_text(json.dumps(game_to_dict(analysed_game())) + "\n", encoding="utf-8")
    shown = CliRunner().invoke(cli, ["stats", str(path)])
    assert "error rate (×1000)" in shown.output and "90.0" in shown.output
    data = json.loads(CliRunner().invoke(cli, ["stats", "--format", "json", str(path)]).stdout)
    assert [(row["player"], row["decisions"], row["blunders"]) for row in data["analysis"]] == [("Ann", 2, 2),
                                                                                                ("Bob", 3, 1)]
    plain = tmp_path / "plain.ntn"
    plain.write_text('[Variant "short"]\n\n1. 31: 8/5 6/5\n*\n', encoding="utf-8")
    assert "error rate" not in CliRunner().invoke(cli, ["stats", str(plain)]).output


def test_corpus_game_quality_ships_with_its_stats():
    game = CorpusGame("x", 1, analysed_game())
    assert game_stats(game, replay(game.record)).quality == game_quality(game.record)


# --- GNU Backgammon's analysis in SGF ---------------------------------------------------------------


def test_gnubg_move_analysis_in_sgf_is_read():
    from io import StringIO

    from nardy_cli.notations import sgf

    text = ("(;FF[4]GM[6]PW[Ann]PB[Bob]MI[length:1][game:0][ws:0][bs:0]"
            ";W[31fehe]A[1][ihhe E ver 3 0.5 0.1 0 0.1 0 0.25 2C 0 1 0 1][fehe E ver 3 0.5 0.1 0 0.1 0 0.1 2C 0 1 0 1]"
            "LU[0.125];B[31fehe]A[0][fehe E ver 3 0.5 0.1 0 0.1 0 0.1 0C 0 1 0 1]LU[-inf])")
    game, = sgf.read_games(StringIO(text))
    assert game.errors == []
    assert [action.analysis for action in game.actions] == [
        (Evaluation("move", "gnubg 2-ply", 0.1, 0.25, 0.125),), ()]
    quality = game_quality(game)
    assert (quality["Ann"].decisions, quality["Ann"].lost, quality["Ann"].luck) == (1, pytest.approx(0.15), 0.125)


def test_gnubg_s_best_play_is_the_first_listed_not_the_highest_equity() -> None:
    """Analysing at 1 ply, gnubg lists after its best the plays it looked at no deeper (``0C``):
    their equities are not comparable, and one of them (-0.475) was taken as the best."""
    from nardy_cli.notations.gnubg_analysis import move_evaluation

    plays = ["1", "svwx E ver 3 0.25 0.01 0 0.02 0 -0.486631 1C 0 1 0.0 1",
             "svuv E ver 3 0.25 0.01 0 0.02 0 -0.488579 1C 0 1 0.0 1",
             "ilij E ver 3 0.26 0.01 0 0.02 0 -0.475031 0C 0 1 0.0 1"]
    evaluation = move_evaluation(plays, "-0.08823")
    assert evaluation == Evaluation("move", "gnubg 1-ply", -0.488579, -0.486631, -0.08823)
    assert evaluation is not None and evaluation.lost == pytest.approx(0.001948)


def test_the_figures_of_a_match_gnubg_analysed_are_gnubg_s_own(gnubg: str, tmp_path: Path) -> None:
    """Per player, the decisions, equity lost and luck that nardy sums from GNU Backgammon's
    analysis saved in SGF are gnubg's own checker-play and luck totals (``show statistics match``);
    its cube analysis is not read (README). At 1 ply gnubg lists the plays it looked at no deeper,
    at 0 ply, after its best: nardy took the highest equity of the list as the best, not the first."""
    source = Path(__file__).parent / "data" / "sgf" / "hsbt_paris_2023_unger_job_7pt.sgf"
    analysed, script = tmp_path / "analysed.sgf", tmp_path / "commands.txt"
    script.write_text("\n".join([
        "set display off", *(f"set analysis {what} evaluation plies {plies}"
                             for what, plies in (("chequerplay", 1), ("cubedecision", 1), ("luck", 0))),
        f'load match "{source}"', "analyse match", f'save match "{analysed}"', "show statistics match"]) + "\n")
    run = subprocess.run([gnubg, "-t", "-q", "-c", str(script)], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=300)

    def row(label: str) -> list[str]:  # the first row so labelled: checker play's before cube's
        line = next(line for line in run.stdout.splitlines() if line.startswith(label))
        return re.findall(r"[-+]?\d+(?:\.\d+)?(?= \(|\s*$|\s{2})", line[len(label):])

    ours: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for game in iter_games([str(analysed)], on_error=pytest.fail):
        for player, quality in game_quality(game.record).items():
            ours[player] = [ours[player][0] + quality.decisions, ours[player][1] + quality.lost,
                            ours[player][2] + quality.luck]
    header = next(line for line in run.stdout.splitlines() if line.startswith("Player"))
    players = sorted(ours, key=header.find)  # gnubg's columns, named as they are (with spaces)
    theirs = {player: (int(moves), abs(float(lost)), float(luck)) for player, moves, lost, luck in
              zip(players, row("Unforced moves"), row("Error total EMG"), row("Luck total EMG"))}
    assert len(theirs) == 2 and all(header.find(player) > 0 for player in players)
    for player, (moves, lost, luck) in theirs.items():
        assert ours[player][0] == moves and ours[player][1] == pytest.approx(lost, abs=6e-4)
        assert ours[player][2] == pytest.approx(luck, abs=6e-4)


@needs_corpus
def test_an_analysed_gnubg_match_gives_error_rates():
    assert CORPORA is not None  # needs_corpus skips the test without them
    path = CORPORA / "xg" / "charlot1-charlot2_7p_2025-11-08-2305.sgf"
    aggregates = Aggregates()
    for game in iter_games([str(path)], on_error=pytest.fail):
        aggregates.add(game_stats(game, replay(game.record)))
    table = quality_summary(aggregates)
    assert list(table.index) == ["charlot1", "charlot2"]
    assert (table["decisions"] > 50).all() and table["luck"].isna().all()  # this file was saved without luck


@pytest.mark.slow
@needs_corpus
def test_the_report_has_the_analysis_table(tmp_path):
    assert CORPORA is not None  # needs_corpus skips the test without them
    path = CORPORA / "xg" / "hsbt-paris-2023-unger-job-7pt.xg"
    result = CliRunner().invoke(cli, ["stats", "--quiet", "--out", str(tmp_path / "report"), str(path)])
    assert result.exit_code == 0, result.output
    table = (tmp_path / "report" / "analysis_by_player.csv").read_text(encoding="utf-8").splitlines()
    assert table[0] == "player,games,decisions,equity_lost,error_rate,blunders,luck,luck_per_game"
    assert [line.split(",")[0] for line in table[1:]] == ["Kévin Unger", "Maxence Job"]
    assert "Error rates and luck" in (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
