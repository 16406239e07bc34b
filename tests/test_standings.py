"""Standings of events and the Buchholz score, against hand-computed tables."""
import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_cli.analysis import groups as grouping
from nardy_cli.analysis.standings import STANDINGS_COLUMNS, Standings
from nardy_cli.cli.main import cli
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.matches import Match
from support.memory import assert_flat_memory


def match(first: str, second: str, winner: str | None, event: str = "Swiss open") -> Match:
    return Match("swiss.ntn", (first, second), 3, 1, games=2, winner=winner, event=event)


def game(white: str, black: str, winner: str | None, points: int, event: str = "Swiss open") -> dict:
    return {"event": event, "white": white, "black": black, "winner": winner, "points": points}


def test_buchholz_of_a_small_swiss_table_by_hand():
    standings = Standings()
    # round 1: Ann beats Boris, Chen beats Dina; round 2: Ann beats Chen, Boris beats Dina;
    # round 3: Ann beats Dina, Boris beats Chen: match wins Ann 3, Boris 2, Chen 1, Dina 0
    for first, second in (("Ann", "Boris"), ("Chen", "Dina"), ("Ann", "Chen"), ("Boris", "Dina"),
                          ("Ann", "Dina"), ("Boris", "Chen")):
        standings.add_match(match(first, second, first))
    standings.add_match(match("Ann", "Eve", None))  # unfinished: no win, no Buchholz
    rows = {row["player"]: row for row in standings.rows()}
    # Buchholz: Ann's opponents Boris 2 + Chen 1 + Dina 0 = 3; Boris's: Ann 3 + Dina 0 + Chen 1 = 4;
    # Chen's: Dina 0 + Ann 3 + Boris 2 = 5; Dina's: Chen 1 + Boris 2 + Ann 3 = 6
    assert {name: (row["match_wins"], row["matches"], row["buchholz"]) for name, row in rows.items()} == {
        "Ann": (3, 3, 3), "Boris": (2, 3, 4), "Chen": (1, 3, 5), "Dina": (0, 3, 6), "Eve": (0, 0, 0)}
    assert (rows["Ann"]["unfinished"], rows["Eve"]["unfinished"], rows["Dina"]["match_losses"]) == (1, 1, 3)
    assert [row["player"] for row in standings.rows()] == ["Ann", "Boris", "Chen", "Dina", "Eve"]


def test_ties_broken_by_buchholz_then_points_and_shared_ranks():
    standings = Standings()
    # Ann beats Boris and Chen; Boris beats Dina; Chen beats Dina: Boris and Chen both 1 win, Buchholz 2 + 0
    for first, second in (("Ann", "Boris"), ("Chen", "Dina"), ("Ann", "Chen"), ("Boris", "Dina")):
        standings.add_match(match(first, second, first))
    standings.add_game(game("Boris", "Dina", WHITE, 3))
    standings.add_game(game("Chen", "Dina", WHITE, 2))
    standings.add_game(game("Chen", "Dina", BLACK, 1))
    standings.add_game(game("Chen", "Ann", None, 0))  # no winner: counted nowhere
    rows = list(standings.rows())
    assert [(row["rank"], row["player"]) for row in rows] == [(1, "Ann"), (2, "Boris"), (3, "Chen"), (4, "Dina")]
    chen = rows[2]
    assert (chen["games_won"], chen["games_lost"], chen["points_won"], chen["points_lost"]) == (1, 1, 2, 1)
    standings.add_game(game("Chen", "Ann", WHITE, 2))  # now Boris (+3) and Chen (+4-1) are level on every key
    assert [row["rank"] for row in standings.rows()] == [1, 2, 2, 4]


def test_events_apart():
    standings = Standings()
    standings.add_match(match("Ann", "Boris", "Ann", event="Cup"))
    standings.add_match(match("Ann", "Boris", "Boris", event="League"))
    assert [(row["event"], row["player"], row["match_wins"]) for row in standings.rows()] == [
        ("Cup", "Ann", 1), ("Cup", "Boris", 0), ("League", "Boris", 1), ("League", "Ann", 0)]


@pytest.mark.slow
def test_standings_of_the_tournament_match(runner, tournament_mat):
    result = runner.invoke(cli, ["stats", "--standings", "--format", "csv", "-q", tournament_mat])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    # the 7-point match of HSBT Paris 2023: Unger wins it 7-4
    assert [(r["player"], r["rank"], r["match_wins"], r["points_won"], r["points_lost"]) for r in rows] == [
        ("Kévin Unger", "1", "1", "7", "4"), ("Maxence Job", "2", "0", "4", "7")]
    assert rows[0]["event"] == "HSBT Paris 2023" and int(rows[0]["games_won"]) > int(rows[1]["games_won"])


