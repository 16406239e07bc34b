"""nardy_cli.reporting.tables: row tables written as the games stream past, atomically, in CSV or Parquet."""
import csv
import io
import json
import subprocess
import sys
from functools import partial
from typing import Any

import pytest

from nardy_cli.analysis.aggregates import FINDING_COLUMNS, GAME_COLUMNS, TURN_COLUMNS, Aggregates, GameStats, game_stats
from nardy_cli.analysis.validate import validate_games
from nardy_cli.files.output import OutputError
from nardy_cli.reporting import parquet, tables
from nardy_cli.run.corpus import iter_games

KAZAN = "sample_games/long/kazan-cup-2026.ntn"  # 6 games, 5 findings


@pytest.fixture(scope="module")
def replayed():
    return list(validate_games(iter_games([KAZAN], on_error=pytest.fail)))


@pytest.fixture(scope="module")
def per_game(replayed):
    return [game_stats(game, result, with_turns=True) for game, result in replayed]


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@pytest.mark.parametrize("batch_rows", [1, 7, 50_000])
def test_csv_tables_hold_every_row_in_order_whatever_the_batches(per_game, tmp_path, monkeypatch, batch_rows):
    monkeypatch.setattr(tables, "BATCH_ROWS", batch_rows)
    with tables.table_files(str(tmp_path), "csv") as add:
        for stats in per_game:
            add(stats, (), None)  # a game alone: no match findings, no match ended
        assert not list(tmp_path.glob("*.csv"))  # nothing appears before the end
    games, turns, findings = (read_csv(tmp_path / f"{name}.csv") for name in ("games", "turns", "findings"))
    assert games[0] == list(GAME_COLUMNS) and turns[0] == list(TURN_COLUMNS) and findings[0] == list(FINDING_COLUMNS)
    assert [row[1] for row in games[1:]] == [str(n) for n in range(1, 7)]
    assert len(turns) - 1 == sum(len(stats.turns) for stats in per_game)
    assert [row[7] for row in findings[1:]] == [f["code"] for stats in per_game for f in stats.findings]
    assert len(findings) - 1 == 5


def written(folder, fmt, per_game):
    with tables.table_files(str(folder), fmt) as add:
        for stats in per_game:
            add(stats, (), None)  # a game alone: no match findings, no match ended
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def replaced(stats: GameStats, **changes: Any) -> GameStats:
    """``stats`` with some of its fields changed."""
    return GameStats(**{**dict(zip(GameStats.__match_args__, stats._fields())), **changes})


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
@pytest.mark.parametrize("batch_rows", [1, 7, 50_000])
def test_turn_rows_made_ready_where_the_game_is_replayed_are_written_as_the_rows_themselves(
        replayed, per_game, tmp_path, monkeypatch, fmt, batch_rows):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    monkeypatch.setattr(tables, "BATCH_ROWS", batch_rows)
    make_ready = partial(tables.ready_rows, ("parquet", "csv"))
    ready = [game_stats(game, result, with_turns=True, make_ready=make_ready) for game, result in replayed]
    assert [(stats.turns, stats.ready_turns and stats.ready_turns[0]) for stats in ready] == [
        ((), len(stats.turns)) for stats in per_game]
    no_turns = replaced(ready[0], ready_turns=make_ready([]))  # a game without a turn (no ready data)
    expected = written(tmp_path / "rows", fmt, [*per_game[:3], replaced(per_game[0], turns=()), *per_game[3:]])
    assert written(tmp_path / "ready", fmt, [*ready[:3], no_turns, *ready[3:]]) == expected
    assert set(expected) == {f"{name}.{fmt}" for name in tables.TABLES}


