"""Ratings over a corpus in date order: the FIBS formula for matches and Elo for single games
(formats/stats-tables.md, "Ratings"). Pure Python.

FIBS: the probability that a player rated ``r1`` wins an ``n``-point match against one rated
``r2`` is 1 / (1 + 10^((r2 − r1) · √n / 2000)); the winner gains 4 · √n · P(the loser would
have won) and the loser loses as much, each times their own experience factor
max(1, 5 − experience / 100), where experience is the sum of the lengths of the matches played
before. Elo: the expected score of ``r1`` against ``r2`` is 1 / (1 + 10^((r2 − r1) / 400)) and
a single game moves both ratings by K · (score − expected).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from nardy_cli.files.spool import sorted_spooled

START = 1500.0
ELO_K = 32.0
UNDATED = "\uffff"  # undated records sort after the dated ones
RATING_COLUMNS = ("player", "rating", "experience", "matches", "match_wins", "elo", "games", "game_wins")
HISTORY_COLUMNS = ("order", "date", "system", "player", "opponent", "won", "length", "rating", "change")
RUN_RESULTS = 20_000
"""Results sorted in memory at a time: more are sorted in runs of this many, kept in temporary files
and merged (see :func:`in_date_order`)."""


def fibs_win_probability(rating: float, opponent: float, length: int) -> float:
    """The chance, by the FIBS formula, that a player rated ``rating`` wins a ``length``-point match."""
    return 1 / (1 + 10 ** ((opponent - rating) * math.sqrt(length) / 2000))


def experience_factor(experience: int) -> float:
    """FIBS's multiplier of a rating change: 5 for a new player, down to 1 from 400 points of matches."""
    return max(1.0, 5 - experience / 100)


def fibs_change(winner: float, loser: float, length: int) -> float:
    """The points the winner gains (before the experience factor): 4 · √n · P(the loser wins)."""
    return 4 * math.sqrt(length) * fibs_win_probability(loser, winner, length)


def elo_expected(rating: float, opponent: float) -> float:
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def date_key(date: str) -> str:
    """A sortable form of a ``Date`` tag (``2024.03.14``, ``2024-03-14``, ``2024/03/14``)."""
    text = date.strip().replace("-", ".").replace("/", ".")
    return text or UNDATED


class Result(NamedTuple):
    """One rated result: a match (``length`` > 0) or a single game (``length`` 0)."""

    date: str
    winner: str
    loser: str
    length: int


@dataclass
class PlayerRating:
    rating: float = START
    experience: int = 0
    matches: int = 0
    match_wins: int = 0
    elo: float = START
    games: int = 0
    game_wins: int = 0


class History(Protocol):
    """Where :class:`Ratings` keeps its history: a list, or anything with a list's ``append`` and
    iteration (``nardy rate`` keeps it in a temporary file)."""

    def append(self, row: dict[str, Any], /) -> None: ...

    def __iter__(self) -> Iterator[dict[str, Any]]: ...


@dataclass
class Ratings:
    """Every player's ratings after the results given to :meth:`rate`, and their history (two rows
    of :data:`HISTORY_COLUMNS` a result; None: not kept)."""

    elo_k: float = ELO_K
    players: dict[str, PlayerRating] = field(default_factory=dict)
    history: History | None = field(default_factory=list[dict[str, Any]])
    rated: int = 0  # results rated so far

    def player(self, name: str) -> PlayerRating:
        return self.players.setdefault(name, PlayerRating())

    def rate(self, results: Iterable[Result]) -> Ratings:
        """Rate ``results`` in date order (the same date, or none, in the order given)."""
        for result in in_date_order(results):
            if result.length > 0:
                self.add_match(result)
            else:
                self.add_game(result)
        return self

    def add_match(self, result: Result) -> None:
        winner, loser = self.player(result.winner), self.player(result.loser)
        change = fibs_change(winner.rating, loser.rating, result.length)
        gain, loss = change * experience_factor(winner.experience), change * experience_factor(loser.experience)
        winner.rating += gain
        loser.rating -= loss
        for player in (winner, loser):
            player.experience += result.length
            player.matches += 1
        winner.match_wins += 1
        self._record(result, "fibs", winner.rating, gain, loser.rating, -loss)

    def add_game(self, result: Result) -> None:
        winner, loser = self.player(result.winner), self.player(result.loser)
        change = self.elo_k * (1 - elo_expected(winner.elo, loser.elo))
        winner.elo += change
        loser.elo -= change
        winner.games += 1
        loser.games += 1
        winner.game_wins += 1
        self._record(result, "elo", winner.elo, change, loser.elo, -change)

    def _record(self, result: Result, system: str, winner_rating: float, gain: float, loser_rating: float,
                loss: float) -> None:
        self.rated += 1
        if self.history is None:
            return
        for name, opponent, won, rating, change in ((result.winner, result.loser, True, winner_rating, gain),
                                                    (result.loser, result.winner, False, loser_rating, loss)):
            self.history.append({"order": self.rated, "date": result.date, "system": system, "player": name,
                                 "opponent": opponent, "won": won, "length": result.length, "rating": rating,
                                 "change": change})

    def rows(self) -> Iterator[dict[str, Any]]:
        """One row per player (:data:`RATING_COLUMNS`), the highest FIBS rating first, then Elo (ties in
        the order the players came), each made as it is read: a server has many players."""
        for name, player in sorted(self.players.items(), key=_rank):
            yield {"player": name, "rating": player.rating, "experience": player.experience, "matches": player.matches,
                   "match_wins": player.match_wins, "elo": player.elo, "games": player.games,
                   "game_wins": player.game_wins}


def _rank(item: tuple[str, PlayerRating]) -> tuple[float, float]:
    return -item[1].rating, -item[1].elo


def in_date_order(results: Iterable[Result]) -> Iterator[Result]:
    """``results`` sorted by :func:`date_key` (the same date, or none, in the order given), in
    memory for :data:`RUN_RESULTS` of them however many there are: each run of that many is sorted
    and kept in a temporary file, and the runs are merged."""
    keyed = ((date_key(result.date), index, *result) for index, result in enumerate(results))
    for entry in sorted_spooled(keyed, RUN_RESULTS):  # (the index tells apart results of the same date)
        yield Result(*entry[2:])


def match_result(row: dict[str, Any]) -> Result | None:
    """The rated result of a row of ``matches.csv`` (see :meth:`nardy_cli.matches.Match.row`); None
    for an unfinished match or one whose players share a name."""
    first, second, winner = row["player1"], row["player2"], row["winner"]
    if not row["complete"] or first == second or winner not in (first, second):
        return None
    return Result(row["date"] or "", winner, second if winner == first else first, row["length"])


def game_result(row: dict[str, Any]) -> Result | None:
    """The rated result of a single (money) game's row of ``games.csv``; None without a winner."""
    if row["winner"] not in ("w", "b") or row["white"] == row["black"]:
        return None
    winner, loser = (row["white"], row["black"]) if row["winner"] == "w" else (row["black"], row["white"])
    return Result(row["date"] or "", winner, loser, 0)
