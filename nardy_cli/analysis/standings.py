"""Standings of events: per player matches played and won, games and points won and lost, and the
Buchholz score of Swiss events, summed from the matches of :mod:`nardy_cli.matches` and the games
as they stream past (pure Python; see formats/stats-tables.md, "Standings").

A match counts once it is complete (a player reached its length); an unfinished match is counted
as such and gives no win. Games and points count every game of the event that has a winner, match
games and money games alike. A player's Buchholz is the sum of the match wins of every opponent
they met in a complete match (an opponent met twice counts twice), the usual first tie-break of a
Swiss event; it is shown for every event, and means something only where pairings are Swiss.

A server's event may have as many players as games, and a server as many events as matches: the
standings are kept by :class:`~nardy_cli.analysis.groups.Groups` and the opponents met in a spool,
and the order of the events, the Buchholz scores and the ranks are found by external sorts.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nardy_cli.analysis import groups as grouping
from nardy_cli.analysis.groups import Groups
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.files.spool import Spool, sorted_spooled
from nardy_cli.matches import Match

STANDINGS_COLUMNS = ("event", "rank", "player", "matches", "match_wins", "match_losses", "unfinished",
                     "games_won", "games_lost", "points_won", "points_lost", "buchholz")


class PlayerStanding:
    """One player's sums in one event, and when the player first came in it (``first``: -1 until then)."""

    __slots__ = ("matches", "match_wins", "unfinished", "games_won", "games_lost", "points_won", "points_lost",
                 "first")

    def __init__(self) -> None:
        self.matches = self.match_wins = self.unfinished = 0
        self.games_won = self.games_lost = self.points_won = self.points_lost = 0
        self.first = -1

    def record(self) -> tuple[Any, ...]:
        return (self.matches, self.match_wins, self.unfinished, self.games_won, self.games_lost, self.points_won,
                self.points_lost, self.first)

    def merge(self, record: tuple[Any, ...]) -> None:
        (matches, match_wins, unfinished, games_won, games_lost, points_won, points_lost, first) = record
        self.matches += matches
        self.match_wins += match_wins
        self.unfinished += unfinished
        self.games_won += games_won
        self.games_lost += games_lost
        self.points_won += points_won
        self.points_lost += points_lost
        self.first = first if self.first < 0 else min(self.first, first)

    @property
    def played(self) -> bool:
        """Whether the player has a row: a match, or a game with a winner."""
        return bool(self.matches or self.unfinished or self.games_won or self.games_lost)


class Standings:
    """Per event, per player :class:`PlayerStanding`, in order of appearance: ``kept`` of them held
    in memory at most (None: all; see :class:`~nardy_cli.analysis.groups.Groups`)."""

    def __init__(self, kept: int | None = None) -> None:
        self.players: Groups[PlayerStanding] = Groups(PlayerStanding, kept)  # by (event, player)
        self._met: Spool[tuple[str, str, str]] = Spool()  # (event, opponent, player) of each complete match
        self._came = 0  # (event, player) pairs so far

    def _player(self, event: str, name: str) -> PlayerStanding:
        standing = self.players.totals((event, name))
        if standing.first < 0:  # new, or new again since its sums were spooled (merged, the first counts)
            standing.first = self._came
            self._came += 1
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
            self._met.append((match.event, opponent, name))

    def rows(self) -> Iterator[dict[str, Any]]:
        """The standings (:data:`STANDINGS_COLUMNS`) of every event, each ranked by match wins,
        then Buchholz, then points won minus lost; players level on all three share a rank, and
        come in the order they first came. Each row is made as it is given."""
        last: tuple[int, ...] | None = None
        rank = place = 0
        for entry in sorted_spooled(self._ranked(), grouping.GROUPS_KEPT):
            order, (event, player), record, buchholz = entry[:4], entry[5], entry[6], entry[7]
            place = 1 if last is None or order[0] != last[0] else place + 1
            if last is None or order != last:
                rank = place
            last = order
            matches, match_wins, unfinished, games_won, games_lost, points_won, points_lost, _ = record
            yield {"event": event, "rank": rank, "player": player, "matches": matches, "match_wins": match_wins,
                   "match_losses": matches - match_wins, "unfinished": unfinished, "games_won": games_won,
                   "games_lost": games_lost, "points_won": points_won, "points_lost": points_lost,
                   "buchholz": buchholz}

    def _ranked(self) -> Iterator[tuple[Any, ...]]:
        """What sorts each player with a row into the standings: when the event's first player came
        (the events in the order they came), match wins, Buchholz and points won minus lost (negated:
        the most first), when the player first came; then the key, the sums and the Buchholz."""
        with Spool[tuple[str, int]]() as events:
            events.extend(self._events())
            buchholz = self._buchholz()
            score = next(buchholz, None)
            came = iter(events)
            event = next(came, None)
            for key, standing in self.players.in_key_order():
                while event is not None and event[0] < key[0]:
                    event = next(came, None)
                assert event is not None and event[0] == key[0]
                points = 0
                while score is not None and score[0] <= key:
                    if score[0] == key:
                        points = score[1]
                    score = next(buchholz, None)
                if standing.played:
                    yield (event[1], -standing.match_wins, -points, standing.points_lost - standing.points_won,
                           standing.first, key, standing.record(), points)

    def _events(self) -> Iterator[tuple[str, int]]:
        """Each event, in the order of the events, and when its first player came (the least
        ``first`` of its players: the order the events came)."""
        event: tuple[str, int] | None = None
        for (name, _), standing in self.players.in_key_order():
            if event is not None and event[0] != name:
                yield event
                event = None
            event = (name, standing.first if event is None else min(event[1], standing.first))
        if event is not None:
            yield event

    def _buchholz(self) -> Iterator[tuple[tuple[str, str], int]]:
        """Each (event, player) key that met an opponent who won a match, and the sum of the match
        wins of the opponents it met, in the order of the keys."""
        with Spool[tuple[str, str, int]]() as credited:
            wins = self.players.in_key_order()
            opponent: tuple[Any, PlayerStanding] | None = next(wins, None)
            for event, met, player in sorted_spooled(self._met, grouping.GROUPS_KEPT):
                while opponent is not None and opponent[0] < (event, met):
                    opponent = next(wins, None)
                if opponent is not None and opponent[0] == (event, met) and opponent[1].match_wins:
                    credited.append((event, player, opponent[1].match_wins))
            key: tuple[str, str] | None = None
            total = 0
            for event, player, won in sorted_spooled(credited, grouping.GROUPS_KEPT):
                if key is not None and key != (event, player):
                    yield key, total
                    total = 0
                key = (event, player)
                total += won
            if key is not None:
                yield key, total
