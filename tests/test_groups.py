"""The groups of the statistics held in memory up to a bound and spooled past it
(:class:`~nardy_cli.analysis.groups.Groups`): the same sums, order and report as when all are
held, in memory that does not grow with the number of groups."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from locations import SAMPLES
from nardy_cli.analysis import groups as grouping
from nardy_cli.analysis.aggregates import ROLL_CLASSES, Aggregates, GroupTotals, busiest_first
from nardy_cli.analysis.groups import Groups
from nardy_cli.cli.main import cli
from nardy_cli.files import spool
from nardy_cli.reporting import plain, report, stats
from support.memory import assert_flat_memory

games = st.tuples(st.sampled_from("abcdefg"), st.booleans(), st.sampled_from(["oin", "mars", None]), st.booleans(),
                  st.integers(1, 90), st.integers(0, 40), st.booleans())


def count(groups: Groups, played: list[tuple]) -> None:
    for key, won, outcome, first, turns, pips_lost, crazy in played:
        totals = groups.totals(key)
        totals.add(won, outcome, first, first and won, turns, pips_lost)
        if crazy:
            totals.add_cascades({"cascades": turns % 3, "steps_passed": pips_lost % 5, "pips_passed": pips_lost})


def sums(pairs) -> list[tuple]:
    return [(key, totals.record()) for key, totals in pairs]


@settings(max_examples=300, deadline=None)
@given(st.lists(games, max_size=60), st.sampled_from([1, 2, 3, 1000]), st.sampled_from([1, 2, 5]), st.integers(0, 60))
def test_spooled_groups_sum_and_order_as_held_ones(played, kept, run, cut):
    held, spooled = Groups(GroupTotals), Groups(GroupTotals, kept)
    count(held, played)
    original = grouping.GROUPS_KEPT
    grouping.GROUPS_KEPT = run  # the runs of the sorts, too
    try:
        count(spooled, played[:cut])
        assert len(spooled) == len({key for key, *_ in played[:cut]})  # read once (respooled), then more come
        count(spooled, played[cut:])
        for key, totals in held.items():
            found = spooled.get(key)
            assert found is not None and found.record() == totals.record()
        assert spooled.get("z") is None
        assert sums(spooled.items()) == sums(held.items())
        assert sums(spooled.ordered(busiest_first)) == sums(held.ordered(busiest_first))
        assert sums(spooled.in_key_order()) == sums(held.in_key_order()) == sorted(sums(held.items()))
        assert len(spooled) == len(held) == len({key for key, *_ in played})
        assert [totals.record() for totals in spooled.values()] == [totals.record() for totals in held.values()]
        assert sorted(repr(totals.record()) for totals in spooled.unordered()) == sorted(
            repr(totals.record()) for totals in held.values())
    finally:
        grouping.GROUPS_KEPT = original


def test_the_busiest_come_first_ties_in_the_order_they_came():
    groups = Groups(GroupTotals, 2)
    for key in "abcbdcc":
        groups.totals(key).add(True, "oin", True, True, 10, 1)
    busiest = [(key, totals.games) for key, totals in groups.ordered(busiest_first)]
    assert busiest == [("c", 3), ("b", 2), ("a", 1), ("d", 1)]
    assert [key for key, _ in groups.items()] == list("abcd")


def test_a_group_merged_from_its_parts_is_the_group():
    whole, first, second = GroupTotals(), GroupTotals(), GroupTotals()
    for index, part in enumerate([first, first, second, first, second]):
        for totals in (whole, part):
            totals.add(index % 2 == 0, "mars" if index else None, index < 3, index == 0, 20 + index, index)
    merged = GroupTotals()
    merged.merge(first.record())
    merged.merge(second.record())
    assert merged.record() == whole.record() and merged.median_turns() == whole.median_turns()


def test_the_first_reading_merges_the_sorted_runs_spooled_and_writes_only_the_sums(monkeypatch):
    monkeypatch.setattr(grouping, "GROUPS_KEPT", 10)  # runs of 10 parts
    groups = Groups(GroupTotals, 10)
    for number in range(200):
        groups.totals(f"player {number * 7 % 50:02}").add(True, "oin", True, True, 40, 7)
    written: list[object] = []
    write = spool.Spool._write

    def recorded(kept: spool.Spool, block: list[object]) -> None:
        written.extend(block)
        write(kept, block)

    monkeypatch.setattr(spool.Spool, "_write", recorded)
    assert [(key, totals.games) for key, totals in groups.in_key_order()] == [
        (f"player {number:02}", 4) for number in range(50)]
    assert [key for key, _ in groups.in_key_order()] == [f"player {number:02}" for number in range(50)]
    assert len(written) == 50  # a record a key, once; the 200 parts were sorted as they were spooled
    assert [totals.games for totals in groups.values()] == [4] * 50


def test_memory_does_not_grow_with_the_number_of_groups(monkeypatch):
    """Five times the groups take no more memory, held or read back in either order."""
    def fill_and_read(keys: int) -> None:
        groups = Groups(GroupTotals, grouping.GROUPS_KEPT)
        for number in range(keys):
            groups.totals(f"file-{number}.txt").add(True, "oin", True, True, 40 + number % 30, 7)
        assert sum(totals.games for _, totals in groups.ordered(busiest_first)) == keys
        assert sum(totals.games for totals in groups.values()) == len(groups) == keys

    assert_flat_memory(monkeypatch, fill_and_read)


def test_the_statistics_tables_of_many_players_take_no_more_memory(monkeypatch):
    """Five times the players take no more memory in the dice, fairness and summary tables by player:
    their parts are made one at a time (compiled too, where a generator expression is made a list
    first). The luck's groups have their own test (test_player_luck.py)."""
    monkeypatch.setattr(stats, "PART_ROWS", 50)

    def fill_and_read(players: int) -> None:
        aggregates = Aggregates(["player"])
        assert aggregates.rolls is not None
        for number in range(2 * players):
            name = f"player-{number % players}"
            aggregates.rolls.totals(name).add([number % 3] * len(ROLL_CLASSES))
            aggregates.groups["player"].totals(name).add(True, "oin", True, True, 40, 7)
        for parts in (stats.fairness_parts(aggregates), stats.dice_parts(aggregates)):
            assert sum(len(part) for part in parts) == players + 1  # and the row "all"
        assert sum(len(part) for part in stats.summary_parts(aggregates, "player")) == players

    fill_and_read(100)  # what is made once (labels, caches) is not counted against the first size
    assert_flat_memory(monkeypatch, fill_and_read)


