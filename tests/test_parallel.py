"""nardy_cli.run.parallel: the same findings, summaries and per-game rows with 1 or 2 worker
processes and on a Dask cluster, whatever the cuts of the inputs, as the sequential run."""
from __future__ import annotations

import concurrent.futures
import gzip
import io
import json
import re
import sys
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from locations import corpus_files
from nardy_cli.analysis.aggregates import game_row
from nardy_cli.analysis.selfplay import generate
from nardy_cli.analysis.validate import Certification, validate_games, validated
from nardy_cli.cli.main import cli
from nardy_cli.core.moves import Move
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import BLACK, WHITE, other
from nardy_cli.files import sources
from nardy_cli.files.sources import READ_HOOKS
from nardy_cli.notations import notation, writer
from nardy_cli.notations.jsonl import game_to_dict
from nardy_cli.record import Action, GameRecord, InputError
from nardy_cli.run import parallel
from nardy_cli.run.corpus import iter_games
from nardy_cli.run.parallel import ClusterError, in_process, map_games, replayed

VALIDATE = partial(replayed, build=validated)
ROWS = partial(replayed, build=game_row)


def ntn_text(records: list[GameRecord]) -> str:
    out = io.StringIO()
    notation("ntn").write_games(records, out)
    return out.getvalue()


def long_games(count: int, seed: int) -> list[GameRecord]:
    return list(generate(Rules.preset("long"), count, seed, "random"))


def big_ntn(records: list[GameRecord]) -> str:
    """Games as NTN with, here and there, what a cut must survive."""
    records[21].actions[10].moves = (Move((24, 23)),)  # an illegal play deep inside
    blocks = [ntn_text([record]) for record in records]
    blocks[5] = "; a note before the tags of the next game\n" + blocks[5]
    blocks[9] = blocks[9][blocks[9].index("\n\n") + 2:]  # a game without tags, after a result
    lines = blocks[13].split("\n")
    at = lines.index("") + 2  # the second row of moves
    lines[at] += " { a note going on,\n[as this line, which looks like a tag\nends here }"
    blocks[13] = "\n".join(lines)
    lines = blocks[25].split("\n")
    lines[lines.index("") + 4] += " 7/"  # a play that cannot be read
    blocks[25] = "\n".join(lines)
    return "\n".join(blocks)


