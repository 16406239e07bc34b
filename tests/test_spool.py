"""What commands write only after all their input (the lists of validate's and find's JSON, convert's
warnings) waits in spools, in memory up to a bound and then on disk: the same text as before, in
memory that does not grow with the input."""
from __future__ import annotations

import contextlib
import gc
import heapq
import json
import tempfile
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from locations import SAMPLES
from nardy_cli.cli.main import cli
from nardy_cli.files import spool
from nardy_cli.files.output import OutputError
from nardy_cli.files.spool import JsonList, JsonValues, SortedRuns, Spool, json_chunks, sorted_spooled
from support.memory import least_peak

TEXTS = st.text(st.characters(blacklist_categories=["Cs"]) | st.sampled_from(["\n", "\x00", "\udcff", "\x1b"]))
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXTS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXTS, children, max_size=4),
    max_leaves=12)


@given(texts=st.lists(TEXTS, max_size=30), memory=st.sampled_from([1, 64, None]),
       block=st.sampled_from([1, 2, 7, spool.BLOCK_VALUES]), appended=st.integers(0, 30))
@settings(max_examples=200, deadline=None)
def test_a_spool_gives_back_its_texts_in_order_in_memory_and_on_disk(texts, memory, block, appended):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spool, "BLOCK_VALUES", block)  # (a spool takes it when it is made)
        with Spool[str](memory) as kept:
            half = len(texts) // 2
            kept.extend(texts[:half])
            assert list(kept) == texts[:half]  # read back, then appended to again
            for text in texts[half:half + appended]:
                kept.append(text)
            kept.extend(texts[half + appended:])
            assert len(kept) == len(texts) and list(kept) == texts and list(kept) == texts


@given(runs=st.lists(st.lists(st.integers(-5, 5), max_size=9), max_size=6), appended=st.integers(0, 9),
       block=st.sampled_from([1, 2, 3, spool.BLOCK_VALUES]))
@settings(max_examples=200, deadline=None)
def test_sorted_runs_read_back_every_run_merged_whatever_their_blocks(runs, appended, block):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spool, "BLOCK_VALUES", block)  # (a spool takes it when it is made)
        with SortedRuns[int]() as kept:
            for values in runs:
                ordered = sorted(values)
                kept.add(ordered[:appended])  # the rest appended one by one, in blocks as they fill
                for value in ordered[appended:]:
                    kept.append(value)
            assert list(kept.merged()) == sorted(value for values in runs for value in values)
            kept.add([9])  # runs added after a reading
            assert list(kept.merged([7])) == sorted([7, 9, *(value for values in runs for value in values)])


