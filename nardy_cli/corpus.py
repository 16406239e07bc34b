"""Reading many records at once: every input, every notation, one game at a time."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import chain, islice

from . import notations
from .record import GameRecord
from .sources import InputError, Source, check_encoding, iter_sources, read_lines

SNIFF_LINES = 60
SNIFF_CHARS = 1 << 16  # or fewer lines when they are long: the first lines stay in memory until read


@dataclass(frozen=True)
class CorpusGame:
    """A game read from a corpus, with its place: the input and its 1-based index there."""

    source: str
    index: int
    record: GameRecord

    @property
    def title(self) -> str:
        return self.record.title()


def open_source(source: Source, fmt: str | None = None,
                encoding: str | None = None) -> tuple[str, list[str], Iterator[str]]:
    """The notation of ``source`` (``fmt``, else what its first lines show), those first lines,
    and the rest of its lines, still unread."""
    lines = read_lines(source, encoding)
    head, size = [], 0
    for line in islice(lines, SNIFF_LINES):
        head.append(line)
        size += len(line)
        if size >= SNIFF_CHARS:
            break
    name = fmt or notations.detect(source.plain_name, "".join(head))
    return notations.notation(name).NAME, head, lines


def read_source(source: Source, fmt: str | None = None, encoding: str | None = None) -> Iterator[GameRecord]:
    """The games of one input in notation ``fmt``, or the notation its text shows."""
    name, head, rest = open_source(source, fmt, encoding)
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
    extensions = notations.known_extensions()
    for path in paths:
        try:
            yield from list(iter_sources([path], pattern=pattern, extensions=extensions, allow_empty=allow_empty))
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
