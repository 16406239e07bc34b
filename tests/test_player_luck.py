"""Each player's luck held in memory up to a bound and spooled past it (a
:class:`~nardy_cli.analysis.groups.Groups` of :class:`~nardy_cli.analysis.luck.LuckSums` added
``in_order``): every float sum the same to the last bit as adding the games as they came, in
memory that does not grow with the number of players."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_cli.analysis.groups import Groups
from nardy_cli.analysis.luck import LuckSums
from support.memory import assert_flat_memory

BEAROFF = st.floats(-1.0, 1.0) | st.sampled_from([0.1, 1 / 3, -2 / 7, 1e-17, 0.0])


def game_sums(rolls: int, pips: int, luck: float, lost: int) -> LuckSums:
    return LuckSums(rolls, pips, pips * pips, rolls // 4, rolls, lost, lost * lost, int(luck != 0), luck, luck * luck)


sums = st.builds(game_sums, st.integers(0, 30), st.integers(0, 200), BEAROFF, st.integers(0, 50))
games = st.lists(st.tuples(st.sampled_from(["Ann", "Boris", "Chen", "Dina", "Emil", "Фёдор"]), sums), max_size=40)


def as_they_came(played: list[tuple[str, LuckSums]]) -> dict[str, LuckSums]:
    """Each player's sums added game by game, as a dict keeps them: the oracle."""
    held: dict[str, LuckSums] = {}
    for player, game in played:
        held.setdefault(player, LuckSums()).add(game)
    return held


def bits(pairs) -> list[tuple[str, str]]:
    return [(player, repr(sums.record())) for player, sums in pairs]


def everyone(luck: Groups[LuckSums]) -> LuckSums:
    """Every player's sums added in the order the players came, as the row ``all`` adds them."""
    total = LuckSums()
    for sums_of_one in luck.values():
        total.add(sums_of_one)
    return total


@settings(max_examples=400, deadline=None)
@given(games, st.sampled_from([0, 1, 2, 3, None]), st.sampled_from([1, 2, 5]), st.integers(0, 40), games)
def test_spooled_luck_adds_up_to_the_last_bit_as_held_luck(played, kept, run, cut, later):
    """Read half-way (the spool is then made again) and after more games, twice."""
    luck = Groups(LuckSums, kept, in_order=True, run=run)
    for player, game in played[:cut]:
        luck.totals(player).add(game)
    expected = as_they_came(played[:cut])
    assert bits(luck.in_key_order()) == bits(sorted(expected.items()))
    for player, game in played[cut:] + later:
        luck.totals(player).add(game)
    expected = as_they_came(played + later)
    all_held = LuckSums()
    for sums_of_one in expected.values():  # in the order the players came
        all_held.add(sums_of_one)
    for _ in range(2):
        assert bits(luck.in_key_order()) == bits(sorted(expected.items()))
        assert repr(everyone(luck).record()) == repr(all_held.record())


def test_memory_does_not_grow_with_the_number_of_players(monkeypatch):
    """Five times the players take no more memory, however they are read back."""
    def fill_and_read(players: int) -> None:
        luck = Groups(LuckSums, 100, in_order=True)
        for number in range(2 * players):
            luck.totals(f"player-{number % players}").add(LuckSums(2, 16, 130, 0, 2, 3, 9, 1, 0.25, 0.0625))
        assert sum(sums.rolls for _, sums in luck.in_key_order()) == 4 * players
        assert everyone(luck).rolls == 4 * players

    assert_flat_memory(monkeypatch, fill_and_read)