def test_a_block_of_large_values_holds_fewer_of_them():
    """A reader holds a block at a time: one of large values is about :data:`BLOCK_BYTES` long."""
    written: list[int] = []
    with Spool[str](0) as kept:
        record = kept._write

        def recorded(block: list[str]) -> None:
            written.append(len(block))
            record(block)

        kept._write = recorded  # type: ignore[method-assign]
        texts = [f"{number:04}".ljust(spool.BLOCK_BYTES // 10, "x") for number in range(1000)]  # (marshal
        kept.extend(texts)                                                    # writes a repeated one once)
        kept.extend(["small"] * 1000)
        assert list(kept) == [*texts, *["small"] * 1000]
    assert written[0] == spool.BLOCK_VALUES and max(written[1:]) <= 10
    assert sum(written) == 2000


@given(head=st.dictionaries(TEXTS, JSON_VALUES, max_size=4), lists=st.lists(st.lists(JSON_VALUES, max_size=5),
       max_size=3), tail=st.dictionaries(TEXTS, JSON_VALUES, max_size=3), memory=st.sampled_from([1, None]),
       chunk=st.sampled_from([1, 7, spool.CHUNK_CHARS]), streamed=st.booleans())
@settings(max_examples=200, deadline=None)
def test_json_chunks_give_the_text_json_dumps_gives(head, lists, tail, memory, chunk, streamed):
    listed = {f"list {index}": values for index, values in enumerate(lists)}
    document = {**head, **listed, **{key: value for key, value in tail.items() if key not in listed}}
    expected = json.dumps(document, ensure_ascii=False, indent=2)

    kept: list[JsonList] = []

    def spooled() -> dict:  # the lists spooled, or (streamed) made as they are written
        made = dict(document)
        for key, values in listed.items():
            if streamed:
                made[key] = JsonValues(iter(values))
            else:
                made[key] = JsonList(memory)
                made[key].extend(values)
                kept.append(made[key])
        return made

    whole = JsonList(memory)
    whole.extend(lists[0] if lists else [])
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(spool, "CHUNK_CHARS", chunk)
            assert "".join(json_chunks(spooled())) == expected
            assert "".join(json_chunks(whole)) == json.dumps(lists[0] if lists else [], ensure_ascii=False, indent=2)
            assert "".join(json_chunks(JsonValues(iter(lists[0] if lists else [])))) == "".join(json_chunks(whole))
            assert all(len(piece) >= chunk for piece in list(json_chunks(spooled()))[:-1])
    finally:
        for value in [*kept, whole]:
            value.close()


SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | TEXTS


@given(rows=st.lists(st.dictionaries(TEXTS | st.integers() | st.floats() | st.booleans() | st.none(), SCALARS,
                                     max_size=6), max_size=4))
@settings(max_examples=300, deadline=None)
def test_a_table_row_is_spooled_as_json_dumps_writes_it(rows):
    # rows (dicts of scalars, NaN and infinities too) take the C encoder's path: the same text
    with JsonList() as listed:
        listed.extend(rows)
        assert list(listed) == [json.dumps(row, ensure_ascii=False, indent=2) for row in rows]


ROW_TEXTS = TEXTS | st.sampled_from(["}", "},\n  {", '"},\n  {"', "{", "\u2028"])


@given(rows=st.lists(st.dictionaries(ROW_TEXTS, SCALARS | ROW_TEXTS, max_size=4) | JSON_VALUES, max_size=9),
       batch=st.sampled_from([1, 2, 3, spool.JSON_BATCH]))
@settings(max_examples=300, deadline=None)
def test_rows_made_while_written_are_encoded_together_as_json_dumps_writes_them(rows, batch):
    # a batch of rows of scalars is one call of the C encoder, then its rows' separators are set
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spool, "JSON_BATCH", batch)
        assert "".join(json_chunks(JsonValues(iter(rows)))) == json.dumps(rows, ensure_ascii=False, indent=2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.text(max_size=3))), st.sampled_from([1, 2, 3, 1000]),
       st.sampled_from([2, 3, 32]))
def test_sorted_spooled_sorts_as_sorted(values, run, merged):
    entries = [(*value, index) for index, value in enumerate(values)]  # (the index tells equal values apart)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spool, "MERGED_RUNS", merged)
        assert list(sorted_spooled(reversed(entries), run)) == sorted(entries)


def test_sorted_spooled_keeps_one_file_and_merges_few_runs_at_once(monkeypatch):
    opened, merges = [], []

    class Recorded(Spool):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            opened.append(self)

    def merge(*runs):
        merges.append(len(runs))
        return heapq.merge(*runs)

    monkeypatch.setattr(spool, "Spool", Recorded)
    monkeypatch.setattr(spool, "heapq", SimpleNamespace(merge=merge))
    entries = [(number * 7919 % 1000, number) for number in range(1000)]
    merged = sorted_spooled(entries, 3)  # 334 runs: 128 merged, then 80, then the last 128
    assert next(merged) == min(entries)
    assert len(opened) == 1 and merges == [128, 80, 128]
    assert list(merged) == sorted(entries)[1:]
    assert opened[0]._file.closed


