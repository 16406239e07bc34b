"""What a command writes only once all its input is read (the lists of a JSON document, warnings
that follow the output, results to sort), gathered in memory up to a bound and then in a temporary
file: the memory it takes does not grow with the input, and what is written is the same."""
from __future__ import annotations

import heapq
import io
import json
import marshal
import struct
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from itertools import chain, islice
from types import TracebackType
from typing import Any, BinaryIO, Generic, TypeVar, cast

from nardy_cli.files.output import OutputError

MEMORY_BYTES = 1 << 20
"""What a spool keeps in memory before it moves to a temporary file."""
READ_BYTES = 1 << 14
"""What a spool reads of its file at a time."""
MERGED_RUNS = 128
"""Sorted runs :func:`sorted_spooled` merges at a time (each reads a block of :data:`READ_BYTES`)."""
BLOCK_VALUES = 128
"""Values of an ``extend`` marshalled together at most: a value marshalled alone costs three times as much."""
BLOCK_BYTES = 1 << 12
"""About the most bytes of a block of many values (fewer values a block when they are large): a reader
holds one block at a time, and a merge :data:`MERGED_RUNS` readers (of the statistics' groups, 5.8 MiB
with blocks of 4 KiB, 14 with 16 KiB, 2.2 with a value a block)."""
CHUNK_CHARS = 1 << 16
"""About how long the pieces of text :func:`json_chunks` gives are (each is written at once)."""
JSON_BATCH = 128
"""Values of a :class:`JsonValues` encoded together: a table's row encoded alone costs half as much again."""
Value = TypeVar("Value")
_Closed = TypeVar("_Closed", bound="Closing")
_SIZE = struct.Struct("<I")  # the length of a value as marshal writes it, before it


