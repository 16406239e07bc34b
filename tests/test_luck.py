"""Luck without an engine and the one-sided bear-off table, against hand-computed cases."""
import io
import math
import os
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gnubg_judge import gnubg_module, require_gnubg_module
from nardy_cli import notations
from nardy_cli.analysis import bearoff
from nardy_cli.analysis.aggregates import aggregate, game_row, turn_rows
from nardy_cli.analysis.luck import EXPECTED_PIPS, game_luck, race_home, roll_pips
from nardy_cli.core.engine import Engine
from nardy_cli.core.position import Position
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.replay import replay
from nardy_cli.reporting.stats import luck_display, luck_table, mean_interval
from nardy_cli.run.corpus import CorpusGame


def replayed(text: str):
    record = next(notations.notation("ntn").read_games(io.StringIO(text), "test.ntn"))
    return CorpusGame("test.ntn", 1, record), replay(record)


# --- the bear-off table ----------------------------------------------------------------------


def test_expected_rolls_of_small_positions_by_hand():
    table = bearoff.table()
    assert len(table) == 54_264  # C(21, 6): 0-15 checkers on six points
    assert table.rolls((0,) * 6) == 0
    assert table.rolls((1, 0, 0, 0, 0, 0)) == table.rolls((0, 1, 0, 0, 0, 0)) == table.rolls((2, 0, 0, 0, 0, 0)) == 1
    assert table.rolls((0, 0, 1, 0, 0, 0)) == 1  # every roll moves 3 pips or more
    # one checker on 5: 21, 31 (4 of 36) and 11 (4 pips) leave it on the board, and the next roll bears it off
    assert table.rolls((0, 0, 0, 0, 1, 0)) == pytest.approx(1 + 5 / 36)
    # on 6: 21, 31, 41, 32 (8 of 36) and 11 fail
    assert table.rolls((0, 0, 0, 0, 0, 1)) == pytest.approx(1 + 9 / 36)
    # three or four checkers on the ace point: only a double (1/6) bears them all off at once
    assert table.rolls((3, 0, 0, 0, 0, 0)) == table.rolls((4, 0, 0, 0, 0, 0)) == pytest.approx(1 + 5 / 6)
    assert table.rolls((0, 0, 0, 1, 0, 0)) == pytest.approx(1 + 2 / 36)  # only 21 fails (11 is four pips)


def test_luck_of_rolls_from_one_checker_on_six():
    table = bearoff.table()
    home = (0, 0, 0, 0, 0, 1)
    assert table.luck(home, (6, 5)) == pytest.approx(0.25)  # off: 0 rolls left instead of 0.25 on average
    assert table.luck(home, (1, 1)) == pytest.approx(-0.75)  # 11 leaves it on the 2 point: one more roll
    # the luck of the 36 rolls averages to zero
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    assert sum(table.luck((2, 0, 3, 1, 0, 4), roll) for roll in rolls) / 36 == pytest.approx(0, abs=1e-12)


@pytest.mark.slow
def test_table_is_cached_on_disk_and_rebuilt_when_damaged(tmp_path, monkeypatch):
    """Built once and written; read back, not built again; built again when the file is damaged.
    Told apart by the file's writes (compiled, the module's own calls cannot be replaced)."""
    monkeypatch.setenv("NARDY_CACHE_DIR", str(tmp_path))
    bearoff.table.cache_clear()
    try:
        assert len(bearoff.table()) == 54_264
        path = bearoff.cache_path()
        assert path.parent == tmp_path and os.path.getsize(path) == 8 * 22 * 54_264
        written = path.stat().st_mtime_ns
        bearoff.table.cache_clear()
        assert bearoff.table().rolls((0, 0, 0, 0, 0, 1)) == pytest.approx(1.25)  # read back
        assert path.stat().st_mtime_ns == written
        path.write_bytes(path.read_bytes()[:100])
        bearoff.table.cache_clear()
        assert len(bearoff.table()) == 54_264 and os.path.getsize(path) == 8 * 22 * 54_264  # built, written again
        assert bearoff.table().rolls((0, 0, 0, 0, 0, 1)) == pytest.approx(1.25)
    finally:
        bearoff.table.cache_clear()


