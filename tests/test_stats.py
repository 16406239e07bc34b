"""Statistics tables checked against values computed independently here."""
import io
import json
import math
import statistics
from collections import Counter
from pathlib import Path
from typing import cast

import pandas as pd
import pytest

from nardy_cli import notations
from nardy_cli.analysis.aggregates import (
    GROUPINGS,
    OUTCOMES,
    ROLL_CLASSES,
    Aggregates,
    GameStats,
    aggregate,
    game_row,
    game_stats,
    roll_class,
    summed,
    turn_rows,
)
from nardy_cli.analysis.selfplay import generate
from nardy_cli.analysis.validate import validate_games
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.replay import replay
from nardy_cli.reporting.labels import tr
from nardy_cli.reporting.stats import (
    chi_square,
    chi_square_survival,
    dice_counts,
    dice_fairness,
    dice_parts,
    fairness_display,
    fairness_parts,
    luck_parts,
    markdown_table,
    outcome_counts,
    outcomes_display,
    shortened,
    standings_parts,
    summarize,
    summary_display,
    wilson_interval,
)
from nardy_cli.run.corpus import CorpusGame, iter_games

PLAYERS = ("Ann", "Boris", "Chen")
GAMES = 6  # of each variant


def named_games(variant: str, count: int, seed: int):
    """Self-played games with three players taking turns as White and Black."""
    for index, record in enumerate(generate(Rules.preset(variant), count, seed)):
        record.tags["White"], record.tags["Black"] = PLAYERS[index % 3], PLAYERS[(index + 1) % 3]
        record.tags["Event"] = f"{variant} cup"
        yield record


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """(aggregates, replays, turn rows) of GAMES long and GAMES short games written to NTN files and read back."""
    folder = tmp_path_factory.mktemp("corpus")
    for variant, seed in (("long", 3), ("short", 4)):
        with open(folder / f"{variant}.ntn", "w", encoding="utf-8") as out:
            notations.notation("ntn").write_games(named_games(variant, GAMES, seed), out)
    paths = [str(folder / "long.ntn"), str(folder / "short.ntn")]
    pairs = list(validate_games(iter_games(paths, on_error=pytest.fail)))
    turns = pd.DataFrame([row for game, result in pairs for row in turn_rows(game, result)])
    return aggregate(pairs), [result for _, result in pairs], turns


@pytest.fixture(scope="module")
def per_game(corpus):
    """The :class:`GameStats` of each of the corpus' games, what :func:`summed` adds up."""
    _, replays, _ = corpus
    return [game_stats(CorpusGame(replay.record.source or "test.ntn", index, replay.record), replay)
            for index, replay in enumerate(replays, 1)]


def read_record(text: str):
    return next(notations.notation("ntn").read_games(io.StringIO(text), "test.ntn"))


def replayed(text: str):
    record = read_record(text)
    game = CorpusGame("test.ntn", 1, record)
    return game, replay(record)


SHORT_OPENING = """[White "Ann"]
[Black "Boris"]
[Variant "short"]

1. 31: 8/5 6/5                 62: 24/18 13/11
2. 66: 24/18(2) 13/7*(2)      *
"""


# --- per-game and per-turn rows -----------------------------------------------------------


def test_turn_rows_pips_of_a_known_game():
    game, result = replayed(SHORT_OPENING)
    rows = turn_rows(game, result)
    # 167 each at the start; 31 = 4 pips, 62 = 8 pips, 66 = 24 pips, and 13/7* hits Black's blot on
    # White's 7 (Black's 18), which goes back to the bar (25): 7 more pips for Black
    assert [(r["turn"], r["side"], r["player"], r["dice"]) for r in rows] == [
        (1, WHITE, "Ann", "31"), (2, BLACK, "Boris", "62"), (3, WHITE, "Ann", "66")]
    assert [(r["pips_white"], r["pips_black"], r["pip_lead"]) for r in rows] == [
        (163, 167, 4), (163, 159, -4), (139, 166, 27)]
    assert [r["opening"] for r in rows] == [True, False, False]
    assert all(r["legal"] for r in rows)