def crawford_matches(matches: int) -> list[GameRecord]:
    """Matches to 3 whose games double early and end by resignation, 2 points each: only the
    Crawford game (score 2-0) may not double; the game after it (2-2) states no Crawford tag, so
    which one is the Crawford game is inferred."""
    records = list(generate(Rules.preset("short"), 3 * matches, 5, "random"))
    for number, record in enumerate(records):
        winner = (WHITE, BLACK, WHITE)[number % 3]
        record.tags.update(MatchID=f"m{number // 3}", White="A", Black="B", MatchLength="3",
                           Score=("0-0", "2-0", "2-2")[number % 3], Game=str(number % 3 + 1))
        del record.tags["Result"]
        side = record.actions[2].side
        record.actions[2:] = [Action(side, "double"), Action(other(side), "take"),
                              Action(other(winner), "resign", value=2)]
        record.result = "2-0" if winner == WHITE else "0-2"
    return records


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    root = tmp_path_factory.mktemp("corpus")
    (root / "a.ntn").write_text(ntn_text(long_games(6, 1)), encoding="utf-8")
    with gzip.open(root / "b.ntn.gz", "wt", encoding="utf-8") as out:
        out.write(ntn_text(long_games(6, 2)))
    big = long_games(30, 3)
    (root / "big.ntn").write_text(big_ntn(big), encoding="utf-8")
    objects = [game_to_dict(record) for record in big[:12]]
    objects[8]["actions"][5]["dice"] = [7, 1]  # a game that cannot be read, on line 9
    (root / "big.jsonl").write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    lines = [json.dumps(o) + "\n" for o in objects[:6]]
    lines[3] = lines[3][:40] + "\n"  # a broken line, read as JSON Lines only after the first line
    (root / "broken.jsonl").write_text("".join(lines), encoding="utf-8")
    with (root / "array.json").open("w", encoding="utf-8") as out:
        writer("json")(big[:3], out)  # one JSON document, read whole
    (root / "matches.ntn").write_text(ntn_text(crawford_matches(3)), encoding="utf-8")
    packed = gzip.compress(ntn_text(big + big).encode())
    (root / "cut.ntn.gz").write_bytes(packed[: len(packed) * 3 // 4])  # unreadable past the first 64 KiB
    (root / "notes.txt").write_text("nothing to read here\n", encoding="utf-8")
    names = ["a.ntn", "b.ntn.gz", "big.ntn", "missing.ntn", "big.jsonl", "broken.jsonl", "array.json",
             "matches.ntn", "cut.ntn.gz", "notes.txt"]
    return {"generated": [str(root / name) for name in names],
            "big": [str(root / "big.ntn")],
            "matches": [str(root / "matches.ntn")],
            "mat": [str(path) for path in corpus_files("bglab-sample/*.txt")[:4]]}


def run(paths: list[str], task=VALIDATE, **options) -> tuple[list, list[str]]:
    errors: list[str] = []
    return list(map_games(paths, task, on_error=errors.append, **options)), errors


def validation(paths: list[str], **options) -> tuple[list[str], dict, list[str]]:
    """Findings lines, summary and input errors, as ``nardy validate`` would print them."""
    results, errors = run(paths, **options)
    certification = Certification()
    results = list(certification.certified(results))
    certification.summary.unreadable = len(errors)
    return [line for result in results for line in result.lines], certification.summary.as_dict(), errors


def sequential(paths: list[str]) -> tuple[list[str], dict, list[str]]:
    """The same figures as ``nardy validate`` gets them, without nardy_cli.run.parallel."""
    errors: list[str] = []
    certification = Certification()
    results = certification.certified(validated(game, result)
                                      for game, result in validate_games(iter_games(paths, on_error=errors.append)))
    lines = [line for result in results for line in result.lines]
    certification.summary.unreadable = len(errors)
    return lines, certification.summary.as_dict(), errors


@pytest.mark.slow
def test_the_corpus_has_what_the_cuts_must_survive(corpus):
    _, summary, errors = sequential(corpus["generated"])
    assert [Path(error.split(":")[0].split()[-1]).name for error in errors] == ["missing.ntn", "cut.ntn.gz",
                                                                                "notes.txt"]
    codes = summary["findings_by_code"]
    assert codes.get("syntax", 0) >= 3 and codes.get("cube") == 3, codes  # the 3 Crawford games' doubles
    assert summary["files"] == 8  # all but the unreadable ones, the cut one too


@pytest.fixture(scope="module")
def expected(corpus) -> tuple[list[str], dict, list[str]]:
    return sequential(corpus["generated"])


@pytest.fixture(scope="module")
def expected_rows(corpus) -> list[dict]:
    return run(corpus["generated"], ROWS, jobs=1)[0]


@pytest.fixture(scope="module")
def expected_mat(corpus) -> tuple[list[str], dict, list[str]]:
    if not corpus["mat"]:
        pytest.skip("no bglab-sample/ in the real corpora")
    return sequential(corpus["mat"])


def test_one_job_and_no_dask_is_run_in_this_process(monkeypatch):
    monkeypatch.setattr("nardy_cli.run.parallel.available_cores", lambda: 1)
    assert in_process(1) and in_process(None) and in_process(0)
    assert not in_process(1, "local:1") and not in_process(2)
    monkeypatch.setattr("nardy_cli.run.parallel.available_cores", lambda: 2)
    assert in_process(1) and not in_process(None)


@pytest.mark.slow
def test_one_job_runs_here(corpus, expected):
    assert validation(corpus["generated"], jobs=1) == expected


@pytest.mark.slow
@pytest.mark.parametrize("chunk_games", [1, 4])
def test_two_workers_give_the_sequential_figures(corpus, expected, chunk_games):
    assert validation(corpus["generated"], jobs=2, chunk_games=chunk_games) == expected


def test_an_unknown_encoding_is_one_error(corpus):
    errors: list[str] = []
    games = list(iter_games(corpus["generated"], encoding="no-such", on_error=errors.append))
    assert run(corpus["generated"], jobs=2, encoding="no-such") == (games, errors)
    assert len(errors) == 1


@pytest.mark.slow
def test_finding_lines_deep_in_a_cut_file_are_the_files_lines(corpus):
    lines, _, _ = validation(corpus["big"], jobs=2, chunk_games=3)
    assert lines == sequential(corpus["big"])[0]
    text = Path(corpus["big"][0]).read_text(encoding="utf-8").split("\n")

    def place(game: int) -> str:
        """The file's text from where the first finding of game ``game`` points."""
        line = next(line for line in lines if f": game {game} (" in line)
        found = re.match(r".*?:(\d+):(\d+): ", line)
        assert found is not None
        number, column = found.groups()
        return text[int(number) - 1][int(column) - 1:]

    first = re.match(r".*?:(\d+):", lines[0])
    assert first is not None and int(first.group(1)) > 1000
    assert re.match(r"\d\d: 24/23", place(22))
    assert place(26) == "7/"


def test_crawford_games_inferred_across_cuts(corpus):
    expected = sequential(corpus["matches"])
    assert expected[1]["findings_by_code"] == {"cube": 3}  # the double of each Crawford game only
    assert validation(corpus["matches"], jobs=2, chunk_games=1) == expected


@pytest.mark.slow
def test_per_game_rows_are_the_sequential_rows(corpus, expected_rows):
    assert run(corpus["generated"], ROWS, jobs=2, chunk_games=3)[0] == expected_rows
    assert expected_rows[0]["file"] == corpus["generated"][0] and expected_rows[0]["game"] == 1


@pytest.mark.slow
def test_real_match_files(corpus, expected_mat):
    assert expected_mat[1]["games"] > 10
    assert validation(corpus["mat"], jobs=2) == expected_mat
    assert run(corpus["mat"], ROWS, jobs=2)[0] == run(corpus["mat"], ROWS, jobs=1)[0]


@pytest.mark.slow
def test_whole_files_are_read_by_the_workers(corpus, expected_mat, tmp_path):
    """Issue 13: the parent read and shipped every whole file (15 % of all CPU with two workers); it
    now reads a file's first lines only, to tell its notation, and a worker reads the file."""
    def opened(unit: parallel._Unit | str) -> tuple[str, list[str]]:
        """The input a unit's worker opens (a unit, not the message of an unreadable input), and its lines."""
        assert not isinstance(unit, str) and unit.opener is not None
        return unit.opener.name, unit.lines

    units = list(parallel._work(corpus["mat"], None, None, None, 500))
    assert [opened(unit) for unit in units] == [(path, []) for path in corpus["mat"]]
    shipped = list(parallel._work(corpus["mat"], None, None, None, 500, workers_read=False))
    assert all(not isinstance(unit, str) and unit.opener is None and unit.lines
               for unit in shipped)  # for a remote Dask cluster
    assert validation(corpus["mat"], jobs=2) == expected_mat
    packed = gzip.compress(Path(corpus["mat"][0]).read_bytes())
    (tmp_path / "cut.mat.gz").write_bytes(packed[: len(packed) * 2 // 3])  # damaged: read so far by the worker
    paths = [str(tmp_path / "cut.mat.gz"), *corpus["mat"][1:]]
    first = parallel._work(paths, None, None, None, 500).__next__()
    assert not isinstance(first, str) and first.opener is not None
    damaged = validation(paths, jobs=2)
    assert damaged == sequential(paths) and "cut.mat.gz: cannot read after line" in damaged[2][0]


@pytest.mark.slow
def test_the_progress_bar_counts_what_the_workers_read(corpus):
    paths = corpus["mat"] + corpus["generated"]
    counts: dict[int, list[int]] = {1: [], 2: []}
    for jobs, read in counts.items():
        READ_HOOKS.append(read.append)
        try:
            run(paths, jobs=jobs)
        finally:
            READ_HOOKS.remove(read.append)
    assert sum(counts[2]) == sum(counts[1]) >= sum(Path(path).stat().st_size for path in corpus["mat"])


def test_a_single_unit_runs_here_without_a_pool(corpus, monkeypatch):
    """A pool would only start its processes to run one work unit (one small file) on one of them:
    that unit runs here, with the figures and the bytes read of a worker's run."""
    pools = []

    class Pool(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)
    array, missing = corpus["generated"][6], corpus["generated"][3]  # a JSON document, read whole; no file
    for paths, chunk_games, pooled in (([array], 500, False), (corpus["big"], 500, False), ([missing], 500, False),
                                       (corpus["big"], 10, True)):
        read: list[int] = []
        READ_HOOKS.append(read.append)
        try:
            figures = validation(paths, jobs=2, chunk_games=chunk_games)
        finally:
            READ_HOOKS.remove(read.append)
        assert figures == sequential(paths)
        assert sum(read) == sum(Path(path).stat().st_size for path in paths if Path(path).exists())
        assert bool(pools) == pooled, paths
        pools.clear()


@pytest.mark.slow
def test_files_too_long_to_ship_are_streamed_here(corpus, expected, expected_mat, monkeypatch, tmp_path):
    """Whole-file units (MAT, a JSON document) longer than the limit are read in the parent as they
    stream, in their place in the corpus order; a damaged one keeps the games before the damage."""
    monkeypatch.setattr(parallel, "SHIP_LIMIT", 2_000)
    streamed_here: list[str] = []
    stream = parallel._stream

    def stream_here(unit, *rest):
        streamed_here.append(unit.source)
        return stream(unit, *rest)

    monkeypatch.setattr(parallel, "_stream", stream_here)
    assert validation(corpus["mat"], jobs=2) == expected_mat
    assert validation(corpus["generated"], jobs=2, chunk_games=4) == expected
    expected_names = [Path(path).name for path in corpus["mat"]] + ["array.json"]
    assert [Path(source).name for source in streamed_here] == expected_names
    records = long_games(8, 9)
    with gzip.open(tmp_path / "array.json.gz", "wt", encoding="utf-8") as out:
        writer("json")(records, out)
    packed = (tmp_path / "array.json.gz").read_bytes()
    (tmp_path / "cut.json.gz").write_bytes(packed[: len(packed) * 2 // 3])
    paths = [str(tmp_path / "cut.json.gz"), *corpus["big"]]
    streamed = validation(paths, jobs=2)
    assert streamed == sequential(paths)
    assert "cut.json.gz: cannot read after line" in streamed[2][0]


def test_units_in_flight_are_bounded(corpus):
    pulled = []

    def work():
        for item in parallel._work(corpus["big"], None, None, None, 1):
            pulled.append(item)
            yield item

    results = parallel._gather(work(), lambda fn, *args: _Done(fn(*args)), 3, VALIDATE, print)
    next(results)
    assert len(pulled) == 4  # three in flight, and the next one submitted before the results are given
    assert len(list(results)) == 29 and len(pulled) > 25


class _Done:
    """A future already done, for driving _gather in this process."""

    def __init__(self, value: object) -> None:
        self.value = value

    def result(self) -> object:
        return self.value

    def cancel(self) -> bool:
        return False


def stats_run(paths: list[str], folder: Path, *options: str) -> tuple[int, str, dict[str, bytes], object]:
    """``nardy stats`` with a report and Parquet tables: exit status, standard output, every
    report file but the pictures, and the Parquet tables as DataFrames."""
    import pandas as pd

    result = CliRunner().invoke(cli, ["stats", *paths, "--format", "json", "--quiet", "--out", str(folder / "report"),
                                      "--parquet", str(folder / "parquet"), *options])
    files = {path.name: path.read_bytes() for path in (folder / "report").iterdir()
             if path.suffix in (".csv", ".html")}
    parquet = {name: pd.read_parquet(folder / "parquet" / f"{name}.parquet") for name in ("games", "turns", "findings")}
    return result.exit_code, result.stdout, files, parquet


@pytest.fixture(scope="module")
def expected_stats(corpus, tmp_path_factory):
    return stats_run(corpus["generated"] + corpus["mat"], tmp_path_factory.mktemp("stats"), "--jobs", "1")


def assert_same_stats(run: tuple, expected: tuple) -> None:
    status, stdout, files, parquet = run
    assert (status, stdout) == expected[:2] and status == 2  # unreadable inputs, as in the sequential run
    assert files == expected[2]
    for name, table in parquet.items():
        assert table.equals(expected[3][name]), name


@pytest.mark.slow
def test_stats_with_two_workers_writes_the_sequential_files(corpus, expected_stats, tmp_path):
    assert_same_stats(stats_run(corpus["generated"] + corpus["mat"], tmp_path, "--jobs", "2"), expected_stats)
    _, _, files, parquet = expected_stats
    assert set(files) >= {"games.csv", "turns.csv", "findings.csv", "report.html"}
    for name, table in parquet.items():
        assert len(table) == files[f"{name}.csv"].count(b"\n") - 1 > 0, name  # one line per row, no line breaks


@pytest.mark.parametrize(("spec", "module"), [("local:1", "dask.multiprocessing"),
                                            ("tcp://127.0.0.1:1", "dask.distributed")])
def test_a_missing_dask_is_named_with_its_install_command(monkeypatch, spec, module):
    monkeypatch.setitem(sys.modules, module, None)  # importing it fails
    with pytest.raises(ClusterError, match=re.escape("pip install 'nardy-cli[dask]'")):
        run([], dask=spec)


def test_dask_gives_the_sequential_figures(corpus, expected, expected_rows, dask_cluster):
    assert validation(corpus["generated"], dask=dask_cluster, chunk_games=4) == expected
    assert run(corpus["generated"], ROWS, dask=dask_cluster, chunk_games=4)[0] == expected_rows


def test_stats_on_a_dask_scheduler_writes_the_sequential_files(corpus, expected_stats, dask_cluster, tmp_path):
    address = dask_cluster.scheduler.address
    assert address.startswith("tcp://")
    assert_same_stats(stats_run(corpus["generated"] + corpus["mat"], tmp_path, "--dask", address), expected_stats)


@pytest.mark.slow
@pytest.mark.dask
def test_the_parquet_tables_feed_dask_dataframe(corpus, expected_stats, tmp_path):
    """The per-game table written with --parquet, aggregated by dask.dataframe, gives the figures of
    nardy stats --by variant. It is computed here, in this process: left to Dask, it ran on the
    session's cluster whenever an earlier test had started it (Dask makes the latest client the
    default), whose workers then imported pandas and pyarrow, a run that depended on the order of
    the tests and on the load."""
    dataframe = pytest.importorskip("dask.dataframe")
    stats_run(corpus["generated"] + corpus["mat"], tmp_path, "--jobs", "1")
    games = dataframe.read_parquet(tmp_path / "parquet" / "games.parquet")
    by_variant = games.groupby("variant").agg({"game": "count", "turns": "sum"}).compute(scheduler="sync")
    stats = CliRunner().invoke(
        cli, ["stats", *corpus["generated"], *corpus["mat"], "--by", "variant", "--format", "json", "-j1"])
    summary = {row["variant"]: row for row in json.loads(stats.stdout)["summary"]}
    for variant, row in by_variant.iterrows():
        assert row["game"] == summary[variant]["games"]
        assert row["turns"] / row["game"] == pytest.approx(summary[variant]["mean_turns"])


@pytest.mark.dask
def test_local_dask_runs_dask_s_process_scheduler_on_forked_workers(corpus, expected, expected_mat, monkeypatch):
    """``--dask local:N`` runs each unit through ``dask.multiprocessing.get`` on a pool of N worker
    processes (forked, on Linux), even a single unit, and gives the sequential figures."""
    dask_processes = pytest.importorskip("dask.multiprocessing", reason="pip install -e '.[dask]'")
    graphs: list[dict] = []
    dask_get = dask_processes.get

    def get(graph, key, **options):
        graphs.append(graph)
        return dask_get(graph, key, **options)

    monkeypatch.setattr(dask_processes, "get", get)
    assert validation(corpus["generated"], dask="local:2", chunk_games=4) == expected
    assert len(graphs) > 2 and all(len(graph) == 1 for graph in graphs)
    graphs.clear()
    assert validation(corpus["mat"][:1], dask="local:1") == validation(corpus["mat"][:1], jobs=1)
    assert len(graphs) == 1


def test_dask_on_real_match_files(corpus, expected_mat, dask_cluster):
    assert validation(corpus["mat"], dask=dask_cluster) == expected_mat


def test_bad_dask_values(dask_cluster):
    with pytest.raises(ClusterError, match="local:N"):
        run([], dask="local:none")


def cut_units(path: Path, chunk_games: int, batch: int, monkeypatch) -> list[tuple]:
    """What the parent cuts ``path`` into, told ``batch`` lines at a time: each unit's lines, where
    they start, its first game's count, probe and end, and what is left to stream; the messages."""
    monkeypatch.setattr(parallel, "BATCH_LINES", batch)
    cut: list = []
    for item in parallel._work([str(path)], None, None, None, chunk_games, workers_read=False):
        if isinstance(item, str):
            cut.append(item)
            continue
        rest: list[str] | None = None
        if item.rest is not None:
            rest = []
            try:
                rest.extend(item.rest)
            except InputError as error:
                rest.append(str(error))
        cut.append(("".join(item.lines), item.first_line, item.counted, item.probe, item.truncated, rest))
    return cut


@given(lines=st.lists(st.sampled_from(['[Event "a"]\n', "1. 63: 24/18/15\n", "2. 52: 24/19 1-0\n", "0-1\n",
                                       "\n", "{ a comment\n", "} 1-0\n", "\ufeff[Round 2]\n",
                                       "1. 63: 24/18 " + "x" * 300 + "\n"]), max_size=60),
       chunk_games=st.integers(1, 4), game_limit=st.sampled_from([200, 1000, 1 << 22]),
       batch=st.sampled_from([2, 3, 7, 100]), damaged=st.booleans())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_file_is_cut_the_same_whatever_lines_are_told_at_once(tmp_path, monkeypatch, lines, chunk_games,
                                                                game_limit, batch, damaged):
    """A batch of one line is a line at a time; each unit holds the lines after the last one's, from
    its first line on, and a damaged file is cut as far as it reads (it is read 64 bytes at a time)."""
    monkeypatch.setattr(parallel, "GAME_LIMIT", game_limit)
    monkeypatch.setattr(sources, "CHUNK_BYTES", 64)
    path = tmp_path / "games.ntn.gz"
    text = "".join(lines * 20)
    packed = gzip.compress(text.encode("utf-8"))
    path.write_bytes(packed[: len(packed) * 3 // 4] if damaged else packed)
    cut = cut_units(path, chunk_games, batch, monkeypatch)
    assert cut == cut_units(path, chunk_games, 1, monkeypatch)
    read = ""
    for unit in cut:
        if isinstance(unit, str):
            continue
        assert unit[1] == read.count("\n") + 1  # (every line ends with one)
        read += unit[0] + "".join(line for line in unit[5] or () if line.endswith("\n"))
    text = text.removeprefix("\ufeff")  # (told from a BOM, the encoding drops it)
    assert text.startswith(read) and (damaged or read == text)


def test_a_game_too_long_to_ship_streams_on_to_the_damage(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "GAME_LIMIT", 200)
    monkeypatch.setattr(sources, "CHUNK_BYTES", 64)
    path = tmp_path / "games.ntn.gz"
    packed = gzip.compress(ntn_text(long_games(3, 5)).encode("utf-8"))
    path.write_bytes(packed[: len(packed) // 2])
    cut = cut_units(path, 2, parallel.BATCH_LINES, monkeypatch)  # the damage in the batch of the long game
    assert cut == cut_units(path, 2, 1, monkeypatch)
    assert len(cut) == 1 and re.search(r"games.ntn.gz: cannot read after line \d+", cut[0][5][-1])