def test_a_spool_keeps_no_more_than_its_bound_in_memory():
    text = "x" * 500
    tracemalloc.start()
    try:
        with Spool[str]() as kept:
            for _ in range(20_000):  # 10 MB of texts
                kept.append(text)
            _, peak = tracemalloc.get_traced_memory()
            assert sum(map(len, kept)) == 10_000_000
    finally:
        tracemalloc.stop()
    assert peak < spool.MEMORY_BYTES + (1 << 20)


def test_a_spool_that_cannot_move_to_disk_raises_an_output_error(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    with Spool[str](16) as kept:
        kept.append("short")
        with pytest.raises(OutputError, match="cannot keep what is written at the end in a temporary file"):
            kept.append("long enough to pass the bound")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("command", [
    ["validate", "--format", "json", "-j", "1", str(SAMPLES)],
    ["find", "--position", "long", "--format", "json", "-q", "-j", "1", str(SAMPLES / "long")],
    ["convert", "--to", "mat", "-q", "-j", "1", str(SAMPLES)],
    ["convert", "--to", "sgf", "-q", "-j", "1", str(SAMPLES)],
    ["generate", "--games", "3", "--to", "sgf", "-q"],
])
def test_output_is_the_same_when_the_spools_move_to_disk(command, monkeypatch):
    in_memory = run(*command)
    monkeypatch.setattr(spool, "MEMORY_BYTES", 1)
    on_disk = run(*command)
    assert (on_disk.exit_code, on_disk.stdout, on_disk.stderr) == (in_memory.exit_code, in_memory.stdout,
                                                                     in_memory.stderr)
    assert on_disk.stdout.strip() and (command[0] not in ("convert", "generate") or "warning: " in on_disk.stderr)


def test_a_spool_that_cannot_move_to_disk_is_an_error_not_a_traceback(monkeypatch, tmp_path):
    monkeypatch.setattr(spool, "MEMORY_BYTES", 1)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    result = run("validate", "--format", "json", "-j", "1", str(SAMPLES / "long"))
    assert result.exit_code == 2 and "cannot keep what is written at the end in a temporary file" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def run_to_file(args: list[str], out: Path) -> int | str | None:
    """Run the command line in this process, its standard output into ``out`` (not kept in memory,
    as CliRunner keeps it); its exit status."""
    with out.open("w", encoding="utf-8") as stream, contextlib.redirect_stdout(stream):
        try:
            cli.main(args, prog_name="nardy", standalone_mode=False)
        except SystemExit as exit:
            return exit.code
    return 0


@pytest.mark.parametrize("command", [
    ["validate", "--format", "json", "-j", "1"],
    ["find", "--position", "long", "--format", "json", "-q", "-j", "1"],
    ["convert", "--to", "mat", "-q", "-j", "1"],
], ids=lambda command: " ".join(command[:3]))
def test_memory_does_not_grow_with_what_is_written_at_the_end(command, tmp_path, monkeypatch):
    """Five times the games (each with findings, a found turn and warnings) take no more memory."""
    monkeypatch.setattr(spool, "MEMORY_BYTES", 1 << 16)
    games = (SAMPLES / "long" / "kazan-cup-2026.ntn").read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    run_to_file([*command, str(SAMPLES / "long")], tmp_path / "first.out")  # (modules imported, the process set up)
    threshold = gc.get_threshold()
    gc.set_threshold(700)  # cyclic garbage collected as by default, not as seldom as the command's process does
    peaks = []
    try:
        for copies in (40, 200):
            corpus, out = tmp_path / f"{copies}.ntn", tmp_path / f"{copies}.out"
            corpus.write_text(games * copies, encoding="utf-8")

            def run(corpus: Path = corpus, out: Path = out) -> None:
                gc.collect()
                assert run_to_file([*command, str(corpus)], out) in (0, 1)

            peaks.append(least_peak(run))  # the tests' Dask cluster, beside, once added 170 KB to one run
            assert out.stat().st_size > 1000 * copies
    finally:
        gc.set_threshold(*threshold)
    assert peaks[1] < peaks[0] + (1 << 17), peaks  # kept in memory, the lists would add 270-480 KiB
