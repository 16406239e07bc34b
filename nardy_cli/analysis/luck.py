"""Luck without an engine: the pips each roll gives against the average roll, doubles, the pips
lost to blocked dice and, in a pure race with every checker home, the exact luck of the roll from
the one-sided bear-off table (:mod:`nardy_cli.analysis.bearoff`). See formats/stats-tables.md, "Luck".

Per roll, per game and per player the same :class:`LuckSums` are kept: counts and sums of
squares, so that means and their confidence intervals come from sums that do not grow with the
games (pure Python; the tables are drawn in :mod:`nardy_cli.reporting.stats`).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, NamedTuple

from nardy_cli.analysis.bearoff import POINTS, table
from nardy_cli.core.position import Position
from nardy_cli.core.sides import Side, other
from nardy_cli.files.spool import Spool, sorted_spooled
from nardy_cli.replay import GameReplay, ReplayedTurn, first_roll_not_double

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

    def values(self) -> tuple[Any, ...]:
        """The sums in the order of the fields (``LuckSums(*sums.values())`` makes them again)."""
        return (self.rolls, self.pips, self.pips_sq, self.doubles, self.turns, self.lost, self.lost_sq,
                self.bearoff_rolls, self.bearoff, self.bearoff_sq)


class PlayerLuck:
    """Each player's :class:`LuckSums`, added in the order the games come, in memory that does not
    grow with the players. Past ``kept`` players (None: no bound) the sums held are spooled, and so
    are the sums of every later game; reading sorts them by player (in runs of ``kept``) and adds
    them again in the order they came. Float sums added in parts would differ in their last bits
    (float addition is not associative); added in that order, every one is what adding the games
    as they came gives."""

    def __init__(self, kept: int | None = None) -> None:
        self._limit = kept
        self._held: dict[str, LuckSums] = {}
        self._spool: Spool[tuple[str, int, tuple[Any, ...]]] | None = None  # (player, number, sums)
        self._numbered = 0  # what numbers the next spooled sums
        self._compact = False  # whether the spool has one record a player, in the order of the players

    def add(self, player: str, sums: LuckSums) -> None:
        """Add one game's ``sums`` of ``player``."""
        if self._spool is None:
            held = self._held.get(player)
            if held is None and (self._limit is None or len(self._held) < self._limit):
                held = self._held[player] = LuckSums()
            if held is not None:
                held.add(sums)
                return
            self._spool = Spool(memory=0)  # on disk at once: a server has many players
            for name, partial in self._held.items():  # numbered in the order the players came
                self._spooled(name, partial)
            self._held = {}
        self._spooled(player, sums)
        self._compact = False

    @property
    def _run(self) -> int:
        """What the sorts of the spooled sums sort in memory at a time: 8 times the players held
        (a game's sums are small, and the 200,000 of 100,000 games then need one merge, not two)."""
        return max(8 * (self._limit or 0), 1)

    def _spooled(self, player: str, sums: LuckSums) -> None:
        assert self._spool is not None
        self._spool.append((player, self._numbered, sums.values()))
        self._numbered += 1

    def _merged(self) -> Iterator[tuple[str, int, LuckSums]]:
        """Each player, the number of their first sums (the order the players came) and their sums,
        in the order of the players. Read to the end, the spool is made again of these, and the next
        reading (unless sums came since) takes no sort."""
        assert self._spool is not None
        records = iter(self._spool) if self._compact else sorted_spooled(self._spool, self._run)
        compact: Spool[tuple[str, int, tuple[Any, ...]]] = Spool(memory=0)
        group: tuple[str, int, LuckSums] | None = None
        for player, number, values in records:
            if group is None or group[0] != player:
                if group is not None:
                    compact.append((group[0], group[1], group[2].values()))
                    yield group
                group = (player, number, LuckSums())
            group[2].add(LuckSums(*values))
        if group is not None:
            compact.append((group[0], group[1], group[2].values()))
            yield group
        self._spool.close()
        self._spool, self._compact = compact, True

    def in_key_order(self) -> Iterator[tuple[str, LuckSums]]:
        """Each player and their sums, in the order of the players' names."""
        if self._spool is None:
            yield from sorted(self._held.items(), key=lambda item: item[0])
            return
        for player, _, total in self._merged():
            yield player, total

    def everyone(self) -> LuckSums:
        """Every player's sums added, in the order the players first came."""
        total = LuckSums()
        if self._spool is None:
            for sums in self._held.values():
                total.add(sums)
            return total
        with Spool[tuple[int, str, tuple[Any, ...]]](memory=0) as firsts:
            for player, first, sums in self._merged():
                firsts.append((first, player, sums.values()))
            for _, _, values in sorted_spooled(firsts, self._run):
                total.add(LuckSums(*values))
        return total


class TurnLuck(NamedTuple):
    """The luck of one roll: its pips (None when the roll was not free: an opening roll that
    could not be a double) and its bear-off luck (None outside a pure race home)."""

    pips: int | None
    bearoff: float | None


def game_luck(result: GameReplay, *, per_turn: bool = True) -> tuple[dict[str, LuckSums], list[TurnLuck]]:
    """Each side's :class:`LuckSums` of one game and the :class:`TurnLuck` of each of its rolls
    (none unless ``per_turn``)."""
    skip_first = first_roll_not_double(result.record, result.rules)
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
