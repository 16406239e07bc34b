"""nardy: replay, validate, analyse and convert records of long, short and crazy nardy.

The public API, importable from ``nardy_cli`` itself (``from nardy_cli import Engine, Position``);
each name lives in the module named, where its full documentation is.

Sides, variants and rules (``nardy_cli.core``, standard library only):

- ``WHITE``, ``BLACK``: the sides (``"w"``, ``"b"``); ``SIDES`` both, White first; ``Side`` their
  type; ``other(side)`` the opponent.
- ``BAR``, ``OFF``: the special points (25 and 0) in every side's own numbering.
- ``VARIANTS``: the variant table (``long``, ``short``, ``gulbara``), each a ``Variant``;
  ``VariantError`` for a name not in it.
- ``Rules``: a variant and its rule options (``Rules.parse("long head=general")``,
  ``Rules.preset("short")``); ``RulesError`` for an unknown option or value.

Positions, plays and the engine:

- ``Position``: both sides' checkers and the side to move (``Position.start("long")``,
  ``Position.parse(text)``); ``PositionError`` for a position that cannot be.
- ``Move``, ``parse_play``, ``PlaySyntaxError``: a play as written (``24/18 13/7``).
- ``Engine``: the rules engine of every variant: ``legal_plays``, ``check`` (a ``Verdict``,
  with its ``Finding`` when illegal); a legal ``Play`` is made of ``Step`` s.
- ``Outcome``, ``game_outcome``: how a finished game ended and what it scores.
- ``Result``, ``Score``: a declared game result and a match score.

Records and notations:

- ``GameRecord``, ``Action``, ``Evaluation``: a game as recorded, before any judgement;
  ``RecordError``: a place a reader could not read.
- ``notations``: the registry of notations (``notations.notation("ntn").read_games(lines,
  source)``, ``notations.writer("sgf")(records, out)``, ``notations.NAMES``);
  ``UnknownFormat`` for a notation nardy does not know.
- ``iter_games``: every game of files, directories, archives or standard input, in any notation,
  as ``CorpusGame`` s; unreadable inputs go to ``on_error`` and the rest is still read.

Judging games:

- ``GameReplay``: a record judged through the engine, by ``nardy_cli.replay.replay(record)``
  (its ``ReplayedTurn`` s and ``GameFinding`` s).
- ``Match``, ``MatchChecker``: games grouped into matches, their scores and Crawford games checked.
- ``validate_games``, ``validated``, ``Certification``, ``Summary``: certifying a corpus as
  ``nardy validate`` does, and its summary.
- ``generate``, ``play_game``: self-played games, legal by construction.

Each name is imported on first use, so ``import nardy_cli.core.engine`` loads the core alone.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_HOMES = {
    "nardy_cli.core.sides": ("WHITE", "BLACK", "SIDES", "Side", "BAR", "OFF", "other"),
    "nardy_cli.core.variants": ("VARIANTS", "Variant", "VariantError"),
    "nardy_cli.core.rules": ("Rules", "RulesError"),
    "nardy_cli.core.position": ("Position", "PositionError"),
    "nardy_cli.core.moves": ("Move", "Step", "parse_play", "PlaySyntaxError"),
    "nardy_cli.core.engine": ("Engine", "Play", "Verdict", "Finding", "Outcome", "game_outcome"),
    "nardy_cli.core.scores": ("Result", "Score"),
    "nardy_cli.record": ("GameRecord", "Action", "Evaluation", "RecordError"),
    "nardy_cli.notations": ("UnknownFormat",),
    "nardy_cli.run.corpus": ("iter_games", "CorpusGame"),
    "nardy_cli.replay": ("GameReplay", "ReplayedTurn", "GameFinding"),
    "nardy_cli.matches": ("Match", "MatchChecker"),
    "nardy_cli.analysis.validate": ("validate_games", "validated", "Certification", "Summary"),
    "nardy_cli.analysis.selfplay": ("generate", "play_game"),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [*_HOME, "notations"]

if TYPE_CHECKING:  # the same names for type checkers, which do not run __getattr__ (tests/test_api.py compares)
    from nardy_cli import notations
    from nardy_cli.analysis.selfplay import generate, play_game
    from nardy_cli.analysis.validate import Certification, Summary, validate_games, validated
    from nardy_cli.core.engine import Engine, Finding, Outcome, Play, Verdict, game_outcome
    from nardy_cli.core.moves import Move, PlaySyntaxError, Step, parse_play
    from nardy_cli.core.position import Position, PositionError
    from nardy_cli.core.rules import Rules, RulesError
    from nardy_cli.core.scores import Result, Score
    from nardy_cli.core.sides import BAR, BLACK, OFF, SIDES, WHITE, Side, other
    from nardy_cli.core.variants import VARIANTS, Variant, VariantError
    from nardy_cli.matches import Match, MatchChecker
    from nardy_cli.notations import UnknownFormat
    from nardy_cli.record import Action, Evaluation, GameRecord, RecordError
    from nardy_cli.replay import GameFinding, GameReplay, ReplayedTurn
    from nardy_cli.run.corpus import CorpusGame, iter_games


def __getattr__(name: str) -> Any:
    """A name of the API, imported from its module on first use."""
    if name == "notations":
        return importlib.import_module("nardy_cli.notations")
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