def test_game_row_of_an_unfinished_game():
    game, result = replayed(SHORT_OPENING)
    row = game_row(game, result)
    assert row["outcome"] == "unfinished" and row["winner"] is None and row["first_mover"] == WHITE
    assert (row["turns"], row["pips_white"], row["pips_black"]) == (3, 139, 166)
    assert (row["doubles_white"], row["doubles_black"], row["hits_white"], row["hits_black"]) == (1, 0, 1, 0)
    assert (row["passes_white"], row["pips_lost"], row["findings"]) == (0, 0, 0)
    assert (row["white"], row["black"], row["event"], row["variant"]) == ("Ann", "Boris", "?", "short")


def test_outcomes_resign_drop_and_an_illegal_turn():
    _, resigned = replayed('[Variant "long"]\n[Result "2-0"]\n\n1. 63: 24/18/15  resign 2\n2-0\n')
    _, dropped = replayed('[Variant "short"]\n[Result "0-1"]\n\n1. 31: 8/5 6/5  double 2\n2. drop\n0-1\n')
    game, illegal = replayed('[Variant "short"]\n\n1. 31: 8/5 6/5  62: 24/18 13/7\n2. 64: 24/18 13/9\n*\n')
    assert game_row(game, resigned)["outcome"] == "resign"
    assert game_row(game, dropped)["outcome"] == "drop"
    assert game_row(game, dropped)["winner"] == BLACK
    row = game_row(game, illegal)
    assert row["findings"] == 1 and row["outcome"] == "unfinished"


def test_passes_and_pips_lost_counted_per_side():
    # White is closed out: both of White's bar checkers face a full Black home board (Black's 1-6).
    position = "short w barx2,13x13 24x3,6x2,5x2,4x2,3x2,2x2,1x2"
    game, result = replayed(f'[Variant "short"]\n[Position "{position}"]\n\n1. 64: -  21: 24/22/21\n*\n')
    row = game_row(game, result)
    assert (row["passes_white"], row["pips_lost_white"]) == (1, 10)
    assert (row["passes_black"], row["pips_lost_black"], row["pips_lost"]) == (0, 0, 10)


# --- summaries ----------------------------------------------------------------------------


def test_outcome_counts_by_variant_match_the_replays(corpus):
    aggregates, replays, _ = corpus
    summary = summarize(aggregates, "variant")
    for variant in ("long", "short"):
        expected = Counter(r.category for r in replays if r.rules.variant == variant and r.ending == "finish")
        for category in ("oin", "mars", "home-mars", "koks"):
            assert summary.at[variant, category] == expected[category]
        assert summary.at[variant, "games"] == GAMES
        assert summary.at[variant, "wins"] == sum(r.winner == WHITE for r in replays if r.rules.variant == variant)
    counts = outcome_counts(aggregates, "variant")
    assert list(counts.columns) == list(OUTCOMES)
    assert counts.to_numpy().sum() == 2 * GAMES


@pytest.mark.parametrize("by", GROUPINGS)
def test_summing_one_grouping_gives_its_summary_and_keeps_no_other(per_game, by):
    alone, _, _ = summed(per_game, groupings=(by,))
    assert list(alone.groups) == [by]
    everything, _, _ = summed(per_game)
    assert summarize(alone, by).equals(summarize(everything, by))


def test_summing_without_the_standings_keeps_none_and_the_rest_is_the_same(per_game):
    without, _, _ = summed(per_game, standings=False)
    everything, _, _ = summed(per_game)
    assert without.standings is None and list(standings_parts(everything))
    with pytest.raises(ValueError, match="standings were not summed"):
        standings_parts(without)
    for by in GROUPINGS:
        assert summarize(without, by).equals(summarize(everything, by))
    assert [table.records() for table in fairness_parts(without, 0, None)] == [
        table.records() for table in fairness_parts(everything, 0, None)]
    assert [table.records() for table in luck_parts(without)] == [table.records() for table in luck_parts(everything)]


