"""The per-game, per-turn and per-finding tables written as the games stream past: CSV files that
grow a batch at a time, or Parquet files whose batches are spooled to disk and written at the end;
each appears, whole, when the run ends (see :func:`table_files`).

Parquet needs pyarrow (``pip install 'nardy-cli[dask]'``); the tables read back with pandas,
pyarrow or ``dask.dataframe.read_parquet`` for analyses beyond ``nardy stats``.
"""
from __future__ import annotations

import csv
import importlib
import importlib.util
import marshal
import os
import tempfile
import zlib
from collections.abc import Iterable, Iterator, Mapping
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
    """Rows of one table, buffered and written ``BATCH_ROWS`` at a time; each row is kept as its
    values in column order (see :data:`~nardy_cli.analysis.aggregates.TurnValues`)."""

    def __init__(self, handle: TextIO, columns: Mapping[str, str]) -> None:
        self.handle, self.columns = handle, columns
        self.rows: list[tuple[Any, ...]] = []

    def add(self, rows: Iterable[tuple[Any, ...]]) -> None:
        self.rows.extend(rows)
        if len(self.rows) >= BATCH_ROWS:
            self.flush()

    def add_dicts(self, rows: Iterable[dict[str, Any]]) -> None:
        """Add rows given as dicts by column (a column missing is None)."""
        self.add(tuple(row.get(column) for column in self.columns) for row in rows)

    def flush(self) -> None:
        if self.rows:
            self.write(self.rows)
            self.rows = []

    def write(self, rows: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.flush()

    def discard(self) -> None:
        """End without writing what is still to be written: the run failed, its files are dropped."""


class _CsvTable(_Table):
    def __init__(self, handle: TextIO, columns: Mapping[str, str]) -> None:
        super().__init__(handle, columns)
        self.writer = csv.writer(handle, lineterminator="\n")
        self.writer.writerow(columns)

    def write(self, rows: list[tuple[Any, ...]]) -> None:
        self.writer.writerows(rows)


class _ParquetTable(_Table):
    """Spooled to a temporary file, a compressed batch at a time, while the games stream past, and
    written when the table closes, once the worker processes have ended: pyarrow (which loads
    pandas as it converts rows) takes about 90 MiB, which a parent beside its running workers
    would add to theirs."""

    def __init__(self, handle: TextIO, columns: Mapping[str, str]) -> None:
        super().__init__(handle, columns)
        self.spool = tempfile.TemporaryFile(dir=os.path.dirname(handle.name) or None)
        self.batches = 0

    def write(self, rows: list[tuple[Any, ...]]) -> None:
        batch = zlib.compress(marshal.dumps(rows), 1)
        self.spool.write(len(batch).to_bytes(8, "little") + batch)
        self.batches += 1

    def close(self) -> None:
        super().close()
        with self.spool:
            pyarrow, parquet = _pyarrow()
            types = {"str": pyarrow.string(), "int": pyarrow.int64(), "bool": pyarrow.bool_(),
                     "float": pyarrow.float64()}
            schema = pyarrow.schema([(name, types[kind]) for name, kind in self.columns.items()])
            with parquet.ParquetWriter(self.handle.buffer, schema) as writer:
                for rows in self._spooled() if self.batches else [[]]:  # a table without rows still has its columns
                    writer.write_table(pyarrow.Table.from_pydict(
                        {column: [row[index] for row in rows] for index, column in enumerate(self.columns)},
                        schema=schema))

    def _spooled(self) -> Iterator[list[tuple[Any, ...]]]:
        self.spool.seek(0)
        for _ in range(self.batches):
            size = int.from_bytes(self.spool.read(8), "little")
            yield marshal.loads(zlib.decompress(self.spool.read(size)))

    def discard(self) -> None:
        self.spool.close()


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
    from nardy_cli.reporting import frames  # noqa: F401  (pyarrow loads pandas: first the lighter pandas of frames)

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
                writers["games"].add_dicts([stats.game])
                writers["turns"].add(stats.turns)
                writers["findings"].add_dicts(stats.findings + match_findings)
            writers["matches"].add_dicts(matches or [])

        try:
            yield add
        except BaseException:
            for writer in writers.values():
                writer.discard()
            raise
        for writer in writers.values():
            writer.close()
