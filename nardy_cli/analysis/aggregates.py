"""Statistics summed one game at a time: per-game and per-turn rows, and :class:`Aggregates`.

Each replayed game becomes a small :class:`GameStats` (in a worker process when the run is
parallel) that :class:`Aggregates` sums into counts per player, event, variant and file, so a
corpus of any size is summed in memory that does not grow with its games. Pure Python: the
tables, rates and tests drawn from the sums are in :mod:`nardy_cli.reporting.stats` (pandas), and the
rows themselves are written by :mod:`nardy_cli.reporting.tables`.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from nardy_cli.analysis import SIDE_KEYS
from nardy_cli.analysis import groups as grouping
from nardy_cli.analysis.bearoff import ROLLS
from nardy_cli.analysis.bearoff import roll_index as roll_class
from nardy_cli.analysis.groups import Groups
from nardy_cli.analysis.luck import LuckSums, TurnLuck, game_luck
from nardy_cli.analysis.play_quality import Quality, QualityTotals, game_quality
from nardy_cli.analysis.positions import position_values
from nardy_cli.analysis.standings import Standings
from nardy_cli.analysis.validate import finding_dict
from nardy_cli.core.compiled import Value
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.core.variants import VARIANTS
from nardy_cli.matches import MatchChecker, MatchGame, match_game
from nardy_cli.replay import GameReplay
from nardy_cli.run.corpus import CorpusGame

GROUPINGS = ("player", "event", "variant", "file", "match")
CASCADE_GROUPINGS = ("event", "variant", "file")  # those that count crazy nardy's cascades (both sides')
MONEY = "(money)"  # the match group of money games
SCORED = ("oin", "mars", "home-mars", "koks")
OUTCOMES = SCORED + ("resign", "drop", "draw", "unfinished")
FINDINGS_KEPT = 500  # findings a report lists; the rest are only counted
MATCHES_KEPT = 500  # matches a report lists; matches.csv has them all

# Unordered roll classes (11, 21, 22, ..., 66).
ROLL_CLASSES = tuple(f"{high}{low}" for high, low in ROLLS)

# The columns of the per-game, per-turn and per-finding tables, with their types (see nardy_cli.reporting.tables).
GAME_COLUMNS: dict[str, str] = {
    "file": "str", "game": "int", "variant": "str", "rules": "str", "event": "str", "date": "str",
    "round": "str", "white": "str", "black": "str", "first_mover": "str", "winner": "str", "outcome": "str",
    "points": "int", "final_cube": "int", "turns": "int", "findings": "int",
    "pips_white": "int", "pips_black": "int", "pips_lost_white": "int", "pips_lost_black": "int",
    "pips_lost": "int", "passes_white": "int", "passes_black": "int", "doubles_white": "int",
    "doubles_black": "int", "hits_white": "int", "hits_black": "int",
    "pips_rolled_white": "int", "pips_rolled_black": "int", "bearoff_luck_white": "float",
    "bearoff_luck_black": "float",
    "cascades": "int", "steps_passed": "int", "pips_passed": "int",
}
TURN_COLUMNS: dict[str, str] = {
    "file": "str", "game": "int", "turn": "int", "side": "str", "player": "str", "dice": "str", "play": "str",
    "legal": "bool", "opening": "bool", "pips_white": "int", "pips_black": "int", "pip_lead": "int",
    "pips_rolled": "int", "bearoff_luck": "float", "position": "str", "gnubg_id": "str", "xgid": "str",
}
TurnValues = tuple[Any, ...]  # a row of the per-turn table: its values in TURN_COLUMNS order
ReadyRows = tuple[int, dict[str, Any]]  # turn rows made ready to write: their number, and their data by table format
FINDING_COLUMNS: dict[str, str] = {  # the objects of nardy validate --format json
    "path": "str", "game": "int", "turn": "int", "move_number": "int", "side": "str", "line": "int",
    "column": "int", "code": "str", "message": "str", "option": "str", "action": "str", "rules": "str",
}
MATCH_COLUMNS: dict[str, str] = {  # see nardy_cli.matches.Match.row
    "file": "str", "first_game": "int", "player1": "str", "player2": "str", "length": "int", "games": "int",
    "final_score": "str", "winner": "str", "complete": "bool", "crawford_game": "int", "findings": "int",
    "event": "str", "date": "str",
}

# --- per-game and per-turn rows ----------------------------------------------------------


def outcome_of(result: GameReplay) -> str:
    """One of :data:`OUTCOMES`: the scored category of a finished game, else how it ended.

    Forfeits and timeouts that a result tag declares count as resignations.
    """
    if result.ending == "finish":
        assert result.category is not None  # a finished game is scored
        return result.category
    if result.ending is None:
        return "unfinished"
    return result.ending if result.ending in ("drop", "draw") else "resign"


def game_row(game: CorpusGame, result: GameReplay, luck: dict[str, LuckSums] | None = None) -> dict[str, Any]:
    """One row of the per-game table (see :data:`GAME_COLUMNS`); ``luck`` as :func:`game_luck` gives it."""
    record, final = game.record, result.final
    luck = game_luck(result, per_turn=False)[0] if luck is None else luck
    row: dict[str, Any] = {
        "file": game.source, "game": game.index, "variant": result.variant, "rules": result.rules_text,
        "event": record.tags.get("Event", "?"), "date": record.tags.get("Date", ""),
        "round": record.tags.get("Round", ""), "white": record.player(WHITE), "black": record.player(BLACK),
        "first_mover": result.first_mover, "winner": result.winner, "outcome": outcome_of(result),
        "points": result.points, "final_cube": final.cube_value if final else None,
        "turns": len(result.turns), "findings": len(result.findings),
    }
    variant = VARIANTS.get(result.variant)  # None: a game not judged, with no turn
    hits = variant is not None and variant.hits
    counts = {side: [0, 0, 0] for side in SIDE_KEYS}  # passes, doubles, hits
    for turn in result.turns:  # x[i] = x[i] + n: compiled, x[i] += n is a generic in-place operation
        side_counts = counts[turn.side]
        if turn.legal and turn.dice_used == 0:
            side_counts[0] = side_counts[0] + 1
        if turn.dice[0] == turn.dice[1]:
            side_counts[1] = side_counts[1] + 1
        if hits:
            side_counts[2] = side_counts[2] + turn.hits
    for side, name in SIDE_KEYS.items():
        passes, doubles, hit_count = counts[side]
        sums = luck.get(side, LuckSums())
        row[f"pips_{name}"] = final.pips(side) if final else None
        row[f"pips_lost_{name}"] = sums.lost  # an illegal turn loses none
        row[f"passes_{name}"] = passes
        row[f"doubles_{name}"] = doubles
        row[f"hits_{name}"] = hit_count if hits else None
        row[f"pips_rolled_{name}"] = sums.pips
        row[f"bearoff_luck_{name}"] = sums.bearoff if sums.bearoff_rolls else None
    row["pips_lost"] = row["pips_lost_white"] + row["pips_lost_black"]
    cascade = variant is not None and variant.cascade  # crazy nardy: doubles cascade, steps pass
    row["cascades"] = row["doubles_white"] + row["doubles_black"] if cascade else None
    row["steps_passed"] = sum(len(turn.passed) for turn in result.turns) if cascade else None
    row["pips_passed"] = sum(sum(turn.passed) for turn in result.turns) if cascade else None
    return row


def turn_values(game: CorpusGame, result: GameReplay, luck: list[TurnLuck] | None = None) -> list[TurnValues]:
    """The rows of the per-turn table for one game, each the values of :data:`TURN_COLUMNS` in their
    order (two thirds of the memory of the same row as a dict: rows wait in memory until they
    are written);
    ``opening`` marks a first roll that could not be a double; ``luck`` as :func:`game_luck` gives it."""
    record = game.record
    opening = result.opening_not_double
    luck = game_luck(result)[1] if luck is None else luck
    rows = []
    for turn, roll in zip(result.turns, luck):
        white, black = turn.after.pips(WHITE), turn.after.pips(BLACK)
        position, gnubg_id, xgid = position_values(turn.before, record)
        rows.append((game.source, game.index, turn.turn, turn.side, record.player(turn.side),
                     f"{turn.dice[0]}{turn.dice[1]}", turn.play, turn.legal, opening and turn.turn == 1,
                     white, black, black - white, roll.pips, roll.bearoff, position, gnubg_id, xgid))
    return rows


def turn_rows(game: CorpusGame, result: GameReplay, luck: list[TurnLuck] | None = None) -> list[dict[str, Any]]:
    """The rows of the per-turn table for one game (see :data:`TURN_COLUMNS` and :func:`turn_values`)."""
    return [dict(zip(TURN_COLUMNS, values)) for values in turn_values(game, result, luck)]


def game_rolls(game: CorpusGame, result: GameReplay) -> dict[str, tuple[int, ...]]:
    """Each side's free rolls in one game, counted by roll class (:data:`ROLL_CLASSES`)."""
    counts = {side: [0] * len(ROLL_CLASSES) for side in SIDE_KEYS}
    skip_first = result.opening_not_double  # no free roll: not a test of the dice
    for turn in result.turns:
        if not (skip_first and turn.turn == 1):
            first, second = turn.dice
            row, index = counts[turn.side], roll_class(first, second)
            row[index] = row[index] + 1  # compiled, row[index] += 1 is a generic in-place operation
    return {side: tuple(row) for side, row in counts.items()}


