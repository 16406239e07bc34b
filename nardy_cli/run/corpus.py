"""Reading many records at once: every input, every notation, one game at a time."""
from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from itertools import chain, islice

from nardy_cli import notations
from nardy_cli.files.sources import STDIN, Source, check_encoding, iter_sources, read_bytes, read_lines
from nardy_cli.record import GameRecord, InputError

SNIFF_LINES = 60  # told from the first lines; from up to SNIFF_CHARS when they tell nothing
SNIFF_CHARS = 1 << 16  # or fewer lines when they are long: the first lines stay in memory until read
BINARY_LIMIT = 64 << 20  # bytes: a binary input (an XG file) is read whole


class CorpusGame:
    """A game read from a corpus, with its place: the input and its 1-based index there (read-only).

    A plain class, not a frozen dataclass: defining one compiles its six generated methods at
    every start (about 5 M instructions)."""

    __slots__ = ("_source", "_index", "_record")

    def __init__(self, source: str, index: int, record: GameRecord) -> None:
        self._source, self._index, self._record = source, index, record

    @property
    def source(self) -> str:
        return self._source

    @property
    def index(self) -> int:
        return self._index

    @property
    def record(self) -> GameRecord:
        return self._record

    def __eq__(self, other: object) -> bool:
        return type(other) is CorpusGame and (self._source, self._index, self._record) == (
            other._source, other._index, other._record)

    __hash__ = None  # type: ignore[assignment]  # as the frozen dataclass's: its record is no value

    def __repr__(self) -> str:
        return f"CorpusGame(source={self._source!r}, index={self._index!r}, record={self._record!r})"

    @property
    def title(self) -> str:
        return self.record.title()


def open_source(source: Source, fmt: str | None = None,
                encoding: str | None = None) -> tuple[str, list[str], Iterator[str]]:
    """The notation of ``source`` (``fmt``, else what its first lines show), those first lines,
    and the rest of its lines, still unread. A binary notation (see :func:`binary_games`),
    named or promised by the file's extension, is not read as text: no lines then."""
    named = fmt or notations.by_extension(source.plain_name)
    if named and notations.is_binary(named):
        return named, [], iter(())
    lines = read_lines(source, encoding)
    head: list[str] = []
    size = _read_head(lines, head, 0, SNIFF_LINES)
    try:
        name = fmt or notations.detect(source.plain_name, "".join(head))
    except notations.UnknownFormat:
        if len(head) < SNIFF_LINES or size >= SNIFF_CHARS:
            raise  # the whole input, or all that is looked at, was seen
        _read_head(lines, head, size, None)  # a longer look (a record under a long comment), on this rare path only
        name = notations.detect(source.plain_name, "".join(head))
    if notations.is_binary(name):  # told from its first bytes: it is read again, as bytes (its text reader
        del lines                    # is dropped here, which closes the file)
        if source.name == STDIN:
            raise InputError(f"{STDIN}: a binary {name.upper()} file is read from standard input only when named: "
                             f"add --from {name}")
        return name, [], iter(())
    module = notations.notation(name)
    if module.NAME == "mat" and head and (foreign := module.foreign_file(head[0])):
        raise InputError(f"{source.name}: {foreign}, not a backgammon match (MAT) record")
    return module.NAME, head, lines


def _read_head(lines: Iterator[str], head: list[str], size: int, count: int | None) -> int:
    """Move up to ``count`` lines (None: any number) from ``lines`` to ``head``, stopping once it holds
    :data:`SNIFF_CHARS` characters; the characters it then holds."""
    for line in islice(lines, count):
        head.append(line)
        size += len(line)
        if size >= SNIFF_CHARS:
            break
    return size


def binary_games(name: str, data: bytes, source: str) -> Iterator[GameRecord]:
    """The games of ``data``, the content of input ``source`` in binary notation ``name``."""
    return notations.notation(name).read_games(io.BytesIO(data), source)


def read_source(source: Source, fmt: str | None = None, encoding: str | None = None) -> Iterator[GameRecord]:
    """The games of one input in notation ``fmt``, or the notation its text shows."""
    name, head, rest = open_source(source, fmt, encoding)
    if notations.is_binary(name):
        yield from binary_games(name, read_bytes(source, BINARY_LIMIT), source.name)
        return
    yield from notations.notation(name).read_games(chain(head, rest), source.name)


def no_game_message(source: str) -> str:
    """What is said of an input that holds no game: empty, blank, ``[]``..."""
    return (f"{source}:1:1: no game in this input: expected at least one game (a record cut to nothing?); "
            "add --allow-empty to accept inputs without games")


def iter_inputs(paths: list[str] | tuple[str, ...], *, encoding: str | None = None,
                pattern: str | None = None, allow_empty: bool = False) -> Iterator[Source | InputError]:
    """Every input named by ``paths`` in order, with the error of a path that cannot be listed
    (or of an unknown ``encoding``, or a directory without files unless ``allow_empty``) in its place."""
    if encoding:
        try:
            check_encoding(encoding)
        except InputError as error:
            yield error
            return
    for path in paths:
        try:
            yield from iter_sources([path], pattern=pattern, extensions=notations.known_extensions,
                                    allow_empty=allow_empty)  # as they are found: a source a file, not a list
        except InputError as error:
            yield error


def iter_games(paths: list[str] | tuple[str, ...], *, fmt: str | None = None, encoding: str | None = None,
               pattern: str | None = None, on_error: Callable[[str], None],
               allow_empty: bool = False) -> Iterator[CorpusGame]:
    """Every game of every input, in order; inputs that cannot be read go to ``on_error``
    and the others are still read. An input without a game (an empty file, a directory
    without files) goes to ``on_error`` too, unless ``allow_empty``."""
    for source in iter_inputs(paths, encoding=encoding, pattern=pattern, allow_empty=allow_empty):
        if isinstance(source, InputError):
            on_error(str(source))
            continue
        index = 0
        try:
            for index, record in enumerate(read_source(source, fmt, encoding), 1):
                yield CorpusGame(source.name, index, record)
        except (InputError, notations.UnknownFormat) as error:
            on_error(str(error))
            continue
        if not index and not allow_empty:
            on_error(no_game_message(source.name))