def test_parquet_tables_keep_the_types(per_game, tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    with tables.table_files(str(tmp_path / "new"), "parquet") as add:
        for stats in per_game:
            add(stats, (), None)  # a game alone: no match findings, no match ended
    games = pd.read_parquet(tmp_path / "new" / "games.parquet", dtype_backend="numpy_nullable")
    assert list(games["game"]) == list(range(1, 7)) and str(games["turns"].dtype) == "Int64"
    assert games["hits_white"].isna().all()  # long nardy has no hits
    turns = pd.read_parquet(tmp_path / "new" / "turns.parquet")
    assert turns["legal"].dtype == bool and (~turns["legal"]).sum() == sum(
        not dict(zip(TURN_COLUMNS, row))["legal"] for stats in per_game for row in stats.turns)


@pytest.mark.parametrize("batch_rows, group_bytes", [(7, 1), (7, 2_000), (50_000, 2**30)])
def test_parquet_tables_hold_every_row_in_order_whatever_the_batches_and_row_groups(
        per_game, tmp_path, monkeypatch, batch_rows, group_bytes):
    pq = pytest.importorskip("pyarrow.parquet")
    monkeypatch.setattr(tables, "BATCH_ROWS", batch_rows)
    with tables.table_files(str(tmp_path / "child"), "parquet") as add:  # written by a process of its own
        for stats in per_game:
            add(stats, (), None)  # a game alone: no match findings, no match ended
    monkeypatch.setattr(parquet, "ROW_GROUP_BYTES", group_bytes)
    spool = b"".join(parquet.spooled(0, [parquet.packed([row])]) for stats in per_game for row in stats.turns)
    job = [{"file": str(tmp_path / "turns.parquet"), "columns": dict(TURN_COLUMNS)}]
    parquet.write_tables(job, io.BytesIO(spool))  # here, to set the row groups' size
    expected = [row for stats in per_game for row in stats.turns]
    for path in (tmp_path / "child" / "turns.parquet", tmp_path / "turns.parquet"):
        table = pq.read_table(path)
        assert [tuple(row.values()) for row in table.to_pylist()] == expected
        assert table.schema.names == list(TURN_COLUMNS)
    groups = pq.ParquetFile(tmp_path / "turns.parquet").metadata.num_row_groups
    assert (groups == len(expected)) if group_bytes == 1 else (groups == 1) if group_bytes == 2**30 else groups > 1


def test_a_parquet_file_that_cannot_be_written_names_the_folder_and_why(tmp_path):
    pytest.importorskip("pyarrow")
    job = {"folder": "tables", "tables": [{"file": "/dev/full", "columns": dict(GAME_COLUMNS)}]}
    done = subprocess.run([sys.executable, "-c", "from nardy_cli.reporting.parquet import main; main()",
                           json.dumps(job)], stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False)
    assert done.returncode == parquet.CANNOT_WRITE
    assert done.stderr == "tables: cannot write the Parquet files: No space left on device\n"


def test_a_failed_run_leaves_no_table_and_old_tables_need_force(per_game, tmp_path):
    with pytest.raises(RuntimeError), tables.table_files(str(tmp_path), "csv") as add:
        add(per_game[0], (), None)  # a game alone: no match findings, no match ended
        raise RuntimeError("interrupted")
    assert not list(tmp_path.iterdir())
    with tables.table_files(str(tmp_path), "csv") as add:
        add(per_game[0], (), None)  # a game alone: no match findings, no match ended
    with pytest.raises(OutputError, match="--force"):
        with tables.table_files(str(tmp_path), "csv"):
            pass
    with tables.table_files(str(tmp_path), "csv", force=True) as add:
        add(per_game[1], (), None)  # a game alone: no match findings, no match ended
    assert read_csv(tmp_path / "games.csv")[1][1] == "2"


def test_parquet_without_pyarrow_names_the_install_command(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(OutputError, match="nardy-cli\\[dask\\]"):
        with tables.table_files(str(tmp_path), "parquet"):
            pass
    assert not list(tmp_path.iterdir())


def test_aggregates_keep_only_the_first_findings(per_game, monkeypatch):
    monkeypatch.setattr("nardy_cli.analysis.aggregates.FINDINGS_KEPT", 3)
    aggregates = Aggregates()
    for stats in per_game * 2:
        aggregates.add(stats)
    assert aggregates.findings == 10 and len(aggregates.first_findings) == 3
    assert (aggregates.games, aggregates.legal) == (12, 2 * sum(not stats.findings for stats in per_game))