class GameStats(Value):
    """What the statistics take of one replayed game: its row, its players' free rolls, its findings
    and, when tables are written, its turn rows, or the same rows already made ready for the tables
    to write (``ready_turns``: in the worker process, so that the process that writes them only
    copies them). Small enough to ship from a worker process.

    A :class:`~nardy_cli.core.compiled.Value` whose fields are plain attributes, not to be changed: one
    is made, shipped and read back for every game, at a fraction of a compiled frozen dataclass's cost."""

    __slots__ = ("game", "rolls", "match", "findings", "turns", "luck", "quality", "ready_turns")
    __match_args__ = ("game", "rolls", "match", "findings", "turns", "luck", "quality", "ready_turns")

    def __init__(self, game: dict[str, Any], rolls: dict[str, tuple[int, ...]], match: MatchGame | None = None,
                 findings: tuple[dict[str, Any], ...] = (), turns: tuple[TurnValues, ...] = (),
                 luck: dict[str, LuckSums] | None = None, quality: dict[str, Quality] | None = None,
                 ready_turns: ReadyRows | None = None) -> None:
        self.game, self.rolls = game, rolls
        self.match = match  # None: not checked as a game of a match
        self.findings = findings
        self.turns = turns  # see turn_values
        self.luck = luck  # by side
        self.quality: dict[str, Quality] = {} if quality is None else quality  # by player, from the record's analysis
        self.ready_turns = ready_turns  # instead of turns (see game_stats)

    def _fields(self) -> tuple[Any, ...]:
        return (self.game, self.rolls, self.match, self.findings, self.turns, self.luck, self.quality,
                self.ready_turns)


