"""The per-game, per-turn and per-finding tables written as the games stream past: CSV or Parquet
files that grow a batch at a time and appear, whole, when the run ends (see :func:`table_files`).

Parquet needs pyarrow (``pip install 'nardy-cli[dask]'``); the tables read back with pandas,
pyarrow or ``dask.dataframe.read_parquet`` for analyses beyond ``nardy stats``.
"""
from __future__ import annotations

import csv
import importlib
import importlib.util
import os
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TextIO

from nardy_cli.analysis.aggregates import (
    FINDING_COLUMNS,
    GAME_COLUMNS,
    MATCH_COLUMNS,
    TURN_COLUMNS,
    GameStats,
    RowSink,
)
from nardy_cli.files.output import OutputError, atomic_output
from nardy_cli.run.parallel import DASK_HINT

TABLES = {"games": GAME_COLUMNS, "turns": TURN_COLUMNS, "findings": FINDING_COLUMNS, "matches": MATCH_COLUMNS}
BATCH_ROWS = 10_000
NO_PYARROW = f"Parquet files need pyarrow: {DASK_HINT}"
REPORT_PAGE = "report.html"  # a folder holding it holds a report (see nardy_cli.reporting.report)


class _Table:
    """Rows of one table, buffered and written ``BATCH_ROWS`` at a time."""

    def __init__(self, handle: TextIO, columns: Mapping[str, str]) -> None:
        self.handle, self.columns = handle, columns
        self.rows: list[dict[str, Any]] = []

    def add(self, rows: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> None:
        self.rows.extend(rows)
        if len(self.rows) >= BATCH_ROWS:
            self.flush()

    def flush(self) -> None:
        if self.rows:
            self.write(self.rows)
            self.rows = []

    def write(self, rows: list[dict[str, Any]]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.flush()


class _CsvTable(_Table):
    def __init__(self, handle: TextIO, columns: Mapping[str, str]) -> None:
        super().__init__(handle, columns)
        self.writer = csv.writer(handle, lineterminator="\n")
        self.writer.writerow(columns)

    def write(self, rows: list[dict[str, Any]]) -> None:
        self.writer.writerows([row.get(column) for column in self.columns] for row in rows)


class _ParquetTable(_Table):
    """Opened at its first batch: pyarrow is imported after the worker processes have forked."""

    writer: Any = None

    def write(self, rows: list[dict[str, Any]]) -> None:
        pyarrow, parquet = _pyarrow()
        if self.writer is None:
            types = {"str": pyarrow.string(), "int": pyarrow.int64(), "bool": pyarrow.bool_(),
                     "float": pyarrow.float64()}
            self.schema = pyarrow.schema([(name, types[kind]) for name, kind in self.columns.items()])
            self.writer = parquet.ParquetWriter(self.handle.buffer, self.schema)
        self.writer.write_table(pyarrow.Table.from_pydict(
            {column: [row.get(column) for row in rows] for column in self.columns}, schema=self.schema))

    def close(self) -> None:
        super().close()
        if self.writer is None:
            self.write([])  # a table without rows still has its columns
        self.writer.close()


FORMATS: dict[str, type[_Table]] = {"csv": _CsvTable, "parquet": _ParquetTable}


def _check_pyarrow() -> None:
    """Fail before a long run when Parquet cannot be written, without importing pyarrow yet."""
    try:
        found = importlib.util.find_spec("pyarrow") is not None
    except ValueError:  # None in sys.modules: importing it fails too
        found = False
    if not found:
        raise OutputError(NO_PYARROW)


def _pyarrow() -> tuple[Any, Any]:
    try:
        return importlib.import_module("pyarrow"), importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise OutputError(NO_PYARROW) from None


def _make_folder(folder: str | Path) -> None:
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{folder}: cannot make the folder: {error.strerror or error}") from None


def report_folder(out_dir: str | Path, *, force: bool = False) -> Path:
    """The report's folder, made if missing; raises :class:`OutputError` when it already holds a
    report and ``force`` is not set. Call it before a long run, which then writes the per-game,
    per-turn and per-finding tables into it with :func:`table_files`."""
    folder = Path(out_dir)
    if (folder / REPORT_PAGE).exists() and not force:
        raise OutputError(f"{folder}: already holds a report; add --force to replace it")
    _make_folder(folder)
    return folder


@contextmanager
def table_files(directory: str, fmt: str, *, force: bool = False) -> Iterator[RowSink]:
    """Open ``DIR/games.FMT``, ``DIR/turns.FMT``, ``DIR/findings.FMT`` and ``DIR/matches.FMT``
    (``csv`` or ``parquet``; ``DIR`` is made if missing) and yield the function that adds one
    game's rows to them, with the findings of its match and the rows of the matches ended
    (once every game is in, it is called with no game and the last matches).

    The files are written atomically when the block ends without an exception; an existing
    file is replaced only with ``force``. The turn rows are the :class:`GameStats`' own: build
    them ``with_turns``.
    """
    table = FORMATS[fmt]
    if fmt == "parquet":
        _check_pyarrow()
    _make_folder(directory)
    with ExitStack() as stack:
        writers = {}
        for name, columns in TABLES.items():
            handle = stack.enter_context(atomic_output(os.path.join(directory, f"{name}.{fmt}"), force=force,
                                                       newline=""))
            writers[name] = table(handle, columns)

        def add(stats: GameStats | None, match_findings: tuple[dict[str, Any], ...] = (),
                matches: list[dict[str, Any]] | None = None) -> None:
            if stats is not None:
                writers["games"].add([stats.game])
                writers["turns"].add(stats.turns)
                writers["findings"].add(stats.findings + match_findings)
            writers["matches"].add(matches or [])

        try:
            yield add
        finally:  # a Parquet file needs its footer even when it is about to be thrown away
            for writer in writers.values():
                writer.close()
