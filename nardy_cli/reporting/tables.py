"""The per-game, per-turn and per-finding tables written as the games stream past: CSV files that
grow a batch at a time, or Parquet files whose batches are spooled to disk and written at the end
(by :mod:`nardy_cli.reporting.parquet`); each appears, whole, when the run ends (see :func:`table_files`).

Parquet needs pyarrow (``pip install 'nardy-cli[dask]'``); the tables read back with pandas,
pyarrow or ``dask.dataframe.read_parquet`` for analyses beyond ``nardy stats``.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, closing, contextmanager
from pathlib import Path
from typing import Any, TextIO

from nardy_cli.analysis.aggregates import (
    FINDING_COLUMNS,
    GAME_COLUMNS,
    MATCH_COLUMNS,
    TURN_COLUMNS,
    GameStats,
    ReadyRows,
    TurnValues,
)
from nardy_cli.files.output import OutputError, atomic_output
from nardy_cli.reporting import parquet
from nardy_cli.reporting.plain import csv_text
from nardy_cli.run.parallel import DASK_HINT

TABLES = {"games": GAME_COLUMNS, "turns": TURN_COLUMNS, "findings": FINDING_COLUMNS, "matches": MATCH_COLUMNS}
BATCH_ROWS = 2_000
NO_PYARROW = f"Parquet files need pyarrow: {DASK_HINT}"
REPORT_PAGE = "report.html"  # a folder holding it holds a report (see nardy_cli.reporting.report)


class _Table:
    """Rows of one table, made ready to write (:data:`READY`) and written at least ``BATCH_ROWS`` at
    a time, in order; rows come as their values in column order (see
    :data:`~nardy_cli.analysis.aggregates.TurnValues`), made ready here a batch at a time, or ready
    already (a game's turn rows, made ready in the worker process that replayed the game)."""

    fmt = ""

    def __init__(self, handle: TextIO, columns: Mapping[str, str]) -> None:
        self.handle, self.columns = handle, columns
        self.rows: list[tuple[Any, ...]] = []
        self.ready: list[Any] = []  # parts made ready, each some rows
        self.count = 0  # the rows of the parts ready

    def add(self, rows: Iterable[tuple[Any, ...]]) -> None:
        self.rows.extend(rows)
        if len(self.rows) + self.count >= BATCH_ROWS:
            self.flush()

    def add_dicts(self, rows: Iterable[dict[str, Any]]) -> None:
        """Add rows given as dicts by column (a column missing is None)."""
        self.add(tuple(row.get(column) for column in self.columns) for row in rows)

    def add_ready(self, part: Any, count: int) -> None:
        """Add ``count`` rows made ready by ``READY[self.fmt]``."""
        self._make_ready()
        self.ready.append(part)
        self.count += count
        if self.count >= BATCH_ROWS:
            self.flush()

    def _make_ready(self) -> None:
        if self.rows:
            self.ready.append(READY[self.fmt](self.rows))
            self.count += len(self.rows)
            self.rows = []

    def flush(self) -> None:
        self._make_ready()
        if self.ready:
            self.write(self.ready)
            self.ready, self.count = [], 0

    def write(self, parts: list[Any]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.flush()


class _CsvTable(_Table):
    fmt = "csv"

    def __init__(self, handle: TextIO, columns: Mapping[str, str]) -> None:
        super().__init__(handle, columns)
        handle.write(csv_text([tuple(columns)]))

    def write(self, parts: list[str]) -> None:
        self.handle.write("".join(parts))


class _ParquetTable(_Table):
    """Spooled, a batch of compressed parts at a time, while the games stream past (see :class:`_Spool`)."""

    fmt = "parquet"

    def __init__(self, handle: TextIO, columns: Mapping[str, str], spool: _Spool) -> None:
        super().__init__(handle, columns)
        self.spool, self.number = spool, len(spool.tables)
        spool.tables.append(self)

    def write(self, parts: list[bytes]) -> None:
        self.spool.file.write(parquet.spooled(self.number, parts))


READY: dict[str, Callable[[Sequence[tuple[Any, ...]]], Any]] = {"csv": csv_text, "parquet": parquet.packed}
"""How the rows of a table of each format are made ready to write: CSV lines, or packed columns."""


def ready_rows(formats: tuple[str, ...], rows: list[TurnValues]) -> ReadyRows:
    """``rows`` made ready for the tables of each of ``formats``: the ``make_ready`` of
    :func:`~nardy_cli.analysis.aggregates.game_stats` when every sink is a :class:`TableSink`, run
    where the game is replayed, so that the process that writes the tables only copies the rows."""
    return len(rows), {fmt: READY[fmt](rows) for fmt in formats} if rows else {}


class _Spool:
    """The batches of rows of one run's Parquet tables, in a temporary file, written as Parquet
    files when every table is closed, once the worker processes have ended, by a process of its
    own (see :mod:`nardy_cli.reporting.parquet`: pyarrow would stay in this one)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.file = tempfile.TemporaryFile(dir=folder)
        self.tables: list[_ParquetTable] = []

    def close(self) -> None:
        self.file.close()

    def write(self) -> None:
        """Write the Parquet files of every table closed (into their temporary files)."""
        job = {"folder": self.folder,
               "tables": [{"file": table.handle.name, "columns": dict(table.columns)} for table in self.tables]}
        self.file.flush()
        self.file.seek(0)
        root = str(Path(parquet.__file__).resolve().parents[2])  # this nardy_cli's, whatever the current folder holds
        code = f"import sys; sys.path.insert(0, {root!r}); from nardy_cli.reporting.parquet import main; main()"
        done = subprocess.run([sys.executable, "-c", code, json.dumps(job)], stdin=self.file,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False,
                              env={**parquet.ENVIRONMENT, **os.environ})
        if done.returncode == parquet.CANNOT_WRITE:
            raise OutputError(done.stderr.strip())
        if done.returncode:
            raise RuntimeError(f"writing the Parquet files failed: {done.stderr}")


def _check_pyarrow() -> None:
    """Fail before a long run when Parquet cannot be written, without importing pyarrow yet."""
    try:
        found = importlib.util.find_spec("pyarrow") is not None
    except ValueError:  # None in sys.modules: importing it fails too
        found = False
    if not found:
        raise OutputError(NO_PYARROW)


def _make_folder(folder: str | Path) -> None:
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise OutputError.at(folder, f"cannot make the folder: {error.strerror or error}") from None


def report_folder(out_dir: str | Path, *, force: bool = False) -> Path:
    """The report's folder, made if missing; raises :class:`OutputError` when it already holds a
    report and ``force`` is not set. Call it before a long run, which then writes the per-game,
    per-turn and per-finding tables into it with :func:`table_files`."""
    folder = Path(out_dir)
    if (folder / REPORT_PAGE).exists() and not force:
        raise OutputError.at(folder, "already holds a report; add --force to replace it")
    _make_folder(folder)
    return folder


class TableSink:
    """What :func:`table_files` yields: called with one game's rows (a
    :data:`~nardy_cli.analysis.aggregates.RowSink`), it adds them to the tables of format ``fmt``."""

    def __init__(self, fmt: str, writers: dict[str, _Table]) -> None:
        self.fmt, self.writers = fmt, writers

    def __call__(self, stats: GameStats | None, match_findings: tuple[dict[str, Any], ...] = (),
                 matches: list[dict[str, Any]] | None = None) -> None:
        writers = self.writers
        if stats is not None:
            writers["games"].add_dicts([stats.game])
            if stats.ready_turns is None:
                writers["turns"].add(stats.turns)
            elif stats.ready_turns[0]:
                count, ready = stats.ready_turns
                writers["turns"].add_ready(ready[self.fmt], count)
            writers["findings"].add_dicts(stats.findings + match_findings)
        writers["matches"].add_dicts(matches or [])


@contextmanager
def table_files(directory: str, fmt: str, *, force: bool = False) -> Iterator[TableSink]:
    """Open ``DIR/games.FMT``, ``DIR/turns.FMT``, ``DIR/findings.FMT`` and ``DIR/matches.FMT``
    (``csv`` or ``parquet``; ``DIR`` is made if missing) and yield the :class:`TableSink` that adds one
    game's rows to them, with the findings of its match and the rows of the matches ended
    (once every game is in, it is called with no game and the last matches).

    The files are written atomically when the block ends without an exception; an existing
    file is replaced only with ``force``. The turn rows are the :class:`GameStats`' own: build
    them ``with_turns``, made ready by :func:`ready_rows` or not.
    """
    if fmt not in ("csv", "parquet"):
        raise ValueError(f"no table format {fmt!r}: csv or parquet")
    if fmt == "parquet":
        _check_pyarrow()
    _make_folder(directory)
    with ExitStack() as stack:
        spool = stack.enter_context(closing(_Spool(directory))) if fmt == "parquet" else None
        writers: dict[str, _Table] = {}
        for name, columns in TABLES.items():
            handle = stack.enter_context(atomic_output(os.path.join(directory, f"{name}.{fmt}"), force=force,
                                                       newline=""))
            writers[name] = _CsvTable(handle, columns) if spool is None else _ParquetTable(handle, columns, spool)

        yield TableSink(fmt, writers)
        for writer in writers.values():
            writer.close()
        if spool is not None:
            spool.write()
