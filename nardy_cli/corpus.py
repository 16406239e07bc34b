"""Reading many records at once: every input, every notation, one game at a time."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import chain

from . import notations
from .record import GameRecord
from .sources import InputError, Source, check_encoding, iter_sources, read_lines

SNIFF_LINES = 60


@dataclass(frozen=True)
class CorpusGame:
    """A game read from a corpus, with its place: the input and its 1-based index there."""

    source: str
    index: int
    record: GameRecord
    crawford: bool = False


class CrawfordTracker:
    """Tells which game of a match is its Crawford game: the first one played when a side
    stands one point from winning the match (match games must come in order)."""

    def __init__(self) -> None:
        self._matches: dict[tuple[str, ...], bool] = {}

    def is_crawford(self, source: str, record: GameRecord) -> bool:
        tags = record.tags
        key = (source, tags.get("MatchID", ""), tags.get("White", ""), tags.get("Black", ""),
               tags.get("MatchLength", ""))
        explicit = tags.get("Crawford", "").strip().lower()
        if explicit in ("yes", "true", "no", "false"):
            crawford = explicit in ("yes", "true")
        else:
            try:
                length = int(tags.get("MatchLength", "0"))
                white, black = (int(x) for x in tags.get("Score", "").split("-"))
            except ValueError:
                return False
            crawford = length > 1 and length - 1 in (white, black) and max(white, black) < length \
                and not self._matches.get(key)
        if crawford:
            self._matches[key] = True
        return crawford


def read_source(source: Source, fmt: str | None = None, encoding: str | None = None) -> Iterator[GameRecord]:
    """The games of one input in notation ``fmt``, or the notation its text shows."""
    lines = read_lines(source, encoding)
    head = []
    for line in lines:
        head.append(line)
        if len(head) >= SNIFF_LINES:
            break
    name = fmt or notations.detect(source.plain_name, "".join(head))
    yield from notations.notation(name).read_games(chain(head, lines), source.name)


def iter_games(paths: list[str] | tuple[str, ...], *, fmt: str | None = None, encoding: str | None = None,
               pattern: str | None = None, on_error: Callable[[str], None]) -> Iterator[CorpusGame]:
    """Every game of every input, in order; inputs that cannot be read go to ``on_error``
    and the others are still read."""
    if encoding:
        try:
            check_encoding(encoding)
        except InputError as error:
            on_error(str(error))
            return
    extensions = notations.known_extensions()
    tracker = CrawfordTracker()
    for path in paths:
        try:
            sources = list(iter_sources([path], pattern=pattern, extensions=extensions))
        except InputError as error:
            on_error(str(error))
            continue
        for source in sources:
            try:
                for index, record in enumerate(read_source(source, fmt, encoding), 1):
                    yield CorpusGame(source.name, index, record, tracker.is_crawford(source.name, record))
            except (InputError, notations.UnknownFormat) as error:
                on_error(str(error))
