"""The per-game, per-turn and per-finding tables written as the games stream past: CSV or Parquet
files that grow a batch at a time and appear, whole, when the run ends (see :func:`table_files`).

Parquet needs pyarrow (``pip install 'nardy-cli[dask]'``); the tables read back with pandas,
pyarrow or ``dask.dataframe.read_parquet`` for analyses beyond ``nardy stats``.
"""
from __future__ import annotations

import csv
import importlib
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from typing import Any, TextIO

from .output import OutputError, atomic_output
from .stats import FINDING_COLUMNS, GAME_COLUMNS, TURN_COLUMNS, GameStats

FORMATS = ("csv", "parquet")
TABLES = {"games": GAME_COLUMNS, "turns": TURN_COLUMNS, "findings": FINDING_COLUMNS}
BATCH_ROWS = 50_000
PARQUET_HINT = "pip install 'nardy-cli[dask]'"


class _TableWriter:
    """Rows of one table, buffered and written ``BATCH_ROWS`` at a time."""

    def __init__(self, handle: TextIO, columns: Mapping[str, str], fmt: str) -> None:
        self.columns = list(columns)
        self.rows: list[dict[str, Any]] = []
        if fmt == "csv":
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(self.columns)
            self._write = lambda rows: writer.writerows([row.get(c) for c in self.columns] for row in rows)
            self._close: Callable[[], None] = lambda: None
        else:
            pyarrow, parquet = _pyarrow()
            types = {"str": pyarrow.string(), "int": pyarrow.int64(), "bool": pyarrow.bool_()}
            schema = pyarrow.schema([(name, types[kind]) for name, kind in columns.items()])
            parquet_writer = parquet.ParquetWriter(handle.buffer, schema)
            self._write = lambda rows: parquet_writer.write_table(pyarrow.Table.from_pydict(
                {c: [row.get(c) for row in rows] for c in self.columns}, schema=schema))
            self._close = parquet_writer.close

    def add(self, rows: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> None:
        self.rows.extend(rows)
        if len(self.rows) >= BATCH_ROWS:
            self.flush()

    def flush(self) -> None:
        if self.rows:
            self._write(self.rows)
            self.rows = []

    def close(self) -> None:
        self.flush()
        self._close()


def _pyarrow() -> tuple[Any, Any]:
    try:
        return importlib.import_module("pyarrow"), importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise OutputError(f"Parquet files need pyarrow: {PARQUET_HINT}") from None


@contextmanager
def table_files(directory: str, fmt: str, *, force: bool = False) -> Iterator[Callable[[GameStats], None]]:
    """Open ``DIR/games.FMT``, ``DIR/turns.FMT`` and ``DIR/findings.FMT`` (``csv`` or ``parquet``;
    ``DIR`` is made if missing) and yield the function that adds one game's rows to them.

    The files are written atomically when the block ends without an exception; an existing
    file is replaced only with ``force``. The turn rows are the :class:`GameStats`' own: build
    them ``with_turns``.
    """
    if fmt == "parquet":
        _pyarrow()
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as error:
        raise OutputError(f"{directory}: cannot make the folder: {error.strerror or error}") from None
    with ExitStack() as stack:
        writers = {}
        for name, columns in TABLES.items():
            handle = stack.enter_context(atomic_output(os.path.join(directory, f"{name}.{fmt}"), force=force,
                                                       newline=""))
            writers[name] = _TableWriter(handle, columns, fmt)

        def add(stats: GameStats) -> None:
            writers["games"].add([stats.game])
            writers["turns"].add(stats.turns)
            writers["findings"].add(stats.findings)

        try:
            yield add
        finally:  # a Parquet file needs its footer even when it is about to be thrown away
            for writer in writers.values():
                writer.close()
