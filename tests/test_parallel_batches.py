"""nardy_cli.run.parallel: small files go to the workers in batches, unopened by the parent, and
give what the sequential run gives, in its order: results, errors in their place, the "no game"
messages, the bytes on the progress bar."""
from __future__ import annotations

import gzip
import io
import shutil
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner

from locations import DATA, SAMPLES, corpus_files
from nardy_cli.analysis.selfplay import generate
from nardy_cli.analysis.validate import validated
from nardy_cli.cli.main import cli
from nardy_cli.core.rules import Rules
from nardy_cli.files.sources import READ_HOOKS
from nardy_cli.notations import notation
from nardy_cli.run import parallel
from nardy_cli.run.parallel import map_games, replayed

VALIDATE = partial(replayed, build=validated)
MATCHES = corpus_files("bglab-sample/*.txt")[:40]
needs_matches = pytest.mark.skipif(len(MATCHES) < 40, reason="no bglab-sample/ in the real corpora")


def events(paths: list[str], **options) -> list[tuple]:
    """Every game's result and every error message, in the order map_games gives them."""
    log: list[tuple] = []
    for result in map_games(paths, VALIDATE, on_error=lambda message: log.append(("error", message)), **options):
        log.append(("game", result))
    return log


def bytes_read(paths: list[str], **options) -> int:
    read: list[int] = []
    READ_HOOKS.append(read.append)
    try:
        events(paths, **options)
    finally:
        READ_HOOKS.remove(read.append)
    return sum(read)


