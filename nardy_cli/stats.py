"""Statistics over replayed games: per-game and per-turn rows, summaries, dice fairness.

Each replayed game becomes a small :class:`GameStats` (in a worker process when the
run is parallel) that :class:`Aggregates` sums: every summary, chart and fairness
test is computed from those sums, so a corpus of any size is streamed in memory
that does not grow with its games. The per-game and per-turn rows themselves go
to files (see :mod:`nardy_cli.tables`). Every label a table, chart or report shows
comes from one translation table, :data:`TEXT`, in English or Russian.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from .corpus import CorpusGame
from .record import BLACK, WHITE
from .replay import GameReplay
from .validate import finding_dict

LANGS = ("en", "ru")
GROUPINGS = ("player", "event", "variant", "file")
SCORED = ("oin", "mars", "home-mars", "koks")
OUTCOMES = SCORED + ("resign", "drop", "draw", "unfinished")
SIDE_KEYS = {WHITE: "white", BLACK: "black"}  # per-side column suffixes and label keys
FAIRNESS_ALPHA = 0.01
FINDINGS_KEPT = 500  # findings a report lists; the rest are only counted

# Unordered roll classes (11, 21, 22, ..., 66) and the chance of each with fair dice.
ROLL_CLASSES = tuple(f"{high}{low}" for high in range(1, 7) for low in range(1, high + 1))
ROLL_PROBABILITIES = np.array([(1 if c[0] == c[1] else 2) / 36 for c in ROLL_CLASSES])

# The columns of the per-game, per-turn and per-finding tables, with their types (see nardy_cli.tables).
GAME_COLUMNS: dict[str, str] = {
    "file": "str", "game": "int", "variant": "str", "rules": "str", "event": "str", "date": "str",
    "round": "str", "white": "str", "black": "str", "first_mover": "str", "winner": "str", "outcome": "str",
    "points": "int", "final_cube": "int", "turns": "int", "findings": "int",
    "pips_white": "int", "pips_black": "int", "pips_lost_white": "int", "pips_lost_black": "int",
    "pips_lost": "int", "passes_white": "int", "passes_black": "int", "doubles_white": "int",
    "doubles_black": "int", "hits_white": "int", "hits_black": "int",
}
TURN_COLUMNS: dict[str, str] = {
    "file": "str", "game": "int", "turn": "int", "side": "str", "player": "str", "dice": "str", "play": "str",
    "legal": "bool", "opening": "bool", "pips_white": "int", "pips_black": "int", "pip_lead": "int",
}
FINDING_COLUMNS: dict[str, str] = {  # the objects of nardy validate --format json
    "path": "str", "game": "int", "turn": "int", "move_number": "int", "side": "str", "line": "int",
    "column": "int", "code": "str", "message": "str", "option": "str", "action": "str", "rules": "str",
}

# key -> (English, Russian): every label shown to a reader.
TEXT: dict[str, tuple[str, str]] = {
    "oin": ("oin", "оин"),
    "mars": ("mars", "марс"),
    "home-mars": ("home mars", "домашний марс"),
    "koks": ("koks", "кокс"),
    "resign": ("resignation", "сдача"),
    "drop": ("dropped double", "отказ от удвоения"),
    "draw": ("draw", "ничья"),
    "unfinished": ("unfinished", "не окончена"),
    "long": ("long nardy", "длинные нарды"),
    "short": ("short nardy", "короткие нарды"),
    "player": ("player", "игрок"),
    "event": ("event", "турнир"),
    "variant": ("variant", "вариант"),
    "file": ("file", "файл"),
    "game": ("game", "партия"),
    "games": ("games", "партии"),
    "wins": ("wins", "победы"),
    "wins_white": ("White's wins", "победы белых"),
    "win_rate": ("win %", "% побед"),
    "first_mover_win_rate": ("first mover wins %", "% побед начинающего"),
    "mean_turns": ("mean length (turns)", "средняя длина (ходы)"),
    "median_turns": ("median length (turns)", "медиана длины (ходы)"),
    "mean_pips_lost": ("mean pips lost", "потеряно пипсов в среднем"),
    "n": ("rolls (n)", "броски (n)"),
    "doubles": ("doubles", "дубли"),
    "doubles_rate": ("doubles %", "% дублей"),
    "chi2_rolls": ("χ² (21 rolls)", "χ² (21 бросок)"),
    "p_rolls": ("p (21 rolls)", "p (21 бросок)"),
    "chi2_doubles": ("χ² (doubles)", "χ² (дубли)"),
    "p_doubles": ("p (doubles)", "p (дубли)"),
    "flagged": ("suspicious (p < 0.01)", "подозрительно (p < 0,01)"),
    "yes": ("yes", "да"),
    "no": ("no", "нет"),
    "all": ("all players", "все игроки"),
    "white": ("White", "белые"),
    "black": ("Black", "чёрные"),
    "turn": ("turn", "ход"),
    "turns": ("turns", "ходы"),
    "pips": ("pips", "пипсы"),
    "off": ("off", "снято"),
    "bar": ("bar", "бар"),
    "dice": ("dice", "кости"),
    "to_move": ("{side} to move", "ход: {side}"),
    "rolled": ("{side} played {dice}", "{side} сыграли {dice}"),
    "numbering": ("points in White's numbering", "пункты в нумерации белых"),
    "side": ("side", "сторона"),
    "path": ("file", "файл"),
    "action": ("action", "действие"),
    "code": ("finding", "нарушение"),
    "message": ("message", "описание"),
    "option": ("rule option", "правило"),
    "no_data": ("no data", "нет данных"),
    "title_report": ("nardy statistics", "статистика нард"),
    "title_summary": ("Summary", "Сводка"),
    "title_players": ("Players", "Игроки"),
    "title_outcomes": ("Outcomes", "Исходы"),
    "title_outcomes_by_player": ("Wins by outcome, per player", "Победы по исходам, по игрокам"),
    "title_lengths": ("Game length", "Длина партии"),
    "title_first_mover": ("First-mover advantage", "Преимущество первого хода"),
    "title_dice": ("Dice", "Кости"),
    "title_race": ("Pip count race", "Гонка: пипсы по ходам"),
    "title_findings": ("Illegal moves and other findings", "Нарушения правил и другие замечания"),
    "more_findings": ("… and {n} more: see findings.csv", "… и ещё {n}: см. findings.csv"),
    "no_findings": ("No findings: every game is legal.", "Замечаний нет: все партии по правилам."),
    "summary_line": ("{games} games in {files} files, {turns} turns, {legal} legal games, {findings} findings",
                     "{games} партий в {files} файлах, {turns} ходов, {legal} партий без нарушений, "
                     "{findings} замечаний"),
    "observed_expected": ("observed / expected", "наблюдаемое / ожидаемое"),
    "first_die": ("higher die", "старшая кость"),
    "second_die": ("lower die", "младшая кость"),
    "even": ("even chances", "равные шансы"),
}


def tr(key: str, lang: str = "en", **values: Any) -> str:
    """The label ``key`` in ``lang`` (``en`` or ``ru``), formatted with ``values``; unknown keys as is."""
    pair = TEXT.get(key)
    text = key if pair is None else pair[LANGS.index(lang)]
    return text.format(**values) if values else text


# --- per-game and per-turn rows ----------------------------------------------------------


def outcome_of(result: GameReplay) -> str:
    """One of :data:`OUTCOMES`: the scored category of a finished game, else how it ended.

    Forfeits and timeouts that a result tag declares count as resignations.
    """
    if result.ending == "finish":
        return result.category
    if result.ending is None:
        return "unfinished"
    return result.ending if result.ending in ("drop", "draw") else "resign"


def game_row(game: CorpusGame, result: GameReplay) -> dict[str, Any]:
    """One row of the per-game table (see :data:`GAME_COLUMNS`)."""
    record, final = game.record, result.final
    short = result.rules.variant == "short"
    row: dict[str, Any] = {
        "file": game.source, "game": game.index, "variant": result.rules.variant, "rules": str(result.rules),
        "event": record.tags.get("Event", "?"), "date": record.tags.get("Date", ""),
        "round": record.tags.get("Round", ""), "white": record.player(WHITE), "black": record.player(BLACK),
        "first_mover": result.first_mover, "winner": result.winner, "outcome": outcome_of(result),
        "points": result.points, "final_cube": final.cube_value if final else None,
        "turns": len(result.turns), "findings": len(result.findings),
    }
    for side, name in SIDE_KEYS.items():
        own = [turn for turn in result.turns if turn.side == side]
        row[f"pips_{name}"] = final.pips(side) if final else None
        row[f"pips_lost_{name}"] = sum(turn.pips_lost for turn in own)
        row[f"passes_{name}"] = sum(turn.legal and turn.dice_used == 0 for turn in own)
        row[f"doubles_{name}"] = sum(turn.dice[0] == turn.dice[1] for turn in own)
        row[f"hits_{name}"] = sum(turn.hits for turn in own) if short else None
    row["pips_lost"] = row["pips_lost_white"] + row["pips_lost_black"]
    return row


def _first_roll_not_double(game: CorpusGame, result: GameReplay) -> bool:
    """Whether the rules forbid the game's first roll to be a double (short nardy, long nardy with
    ``opening=play``): such a roll is no free roll, and dice fairness leaves it out."""
    rules = result.rules
    return not game.record.tags.get("Position") and (rules.variant == "short" or rules.opening == "play")


def turn_rows(game: CorpusGame, result: GameReplay) -> list[dict[str, Any]]:
    """The rows of the per-turn table for one game (see :data:`TURN_COLUMNS`); ``opening`` marks a
    first roll that could not be a double."""
    record = game.record
    opening = _first_roll_not_double(game, result)
    rows = []
    for turn in result.turns:
        white, black = turn.after.pips(WHITE), turn.after.pips(BLACK)
        rows.append({
            "file": game.source, "game": game.index, "turn": turn.turn, "side": turn.side,
            "player": record.player(turn.side), "dice": f"{turn.dice[0]}{turn.dice[1]}", "play": turn.play,
            "legal": turn.legal, "opening": opening and turn.turn == 1,
            "pips_white": white, "pips_black": black, "pip_lead": black - white,
        })
    return rows


def roll_class(first: int, second: int) -> int:
    """The index in :data:`ROLL_CLASSES` of a roll, whichever die is named first."""
    high, low = max(first, second), min(first, second)
    return high * (high - 1) // 2 + low - 1


def game_rolls(game: CorpusGame, result: GameReplay) -> dict[str, tuple[int, ...]]:
    """Each side's free rolls in one game, counted by roll class (:data:`ROLL_CLASSES`)."""
    counts = {side: [0] * len(ROLL_CLASSES) for side in SIDE_KEYS}
    skip_first = _first_roll_not_double(game, result)
    for turn in result.turns:
        if not (skip_first and turn.turn == 1):
            counts[turn.side][roll_class(*turn.dice)] += 1
    return {side: tuple(row) for side, row in counts.items()}


