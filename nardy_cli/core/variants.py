"""The variant table: what makes each game of RULES.md differ, one entry per game.

The engine, the rule sets and the positions ask this table instead of testing a
variant's name, so a game is an entry here, not a hunt through the code. Boards
are 26-tuples in the owner's numbering (0 = off, 1-24 the points, 25 the bar).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from nardy_cli.core.compiled import picklable

VariantName = Literal["long", "short", "gulbara"]
"""A game of the table: ``long`` (long nardy), ``short`` (short nardy), ``gulbara`` (crazy nardy)."""
OptionName = Literal["opening", "head", "block", "last_roll", "scoring", "cube", "crawford", "jacoby",
                     "cascade", "bearoff"]
"""A rule option of RULES.md; which of them a game has is its entry's ``options``."""
# The values of each option, as the entries below allow them (a test holds the two together).
Opening = Literal["reroll", "play"]
Head = Literal["classic", "general", "strict"]
Block = Literal["step", "turn", "off"]
Switch = Literal["off", "on"]
"""The values of ``last_roll``, ``cube``, ``crawford`` and ``jacoby``."""
Scoring = Literal["oin-mars", "oin-mars-koks", "home-mars", "backgammon"]
Cascade = Literal["four", "two"]
Bearoff = Literal["exact", "standard"]

CHECKERS: Final = 15
HEAD: Final = 24
Board = tuple[int, ...]


def _long_opposite(point: int) -> int:
    return point + 12 if point <= 12 else point - 12


def _short_opposite(point: int) -> int:
    return 25 - point


@dataclass(frozen=True)
class Variant:
    """One game: its start, bar, hits, numbering, outcomes and rule options.

    ``opposite[p]`` is the mover's point ``p`` (1-24) in the opponent's numbering
    (index 0 and 25 map to 0). ``options`` maps each rule option of the game to its
    allowed values, the default first; ``first_turns`` says whether sides on their
    first turn are tracked (the head exception); ``white_starts`` whether the
    starter always plays White; ``cascade`` whether doubles cascade up to 6-6; :attr:`cube` whether the
    doubling cube is in play by default.
    """

    name: VariantName
    title: str
    start: Board
    bar: bool
    hits: bool
    opposite: tuple[int, ...]
    head: bool
    six_block: bool
    first_turns: bool
    white_starts: bool
    opening_double: bool  # whether the first roll may be a double without an option saying so
    home_mars: bool
    cascade: bool
    options: dict[OptionName, tuple[str, ...]]

    @property
    def cube(self) -> bool:
        """Whether the doubling cube is in play unless the rules say otherwise (``cube``'s default)."""
        return self.options["cube"][0] == "on"


def _opposites(opposite: Callable[[int], int]) -> tuple[int, ...]:
    return (0,) + tuple(opposite(p) for p in range(1, 25)) + (0,)


_HEAD_START: Board = (0,) * 24 + (CHECKERS, 0)

_LONG_OPTIONS: dict[OptionName, tuple[str, ...]] = {
    "opening": ("reroll", "play"),
    "head": ("classic", "general", "strict"),
    "block": ("step", "turn", "off"),
    "last_roll": ("off", "on"),
    "scoring": ("oin-mars", "oin-mars-koks", "home-mars"),
    "cube": ("off", "on"),
}

LONG = Variant(
    "long", "long nardy", _HEAD_START, bar=False, hits=False, opposite=_opposites(_long_opposite),
    head=True, six_block=True, first_turns=True, white_starts=True, opening_double=True, home_mars=True,
    cascade=False, options=_LONG_OPTIONS)

SHORT = Variant(
    "short", "short nardy", tuple({24: 2, 13: 5, 8: 3, 6: 5}.get(p, 0) for p in range(26)), bar=True,
    hits=True, opposite=_opposites(_short_opposite), head=False, six_block=False, first_turns=False,
    white_starts=False, opening_double=False, home_mars=False, cascade=False,
    options={"scoring": ("backgammon",), "cube": ("on", "off"), "crawford": ("on", "off"),
             "jacoby": ("off", "on")})

NACKGAMMON_START: Final[Board] = tuple({24: 2, 23: 2, 13: 4, 8: 3, 6: 4}.get(p, 0) for p in range(26))
"""The start of Nackgammon, a variation of backgammon that GNU Backgammon and eXtreme Gammon play:
short nardy from this position (two checkers moved from the 13 and 6 points to the 23 point)."""

GULBARA = Variant(
    "gulbara", "crazy nardy", _HEAD_START, bar=False, hits=False, opposite=LONG.opposite,
    head=True, six_block=True, first_turns=True, white_starts=True, opening_double=True, home_mars=True,
    cascade=True, options={**_LONG_OPTIONS, "cascade": ("four", "two"), "bearoff": ("exact", "standard")})

VARIANTS: Final[dict[str, Variant]] = {variant.name: variant for variant in (LONG, SHORT, GULBARA)}
"""The entries by name (a lookup by any text: a record's tag is looked up as it is)."""
NAMES: tuple[VariantName, ...] = tuple(entry.name for entry in VARIANTS.values())


class VariantError(ValueError):
    """A variant name that is not in the table."""


def variant(name: str) -> Variant:
    """The table entry of ``name``; :class:`VariantError` when there is none."""
    if name in NAMES:
        return VARIANTS[name]
    raise VariantError(f"unknown variant {name!r}: expected one of {', '.join(NAMES)}")


def cascade_steps(die: int, per_value: int) -> tuple[int, ...]:
    """The steps of a cascade starting at double ``die``: ``per_value`` of each value up to 6."""
    return tuple(value for value in range(die, 7) for _ in range(per_value))


CASCADE_STEPS: Final = {"four": 4, "two": 2}
"""Steps per value of a cascade under each value of the ``cascade`` option."""


picklable(Variant)
