"""The notations nardy reads and writes, behind one interface.

Each notation module has ``NAME``, ``sniff(head) -> bool``,
``read_games(lines, source) -> Iterator[GameRecord]`` (streaming, never raising
on bad input), ``TARGET``, the :class:`Target` that writes it, and
``write_games(games, out) -> list[str]`` (warnings naming what the notation
could not express), which is ``TARGET.write_games``, and ``game_starts(head)``: how a
file whose first lines are ``head`` can be cut into runs of whole games (see
:data:`GameStarts`), or None when its files are read whole. A binary notation (in :data:`BINARY`:
eXtreme Gammon's ``.xg``) reads a binary stream, ``read_games(stream, source)``, and writes nothing.

This registry knows each notation's extensions and whether it is binary, and how to tell XG, SGF
and JSON from the start of a text (their modules' ``sniff``), without importing a notation's
module: each is imported when a file of it is read (or must be told from NTN or MAT, whose
modules tell their own).
"""
from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache, partial
from itertools import chain
from types import ModuleType
from typing import Any, Final, Generic, NamedTuple, Protocol, TextIO, TypeVar

from nardy_cli.core.variants import VARIANTS
from nardy_cli.record import GameRecord

Prepared = TypeVar("Prepared")

GameStarts = tuple[Callable[[list[str]], list[int]], list[str]]
"""A notation's answer to where a file's games start: a function told the file's lines (with their
line ends) in order, a batch at a time, that gives the indexes in the batch of those where a game
plainly begins (a cut there is checked by reading on, never trusted); and the lines a reader must
read before any run but the file's first."""

# Sniffing order: the most distinctive openings first; JSON before NTN, as a JSON record's comment
# may hold anything NTN is told by (a "5-5: "); MAT last (MAT files are .txt too).
NAMES = ("xg", "jsonl", "ntn", "sgf", "mat")
EXTENSIONS = {"xg": (".xg", ".xgp"), "ntn": (".ntn",), "sgf": (".sgf",), "jsonl": (".jsonl", ".json", ".ndjson"),
              "mat": (".mat", ".txt")}
"""Each notation's file extensions, by name."""
BINARY = frozenset({"xg"})
"""The notations read from bytes (their ``read_games`` takes a binary stream), not from decoded lines."""
TARGETS = ("ntn", "mat", "sgf", "json", "jsonl")
"""The notations nardy writes; :mod:`nardy_cli.analysis.exports` adds CSV, which needs the replay."""


class ObjectFields(NamedTuple):
    """The fields a JSON object of a record may have (a game's, an action's, an analysis's): in their
    order, for messages, and as a set, to check an object against."""

    names: tuple[str, ...]
    known: frozenset[str]

    @classmethod
    def of(cls, *names: str) -> ObjectFields:
        return cls(names, frozenset(names))

    def unknown(self, data: dict[str, Any], what: str) -> str:
        """What is wrong with a field of ``data`` that is none of these ("unknown game field 'x':
        expected tags, ..."); "" when none is."""
        if data.keys() <= self.known:
            return ""
        return f"unknown {what} {min(data.keys() - self.known)!r}: expected {', '.join(self.names)}"


class UnknownFormat(ValueError):
    """A notation name that nardy does not know, or input whose notation cannot be told."""


def _known(name: str) -> str:
    """The notation ``name`` names (``json`` is ``jsonl``), or :class:`UnknownFormat`."""
    name = "jsonl" if name == "json" else name
    if name not in NAMES:
        raise UnknownFormat(f"unknown format {name!r}: expected one of {', '.join(NAMES)}")
    return name


@cache  # asked for every input and game: import_module's lookups add up
def notation(name: str) -> ModuleType:
    """The module of notation ``name`` (``ntn``, ``mat``, ``sgf``, ``json``, ``jsonl``, ``xg``)."""
    return importlib.import_module(f"{__name__}.{_known(name)}")


def sniff_xg(head: str) -> bool:
    """True when ``head`` (the start of a file, decoded) is an XG file's ``RGMH`` header."""
    return head.startswith("RGMH")


# A game tree opening the text, or a line (after text SGF readers skip), not inside a MAT name or header.
_SGF_OPENING_RE: Final = re.compile(r"\A[\ufeff\s]*\(\s*;|^\(\s*;", re.M)
_SGF_BACKGAMMON_RE: Final = re.compile(r"GM\s*\[\s*6\s*\]")


def sniff_sgf(head: str) -> bool:
    """True when ``head`` (the start of a decoded file) looks like backgammon SGF."""
    return bool(_SGF_OPENING_RE.search(head) and _SGF_BACKGAMMON_RE.search(head))


_JSON_OPENING_RE: Final = re.compile(r'[\ufeff \t\r\n]*(?:\[\s*)?\{\s*"[^"\\\n]*"\s*:')


def sniff_json(head: str) -> bool:
    """True when ``head`` (the start of a decoded file) looks like JSON or JSON Lines records."""
    opens_like_json = _JSON_OPENING_RE.match(head) is not None  # an object's first key, or an array's
    return opens_like_json and ('"actions"' in head or '"tags"' in head)


_SNIFFS: dict[str, Callable[[str], bool]] = {"xg": sniff_xg, "sgf": sniff_sgf, "jsonl": sniff_json}
"""The notations told from the start of a text here, without importing their modules."""


