"""Ratings: the FIBS formula and Elo against hand-computed changes, and nardy rate."""
import csv
import io
import json
import math
import random

import pytest

from nardy_cli.analysis import ratings as ratings_module
from nardy_cli.analysis.ratings import (
    RATING_COLUMNS,
    PlayerRating,
    Ratings,
    Result,
    date_key,
    elo_expected,
    experience_factor,
    fibs_change,
    fibs_win_probability,
    in_date_order,
    match_result,
)
from nardy_cli.cli.main import cli
from nardy_cli.reporting import stats
from nardy_cli.reporting.printed import format_ratings
from support.memory import assert_flat_memory


def test_fibs_rating_change_of_known_matches_by_hand():
    # FIBS's own example: a 1-point match between equals moves each rating by 4 · √1 · 0.5 = 2
    assert fibs_change(1500, 1500, 1) == pytest.approx(2)
    # 1600 beats 1500 in a 7-point match: D·√n/2000 = 100·√7/2000 = 0.132288, P(1500 wins) =
    # 1/(1 + 10^0.132288) = 1/2.356087 = 0.424433, so the winner gains 4·√7·0.424433 = 4.491772
    assert fibs_win_probability(1500, 1600, 7) == pytest.approx(0.424433, abs=1e-6)
    assert fibs_change(1600, 1500, 7) == pytest.approx(4.491772, abs=1e-5)
    # the upset: 1500 beats 1600 and gains 4·√7·0.575567 = 6.091233
    assert fibs_change(1500, 1600, 7) == pytest.approx(6.091233, abs=1e-5)
    assert (experience_factor(0), experience_factor(250), experience_factor(400), experience_factor(900)) == (
        5, 2.5, 1, 1)


def test_experience_factor_applies_to_each_player_and_experience_grows_by_length():
    ratings = Ratings()
    ratings.players["Old"] = old = ratings.player("Old")
    old.experience = 1000
    ratings.add_match(Result("2024.01.01", "New", "Old", 5))
    change = 4 * math.sqrt(5) * 0.5  # 4.472136
    assert ratings.players["New"].rating == pytest.approx(1500 + 5 * change)  # a new player: five times
    assert old.rating == pytest.approx(1500 - change)
    assert (ratings.players["New"].experience, old.experience) == (5, 1005)
    assert [row["change"] for row in ratings.history or ()] == pytest.approx([5 * change, -change])


def test_results_rated_in_date_order():
    results = [Result("2024.03.01", "Ann", "Boris", 3), Result("", "Chen", "Ann", 1),
               Result("2024-01-15", "Boris", "Ann", 3)]
    history = list(Ratings().rate(results).history or ())
    assert [row["date"] for row in history[::2]] == ["2024-01-15", "2024.03.01", ""]


@pytest.mark.parametrize("run", [1, 2, 3, 1000])
def test_results_in_date_order_are_sorted_runs_merged_as_sorted_sorts_them(run, monkeypatch):
    monkeypatch.setattr(ratings_module, "RUN_RESULTS", run)
    dates = ["2024.03.01", "", "2024-01-15", "2024/01/15", "2023.12.31", "", "2024.03.01", "2024.01.15"]
    results = [Result(date, f"W{index}", f"L{index}", index % 3) for index, date in enumerate(dates * 3)]
    assert list(in_date_order(results)) == sorted(results, key=lambda result: date_key(result.date))
    assert list(in_date_order([])) == []


def test_elo_of_single_games_by_hand():
    ratings = Ratings(elo_k=32)
    ratings.add_game(Result("", "Ann", "Boris", 0))
    assert ratings.players["Ann"].elo == 1516 and ratings.players["Boris"].elo == 1484
    # then Boris (1484) beats Ann (1516): expected 1/(1 + 10^(32/400)) = 0.454078, gain 32 · 0.545922 = 17.4695
    assert elo_expected(1484, 1516) == pytest.approx(0.454078, abs=1e-6)
    ratings.add_game(Result("", "Boris", "Ann", 0))
    assert ratings.players["Boris"].elo == pytest.approx(1484 + 17.4695, abs=1e-4)
    assert ratings.players["Ann"].rating == 1500 and ratings.players["Ann"].games == 2