@pytest.mark.slow
def test_report_has_the_standings_and_the_luck(runner, tournament_mat, tmp_path):
    out = tmp_path / "report"
    result = runner.invoke(cli, ["stats", "-q", "--out", str(out), tournament_mat])
    assert result.exit_code == 0, result.output
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<h2>Standings</h2>" in page and "Buchholz" in page and "<h2>Luck</h2>" in page
    standings = list(csv.DictReader((out / "standings.csv").open(encoding="utf-8")))
    assert [row["player"] for row in standings] == ["Kévin Unger", "Maxence Job"]
    luck = list(csv.DictReader((out / "luck.csv").open(encoding="utf-8")))
    assert luck[0]["player"] == "all" and int(luck[0]["rolls"]) > 300


# --- spooled standings, against the same standings held in memory ------------------------------

names = st.sampled_from("abcdef")
happenings = st.one_of(
    st.tuples(st.just("game"), st.sampled_from("XY"), names, names, st.sampled_from([WHITE, BLACK, None]),
              st.integers(0, 3)),
    st.tuples(st.just("match"), st.sampled_from("XY"), names, names, st.sampled_from([0, 1, None]), st.just(0)))


def held_standings(log: list[tuple]) -> list[dict]:
    """The standings of ``log`` as a plain reading of the rules (module docstring) gives them."""
    events: dict[str, dict[str, dict]] = {}
    for kind, event, first, second, winner, points in log:
        players = events.setdefault(event, {})
        for name in (first, second):
            players.setdefault(name, dict.fromkeys(("matches", "match_wins", "unfinished", "games_won",
                                                    "games_lost", "points_won", "points_lost"), 0) | {"met": []})
        if kind == "game" and winner is not None:
            for side, name in ((WHITE, first), (BLACK, second)):
                result = "won" if winner == side else "lost"
                players[name][f"games_{result}"] += 1
                players[name][f"points_{result}"] += points
        elif kind == "match":
            for name, opponent in ((first, second), (second, first)):
                if winner is None:
                    players[name]["unfinished"] += 1
                else:
                    players[name]["matches"] += 1
                    players[name]["match_wins"] += (first, second)[winner] == name
                    players[name]["met"].append(opponent)
    rows = []
    for event, players in events.items():
        ranked = [dict(standing, event=event, player=name,
                       buchholz=sum(players[opponent]["match_wins"] for opponent in standing["met"]))
                  for name, standing in players.items()
                  if standing["matches"] or standing["unfinished"] or standing["games_won"] or standing["games_lost"]]
        ranked.sort(key=lambda row: (row["match_wins"], row["buchholz"], row["points_won"] - row["points_lost"]),
                    reverse=True)
        for place, row in enumerate(ranked, 1):
            level = place > 1 and all(row[key] == ranked[place - 2][key] for key in ("match_wins", "buchholz"))
            level = level and row["points_won"] - row["points_lost"] == (ranked[place - 2]["points_won"]
                                                                           - ranked[place - 2]["points_lost"])
            row["rank"] = ranked[place - 2]["rank"] if level else place
            row["match_losses"] = row["matches"] - row["match_wins"]
            rows.append({column: row[column] for column in STANDINGS_COLUMNS})
    return rows


@settings(max_examples=300, deadline=None)
@given(st.lists(happenings, max_size=50), st.sampled_from([1, 2, 3, None]), st.sampled_from([1, 2, 5]))
def test_spooled_standings_are_the_held_ones(log, kept, run):
    original = grouping.GROUPS_KEPT
    grouping.GROUPS_KEPT = run  # the runs of the sorts
    try:
        standings = Standings(kept)
        for kind, event, first, second, winner, points in log:
            if first == second:
                continue
            if kind == "game":
                standings.add_game(game(first, second, winner, points, event))
            else:
                standings.add_match(match(first, second, None if winner is None else (first, second)[winner], event))
        played = [entry for entry in log if entry[2] != entry[3]]
        assert list(standings.rows()) == held_standings(played)
        assert list(standings.rows()) == held_standings(played)  # read again
    finally:
        grouping.GROUPS_KEPT = original


def test_memory_of_the_standings_does_not_grow_with_their_players_or_events(monkeypatch):
    """Five times the players, each meeting others in matches, take no more memory; nor do five
    times the events (a server may give each match an event of its own)."""
    def fill_and_read(players: int, events: int) -> None:
        standings = Standings(grouping.GROUPS_KEPT)
        for number in range(players):
            first, second = f"player {number}", f"player {(number * 7 + 3) % players}"
            event = f"Online {number % events}"
            standings.add_match(match(first, second, first, event=event))
            standings.add_game(game(first, second, WHITE, 2, event=event))
        assert sum(row["match_wins"] for row in standings.rows()) == players

    assert_flat_memory(monkeypatch, lambda players: fill_and_read(players, 1))
    assert_flat_memory(monkeypatch, lambda players: fill_and_read(players, players))