class Warnings(Protocol):
    """Where the warnings of an output gather while it is written, to be given after it: a list,
    or anything with a list's ``append``, ``extend`` and iteration (``nardy convert`` keeps them
    on disk, so that their memory does not grow with the games)."""

    def append(self, warning: str, /) -> None: ...

    def extend(self, warnings: Iterable[str], /) -> None: ...

    def __iter__(self) -> Iterator[str]: ...


class GameWriter(Generic[Prepared]):
    """Writes prepared games to one output in order, adding what depends on the games before
    each one: its number, a separator, a match's score; its warnings gather in ``warnings``."""

    def __init__(self, out: TextIO, warnings: Warnings) -> None:
        self.out = out
        self.warnings = warnings

    def begin(self) -> None:
        """Write what comes before the first game."""

    def write(self, number: int, game: Prepared) -> None:
        """Write ``game``, the ``number``-th of the output (counted from 1)."""
        raise NotImplementedError

    def end(self) -> Iterable[str]:
        """Write what comes after the last game; return the warnings of the whole output."""
        return self.warnings

    def warn(self, label: str, *messages: str) -> None:
        """Add warnings naming their game with ``label``, such as ``game 3``."""
        self.warnings.extend(f"{label}: {message}" for message in messages)


class Target(Generic[Prepared]):
    """How a notation is written, in two steps. ``prepare`` does the costly work of one game
    (its text; for CSV also its replay) from the record alone: a module-level function whose
    result pickles, so it can run in a worker process. ``writer`` makes the per-output state
    that writes prepared games in order and adds what depends on the games before.

    A plain class, not a dataclass (see :class:`~nardy_cli.cli.options.Corpus`): each notation
    module makes its one target when it is imported."""

    __slots__ = ("prepare", "writer")

    def __init__(self, prepare: Callable[[GameRecord], Prepared],
                 writer: Callable[[TextIO, Warnings], GameWriter[Prepared]]) -> None:
        self.prepare, self.writer = prepare, writer

    def write_games(self, games: Iterable[GameRecord], out: TextIO) -> list[str]:
        """Write ``games`` to ``out``; return warnings naming what the notation could not express."""
        return list(self.write_prepared(map(self.prepare, games), out))

    def write_prepared(self, games: Iterable[Prepared], out: TextIO, gather: Callable[[], Warnings] = list
                       ) -> Iterable[str]:
        """Write games already prepared (in any process) by ``prepare``, as :meth:`write_games` does;
        the warnings (the games left out, then what the notation could not express) gather in
        what ``gather`` makes."""
        refusals = gather()
        writer = self.writer(out, gather())
        writer.begin()
        for number, game in enumerate(games, 1):
            if isinstance(game, Refused):
                refusals.append(f"game {number} ({game.title}): {game.reason}")
            else:
                writer.write(number, game)
        return chain(refusals, writer.end())


class Refused(NamedTuple):
    """A game a notation cannot express at all: it is left out, and a warning says why."""

    title: str
    reason: str


def _prepare_unless_cascade(prepare: Callable[[GameRecord], Prepared], name: str,
                            record: GameRecord) -> Prepared | Refused:
    variant = VARIANTS.get(record.variant)
    if variant is not None and variant.cascade:
        return Refused(record.title(), f"{name} has no {variant.title} ({variant.name}): its cascades and "
                       "passed steps cannot be written, so the game is left out (write NTN or JSON)")
    return prepare(record)


def without_cascades(prepare: Callable[[GameRecord], Prepared], name: str) -> Callable[[GameRecord], Any]:
    """``prepare`` for a notation of GNU Backgammon, which refuses crazy nardy's games (a
    picklable function, so it still runs in worker processes)."""
    return partial(_prepare_unless_cascade, prepare, name)


def target(name: str) -> Target[Any]:
    """How to write notation ``name``; ``json`` is one JSON array, ``jsonl`` a game per line."""
    return notation("jsonl").JSON_ARRAY if name == "json" else notation(name).TARGET


def writer(name: str) -> Callable[[Iterable[GameRecord], TextIO], list[str]]:
    """The function writing notation ``name`` (see :func:`target`)."""
    return target(name).write_games


def is_binary(name: str) -> bool:
    """Whether notation ``name`` is read from bytes rather than from decoded lines."""
    return _known(name) in BINARY


def by_extension(filename: str, *, writing: bool = False) -> str | None:
    """The notation a file name's extension promises, if it is unambiguous; ``writing``: the
    notation to write there (``.json`` is a JSON array)."""
    lowered = filename.lower()
    if writing and lowered.endswith(".json"):
        return "json"
    for name in NAMES:
        if name != "mat" and lowered.endswith(EXTENSIONS[name]):
            return name
    return "mat" if lowered.endswith(".mat") else None


def detect(filename: str, head: str) -> str:
    """The notation of a file from its name and the start of its text."""
    for name in NAMES:
        sniff = _SNIFFS.get(name) or notation(name).sniff
        if sniff(head):
            return name
    guess = by_extension(filename)
    if guess:
        return guess
    raise UnknownFormat(f"cannot tell the notation of {filename}: expected NTN, MAT, SGF, JSON or XG "
                        "(name it with --from)")


def known_extensions() -> tuple[str, ...]:
    """Extensions a directory walk picks up."""
    return tuple(ext for name in NAMES for ext in EXTENSIONS[name])
