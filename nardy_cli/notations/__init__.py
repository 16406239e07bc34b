"""The notations nardy reads and writes, behind one interface.

Each notation module has ``NAME``, ``EXTENSIONS``, ``sniff(head) -> bool``,
``read_games(lines, source) -> Iterator[GameRecord]`` (streaming, never raising
on bad input) and ``write_games(games, out) -> list[str]`` (warnings naming
what the notation could not express).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TextIO

from ..record import GameRecord

# Sniffing order: the most distinctive first (MAT files are .txt too).
NAMES = ("ntn", "sgf", "jsonl", "mat")
WRITE_ONLY = ("csv",)
TARGETS = ("ntn", "mat", "sgf", "json", "jsonl", "csv")


class UnknownFormat(ValueError):
    """A notation name that nardy does not know, or input whose notation cannot be told."""


def notation(name: str) -> ModuleType:
    """The module of notation ``name`` (``ntn``, ``mat``, ``sgf``, ``json``, ``jsonl``, ``csv``)."""
    name = "jsonl" if name == "json" else name
    if name not in NAMES + WRITE_ONLY:
        raise UnknownFormat(f"unknown format {name!r}: expected one of {', '.join(NAMES + WRITE_ONLY)}")
    return importlib.import_module(f"{__name__}.{name}")


def writer(name: str) -> Callable[[Iterable[GameRecord], TextIO], list[str]]:
    """The function writing notation ``name``; ``json`` is one JSON array, ``jsonl`` a game per line."""
    return notation("jsonl").write_array if name == "json" else notation(name).write_games


def by_extension(filename: str) -> str | None:
    """The notation a file name's extension promises, if it is unambiguous."""
    lowered = filename.lower()
    for name in NAMES + WRITE_ONLY:
        if name != "mat" and lowered.endswith(notation(name).EXTENSIONS):
            return name
    return "mat" if lowered.endswith(".mat") else None


def detect(filename: str, head: str) -> str:
    """The notation of a file from its name and the start of its text."""
    for name in NAMES:
        if notation(name).sniff(head):
            return name
    guess = by_extension(filename)
    if guess and guess not in WRITE_ONLY:
        return guess
    raise UnknownFormat(f"cannot tell the notation of {filename}: expected NTN, MAT, SGF or JSON "
                        "(name it with --from)")


def known_extensions() -> tuple[str, ...]:
    """Extensions a directory walk picks up."""
    return tuple(ext for name in NAMES for ext in notation(name).EXTENSIONS)
