"""Statistics over replayed games: per-game and per-turn tables, summaries, dice fairness.

Rows are built one game at a time from ``(CorpusGame, GameReplay)`` pairs, so a
corpus of any size is streamed through :func:`collect` and only small dicts are
kept, never the replays. Every label a table, chart or report shows comes from
one translation table, :data:`TEXT`, in English or Russian.
"""
from __future__ import annotations

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

# Unordered roll classes (11, 21, 22, ..., 66) and the chance of each with fair dice.
ROLL_CLASSES = tuple(f"{high}{low}" for high in range(1, 7) for low in range(1, high + 1))
ROLL_PROBABILITIES = np.array([(1 if c[0] == c[1] else 2) / 36 for c in ROLL_CLASSES])

GAME_COLUMNS = (
    "file", "game", "variant", "rules", "event", "date", "round", "white", "black",
    "first_mover", "winner", "outcome", "points", "final_cube", "turns", "findings",
    "pips_white", "pips_black", "pips_lost_white", "pips_lost_black", "pips_lost",
    "passes_white", "passes_black", "doubles_white", "doubles_black", "hits_white", "hits_black",
)
TURN_COLUMNS = ("file", "game", "turn", "side", "player", "dice", "play", "legal", "opening",
                "pips_white", "pips_black", "pip_lead")

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


def turn_rows(game: CorpusGame, result: GameReplay) -> list[dict[str, Any]]:
    """The rows of the per-turn table for one game (see :data:`TURN_COLUMNS`).

    ``opening`` marks a first roll that the rules forbid to be a double (short
    nardy, long nardy with ``opening=play``): dice fairness leaves it out.
    """
    record, rules = game.record, result.rules
    opening_not_double = not record.tags.get("Position") and (rules.variant == "short" or rules.opening == "play")
    rows = []
    for turn in result.turns:
        white, black = turn.after.pips(WHITE), turn.after.pips(BLACK)
        rows.append({
            "file": game.source, "game": game.index, "turn": turn.turn, "side": turn.side,
            "player": record.player(turn.side), "dice": f"{turn.dice[0]}{turn.dice[1]}", "play": turn.play,
            "legal": turn.legal, "opening": opening_not_double and turn.turn == 1,
            "pips_white": white, "pips_black": black, "pip_lead": black - white,
        })
    return rows


@dataclass
class Tables:
    """The tables of a corpus: one row per game, per turn and per finding."""

    games: pd.DataFrame
    turns: pd.DataFrame
    findings: pd.DataFrame


GameRows = tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]


def game_rows(game: CorpusGame, result: GameReplay) -> GameRows:
    """One replayed game's rows: its game row, its turn rows, its findings — small enough to ship
    from a worker process."""
    return (game_row(game, result), turn_rows(game, result),
            [finding_dict(game, result, finding) for finding in result.findings])


def collect_rows(bundles: Iterable[GameRows]) -> Tables:
    """:class:`Tables` from the rows of each game (see :func:`game_rows`), in order."""
    games: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []
    for game, game_turns, game_findings in bundles:
        games.append(game)
        turns.extend(game_turns)
        findings.extend(game_findings)
    return Tables(pd.DataFrame(games, columns=list(GAME_COLUMNS)).convert_dtypes(),
                  pd.DataFrame(turns, columns=list(TURN_COLUMNS)).convert_dtypes(),
                  pd.DataFrame(findings).convert_dtypes())


def collect(pairs: Iterable[tuple[CorpusGame, GameReplay]]) -> Tables:
    """Stream replayed games into :class:`Tables`, keeping only rows."""
    return collect_rows(game_rows(game, result) for game, result in pairs)


# --- summaries ---------------------------------------------------------------------------


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


def _flag(series: pd.Series) -> pd.Series:
    """A boolean column with missing values as False."""
    return series.fillna(False).astype(bool)


def _player_view(games: pd.DataFrame) -> pd.DataFrame:
    """Each game twice, once for each player: what that player won, how, moving first or not."""
    views = []
    for side, name in SIDE_KEYS.items():
        won = _flag(games["winner"] == side)
        first = _flag(games["first_mover"] == side)
        views.append(pd.DataFrame({
            "key": games[name], "won": won, "outcome": games["outcome"].where(won), "first": first,
            "first_won": first & won, "turns": games["turns"], "pips_lost": games[f"pips_lost_{name}"],
        }))
    return pd.concat(views, ignore_index=True)


def _game_view(games: pd.DataFrame, by: str) -> pd.DataFrame:
    """Each game once, keyed by ``by``: White's wins, every outcome, the first mover's wins."""
    return pd.DataFrame({
        "key": games[by], "won": _flag(games["winner"] == WHITE), "outcome": games["outcome"],
        "first": _flag(games["first_mover"].notna()), "first_won": _flag(games["winner"] == games["first_mover"]),
        "turns": games["turns"], "pips_lost": games["pips_lost"],
    })


def _add_rate(table: pd.DataFrame, name: str, successes: pd.Series, trials: pd.Series) -> None:
    low, high = wilson_interval(successes, trials)
    with np.errstate(divide="ignore", invalid="ignore"):
        table[f"{name}_rate"] = successes.astype(float) / trials.astype(float)
    table[f"{name}_low"], table[f"{name}_high"] = low, high


