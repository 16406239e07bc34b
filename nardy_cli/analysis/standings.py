"""Standings of events: per player matches played and won, games and points won and lost, and the
Buchholz score of Swiss events, summed from the matches of :mod:`nardy_cli.matches` and the games
as they stream past (pure Python; see formats/stats-tables.md, "Standings").

A match counts once it is complete (a player reached its length); an unfinished match is counted
as such and gives no win. Games and points count every game of the event that has a winner, match
games and money games alike. A player's Buchholz is the sum of the match wins of every opponent
they met in a complete match (an opponent met twice counts twice), the usual first tie-break of a
Swiss event; it is shown for every event, and means something only where pairings are Swiss.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.matches import Match

STANDINGS_COLUMNS = ("event", "rank", "player", "matches", "match_wins", "match_losses", "unfinished",
                     "games_won", "games_lost", "points_won", "points_lost", "buchholz")


@dataclass
class PlayerStanding:
    matches: int = 0
    match_wins: int = 0
    unfinished: int = 0
    games_won: int = 0
    games_lost: int = 0
    points_won: int = 0
    points_lost: int = 0
    opponents: Counter[str] = field(default_factory=Counter)  # met in complete matches


class Standings:
    """Per event, per player :class:`PlayerStanding`, in order of appearance."""

    def __init__(self) -> None:
        self.events: dict[str, dict[str, PlayerStanding]] = {}

    def _player(self, event: str, name: str) -> PlayerStanding:
        players = self.events.setdefault(event, {})
        standing = players.get(name)
        if standing is None:
            standing = players[name] = PlayerStanding()
        return standing

    def add_game(self, row: dict[str, Any]) -> None:
        """Count a game row (:data:`nardy_cli.analysis.aggregates.GAME_COLUMNS`) of its event."""
        event, winner, points = row["event"], row["winner"], row.get("points") or 0
        for side, name in ((WHITE, row["white"]), (BLACK, row["black"])):
            standing = self._player(event, name)
            if winner is None:
                continue
            if winner == side:
                standing.games_won += 1
                standing.points_won += points
            else:
                standing.games_lost += 1
                standing.points_lost += points

    def add_match(self, match: Match) -> None:
        """Count an ended match of the event of its games."""
        first, second = match.players
        for name, opponent in ((first, second), (second, first)):
            standing = self._player(match.event, name)
            if not match.complete:
                standing.unfinished += 1
                continue
            standing.matches += 1
            standing.match_wins += match.winner == name
            standing.opponents[opponent] += 1

    def rows(self, event: str | None = None) -> Iterator[dict[str, Any]]:
        """The standings (:data:`STANDINGS_COLUMNS`) of every event or one, each ranked by match wins,
        then Buchholz, then points won minus lost; players level on all three share a rank. Each
        row is made as it is given: an event may have as many players as a server."""
        for name in self.events if event is None else [event]:
            players = self.events.get(name, {})

            def order(entry: tuple[str, PlayerStanding, int]) -> tuple[int, int, int]:
                standing, buchholz = entry[1], entry[2]
                return standing.match_wins, buchholz, standing.points_won - standing.points_lost

            ranked = [(player, standing, self._buchholz(players, standing)) for player, standing in players.items()
                      if standing.matches or standing.unfinished or standing.games_won or standing.games_lost]
            ranked.sort(key=order, reverse=True)
            rank = 0
            for place, entry in enumerate(ranked):
                if not place or order(ranked[place - 1]) != order(entry):
                    rank = place + 1
                player, standing, buchholz = entry
                yield {"event": name, "rank": rank, "player": player, "matches": standing.matches,
                       "match_wins": standing.match_wins, "match_losses": standing.matches - standing.match_wins,
                       "unfinished": standing.unfinished, "games_won": standing.games_won,
                       "games_lost": standing.games_lost, "points_won": standing.points_won,
                       "points_lost": standing.points_lost, "buchholz": buchholz}

    @staticmethod
    def _buchholz(players: dict[str, PlayerStanding], standing: PlayerStanding) -> int:
        """The match wins of every opponent met in a complete match (an opponent met twice, twice)."""
        return sum(players[opponent].match_wins * count if opponent in players else 0
                   for opponent, count in standing.opponents.items())
