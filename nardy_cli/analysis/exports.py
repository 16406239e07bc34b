"""Every format nardy writes: the notations, and CSV, whose rows carry what the replay computes."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TextIO

from nardy_cli import notations
from nardy_cli.analysis import csv_rows
from nardy_cli.notations import Prepared
from nardy_cli.record import GameRecord
from nardy_cli.run.corpus import CorpusGame

TARGETS = (*notations.TARGETS, csv_rows.NAME)


def target(name: str) -> notations.Target[Any]:
    """How to write format ``name`` (one of :data:`TARGETS`)."""
    return csv_rows.TARGET if name == csv_rows.NAME else notations.target(name)


def writer(name: str) -> Callable[[Iterable[GameRecord], TextIO], list[str]]:
    """The function writing format ``name``: ``writer(name)(games, out)`` returns its warnings."""
    return target(name).write_games


def by_extension(filename: str) -> str | None:
    """The format to write to a file of this name, if its extension says so."""
    if filename.lower().endswith(csv_rows.EXTENSIONS):
        return csv_rows.NAME
    return notations.by_extension(filename, writing=True)


def prepared_for_writing(game: CorpusGame, prepare: Callable[[GameRecord], Prepared]
                         ) -> tuple[str, list[str], Prepared]:
    """What converting needs of one game, worked out wherever the game is read: its input, the
    warnings for the places its record could not be read, and the game prepared for the writer."""
    warnings = [f"{game.source}:{error}: game {game.index} is converted as far as it could be read"
                for error in game.record.errors]
    if game.record.errors_not_kept:
        warnings.append(f"{game.source}: game {game.index}: and {game.record.errors_not_kept} more syntax errors, "
                        "not listed")
    return game.source, warnings, prepare(game.record)