def report_files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.mark.slow
def test_the_report_and_printed_tables_are_the_same_when_the_groups_are_spooled(tmp_path, monkeypatch):
    corpus = str(SAMPLES)
    runner = CliRunner()
    held = runner.invoke(cli, ["stats", "-q", "-j", "1", corpus, "--out", str(tmp_path / "held")])
    printed = {(by, fmt): runner.invoke(cli, ["stats", "-q", "-j", "1", corpus, "--by", by, "--format", fmt]).output
               for by in ("file", "match", "player") for fmt in ("table", "csv", "json", "md")}
    monkeypatch.setattr(grouping, "GROUPS_KEPT", 2)
    monkeypatch.setattr(stats, "PART_ROWS", 2)
    monkeypatch.setattr(report, "INPUT_PART_ROWS", 2)
    monkeypatch.setattr(plain, "TEXT_LINES", 2)
    monkeypatch.setattr(spool, "MEMORY_BYTES", 1)
    spooled = runner.invoke(cli, ["stats", "-q", "-j", "1", corpus, "--out", str(tmp_path / "spooled")])
    said = spooled.output.replace(str(tmp_path / "spooled"), str(tmp_path / "held"))
    assert (spooled.exit_code, said) == (held.exit_code, held.output)
    files = report_files(tmp_path / "held")
    assert files["summary_by_file.csv"].count(b"\n") > 5 and b"<table" in files["report.html"]
    assert report_files(tmp_path / "spooled") == files
    for (by, fmt), text in printed.items():
        assert runner.invoke(cli, ["stats", "-q", "-j", "1", corpus, "--by", by, "--format", fmt]).output == text