@dataclass(frozen=True)
class GameStats:
    """What the statistics take of one replayed game: its row, its players' free rolls, its findings
    and, when tables are written, its turn rows. Small enough to ship from a worker process."""

    game: dict[str, Any]
    rolls: dict[str, tuple[int, ...]]
    findings: tuple[dict[str, Any], ...] = ()
    turns: tuple[dict[str, Any], ...] = ()


def game_stats(game: CorpusGame, result: GameReplay, *, with_turns: bool = False) -> GameStats:
    """The :class:`GameStats` of one replayed game; its turn rows only ``with_turns``."""
    return GameStats(game_row(game, result), game_rolls(game, result),
                     tuple(finding_dict(game, result, finding) for finding in result.findings),
                     tuple(turn_rows(game, result)) if with_turns else ())


# --- aggregates ---------------------------------------------------------------------------


class _Totals:
    """Sums over the games of one group (a player, an event, a variant or a file)."""

    __slots__ = ("games", "wins", "outcomes", "first_games", "first_wins", "pips_lost", "lengths")

    def __init__(self) -> None:
        self.games = self.wins = self.first_games = self.first_wins = self.pips_lost = 0
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

    def median_turns(self) -> float:
        middle = {(self.games - 1) // 2, self.games // 2}  # the 0-based ranks of the middle game(s)
        values, ranked = [], 0
        for turns in sorted(self.lengths):
            count = self.lengths[turns]
            values += [turns for rank in middle if ranked <= rank < ranked + count]
            ranked += count
        return sum(values) / len(values)


class Aggregates:
    """Every figure of the statistics, summed one game at a time: memory grows with the number of
    players, events and files, never with the number of games or turns.

    Groups keep the order in which they first appear. Per player, wins are the player's, outcomes
    count the player's wins of each kind, first-mover figures are the games the player began and
    pips lost are the player's own; per event, variant or file, wins are White's, outcomes count
    every game, first-mover figures count every game whose first mover is known and pips lost are
    both sides'.
    """

    def __init__(self) -> None:
        self.groups: dict[str, dict[Any, _Totals]] = {by: {} for by in GROUPINGS}
        self.rolls: dict[str, list[int]] = {}  # by player
        self.games = self.turns = self.legal = self.findings = 0
        self.first_findings: list[dict[str, Any]] = []  # the first FINDINGS_KEPT, for reports

    def _totals(self, by: str, key: Any) -> _Totals:
        group = self.groups[by]
        totals = group.get(key)
        if totals is None:
            totals = group[key] = _Totals()
        return totals

    def add(self, stats: GameStats) -> None:
        """Count one game."""
        row = stats.game
        winner, first_mover, outcome, turns = row["winner"], row["first_mover"], row["outcome"], row["turns"]
        for side, name in SIDE_KEYS.items():
            won = winner == side
            self._totals("player", row[name]).add(won, outcome if won else None, first_mover == side,
                                                  won and first_mover == side, turns, row[f"pips_lost_{name}"])
            if any(stats.rolls[side]):  # a player is in the dice tables once they have rolled
                counts = self.rolls.setdefault(row[name], [0] * len(ROLL_CLASSES))
                for index, count in enumerate(stats.rolls[side]):
                    counts[index] += count
        known = first_mover is not None
        for by in ("event", "variant", "file"):
            self._totals(by, row[by]).add(winner == WHITE, outcome, known, known and winner == first_mover,
                                          turns, row["pips_lost"])
        self.games += 1
        self.turns += turns
        self.legal += row["findings"] == 0
        self.findings += len(stats.findings)
        room = FINDINGS_KEPT - len(self.first_findings)
        if room > 0:
            self.first_findings.extend(stats.findings[:room])

    def summary(self, by: str = "player") -> pd.DataFrame:
        """One row per player, event, variant or file, the busiest first.

        Columns: ``games``, ``wins`` and ``win_rate``; for each of oin, mars, home-mars, koks its
        count, ``<outcome>_rate`` and Wilson 95 % bounds ``<outcome>_low``/``_high``;
        ``first_mover_games``/``_wins``/``_rate`` (with bounds); ``mean_turns``, ``median_turns``,
        ``mean_pips_lost``. Every rate is over the row's games.
        """
        if by not in GROUPINGS:
            raise ValueError(f"unknown grouping {by!r}: expected one of {', '.join(GROUPINGS)}")
        group = self.groups[by]
        totals = list(group.values())
        table = pd.DataFrame({"games": [t.games for t in totals], "wins": [t.wins for t in totals]},
                             index=pd.Index(list(group), name=by), dtype="int64")
        _add_rate(table, "win", table["wins"], table["games"])
        for outcome in SCORED:
            table[outcome] = np.array([t.outcomes[outcome] for t in totals], dtype="int64")
            _add_rate(table, outcome, table[outcome], table["games"])
        table["first_mover_games"] = np.array([t.first_games for t in totals], dtype="int64")
        table["first_mover_wins"] = np.array([t.first_wins for t in totals], dtype="int64")
        _add_rate(table, "first_mover", table["first_mover_wins"], table["first_mover_games"])
        table["mean_turns"] = [sum(n * count for n, count in t.lengths.items()) / t.games for t in totals]
        table["median_turns"] = [t.median_turns() for t in totals]
        table["mean_pips_lost"] = [t.pips_lost / t.games for t in totals]
        return table.sort_values("games", ascending=False, kind="stable")

    def outcome_counts(self, by: str = "variant") -> pd.DataFrame:
        """How many games of each ``by`` group (event, variant or file) ended in each outcome
        (columns in :data:`OUTCOMES` order, groups sorted)."""
        if by not in GROUPINGS or by == "player":
            raise ValueError(f"outcomes are counted by event, variant or file, not {by!r}")
        group = self.groups[by]
        keys = sorted(group, key=str)
        return pd.DataFrame([[group[key].outcomes[outcome] for outcome in OUTCOMES] for key in keys],
                            index=pd.Index(keys, name=by), columns=list(OUTCOMES), dtype="int64")

    def lengths(self, by: str = "variant") -> dict[Any, Counter[int]]:
        """Game lengths per ``by`` group: how many games had each number of turns."""
        return {key: totals.lengths for key, totals in self.groups[by].items()}

    def dice_counts(self, player: str | None = None, *, total: bool = False) -> pd.DataFrame:
        """Counts of the 21 roll classes: one row per player (sorted), or only ``player``'s, or with
        ``player=None`` and not ``total`` one row ``all``; with ``total``, the ``all`` row first."""
        players = [player] if player is not None else sorted(self.rolls, key=str)
        rows = {name: self.rolls[name] for name in players if name in self.rolls}
        overall = [sum(column) for column in zip(*self.rolls.values())] or [0] * len(ROLL_CLASSES)
        if player is None and not total:
            rows = {"all": overall}
        elif total:
            rows = {"all": overall, **rows}
        return pd.DataFrame(list(rows.values()), index=pd.Index(list(rows), name="player"),
                            columns=list(ROLL_CLASSES), dtype="int64")

    def dice_fairness(self, *, total: bool = True) -> pd.DataFrame:
        """:func:`dice_fairness` of every player's rolls, with the ``all`` row first when ``total``."""
        return dice_fairness(self.dice_counts(total=total))


def aggregate(pairs: Iterable[tuple[CorpusGame, GameReplay]]) -> Aggregates:
    """:class:`Aggregates` of replayed games, streamed."""
    aggregates = Aggregates()
    for game, result in pairs:
        aggregates.add(game_stats(game, result))
    return aggregates


# --- rates --------------------------------------------------------------------------------


def wilson_interval(successes: Any, trials: Any, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a binomial proportion (arrays welcome); NaN where ``trials`` is 0."""
    k, n = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    z = scipy_stats.norm.ppf(0.5 + confidence / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return np.where(k == 0, 0.0, centre - half), np.where(k == n, 1.0, centre + half)


def _add_rate(table: pd.DataFrame, name: str, successes: pd.Series, trials: pd.Series) -> None:
    low, high = wilson_interval(successes, trials)
    with np.errstate(divide="ignore", invalid="ignore"):
        table[f"{name}_rate"] = successes.astype(float) / trials.astype(float)
    table[f"{name}_low"], table[f"{name}_high"] = low, high


# --- dice fairness -----------------------------------------------------------------------


def chi_square(observed: Any, probabilities: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Pearson's chi-square statistic and p-value of each row of ``observed`` counts (a 1-D
    sequence is one row) against ``probabilities``; NaN for a row with nothing observed."""
    counts = np.atleast_2d(np.asarray(observed, dtype=float))
    expected = counts.sum(axis=1, keepdims=True) * np.asarray(probabilities, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = ((counts - expected) ** 2 / expected).sum(axis=1)
    statistic[counts.sum(axis=1) == 0] = np.nan
    return statistic, scipy_stats.chi2.sf(statistic, df=counts.shape[1] - 1)


def dice_fairness(counts: pd.DataFrame) -> pd.DataFrame:
    """Whether the dice of each row of a roll-class ``counts`` table (see
    :meth:`Aggregates.dice_counts`) look fair, the most rolls first.

    Columns: ``n`` rolls, ``doubles`` and ``doubles_rate`` (1/6 expected),
    chi-square and p-value of the 21 roll classes (``chi2_rolls``, ``p_rolls``,
    20 degrees of freedom) and of doubles against non-doubles (``chi2_doubles``,
    ``p_doubles``), and ``flagged`` when either p-value is below 0.01.
    """
    observed = counts.to_numpy(dtype=float)
    n = observed.sum(axis=1)
    doubles = observed[:, [roll[0] == roll[1] for roll in ROLL_CLASSES]].sum(axis=1)
    chi2_rolls, p_rolls = chi_square(observed, ROLL_PROBABILITIES)
    chi2_doubles, p_doubles = chi_square(np.column_stack([doubles, n - doubles]), [1 / 6, 5 / 6])
    with np.errstate(divide="ignore", invalid="ignore"):
        table = pd.DataFrame({"n": n.astype(int), "doubles": doubles.astype(int), "doubles_rate": doubles / n,
                              "chi2_rolls": chi2_rolls, "p_rolls": p_rolls, "chi2_doubles": chi2_doubles,
                              "p_doubles": p_doubles, "flagged": np.fmin(p_rolls, p_doubles) < FAIRNESS_ALPHA},
                             index=counts.index)
    return table.sort_values("n", ascending=False, kind="stable")


# --- tables for readers ------------------------------------------------------------------


def _percent(value: float) -> str:
    return "—" if pd.isna(value) else f"{100 * value:.1f}%"


def _with_interval(count: int, table: pd.DataFrame, name: str, key: Any) -> str:
    rate, low, high = (table.at[key, f"{name}_{part}"] for part in ("rate", "low", "high"))
    if pd.isna(rate):
        return str(count)
    return f"{count} ({100 * rate:.1f}% [{100 * low:.1f}–{100 * high:.1f}])"


def summary_display(summary: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`summarize` table as text cells with headers in ``lang``: counts with
    rate and Wilson 95 % interval, percentages, lengths."""
    by = summary.index.name
    wins_label = tr("wins" if by == "player" else "wins_white", lang)
    rows = []
    for key, row in summary.iterrows():
        cells = {tr(by, lang): tr(key, lang) if by == "variant" else key,
                 tr("games", lang): int(row["games"]), wins_label: int(row["wins"]),
                 tr("win_rate", lang): _percent(row["win_rate"])}
        for outcome in SCORED:
            cells[tr(outcome, lang)] = _with_interval(int(row[outcome]), summary, outcome, key)
        cells[tr("first_mover_win_rate", lang)] = _percent(row["first_mover_rate"])
        for column in ("mean_turns", "median_turns", "mean_pips_lost"):
            cells[tr(column, lang)] = f"{row[column]:.1f}"
        rows.append(cells)
    return pd.DataFrame(rows)


def fairness_display(fairness: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`dice_fairness` table as text cells with headers in ``lang``."""
    by = fairness.index.name
    rows = []
    for key, row in fairness.iterrows():
        rows.append({tr(by or "player", lang): tr(key, lang) if key == "all" else key,
                     tr("n", lang): int(row["n"]), tr("doubles", lang): int(row["doubles"]),
                     tr("doubles_rate", lang): _percent(row["doubles_rate"]),
                     tr("chi2_rolls", lang): f"{row['chi2_rolls']:.1f}",
                     tr("p_rolls", lang): f"{row['p_rolls']:.3g}",
                     tr("chi2_doubles", lang): f"{row['chi2_doubles']:.2f}",
                     tr("p_doubles", lang): f"{row['p_doubles']:.3g}",
                     tr("flagged", lang): tr("yes" if row["flagged"] else "no", lang)})
    return pd.DataFrame(rows)


def outcomes_display(counts: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """An :func:`outcome_counts` table with outcome and group names in ``lang``."""
    table = counts.rename(columns=lambda outcome: tr(outcome, lang),
                          index=lambda key: tr(key, lang) if counts.index.name == "variant" else key)
    return table.rename_axis(index=tr(counts.index.name, lang)).reset_index()


def markdown_table(table: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table of ``table``'s columns (the index is left out)."""
    def cell(value: Any) -> str:
        return ("" if pd.isna(value) else str(value)).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in table.columns) + " |",
             "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)