def summarize(games: pd.DataFrame, by: str = "player") -> pd.DataFrame:
    """Aggregates of the per-game table, one row per player, event, variant or file.

    Columns: ``games``, ``wins`` and ``win_rate``; for each of oin, mars,
    home-mars, koks its count, ``<outcome>_rate`` and Wilson 95 % bounds
    ``<outcome>_low``/``_high``; ``first_mover_games``/``_wins``/``_rate``;
    ``mean_turns``, ``median_turns``, ``mean_pips_lost``. Every rate is over
    the row's games.

    With ``by="player"`` a player has a row for all games played as White or
    Black: wins are theirs, outcomes count *their wins* of that kind, the
    first-mover rate is their win rate in games they began and pips lost are
    their own. Otherwise wins are White's, outcomes count every game, the
    first-mover rate is the share of games the first mover won and pips lost
    are both sides'.
    """
    if by not in GROUPINGS:
        raise ValueError(f"unknown grouping {by!r}: expected one of {', '.join(GROUPINGS)}")
    view = _player_view(games) if by == "player" else _game_view(games, by)
    grouped = view.groupby("key", sort=False)
    table = pd.DataFrame({"games": grouped.size(), "wins": grouped["won"].sum()})
    _add_rate(table, "win", table["wins"], table["games"])
    for outcome in SCORED:
        table[outcome] = _flag(view["outcome"] == outcome).groupby(view["key"], sort=False).sum()
        _add_rate(table, outcome, table[outcome], table["games"])
    table["first_mover_games"] = grouped["first"].sum()
    table["first_mover_wins"] = grouped["first_won"].sum()
    _add_rate(table, "first_mover", table["first_mover_wins"], table["first_mover_games"])
    table["mean_turns"] = grouped["turns"].mean().astype(float)
    table["median_turns"] = grouped["turns"].median().astype(float)
    table["mean_pips_lost"] = grouped["pips_lost"].mean().astype(float)
    table.index.name = by
    return table.sort_values("games", ascending=False, kind="stable")


def outcome_counts(games: pd.DataFrame, by: str = "variant") -> pd.DataFrame:
    """How many games of each ``by`` group ended in each outcome (columns in :data:`OUTCOMES` order)."""
    table = pd.crosstab(games[by], games["outcome"])
    return table.reindex(columns=list(OUTCOMES), fill_value=0).rename_axis(index=by, columns=None)


# --- dice fairness -----------------------------------------------------------------------


def fair_rolls(turns: pd.DataFrame) -> pd.DataFrame:
    """The turns whose dice are a free roll: without first rolls that cannot be doubles."""
    return turns.loc[~_flag(turns["opening"])]


def dice_counts(turns: pd.DataFrame, by: str | None = "player", *, total: bool = False) -> pd.DataFrame:
    """Counts of the 21 roll classes per ``by`` value, or in one row ``all`` when ``by`` is None;
    with ``total``, the ``all`` row comes first and then the rows per ``by`` value."""
    rolls = fair_rolls(turns)
    dice = rolls["dice"].astype(int).to_numpy()  # "63" -> 63
    classes = pd.Series(np.maximum(dice // 10, dice % 10) * 10 + np.minimum(dice // 10, dice % 10),
                        index=rolls.index)
    keys = rolls[by].astype(object) if by else pd.Series("all", index=rolls.index, dtype=object)
    table = classes.groupby([keys, classes]).size().unstack(fill_value=0).rename(columns=str)
    table = table.reindex(columns=list(ROLL_CLASSES), fill_value=0)
    if not by:
        table = table.reindex(["all"], fill_value=0)
    elif total:
        table = pd.concat([dice_counts(turns, None), table])
    return table.rename_axis(index=by or "", columns=None)


def chi_square(observed: Any, probabilities: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Pearson's chi-square statistic and p-value of each row of ``observed`` counts (a 1-D
    sequence is one row) against ``probabilities``; NaN for a row with nothing observed."""
    counts = np.atleast_2d(np.asarray(observed, dtype=float))
    expected = counts.sum(axis=1, keepdims=True) * np.asarray(probabilities, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = ((counts - expected) ** 2 / expected).sum(axis=1)
    statistic[counts.sum(axis=1) == 0] = np.nan
    return statistic, scipy_stats.chi2.sf(statistic, df=counts.shape[1] - 1)


def dice_fairness(turns: pd.DataFrame, by: str | None = "player", *, total: bool = False) -> pd.DataFrame:
    """Whether each player's (or, with ``by=None``, all) dice look fair; with ``total``, the row
    ``all`` comes first and then one row per player.

    Columns: ``n`` rolls, ``doubles`` and ``doubles_rate`` (1/6 expected),
    chi-square and p-value of the 21 roll classes (``chi2_rolls``, ``p_rolls``,
    20 degrees of freedom) and of doubles against non-doubles (``chi2_doubles``,
    ``p_doubles``), and ``flagged`` when either p-value is below 0.01.
    """
    counts = dice_counts(turns, by, total=total)
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