def game_stats(game: CorpusGame, result: GameReplay, *, with_turns: bool = False,
               make_ready: Callable[[list[TurnValues]], ReadyRows] | None = None) -> GameStats:
    """The :class:`GameStats` of one replayed game; its turn rows only ``with_turns``, given to
    ``make_ready`` when there is one (see :func:`nardy_cli.reporting.tables.ready_rows`)."""
    luck, turn_luck = game_luck(result, per_turn=with_turns)
    turns = turn_values(game, result, turn_luck) if with_turns else []
    return GameStats(game_row(game, result, luck), game_rolls(game, result),
                     match_game(game.source, game.index, game.record, result),
                     tuple(finding_dict(game, result.rules_text, finding) for finding in result.findings),
                     () if make_ready else tuple(turns), luck, game_quality(game.record),
                     make_ready(turns) if make_ready and with_turns else None)


# --- aggregates ---------------------------------------------------------------------------


class GroupTotals:
    """Sums over the games of one group (a player, an event, a variant, a file or a match); see
    :class:`Aggregates` for what wins, outcomes, first-mover games and pips lost count."""

    __slots__ = ("games", "wins", "outcomes", "first_games", "first_wins", "pips_lost", "lengths",
                 "cascade_games", "cascades", "steps_passed", "pips_passed")

    def __init__(self) -> None:
        self.games = self.wins = self.first_games = self.first_wins = self.pips_lost = 0
        self.cascade_games = self.cascades = self.steps_passed = self.pips_passed = 0  # crazy nardy
        self.outcomes: Counter[str] = Counter()
        self.lengths: Counter[int] = Counter()  # turns -> games: the median needs them all

    def add(self, won: bool, outcome: str | None, first: bool, first_won: bool, turns: int, pips_lost: int) -> None:
        self.games += 1
        self.wins += won
        if outcome is not None:
            self.outcomes[outcome] += 1
        self.first_games += first
        self.first_wins += first_won
        self.pips_lost += pips_lost
        self.lengths[turns] += 1

    def add_cascades(self, row: dict[str, Any]) -> None:
        """Count a crazy-nardy game's cascades and the steps and pips they passed."""
        self.cascade_games += 1
        self.cascades += row["cascades"]
        self.steps_passed += row["steps_passed"]
        self.pips_passed += row["pips_passed"]

    def record(self) -> tuple[Any, ...]:
        """The sums as plain values, which a :class:`~nardy_cli.files.spool.Spool` keeps (see :meth:`merge`)."""
        return (self.games, self.wins, self.first_games, self.first_wins, self.pips_lost, self.cascade_games,
                self.cascades, self.steps_passed, self.pips_passed, dict(self.outcomes), dict(self.lengths))

    def merge(self, record: tuple[Any, ...]) -> None:
        """Add the sums of another part of the same group (its :meth:`record`)."""
        (games, wins, first_games, first_wins, pips_lost, cascade_games, cascades, steps_passed, pips_passed,
         outcomes, lengths) = record
        self.games += games
        self.wins += wins
        self.first_games += first_games
        self.first_wins += first_wins
        self.pips_lost += pips_lost
        self.cascade_games += cascade_games
        self.cascades += cascades
        self.steps_passed += steps_passed
        self.pips_passed += pips_passed
        self.outcomes.update(outcomes)
        self.lengths.update(lengths)

    def mean_turns(self) -> float:
        return sum(turns * count for turns, count in self.lengths.items()) / self.games

    def median_turns(self) -> float:
        middle = {(self.games - 1) // 2, self.games // 2}  # the 0-based ranks of the middle game(s)
        values, ranked = [], 0
        for turns in sorted(self.lengths):
            count = self.lengths[turns]
            values += [turns for rank in middle if ranked <= rank < ranked + count]
            ranked += count
        return sum(values) / len(values)


def busiest_first(_key: Any, totals: GroupTotals) -> int:
    """The :data:`~nardy_cli.analysis.groups.Order` of groups, the most games first."""
    return -totals.games


class RollCounts:
    """One player's free rolls, counted by roll class (:data:`ROLL_CLASSES`)."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts = [0] * len(ROLL_CLASSES)

    def add(self, counts: Sequence[int]) -> None:
        mine = self.counts
        for index, count in enumerate(counts):
            mine[index] = mine[index] + count  # compiled, mine[index] += is generic

    def record(self) -> tuple[Any, ...]:
        return (self.counts,)

    def merge(self, record: tuple[Any, ...]) -> None:
        self.add(record[0])


class Aggregates:
    """Every figure of the statistics, summed one game at a time. Past
    :data:`~nardy_cli.analysis.groups.GROUPS_KEPT` groups of one grouping, of players' rolls,
    luck or standings, the rest wait in a spool (see :class:`~nardy_cli.analysis.groups.Groups`):
    memory does not grow with the number of games, turns, players, events, files or matches.

    Groups keep the order in which they first appear. Per player, wins are the player's, outcomes
    count the player's wins of each kind, first-mover figures are the games the player began and
    pips lost are the player's own; per event, variant or file, wins are White's, outcomes count
    every game, first-mover figures count every game whose first mover is known and pips lost are
    both sides'.
    """

    def __init__(self, groupings: Iterable[str] = GROUPINGS, standings: bool = True, dice: bool = True) -> None:
        kept = grouping.GROUPS_KEPT
        # only the groupings asked for (of GROUPINGS): one group a file or a match is a thousand bytes
        # a match for a corpus of a match a file, which a command that shows none need not keep
        self.groups: dict[str, Groups[GroupTotals]] = {
            by: Groups(GroupTotals, kept) for by in GROUPINGS if by in groupings}
        # the dice and luck by player, and the standings, only when asked for (a command that shows none
        # need not keep them)
        self.rolls: Groups[RollCounts] | None = Groups(RollCounts, kept) if dice else None  # once they have rolled
        # luck: float sums, added in the order the games came (a small record a game once spooled, sorted
        # in runs 8 times as long)
        self.luck: Groups[LuckSums] | None = Groups(
            LuckSums, kept, in_order=True, run=None if kept is None else 8 * kept) if dice else None
        self.standings = Standings(kept) if standings else None
        self.games = self.turns = self.legal = self.findings = 0
        self.first_findings: list[dict[str, Any]] = []  # the first FINDINGS_KEPT, for reports
        self.checker = MatchChecker()
        self.first_matches: list[dict[str, Any]] = []  # the first MATCHES_KEPT, for reports
        self.quality = QualityTotals()  # error rates and luck, from games whose record carries analysis
        self.rule_sets: Counter[str] = Counter()  # games judged under each rule set

    def add(self, stats: GameStats) -> tuple[tuple[dict[str, Any], ...], list[dict[str, Any]]]:
        """Count one game (games come in corpus order); return the findings of its match (each
        like a row of :data:`FINDING_COLUMNS`) and the rows of the matches that it shows to have
        ended (:data:`MATCH_COLUMNS`)."""
        checked = self.checker.add(stats.match) if stats.match is not None else []
        found = [finding_dict(where, where.rules, finding) for where, finding in checked if finding.code != "note"]
        match = self.checker.current
        key = f"{match.source}:{match.first_game} ({match.players[0]} – {match.players[1]})" if match else MONEY
        self._count(stats, key, found)
        return tuple(found), self._ended()

    def skip(self, stats: GameStats) -> list[dict[str, Any]]:
        """Count nothing of a game left out (``--legal-only``), but follow its match: the rows of
        the matches it shows to have ended."""
        if stats.match is not None:
            self.checker.add(stats.match)
        return self._ended()

    def close(self) -> list[dict[str, Any]]:
        """The rows of the matches still open once every game is in."""
        self.checker.close()
        return self._ended()

    def _ended(self) -> list[dict[str, Any]]:
        ended = self.checker.ended()
        if self.standings is not None:
            for match in ended:
                self.standings.add_match(match)
        rows = [match.row() for match in ended]
        room = MATCHES_KEPT - len(self.first_matches)
        if room > 0:
            self.first_matches.extend(rows[:room])
        return rows

    def _count(self, stats: GameStats, match: str, match_findings: list[dict[str, Any]]) -> None:
        row = stats.game
        winner, first_mover, outcome, turns = row["winner"], row["first_mover"], row["outcome"], row["turns"]
        groups, rolls, luck = self.groups, self.rolls, self.luck
        for side, name in SIDE_KEYS.items():
            if luck is not None and stats.luck and side in stats.luck:
                luck.totals(row[name]).add(stats.luck[side])
            won = winner == side
            if "player" in groups:
                groups["player"].totals(row[name]).add(won, outcome if won else None, first_mover == side,
                                                      won and first_mover == side, turns, row[f"pips_lost_{name}"])
            if rolls is not None and any(stats.rolls[side]):  # a player is in the dice tables once they have rolled
                rolls.totals(row[name]).add(stats.rolls[side])
        if self.standings is not None:
            self.standings.add_game(row)
        known = first_mover is not None
        for by, key in (("event", row["event"]), ("variant", row["variant"]), ("file", row["file"]),
                        ("match", match)):
            if by in groups:
                groups[by].totals(key).add(winner == WHITE, outcome, known, known and winner == first_mover,
                                          turns, row["pips_lost"])
        if row.get("cascades") is not None:
            for by in CASCADE_GROUPINGS:
                if by in groups:
                    groups[by].totals(row[by]).add_cascades(row)
        self.games += 1
        self.turns += turns
        self.legal += row["findings"] == 0 and not match_findings
        findings = stats.findings + tuple(match_findings)
        self.findings += len(findings)
        self.rule_sets[row.get("rules", "?")] += 1
        room = FINDINGS_KEPT - len(self.first_findings)
        if room > 0:
            self.first_findings.extend(findings[:room])
        self.quality.add(stats.quality)

    @property
    def matches(self) -> int:
        return self.checker.matches

    @property
    def complete_matches(self) -> int:
        return self.checker.complete

    def lengths(self, by: str = "variant") -> dict[Any, Counter[int]]:
        """Game lengths per ``by`` group: how many games had each number of turns."""
        return {key: totals.lengths for key, totals in self.groups[by].items()}


def aggregate(pairs: Iterable[tuple[CorpusGame, GameReplay]]) -> Aggregates:
    """:class:`Aggregates` of replayed games, streamed."""
    aggregates = Aggregates()
    for game, result in pairs:
        aggregates.add(game_stats(game, result))
    aggregates.close()
    return aggregates


# What receives each game's rows as the games are summed (see :func:`summed`): its stats, the
# findings of its match and the rows of the matches it shows to have ended; at the end, no game
# and the rows of the last matches.
RowSink = Callable[[GameStats | None, tuple[dict[str, Any], ...], list[dict[str, Any]] | None], None]


def summed(per_game: Iterable[GameStats], sinks: Sequence[RowSink] = (), *,
           legal_only: bool = False, groupings: Iterable[str] = GROUPINGS,
           standings: bool = True, dice: bool = True) -> tuple[Aggregates, int, int]:
    """:class:`Aggregates` of the games of ``per_game`` (in corpus order) in ``groupings``, and their
    ``standings`` and ``dice`` (the players' dice and luck) unless told not, each game's rows handed to
    every one of ``sinks`` (``legal_only``: only the games without a finding count); also how many
    games there were and how many of them have a finding."""
    aggregates = Aggregates(groupings, standings, dice)
    games = illegal = 0
    for stats in per_game:
        games += 1
        illegal += bool(stats.findings)
        if legal_only and stats.findings:
            ended = aggregates.skip(stats)
            for sink in sinks:
                sink(None, (), ended)
            continue
        found, ended = aggregates.add(stats)
        for sink in sinks:
            sink(stats, found, ended)
    ended = aggregates.close()
    for sink in sinks:
        sink(None, (), ended)
    return aggregates, games, illegal

