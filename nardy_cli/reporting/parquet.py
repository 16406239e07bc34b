"""The Parquet files of :func:`nardy_cli.reporting.tables.table_files`, written from their spooled
rows by a process of its own, once the worker processes have ended: pyarrow takes about 50 MiB,
which the command's process would keep while it goes on to draw the report (pandas and
matplotlib), and more with the pandas it imports as it converts lists. Here it runs with the
standard library only, without :data:`UNUSED` and with the system's memory pool
(:data:`ENVIRONMENT`): 80-90 MiB in all for 100,000 games, against 150-170 MiB in the command's
process before. It grows with the tables all the same: pyarrow's writer keeps about 20 KiB for each
row group it has written (measured, whatever the writer's options) until it writes the footer,
about 6 MiB per 100,000 long-nardy games (73 MiB for 10,000, 84 for 100,000, 105 for 440,000).

    python -c '...; from nardy_cli.reporting.parquet import main; main()' TABLES < SPOOL

``TABLES`` is JSON: ``{"folder": ..., "tables": [{"file": ..., "columns": {column: kind}}, ...]}``
(``folder`` the folder named in a message, ``file`` the temporary file a table is written to,
``kind`` ``str``, ``int``, ``bool`` or ``float``). ``SPOOL`` holds the batches of rows of
every table in the order they came: each a table number (1 byte), a length (8 bytes, little-endian)
and the batch's parts, a list of bytes, marshalled and compressed with zlib. A part holds rows
that follow one another (a game's turn rows, made ready in the worker process that replayed the
game, or a batch's rows): their columns, each a tuple of values, marshalled (by column, the values
of a column lie together: a third less to write, and this process, whose work comes after the
workers', need not turn rows into columns). Rows are gathered into row groups of
about ``ROW_GROUP_BYTES`` of Arrow data: bigger groups compress better and keep the footer (whose
metadata the writer holds until the end) small, smaller ones take less memory. A file that cannot
be written ends the process with :data:`CANNOT_WRITE`, saying why on standard error.
"""
from __future__ import annotations

import importlib
import json
import marshal
import sys
import zlib
from collections.abc import Sequence
from contextlib import ExitStack
from itertools import chain
from typing import Any, BinaryIO, cast

ROW_GROUP_BYTES = 8 * 2**20
CANNOT_WRITE = 2  # the exit status when a file cannot be written
ENVIRONMENT = {"ARROW_DEFAULT_MEMORY_POOL": "system", "MALLOC_MMAP_THRESHOLD_": "65536"}
"""Set for the process unless set already: mimalloc's pool, pyarrow's default, keeps 20 MiB more
here, and so does the C library's heap, which a block of 64 KiB or more bypasses (it grew by 15 MiB
from 10k to 100k games without this)."""
HEADER_BYTES = 9


UNUSED = ("pandas", "numpy", "pyarrow._azurefs", "pyarrow._gcsfs", "pyarrow._hdfs", "pyarrow._s3fs")
"""What pyarrow imports when it is installed, does without, and is not needed here (27 MiB)."""


class _Unused:
    """An import finder that finds none of :data:`UNUSED` (pyarrow's own imports pass over a None
    in ``sys.modules``)."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> None:
        if any(name == unused or name.startswith(unused + ".") for unused in UNUSED):
            raise ModuleNotFoundError(f"{name} is not needed to write Parquet files", name=name)


def packed(rows: Sequence[tuple[Any, ...]]) -> bytes:
    """``rows`` (at least one) as a part of a batch of the spool holds them (see the module's docstring)."""
    return marshal.dumps(list(zip(*rows)))


def spooled(table: int, parts: list[bytes]) -> bytes:
    """One batch of table number ``table``, its rows in ``parts`` made by :func:`packed`, as the spool
    holds it (compressed a batch at a time: zlib's start costs as much as compressing a game's rows)."""
    batch = zlib.compress(marshal.dumps(parts), 1)
    return table.to_bytes(1, "little") + len(batch).to_bytes(8, "little") + batch


def _columns(batch: bytes) -> list[Any]:
    """The columns of a batch of the spool, its parts' rows one after another."""
    parts = [marshal.loads(part) for part in marshal.loads(zlib.decompress(batch))]
    if len(parts) == 1:
        return cast(list[Any], parts[0])
    return [list(chain.from_iterable(column)) for column in zip(*parts)]


def write_tables(tables: list[dict[str, Any]], spool: BinaryIO) -> None:
    """Write every table of ``tables`` (as described above) from the batches of ``spool``."""
    pyarrow: Any = importlib.import_module("pyarrow")
    parquet: Any = importlib.import_module("pyarrow.parquet")

    types = {"str": pyarrow.string(), "int": pyarrow.int64(), "bool": pyarrow.bool_(), "float": pyarrow.float64()}
    schemas = [pyarrow.schema([(name, types[kind]) for name, kind in table["columns"].items()]) for table in tables]
    pending: list[list[Any]] = [[] for _ in tables]
    pending_bytes = [0] * len(tables)
    groups = [0] * len(tables)
    with ExitStack() as stack:
        writers = [stack.enter_context(parquet.ParquetWriter(stack.enter_context(open(table["file"], "wb")), schema))
                   for table, schema in zip(tables, schemas)]

        def write_group(number: int) -> None:
            writers[number].write_table(pyarrow.Table.from_batches(pending[number], schemas[number]))
            pending[number].clear()
            pending_bytes[number] = 0
            groups[number] += 1

        while header := spool.read(HEADER_BYTES):
            number, size = header[0], int.from_bytes(header[1:], "little")
            columns = _columns(spool.read(size))
            schema = schemas[number]
            batch = pyarrow.RecordBatch.from_arrays(
                [pyarrow.array(column, field.type) for column, field in zip(columns, schema)], schema=schema)
            pending[number].append(batch)
            pending_bytes[number] += batch.nbytes
            if pending_bytes[number] >= ROW_GROUP_BYTES:
                write_group(number)
        for number in range(len(tables)):
            if pending[number] or not groups[number]:  # a table without rows still has its columns
                write_group(number)


def main() -> None:
    """Run by :mod:`nardy_cli.reporting.tables` (see the module's docstring)."""
    sys.meta_path.insert(0, _Unused)  # see the module's docstring
    job = json.loads(sys.argv[1])
    try:
        write_tables(job["tables"], sys.stdin.buffer)
    except OSError as error:
        print(f"{job['folder']}: cannot write the Parquet files: {error.strerror or error}", file=sys.stderr)
        sys.exit(CANNOT_WRITE)