def test_unfinished_matches_are_not_rated():
    row = {"player1": "Ann", "player2": "Boris", "winner": None, "complete": False, "date": "", "length": 5}
    assert match_result(row) is None
    assert match_result({**row, "winner": "Boris", "complete": True}) == Result("", "Boris", "Ann", 5)


def test_ratings_rank_by_fibs_rating_then_elo_ties_in_the_order_the_players_came():
    ratings = Ratings(players={"Cleo": PlayerRating(rating=1500, elo=1510), "Boris": PlayerRating(rating=1520),
                               "Ann": PlayerRating(rating=1500, elo=1510), "Dan": PlayerRating(rating=1500, elo=1520)})
    assert [row["player"] for row in ratings.rows()] == ["Boris", "Dan", "Cleo", "Ann"]
    assert tuple(next(ratings.rows())) == RATING_COLUMNS


def random_ratings(players: int, seed: int = 5) -> Ratings:
    rng = random.Random(seed)
    names = [f"player {number}" for number in range(players)]
    pairs = [rng.sample(names, 2) for _ in range(3 * players)]
    return Ratings(history=None).rate(Result(f"2026-01-{rng.randint(1, 28):02}", winner, loser, rng.choice([0, 1, 5]))
                                      for winner, loser in pairs)


@pytest.mark.parametrize("output_format", ["table", "md", "csv", "json"])
def test_ratings_printed_a_part_at_a_time_are_the_whole_table(monkeypatch, output_format):
    ratings = random_ratings(30)
    whole = "".join(format_ratings(ratings.rows(), output_format, "ru"))
    if output_format == "json":
        assert whole == json.dumps(list(ratings.rows()), ensure_ascii=False, indent=2)
    if output_format == "csv":
        assert list(csv.DictReader(io.StringIO(whole))) == [
            {column: str(value) for column, value in row.items()} for row in ratings.rows()]
    monkeypatch.setattr(stats, "PART_ROWS", 4)
    assert "".join(format_ratings(ratings.rows(), output_format, "ru")) == whole


def test_printing_the_ratings_of_many_players_takes_no_more_memory(monkeypatch):
    monkeypatch.setattr(stats, "PART_ROWS", 50)

    def fill_and_read(players: int) -> None:
        for output_format in ("table", "md", "csv", "json"):
            rows = ({"player": f"player {number}", "rating": 1500.0 + number % 7, "experience": number,
                     "matches": 1, "match_wins": 1, "elo": 1500.0, "games": 0, "game_wins": 0}
                    for number in range(players))
            for _ in format_ratings(rows, output_format, "en"):
                pass

    fill_and_read(100)  # what is made once (labels, caches) is not counted against the first size
    assert_flat_memory(monkeypatch, fill_and_read)


@pytest.mark.slow
def test_rate_the_tournament_match(runner, tournament_mat, tmp_path):
    history = tmp_path / "history.csv"
    result = runner.invoke(cli, ["rate", "-q", "--format", "csv", "--history", str(history),
                                      "--chart", str(tmp_path / "ratings.png"), tournament_mat])
    assert result.exit_code == 0, result.output
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(result.stdout))}
    # a 7-point match between newcomers: 5 · 4 · √7 · 0.5 = 26.457513 each way
    assert float(rows["Kévin Unger"]["rating"]) == pytest.approx(1500 + 10 * math.sqrt(7))
    assert float(rows["Maxence Job"]["rating"]) == pytest.approx(1500 - 10 * math.sqrt(7))
    assert rows["Kévin Unger"]["experience"] == "7" and rows["Kévin Unger"]["match_wins"] == "1"
    assert len(list(csv.DictReader(history.open(encoding="utf-8")))) == 2
    assert (tmp_path / "ratings.png").read_bytes().startswith(b"\x89PNG")
