"""Luck without an engine: the pips each roll gives against the average roll, doubles, the pips
lost to blocked dice and, in a pure race with every checker home, the exact luck of the roll from
the one-sided bear-off table (:mod:`nardy_cli.analysis.bearoff`). See formats/stats-tables.md, "Luck".

Per roll, per game and per player the same :class:`LuckSums` are kept: counts and sums of
squares, so that means and their confidence intervals come from sums that do not grow with the
games (pure Python; the tables are drawn in :mod:`nardy_cli.reporting.stats`).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, NamedTuple

from nardy_cli.analysis.bearoff import POINTS, table
from nardy_cli.core.position import Position
from nardy_cli.core.sides import Side, other
from nardy_cli.replay import GameReplay, ReplayedTurn

# The pips of a roll: both dice, a double's four times; over the 36 rolls of fair dice on average 294/36.
EXPECTED_PIPS = float(Fraction(sum(4 * a if a == b else a + b for a in range(1, 7) for b in range(1, 7)), 36))
# The opponent's own points (bar = 25) from which a checker can still reach the mover's home:
# no checker there means a pure race for a mover whose checkers are all home.
CONTACT_FROM: Final = {"long": 13, "short": 19}


def roll_pips(dice: tuple[int, int]) -> int:
    first, second = dice
    return 4 * first if first == second else first + second


def race_home(position: Position, side: Side) -> tuple[int, ...] | None:
    """``side``'s checkers on its home points 1-6 when every one of them is home (or off) and no
    opponent checker can meet them any more; None otherwise (and for variants without the
    bear-off of long and short nardy)."""
    contact = CONTACT_FROM.get(position.variant)
    if contact is None:
        return None
    mine, theirs = position.board(side), position.board(other(side))
    for point in range(POINTS + 1, len(mine)):  # loops, not any() of slices: compiled, a call through Python
        if mine[point]:
            return None
    for point in range(contact, len(theirs)):
        if theirs[point]:
            return None
    return mine[1:POINTS + 1]


def bearoff_luck(turn: ReplayedTurn) -> float | None:
    """The bear-off luck of a roll (:meth:`nardy_cli.analysis.bearoff.BearoffTable.luck`), None outside a pure
    race home."""
    home = race_home(turn.before, turn.side)
    return None if home is None else table().luck(home, turn.dice)


@dataclass
class LuckSums:
    """Luck figures of one side, summed over rolls: free rolls, their pips and doubles; the pips
    lost of every legal turn (over ``turns``); pure-race bear-off rolls and their luck in rolls."""

    rolls: int = 0
    pips: int = 0
    pips_sq: int = 0
    doubles: int = 0
    turns: int = 0
    lost: int = 0
    lost_sq: int = 0
    bearoff_rolls: int = 0
    bearoff: float = 0.0
    bearoff_sq: float = 0.0

    def add(self, other: LuckSums) -> None:
        self.rolls += other.rolls
        self.pips += other.pips
        self.pips_sq += other.pips_sq
        self.doubles += other.doubles
        self.turns += other.turns
        self.lost += other.lost
        self.lost_sq += other.lost_sq
        self.bearoff_rolls += other.bearoff_rolls
        self.bearoff += other.bearoff
        self.bearoff_sq += other.bearoff_sq

    def record(self) -> tuple[Any, ...]:
        """The sums in the order of the fields, as :class:`~nardy_cli.analysis.groups.Groups` keeps them."""
        return (self.rolls, self.pips, self.pips_sq, self.doubles, self.turns, self.lost, self.lost_sq,
                self.bearoff_rolls, self.bearoff, self.bearoff_sq)

    def merge(self, record: tuple[Any, ...]) -> None:
        self.add(LuckSums(*record))


class TurnLuck(NamedTuple):
    """The luck of one roll: its pips (None when the roll was not free: an opening roll that
    could not be a double) and its bear-off luck (None outside a pure race home)."""

    pips: int | None
    bearoff: float | None


def game_luck(result: GameReplay, *, per_turn: bool = True) -> tuple[dict[str, LuckSums], list[TurnLuck]]:
    """Each side's :class:`LuckSums` of one game and the :class:`TurnLuck` of each of its rolls
    (none unless ``per_turn``)."""
    skip_first = result.opening_not_double
    sums: dict[str, LuckSums] = {}
    turns = []
    for turn in result.turns:
        side = sums.get(turn.side)
        if side is None:
            side = sums[turn.side] = LuckSums()
        first, second = turn.dice
        pips = None if skip_first and turn.turn == 1 else roll_pips(turn.dice)
        luck = bearoff_luck(turn)
        if per_turn:
            turns.append(TurnLuck(pips, luck))
        if turn.legal:  # an illegal play says nothing of what the dice allowed
            side.turns += 1
            lost = turn.pips_lost
            side.lost += lost
            side.lost_sq += lost * lost
        if pips is not None:
            side.rolls += 1
            side.pips += pips
            side.pips_sq += pips * pips
            side.doubles += first == second
        if luck is not None:
            side.bearoff_rolls += 1
            side.bearoff += luck
            side.bearoff_sq += luck * luck
    return sums, turns