def _gnubg_one_sided_database() -> bytes:
    """GNU Backgammon's one-sided bear-off database, ``gnubg_os0.bd`` (its PyPI module's, else Debian's)."""
    folders = [Path(gnubg_module.__file__).parent / "data"] if gnubg_module else []
    for folder in [*folders, Path("/usr/share/gnubg")]:
        if (folder / "gnubg_os0.bd").is_file():
            return (folder / "gnubg_os0.bd").read_bytes()
    pytest.skip("gnubg_os0.bd not found")


@pytest.mark.gnubg
def test_expected_rolls_agree_with_gnubg_one_sided_database():
    """Every home's expected rolls are the mean of gnubg's distribution of rolls to bear off, to the
    1/65535 its probabilities are stored to (its file: a 40-byte header, then for each position
    its data's offset, count and first roll, then the probabilities as unsigned 16-bit numbers)."""
    require_gnubg_module()
    data = _gnubg_one_sided_database()
    assert data.startswith(b"gnubg-OS-06-15-1-1-0")  # six points, 15 checkers, compressed
    homes, table = bearoff.positions(), bearoff.table()
    probabilities_at = 40 + 8 * len(homes)
    worst = 0.0
    for home in homes[1:]:  # (the empty home is borne off: no rolls)
        index = gnubg_module.position_bearoff([*home, *[0] * 19], 6, 15)
        offset, count, first = struct.unpack_from("<IBB", data, 40 + 8 * index)
        probabilities = struct.unpack_from(f"<{count}H", data, probabilities_at + 2 * offset)
        assert abs(sum(probabilities) - 65535) <= count
        mean = sum((first + roll) * p for roll, p in enumerate(probabilities)) / 65535
        worst = max(worst, abs(mean - table.rolls(home)))
    assert worst < 3e-4  # measured 2.0e-4 over all 54,263 homes


homes = st.lists(st.integers(0, 5), min_size=1, max_size=15).map(
    lambda points: tuple(points.count(p) for p in range(6)))
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(home=homes, roll=dice, variant=st.sampled_from(["long", "short"]))
def test_best_play_of_the_table_is_the_engines(home, roll, variant):
    """The table's bear-off moves are the rules engine's: its best play is the best legal play."""
    table = bearoff.table()
    mine = (15 - sum(home),) + home + (0,) * 19
    theirs = (0, 15) + (0,) * 24  # every opponent checker on its own 1 point: no contact in either game
    position = Position(variant, WHITE, mine, theirs)
    assert race_home(position, WHITE) == home
    plays = Engine(Rules.preset(variant)).legal_plays(position, roll)
    best = min(table.rolls(tuple(play.position.white[1:7])) for play in plays)
    assert table.best_after(home, roll) == pytest.approx(best)


def test_race_home_needs_every_checker_home_and_no_contact():
    home = "short w 6x2,1x13 6x15"
    assert race_home(Position.parse(home), WHITE) == (13, 0, 0, 0, 0, 2)
    assert race_home(Position.parse("short w 7,6,1x13 6x15"), WHITE) is None  # a checker outside the home
    assert race_home(Position.parse("short w 6x2,1x13 20,6x14"), WHITE) is None  # Black's 20 is White's 5
    assert race_home(Position.parse("long w 6x2,1x13 12x15"), WHITE) == (13, 0, 0, 0, 0, 2)  # Black's 12 = White's 24
    assert race_home(Position.parse("long w 6x2,1x13 14,12x14"), WHITE) is None  # Black's 14 = White's 2


# --- luck of a game ----------------------------------------------------------------------------


RACE = """[White "Ann"]
[Black "Boris"]
[Variant "short"]
[Position "short w 6 5"]

1. 11: 6/5/4/3/2  21: 5/3/2
2. 65: 2/off  *
"""