def ntn_text(count: int, seed: int) -> str:
    out = io.StringIO()
    notation("ntn").write_games(generate(Rules.preset("long"), count, seed, "random"), out)
    return out.getvalue()


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Many small match files with, among them, what a batch must keep in its place: empty and blank
    files, a file of no notation, a damaged archive (a source that fails when opened), a gzipped file
    cut short (it fails after some lines) and one whose header is damaged (it fails at once), other
    encodings, a file named twice, a missing one, and files too large to be small (one cut into chunks)."""
    if len(MATCHES) < 40:
        pytest.skip("no bglab-sample/ in the real corpora")
    root = tmp_path_factory.mktemp("batches")
    tree = root / "tree"
    tree.mkdir()
    for number, match in enumerate(MATCHES[:20]):
        shutil.copy(match, tree / f"m{number:02}.mat")
    (tree / "m05-empty.mat").write_bytes(b"")  # a MAT reader's finding: no game
    (tree / "m06-empty.ntn").write_bytes(b"")  # no game in this input
    (tree / "m10-blank.ntn").write_text("\n  \n", encoding="utf-8")
    (tree / "m12-bad.zip").write_bytes(b"PK\x03\x04 not an archive")
    packed = gzip.compress(Path(MATCHES[20]).read_bytes())
    (tree / "m14-cut.mat.gz").write_bytes(packed[: len(packed) * 2 // 3])
    (tree / "m15-header.mat.gz").write_bytes(b"\x1f\x8b\x08\x00" + packed[10:])
    (tree / "m16-notes.txt").write_text("nothing to read here\n", encoding="utf-8")
    for name in ("cp1251-crlf.mat", "utf16le-bom-crlf.ntn", "mixed-ends-tabs.ntn"):
        shutil.copy(DATA / "hostile" / name, tree / f"m17-{name}")
    (root / "long.ntn").write_text(ntn_text(40, 3), encoding="utf-8")  # more than small: cut into chunks
    large = root / "large.mat"  # more than small, not cut: a whole-file unit sniffed by the parent
    large.write_bytes(b"".join(Path(match).read_bytes() for match in MATCHES[21:40]))
    small = [str(path) for path in MATCHES[21:30]]
    return [str(tree), *small[:4], str(root / "long.ntn"), small[4], str(root / "missing.mat"), str(large),
            *small[4:], str(SAMPLES / "short" / "club-night-cube.ntn"), small[0]]


@needs_matches
def test_small_files_are_batched_unopened_in_order(mixed):
    work = list(parallel._batched(parallel._work(mixed, None, None, None, 500), 500))
    batches = [item for item in work if isinstance(item, list)]
    assert len(batches) >= 3 and max(map(len, batches)) > 10
    assert all(unit.notation == "" and unit.lines == [] and unit.opener is not None for batch in batches
               for unit in batch)
    assert all(sum(unit.size for unit in batch) <= parallel.BATCH_BYTES for batch in batches)
    units = [unit for item in work if not isinstance(item, str)
             for unit in (item if isinstance(item, list) else [item])]
    named = [Path(unit.source).name for unit in units]
    assert named.index("long.ntn") < named.index("large.mat")
    told = {Path(unit.source).name: unit.notation for unit in units if unit.notation}
    assert told == {"long.ntn": "ntn", "large.mat": "mat"}
    cut = [item for item in parallel._batched(parallel._work(mixed, None, None, None, 10), 10)
           if isinstance(item, parallel._Unit) and item.source.endswith("long.ntn")]
    assert len(cut) == 4  # 40 games, 10 a chunk
    missing = f"{mixed[7]}: no such file or directory; check the name"
    assert [item for item in work if isinstance(item, str)] == [missing]
    for failing in ("m12-bad.zip", "m15-header.mat.gz"):  # a file that fails to open, amid a batch
        batch = next(batch for batch in batches if any(unit.source.endswith(failing) for unit in batch))
        assert not batch[0].source.endswith(failing) and not batch[-1].source.endswith(failing)
    files = [unit.file for unit in units]
    assert files == sorted(files)


@needs_matches
@pytest.mark.slow
def test_batches_give_the_sequential_results_and_errors_in_place(mixed):
    expected = events(mixed, jobs=1)
    errors = [event[1] for event in expected if event[0] == "error"]
    said = "\n".join(errors)
    for what in ("m06-empty.ntn:1:1: no game in this input", "m10-blank.ntn:1:1: no game in this input",
                 "m12-bad.zip: not a readable zip archive", "m14-cut.mat.gz: cannot read after line",
                 "m15-header.mat.gz: cannot read from its start", "m16-notes.txt: expected NTN, MAT",
                 "missing.mat: no such file"):
        assert what in said, what
    assert events(mixed, jobs=2) == expected
    assert events(mixed, jobs=2, chunk_games=4) == expected  # smaller batches, more files cut
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parallel, "BATCH_FILES", 1)
        assert events(mixed, jobs=2) == expected


@needs_matches
@pytest.mark.slow
def test_batches_with_a_named_notation_and_encoding(mixed):
    matches = [str(path) for path in MATCHES[:12]]
    for options in ({"fmt": "mat"}, {"encoding": "latin-1"}, {"fmt": "ntn"}, {"allow_empty": True}):
        assert events(matches + mixed[:1], jobs=2, **options) == events(matches + mixed[:1], jobs=1, **options), options


@needs_matches
@pytest.mark.slow
def test_the_progress_bar_counts_what_batches_read(mixed):
    present = [path for path in mixed if Path(path).exists()]
    sequential = bytes_read(present, jobs=1)
    assert bytes_read(present, jobs=2) == sequential
    assert bytes_read(present, jobs=2, chunk_games=4) == sequential
    on_disk = sum(path.stat().st_size for path in Path(mixed[0]).iterdir())
    assert sequential > on_disk  # the tree, and more


@needs_matches
def test_one_batch_runs_here(mixed, monkeypatch):
    """A few small files make one batch: it runs here, as a lone unit does, with no pool started."""
    monkeypatch.setattr(parallel, "_process_context", lambda: pytest.fail("a pool was started"))
    matches = [str(path) for path in MATCHES[:5]]
    assert bytes_read(matches, jobs=2) == bytes_read(matches, jobs=1) == sum(Path(m).stat().st_size for m in matches)
    assert events(matches, jobs=2) == events(matches, jobs=1)


@needs_matches
@pytest.mark.slow
@pytest.mark.parametrize("workers", ["--jobs 2", "--dask local:2"])
def test_the_commands_print_the_sequential_bytes(mixed, workers, tmp_path):
    """validate, stats and convert over many small files, read in batches by two workers (or by a
    local Dask cluster's): standard output, errors and exit status as with one process."""
    commands = [["validate", "--format", "json"], ["validate"], ["stats", "-q", "--format", "json"],
                ["convert", "--to", "jsonl"]]
    paths = mixed[:6] + ["-"]
    stdin = Path(MATCHES[0]).read_text(encoding="utf-8")
    runner = CliRunner()
    for command in commands:
        one = runner.invoke(cli, [*command, *paths, "--jobs", "1"], input=stdin)
        two = runner.invoke(cli, [*command, *paths, *workers.split()], input=stdin)
        assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr), \
            command
        assert one.exit_code == 2 and "no game in this input" in one.stderr