def test_summing_without_the_dice_keeps_no_rolls_nor_luck_and_the_rest_is_the_same(per_game):
    without, _, _ = summed(per_game, dice=False)
    everything, _, _ = summed(per_game)
    assert without.rolls is None and without.luck is None
    for parts in (lambda a: fairness_parts(a, 0, None), luck_parts, dice_parts):
        assert list(parts(everything))
        with pytest.raises(ValueError, match="dice were not summed"):
            list(parts(without))
    for by in GROUPINGS:
        assert summarize(without, by).equals(summarize(everything, by))
    assert [table.records() for table in standings_parts(without)] == [
        table.records() for table in standings_parts(everything)]


def test_player_summary_counts_every_game_as_white_or_black(corpus):
    aggregates, replays, _ = corpus
    summary = summarize(aggregates, "player")
    for player in PLAYERS:
        sides = [(r, side) for r in replays for side in (WHITE, BLACK) if r.record.player(side) == player]
        wins = [r for r, side in sides if r.winner == side]
        assert summary.at[player, "games"] == len(sides)
        assert summary.at[player, "wins"] == len(wins)
        for category in ("oin", "mars", "home-mars", "koks"):
            assert summary.at[player, category] == sum(r.category == category for r in wins)
        began = [(r, side) for r, side in sides if r.first_mover == side]
        assert summary.at[player, "first_mover_games"] == len(began)
        assert summary.at[player, "first_mover_wins"] == sum(r.winner == side for r, side in began)
        assert summary.at[player, "mean_turns"] == pytest.approx(sum(len(r.turns) for r, _ in sides) / len(sides))
    assert summary["games"].sum() == 2 * len(replays)


def test_first_mover_rate_and_lengths_by_event(corpus):
    aggregates, replays, _ = corpus
    summary = summarize(aggregates, "event")
    games = [r for r in replays if r.rules.variant == "short"]
    assert summary.at["short cup", "first_mover_wins"] == sum(r.winner == r.first_mover for r in games)
    assert summary.at["short cup", "median_turns"] == statistics.median(len(r.turns) for r in games)
    assert summary.at["short cup", "mean_pips_lost"] == pytest.approx(
        sum(t.pips_lost for r in games for t in r.turns) / len(games))


def test_unknown_grouping_is_refused(corpus):
    with pytest.raises(ValueError, match="unknown grouping"):
        summarize(corpus[0], "colour")
    with pytest.raises(ValueError, match="not 'player'"):
        outcome_counts(corpus[0], "player")


def test_wilson_interval_by_hand():
    z = 1.959963984540054
    k, n = 8, 10
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = wilson_interval([k, 0, 5], [n, 10, 5])
    assert (low[0], high[0]) == pytest.approx((centre - half, centre + half))
    assert (low[0], high[0]) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert low[1] == 0 and high[2] == 1


# --- dice fairness ------------------------------------------------------------------------


def rolled(rolls: dict[str, int], player: str = "Ann") -> GameStats:
    """A game in which ``player`` (White) rolled ``rolls`` (dice as text: count) and Black nothing."""
    counts = [0] * len(ROLL_CLASSES)
    for dice, count in rolls.items():
        counts[roll_class(int(dice[0]), int(dice[1]))] += count
    row = {"white": player, "black": "Nobody", "winner": None, "first_mover": WHITE, "outcome": "unfinished",
           "turns": sum(rolls.values()), "pips_lost_white": 0, "pips_lost_black": 0, "pips_lost": 0,
           "event": "?", "variant": "long", "file": "test.ntn", "findings": 0}
    return GameStats(row, {WHITE: tuple(counts), BLACK: (0,) * len(ROLL_CLASSES)})


def aggregated(*games: GameStats) -> Aggregates:
    aggregates = Aggregates()
    for game in games:
        aggregates.add(game)
    return aggregates