class Closing:
    """What a ``with`` statement closes at its end."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: _Closed) -> _Closed:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


class Spool(Closing, Generic[Value]):
    """Values appended one by one and read back in order, as often as asked: in memory up to
    ``memory`` bytes (default :data:`MEMORY_BYTES`), then in a temporary file, removed when the
    spool is closed (use it in a ``with`` statement). It has a list's ``append``, ``extend``,
    ``len`` and iteration. Values are kept as :mod:`marshal` writes them: strings, numbers,
    None, and tuples, lists and dicts of them (not their subclasses: a named tuple is refused),
    in blocks: those of one ``extend`` together, up to :data:`BLOCK_VALUES` a block."""

    def __init__(self, memory: int | None = None) -> None:
        self._memory = MEMORY_BYTES if memory is None else memory
        self._file: BinaryIO = io.BytesIO()  # then the temporary file
        self._count = self._bytes = 0
        self._read = False  # whether the file was read since the last value was written
        self._block_values = BLOCK_VALUES  # fewer once a block of them took more than BLOCK_BYTES

    def append(self, value: Value) -> None:
        self._write([value])

    def extend(self, values: Iterable[Value]) -> None:
        values = iter(values)
        while block := list(islice(values, self._block_values)):
            self._write(block)

    def _write(self, block: list[Value]) -> None:
        try:
            data = marshal.dumps(cast(Any, block))
            if self._read:  # back to the end (seeking at every block takes as long as marshalling it)
                self._file.seek(0, 2)
                self._read = False
            self._file.write(_SIZE.pack(len(data)) + data)
            self._bytes += _SIZE.size + len(data)
            if self._bytes > self._memory and isinstance(self._file, io.BytesIO):
                self._move_to_disk(self._file)
        except OSError as error:
            raise OutputError(f"cannot keep what is written at the end in a temporary file: "
                              f"{error.strerror or error} (TMPDIR names the folder to use)") from error
        self._count += len(block)
        if len(data) > BLOCK_BYTES and len(block) > 1:
            self._block_values = max(1, len(block) * BLOCK_BYTES // len(data))

    def _move_to_disk(self, memory: io.BytesIO) -> None:
        import tempfile  # only for a spool that outgrows its memory: importing it takes 3 ms

        disk = tempfile.TemporaryFile()
        weakref.finalize(self, disk.close)  # a spool never closed (one an object keeps) is closed when dropped
        disk.write(memory.getbuffer())
        self._file = disk

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Value]:
        return self._values(0, self._count)

    def add_run(self, values: Iterable[Value]) -> tuple[int, int]:
        """Append ``values``; where they start in the spool and how many they are, to read them
        again with :meth:`run`."""
        start, count = self._bytes, self._count
        self.extend(values)
        return start, self._count - count

    def run(self, start: int, count: int) -> Iterator[Value]:
        """The ``count`` values from ``start``, as :meth:`add_run` told them (and as many more
        appended right after them); several runs may be read at once, and values appended meanwhile."""
        return self._values(start, count)

    def _values(self, position: int, count: int) -> Iterator[Value]:
        # each block is read from a piece of the file held in memory: marshal.load from the file
        # itself would read it a few bytes at a time, six times slower; the file is sought before
        # each piece, as other readers and appends move it
        try:
            piece, start = b"", 0
            while count > 0:
                if start + _SIZE.size > len(piece):
                    piece, start, position = self._more(piece, start, position, READ_BYTES)
                (size,) = _SIZE.unpack_from(piece, start)
                start += _SIZE.size
                if start + size > len(piece):
                    piece, start, position = self._more(piece, start, position, max(READ_BYTES, size))
                block = marshal.loads(memoryview(piece)[start:start + size])
                start += size
                yield from block[:count] if len(block) > count else block
                count -= len(block)
        except OSError as error:
            raise OutputError(f"cannot read back the temporary file of what is written at the end: "
                              f"{error.strerror or error}") from error

    def _more(self, piece: bytes, start: int, position: int, size: int) -> tuple[bytes, int, int]:
        """The rest of ``piece`` from ``start`` and ``size`` bytes read from ``position``, and the
        position after them."""
        self._read = True
        self._file.seek(position)
        data = self._file.read(size)
        return piece[start:] + data, 0, position + len(data)

    def close(self) -> None:
        self._file.close()


@contextmanager
def spools() -> Iterator[Callable[[], Spool[Any]]]:
    """A maker of spools (as a writer's ``gather`` takes: see
    :meth:`~nardy_cli.notations.Target.write_prepared`), all closed when the ``with`` block ends."""
    with ExitStack() as made:
        yield lambda: made.enter_context(Spool())


def sorted_spooled(entries: Iterable[Value], run: int) -> Iterator[Value]:
    """``sorted(entries)``, in memory for ``run`` entries at a time however many there are: each run
    of that many is sorted and kept in :class:`SortedRuns`, which merges them. Entries are what a
    :class:`Spool` keeps, and no two of them compare equal (put what tells them apart in them), so
    that the order is the one ``sorted`` gives."""
    entries = iter(entries)
    part = sorted(islice(entries, run))  # type: ignore[type-var]  # entries compare as tuples do
    if len(part) < run:  # all of them at once: no spool
        yield from part
        return
    with SortedRuns[Value]() as runs:
        while part:
            runs.add(part)
            part = sorted(islice(entries, run))  # type: ignore[type-var]
        yield from runs.merged()


class SortedRuns(Closing, Generic[Value]):
    """Sorted runs of values, one after another in one temporary file, read back merged into one
    order (use it in a ``with`` statement): the runs of an external sort."""

    def __init__(self) -> None:
        self._spool: Spool[Value] = Spool(memory=0)  # on disk at once: runs held in memory would grow
        self._places: list[tuple[int, int]] = []
        self._tail: list[Value] = []  # values appended to the last run, not yet spooled: a block at a time

    def add(self, run: Iterable[Value] = ()) -> None:
        """Keep ``run``, values in order (more may follow: :meth:`append`)."""
        self._spool_tail()
        self._places.append(self._spool.add_run(run))

    def append(self, value: Value) -> None:
        """Add ``value`` at the end of the last run added."""
        self._tail.append(value)
        if len(self._tail) >= BLOCK_VALUES:
            self._spool_tail()

    def _spool_tail(self) -> None:
        if self._tail:
            start, count = self._places[-1]
            self._spool.extend(self._tail)
            self._places[-1] = (start, count + len(self._tail))
            self._tail = []

    def merged(self, last: Sequence[Value] = ()) -> Iterator[Value]:
        """The values of every run, and of ``last`` (sorted, in memory), in order: the runs are read
        :data:`MERGED_RUNS` at most at a time, the first ones merged into one until that many are left."""
        self._spool_tail()
        kept, places = self._spool, self._places
        while len(places) > MERGED_RUNS:
            first = min(MERGED_RUNS, len(places) - MERGED_RUNS + 1)  # as few as leave MERGED_RUNS
            merged = heapq.merge(*(kept.run(*place) for place in places[:first]))  # type: ignore[type-var]
            places[:] = [*places[first:], kept.add_run(merged)]
        read = [kept.run(*place) for place in places]
        if last:
            read.append(iter(last))
        return read[0] if len(read) == 1 else heapq.merge(*read)  # type: ignore[type-var]  # (none: nothing)

    def close(self) -> None:
        self._spool.close()


class JsonList(Spool[Any]):
    """The values of a JSON list that is written at the end, each spooled as the text
    ``json.dumps(value, ensure_ascii=False, indent=2)`` gives (iterating gives these texts): see
    :func:`json_chunks`."""

    def append(self, value: Any) -> None:
        super().append(_indented(value))

    def extend(self, values: Iterable[Any]) -> None:
        super().extend(map(_indented, values))


class JsonValues:
    """A JSON list whose values are made while it is written (see :func:`json_chunks`): a list whose
    values come in order needs no spool. Iterating gives the texts :class:`JsonList` keeps of them,
    :data:`JSON_BATCH` values at a time, joined by a comma and a line end."""

    def __init__(self, values: Iterable[Any]) -> None:
        self._values = values

    def __iter__(self) -> Iterator[str]:
        values = iter(self._values)
        while batch := list(islice(values, JSON_BATCH)):
            yield _indented_values(batch)


_SCALARS = frozenset({str, int, float, bool, type(None)})
_FLAT = json.JSONEncoder(ensure_ascii=False, separators=(",\n  ", ": "))  # no indent: the C encoder


def _indented(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)`` (see :func:`_indented_values`)."""
    return _indented_values([value])


