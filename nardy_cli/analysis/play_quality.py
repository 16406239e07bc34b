"""How well each player played and how lucky they were, from the analysis a record carries
(:class:`~nardy_cli.record.Evaluation`, read from eXtreme Gammon files).

A **decision** is an evaluation with the equities of the choice made and of the best choice:
a checker play with more than one legal play, a cube decision (to double or not) or an answer
to a double that the program analysed. Its **equity lost** is ``best - played``; a
**blunder** loses at least :data:`BLUNDER`. The **error rate** is the mean equity lost per
decision times 1000, as players quote it. **Luck** is the sum of the luck of a player's rolls.
Pure Python, summed game by game like :mod:`nardy_cli.analysis.aggregates`.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from nardy_cli.core.sides import SIDES
from nardy_cli.record import GameRecord

BLUNDER = 0.08
"""The equity lost from which a decision is a blunder."""


@dataclass
class Quality:
    """One player's sums over the analysed games they played."""

    games: int = 0
    decisions: int = 0
    lost: float = 0.0
    blunders: int = 0
    rolls: int = 0  # rolls whose luck is known
    luck: float = 0.0

    def add(self, other: Quality) -> None:
        self.games += other.games
        self.decisions += other.decisions
        self.lost += other.lost
        self.blunders += other.blunders
        self.rolls += other.rolls
        self.luck += other.luck

    @property
    def error_rate(self) -> float | None:
        """The mean equity lost per decision, ×1000; None without decisions."""
        return 1000 * self.lost / self.decisions if self.decisions else None

    @property
    def luck_per_game(self) -> float | None:
        """The mean luck per game; None when no roll's luck is known."""
        return self.luck / self.games if self.games and self.rolls else None


def game_quality(record: GameRecord) -> dict[str, Quality]:
    """Each player's :class:`Quality` in one game, by name; empty when the record has no analysis."""
    if not any(action.analysis for action in record.actions):
        return {}
    sides = {side: Quality(games=1) for side in SIDES}
    for action in record.actions:
        quality = sides.get(action.side)
        if quality is None:
            continue
        for evaluation in action.analysis:
            lost = evaluation.lost
            if lost is not None:
                quality.decisions += 1
                quality.lost += lost
                quality.blunders += lost >= BLUNDER - 1e-9  # figures are rounded: 0.08 is a blunder
            if evaluation.luck is not None:
                quality.rolls += 1
                quality.luck += evaluation.luck
    qualities: dict[str, Quality] = {}
    for side, quality in sides.items():
        qualities.setdefault(record.player(side), Quality()).add(quality)
    for quality in qualities.values():  # a player on both sides (a test game) played one game
        quality.games = 1
    return qualities


@dataclass
class QualityTotals:
    """:class:`Quality` summed per player over a corpus."""

    players: dict[str, Quality] = field(default_factory=dict)

    def add(self, game: dict[str, Quality]) -> None:
        for player, quality in game.items():
            self.players.setdefault(player, Quality()).add(quality)

    def rows(self) -> Iterator[dict[str, object]]:
        """One row per player, in order of their first analysed game, each made as it is given."""
        for player, q in self.players.items():
            yield {"player": player, "games": q.games, "decisions": q.decisions, "equity_lost": q.lost,
                   "error_rate": q.error_rate, "blunders": q.blunders, "luck": q.luck if q.rolls else None,
                   "luck_per_game": q.luck_per_game if q.rolls else None}