def chi_square_survival_even_df(statistic: float, df: int) -> float:
    """P(chi2 with an even df > statistic) = exp(-x/2) * sum_{i<df/2} (x/2)^i / i!."""
    half = statistic / 2
    return math.exp(-half) * sum(half ** i / math.factorial(i) for i in range(df // 2))


def test_chi_square_by_hand_on_a_fixed_dice_table():
    # 360 rolls: each class at its expectation except 66 (+10) and 21 (-10); "12" is a 21 written low first
    rolls = {roll: (10 if roll[0] == roll[1] else 20) for roll in ROLL_CLASSES}
    rolls["66"], rolls["21"] = 20, 5
    rolls["12"] = 5
    aggregates = aggregated(rolled(rolls))
    counts = dice_counts(aggregates, "Ann")
    assert counts.loc["Ann", "21"] == 10 and counts.loc["Ann", "66"] == 20 and counts.to_numpy().sum() == 360
    assert list(dice_counts(aggregates).index) == ["all"]
    assert list(dice_counts(aggregates, total=True).index) == ["all", "Ann"]  # Nobody never rolled
    by_hand = 10 ** 2 / 10 + 10 ** 2 / 20  # (20-10)²/10 for 66, (10-20)²/20 for 21
    fairness = dice_fairness(counts)
    assert fairness.at["Ann", "n"] == 360
    assert fairness.at["Ann", "chi2_rolls"] == pytest.approx(by_hand)
    assert fairness.at["Ann", "p_rolls"] == pytest.approx(chi_square_survival_even_df(by_hand, 20))
    doubles = 6 * 10 + 10  # 70 doubles where 60 are expected
    doubles_by_hand = (doubles - 60) ** 2 / 60 + (290 - 300) ** 2 / 300
    assert fairness.at["Ann", "doubles"] == doubles
    assert fairness.at["Ann", "chi2_doubles"] == pytest.approx(doubles_by_hand)
    assert fairness.at["Ann", "p_doubles"] == pytest.approx(math.erfc(math.sqrt(doubles_by_hand / 2)))
    assert not fairness.at["Ann", "flagged"]


def test_loaded_dice_are_flagged_and_n_is_shown():
    aggregates = aggregated(rolled({"66": 100, "31": 100}, "Loaded"),
                            rolled({roll: (10 if roll[0] == roll[1] else 20) for roll in ROLL_CLASSES}, "Fair"),
                            rolled({"66": 30, "31": 30}, "Few"))
    fairness = dice_fairness(dice_counts(aggregates, total=True))
    assert list(fairness.index) == ["all", "Fair", "Loaded", "Few"]
    assert bool(fairness.at["Loaded", "flagged"]) and not fairness.at["Fair", "flagged"]
    few_p = cast(float, fairness.at["Few", "p_rolls"])  # a float column (the stubs' .at gives any scalar)
    assert not fairness.at["Few", "flagged"] and few_p < 0.01  # 60 rolls: too few to tell
    assert fairness.at["Fair", "p_rolls"] == pytest.approx(1.0)
    shown = fairness_display(fairness)
    assert list(shown.columns[1:4]) == [tr("n"), tr("p_rolls"), tr("p_doubles")]  # n beside p
    assert shown.iloc[2][tr("n")] == 200 and shown.iloc[2][tr("flagged")] == "yes"
    assert shown.iloc[3][tr("flagged")] == "too few rolls (< 180)"
    assert fairness_display(fairness, "ru").iloc[3].iloc[-1] == "мало бросков (< 180)"
    assert list(shortened(fairness, min_rolls=100).index) == ["all", "Fair", "Loaded"]
    assert list(shortened(fairness, top=1).index) == ["all", "Fair"]


def test_a_player_named_all_is_not_taken_for_the_total():
    aggregates = aggregated(rolled({"66": 100, "31": 100}, "all"),
                            rolled({roll: (10 if roll[0] == roll[1] else 20) for roll in ROLL_CLASSES}, "Fair"))
    fairness = dice_fairness(dice_counts(aggregates, total=True))
    assert list(fairness.index) == ["all", "Fair", "all"]
    assert list(fairness["n"]) == [560, 360, 200]
    assert list(fairness_display(fairness)[tr("player")]) == [tr("all"), "Fair", "all"]
    assert list(shortened(fairness, top=1)["n"]) == [560, 360]
    assert list(shortened(fairness, top=2)["n"]) == [560, 360, 200]
    assert list(shortened(fairness, min_rolls=300)["n"]) == [560, 360]
    alone = dice_fairness(dice_counts(aggregates, "all"))  # the player's own row: no total
    assert list(fairness_display(alone)[tr("player")]) == ["all"]
    assert list(shortened(alone, min_rolls=300).index) == []


def test_stats_prints_a_player_named_all_under_their_name(tmp_path):
    from click.testing import CliRunner

    from nardy_cli.cli.main import cli

    record = tmp_path / "all.ntn"
    record.write_text(Path("sample_games/long/club-evening.ntn").read_text(encoding="utf-8")
                      .replace("Мамедов Т.", "all"), encoding="utf-8")
    printed = CliRunner().invoke(cli, ["stats", str(record), "-q", "--format", "md"]).output
    dice, luck = printed.split("## ")[2:4]
    for table in (dice, luck):
        names = [line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ")][1:]
        assert names[0] == tr("all") and "all" in names[1:] and names.count(tr("all")) == 1


@pytest.mark.slow
def test_stats_says_how_many_games_have_findings_and_can_leave_them_out():
    from click.testing import CliRunner

    from nardy_cli.cli.main import cli

    counted = CliRunner().invoke(cli, ["stats", "sample_games/long", "-q", "--format", "json", "--by", "variant"])
    assert "5 of 8 games have a finding: counted (--legal-only leaves them out)" in counted.output
    left_out = CliRunner().invoke(cli, ["stats", "sample_games/long", "-q", "--legal-only", "--top", "1",
                                        "--format", "json", "--by", "variant"])
    assert "5 of 8 games have a finding: left out (--legal-only)" in left_out.output
    body = json.loads(left_out.output[left_out.output.index("{"):])
    assert body["summary"][0]["games"] == 3 and len(body["dice"]) == 2  # all players and the top one


def test_opening_rolls_are_left_out_of_fairness(corpus):
    aggregates, _, turns = corpus
    opening = turns[turns["opening"]]
    assert len(opening) == GAMES  # the first roll of each short game
    assert set(opening["game"]) == set(range(1, GAMES + 1)) and (opening["turn"] == 1).all()
    assert set(opening["file"]) == {f for f in turns["file"] if f.endswith("short.ntn")}
    assert dice_counts(aggregates).to_numpy().sum() == len(turns) - GAMES
    free = turns[~turns["opening"]]
    by_player = Counter((player, ROLL_CLASSES[roll_class(int(d[0]), int(d[1]))])
                        for player, d in zip(free["player"], free["dice"]))
    counts = dice_counts(aggregates, total=True)
    assert {(p, c): n for p, row in counts.drop("all").iterrows() for c, n in row.items() if n} == by_player


def test_chi_square_survival_by_closed_forms_and_tables():
    for x in (0.3, 2.0, 7.5):
        assert chi_square_survival(x, 2) == pytest.approx(math.exp(-x / 2))
        assert chi_square_survival(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)))
        assert chi_square_survival(x, 3) == pytest.approx(
            math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2))
    # the 5 % and 1 % critical values of printed chi-square tables
    assert chi_square_survival(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert chi_square_survival(31.410433, 20) == pytest.approx(0.05, abs=1e-6)
    assert chi_square_survival(37.566235, 20) == pytest.approx(0.01, abs=1e-6)
    assert chi_square_survival(0.0, 20) == 1.0 and chi_square_survival(1e7, 20) == 0.0
    assert math.isnan(chi_square_survival(math.nan, 1))


def test_chi_square_of_nothing_is_nan():
    statistic, p_value = chi_square([0, 0], [0.5, 0.5])
    assert math.isnan(statistic[0]) and math.isnan(p_value[0])


# --- labels -------------------------------------------------------------------------------


def test_russian_labels(corpus):
    aggregates, _, _ = corpus
    text = summary_display(summarize(aggregates, "variant"), "ru").to_string()
    for term in ("оин", "марс", "домашний марс", "кокс", "партии", "длинные нарды", "короткие нарды"):
        assert term in text
    outcomes = outcomes_display(outcome_counts(aggregates, "variant"), "ru").to_string()
    for term in ("сдача", "отказ от удвоения", "ничья", "не окончена"):
        assert term in outcomes
    assert tr("to_move", "ru", side=tr("black", "ru")) == "ход: чёрные"
    assert tr("no-such-label", "ru") == "no-such-label"


def hand_game(winner: str | None, outcome: str, turns: int, first_mover: str | None = WHITE, **row) -> GameStats:
    base = {"white": "A", "black": "B", "winner": winner, "first_mover": first_mover, "outcome": outcome,
            "turns": turns, "pips_lost_white": 0, "pips_lost_black": 3, "pips_lost": 3, "event": "cup",
            "variant": "long", "file": "hand.ntn", "findings": 0}
    return GameStats({**base, **row}, {WHITE: (0,) * 21, BLACK: (0,) * 21})


def test_summary_display_cells_show_rate_and_interval():
    games = [hand_game(WHITE, "mars", 50)] * 8 + [hand_game(BLACK, "oin", 50)] * 2
    shown = summary_display(summarize(aggregated(*games), "player")).set_index("player")
    assert shown.at["A", "mars"] == "8 (80.0% [49.0–94.3])"
    assert shown.at["B", "oin"] == "2 (20.0% [5.7–51.0])"
    assert shown.at["A", "win %"] == "80.0%" and shown.at["B", "mean pips lost"] == "3.0"


def test_summary_figures_by_hand():
    games = [hand_game(WHITE, "oin", 40), hand_game(BLACK, "koks", 61, first_mover=BLACK),
             hand_game(None, "unfinished", 10, first_mover=None), hand_game(WHITE, "mars", 45, event="open"),
             hand_game(None, "draw", 80, first_mover=None, white="C")]
    aggregates = aggregated(*games)
    player = summarize(aggregates, "player")
    assert list(player.index) == ["B", "A", "C"]  # the busiest first, ties in order of appearance
    assert player.loc["A", ["games", "wins", "oin", "mars", "koks"]].tolist() == [4, 2, 1, 1, 0]
    columns = ["games", "wins", "koks", "first_mover_games", "first_mover_wins"]
    assert player.loc["B", columns].tolist() == [5, 1, 1, 1, 1]
    assert player.at["B", "median_turns"] == 45 and player.at["A", "median_turns"] == (40 + 45) / 2
    assert player.at["B", "mean_turns"] == pytest.approx((40 + 61 + 10 + 45 + 80) / 5)
    event = summarize(aggregates, "event")
    assert event.loc["cup", ["games", "wins", "first_mover_games", "first_mover_wins"]].tolist() == [4, 1, 2, 2]
    assert event.at["cup", "median_turns"] == (40 + 61) / 2 and event.at["cup", "mean_pips_lost"] == 3
    counts = outcome_counts(aggregates, "event")
    assert list(counts.index) == ["cup", "open"] and counts.loc["cup"].sum() == 4
    assert counts.loc["cup", ["oin", "koks", "unfinished", "draw"]].tolist() == [1, 1, 1, 1]
    assert (aggregates.games, aggregates.turns, len(aggregates.groups["file"])) == (5, 236, 1)
    assert aggregates.lengths("event")["open"] == Counter({45: 1})


def test_markdown_table():
    table = pd.DataFrame({"a": [1, None], "b|c": ["x", "y"]})
    assert markdown_table(table) == "| a | b\\|c |\n|---|---|\n| 1.0 | x |\n|  | y |"