def test_luck_of_a_forced_race_by_hand():
    game, result = replayed(RACE)
    sums, per_turn = game_luck(result)
    # White: one checker on 6, rolls 11 (luck -0.75: from 1.25 expected to 1 left), then 65 from the 2 point
    # (a sure roll: luck 0); Black: one checker on 5, rolls 21 (luck 5/36 - 1: from 1 + 5/36 to 1 left)
    assert [turn.pips for turn in per_turn] == [4, 3, 11]
    assert [turn.bearoff for turn in per_turn] == pytest.approx([-0.75, 5 / 36 - 1, 0])
    white, black = sums[WHITE], sums[BLACK]
    assert (white.rolls, white.pips, white.pips_sq, white.doubles) == (2, 15, 16 + 121, 1)
    assert (black.rolls, black.pips, black.doubles, black.bearoff_rolls) == (1, 3, 0, 1)
    assert white.bearoff == pytest.approx(-0.75) and white.bearoff_sq == pytest.approx(0.5625)
    row = game_row(game, result)
    assert (row["pips_rolled_white"], row["pips_rolled_black"]) == (15, 3)
    assert row["bearoff_luck_white"] == pytest.approx(-0.75)
    assert [r["bearoff_luck"] for r in turn_rows(game, result)] == pytest.approx([-0.75, 5 / 36 - 1, 0])


def test_luck_table_by_hand():
    pairs = [replayed(RACE), replayed(RACE)]
    table = luck_table(aggregate(pairs))
    assert list(table.index) == ["all", "Ann", "Boris"]
    ann = table.loc["Ann"]
    assert (ann["rolls"], ann["doubles"], ann["bearoff_rolls"], ann["turns"]) == (4, 2, 4, 4)
    assert ann["pips_per_roll"] == pytest.approx(15 / 2) and ann["expected_pips"] == pytest.approx(294 / 36)
    assert ann["pips_luck"] == pytest.approx(30 - 4 * 294 / 36)
    sd = math.sqrt(((4 - 7.5) ** 2 * 2 + (11 - 7.5) ** 2 * 2) / 3)
    assert ann["pips_low"] == pytest.approx(7.5 - 1.959964 * sd / 2, rel=1e-6)
    assert ann["bearoff_luck"] == pytest.approx(-1.5)
    assert table.loc["all", "rolls"] == 6
    cells = luck_display(table).iloc[1]
    assert cells["doubles"].startswith("2 (50.0% [")


def test_mean_interval_by_hand():
    mean, _, high = mean_interval([24], [4 ** 2 + 8 ** 2 + 12 ** 2], [3])
    assert mean[0] == 8 and high[0] - 8 == pytest.approx(1.959964 * 4 / math.sqrt(3), rel=1e-6)
    assert math.isnan(mean_interval([5], [25], [1])[1][0])  # one value: no interval


def test_expected_pips_of_a_roll():
    assert EXPECTED_PIPS == pytest.approx(8.1666667)
    assert (roll_pips((3, 3)), roll_pips((6, 1))) == (12, 7)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(home=homes, point=st.integers(0, 5))
def test_luck_averages_to_zero_and_a_checker_more_never_helps(home, point):
    table = bearoff.table()
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    assert sum(table.luck(home, roll) for roll in rolls) / 36 == pytest.approx(0, abs=1e-9)
    if sum(home) < 15:
        more = tuple(count + (index == point) for index, count in enumerate(home))
        assert table.rolls(more) >= table.rolls(home) - 1e-12


def test_pips_lost_per_roll_of_a_closed_out_side():
    # White is closed out: both bar checkers face Black's full home board, 64 is lost (10 pips)
    position = "short w barx2,13x13 24x3,6x2,5x2,4x2,3x2,2x2,1x2"
    _, result = replayed(f'[Variant "short"]\n[Position "{position}"]\n\n1. 64: -  21: 24/22/21\n*\n')
    sums, per_turn = game_luck(result)
    assert (sums[WHITE].turns, sums[WHITE].lost, sums[WHITE].lost_sq) == (1, 10, 100)
    assert (sums[BLACK].turns, sums[BLACK].lost, sums[BLACK].rolls, sums[BLACK].pips) == (1, 0, 1, 3)
    assert [turn.bearoff for turn in per_turn] == [None, None]