def _indented_values(values: list[Any]) -> str:
    """The texts ``json.dumps(value, ensure_ascii=False, indent=2)`` gives each of ``values``, joined
    by a comma and a line end. Dicts of scalars (a table's rows) are encoded all at once by the C
    encoder, whose separators give the same lines (with an indent, ``json`` encodes in Python, three
    times slower), the rows' separator set right after: no string the encoder writes holds a line
    break, so ``},`` then a line break ends a row and nothing else."""
    if all(type(value) is dict and value for value in values) and _SCALARS.issuperset(
            map(type, chain.from_iterable(map(dict.values, values)))):
        return "{\n  " + _FLAT.encode(values)[2:-2].replace("},\n  {", "\n},\n{\n  ") + "\n}"
    if len(values) == 1:
        return json.dumps(values[0], ensure_ascii=False, indent=2)
    return ",\n".join(map(_indented, values))


def json_chunks(document: dict[str, Any] | JsonList | JsonValues) -> Iterator[str]:
    """The text ``json.dumps(document, ensure_ascii=False, indent=2)`` gives, in pieces of about
    :data:`CHUNK_CHARS`, a :class:`JsonList` or :class:`JsonValues` (the document, or the value of
    one of its keys) written as the list of its values."""
    pieces: list[str] = []
    size = 0
    for piece in _json_pieces(document):
        pieces.append(piece)
        size += len(piece)
        if size >= CHUNK_CHARS:
            yield "".join(pieces)
            pieces, size = [], 0
    if pieces:
        yield "".join(pieces)


def _json_pieces(document: dict[str, Any] | JsonList | JsonValues) -> Iterator[str]:
    if isinstance(document, (JsonList, JsonValues)):
        yield from _list_pieces(document, 0)
        return
    # each list stands in the document's text as a string of its own; its key's line, two spaces
    # in and found nowhere else (a string holds no line break), is where its values go
    marks = {key: f"\x00{index}" for index, (key, value) in enumerate(document.items())
             if isinstance(value, (JsonList, JsonValues))}
    text = json.dumps({key: marks.get(key, value) for key, value in document.items()}, ensure_ascii=False, indent=2)
    for key, mark in marks.items():
        line = f"\n  {json.dumps(key, ensure_ascii=False)}: "
        before, text = text.split(line + json.dumps(mark), 1)
        yield before + line
        yield from _list_pieces(document[key], 1)
    yield text


def _list_pieces(texts: Iterable[str], depth: int) -> Iterator[str]:
    indent = "\n" + "  " * (depth + 1)
    separator = "["
    for text in texts:
        yield separator + indent + text.replace("\n", indent)
        separator = ","
    yield "[]" if separator == "[" else "\n" + "  " * depth + "]"
