"""Crazy nardy: the per-turn cost of validating self-played gulbara games.

Games are self-played (both bots, fixed seeds), then replayed and judged as
``nardy validate`` does. Prints, for crazy, long and short nardy on the same number of
games, the median over several rounds of the cost per turn and the steps per turn, and the
cost of each kind of check (``Engine.check`` made again on each replayed play): a roll played
as dice in any order (``plain``) or as one sequence in order (``ordered``: a crazy-nardy
cascade, or the steps it passed), each using all its steps (``full``) or stopping before
(``short``: the check must prove that no play goes further). Then crazy nardy's floor: its
cost per turn were every ordered check as cheap as a plain check that uses all its dice.
No assertion, no timing limit.

    python bench/bench_gulbara.py [--games 40] [--rounds 3]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from nardy_cli.analysis.selfplay import play_game
from nardy_cli.core.engine import Engine
from nardy_cli.core.rules import Rules
from nardy_cli.replay import GameReplay, ReplayedTurn, replay

VARIANTS = ("gulbara", "long", "short")
KINDS = ("plain-full", "plain-short", "ordered-full", "ordered-short")


def games_of(variant: str, bot: str, games: int, seed: int) -> list:
    rng = random.Random(seed)
    return [play_game(Rules.preset(variant), rng, bot) for _ in range(games)]


def median_seconds(work: Callable[[], object], rounds: int) -> float:
    costs = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        costs.append(time.perf_counter() - start)
    return statistics.median(costs)


def checks_by_kind(results: list[GameReplay]) -> dict[str, list[tuple]]:
    """Each replayed play, as the arguments of its ``Engine.check``, by kind (:data:`KINDS`): the
    checks are made again and timed from outside (a compiled replay's calls cannot be wrapped)."""
    kinds: dict[str, list[tuple]] = {kind: [] for kind in KINDS}
    for result in results:
        assert result.rules is not None  # self-played: every game is judged
        engine = Engine(result.rules)
        cascade = result.rules.variant == "gulbara"
        plays: list[tuple[ReplayedTurn, tuple[int, ...] | None]] = [(turn, None) for turn in result.turns]
        passes = [turn.passed for turn in result.turns if turn.passed]
        if len(passes) == len(result.passed_plays):  # each pass played, in order
            plays += zip(result.passed_plays, passes)
        for play, passed in plays:
            ordered = passed is not None or (cascade and play.dice[0] == play.dice[1])
            full = sum(len(move.legs) for move in play.moves) == len(passed or engine.steps(play.before, play.dice))
            kind = f"{'ordered' if ordered else 'plain'}-{'full' if full else 'short'}"
            kinds[kind].append((engine, play.before, play.dice, play.moves, passed))
    return kinds


def check_all(checks: list[tuple]) -> None:
    for engine, position, dice, moves, passed in checks:
        engine.check(position, dice, moves, passed)


def measure(records: list, rounds: int) -> tuple[int, float, float, dict[str, tuple[int, float]]]:
    """The turns of ``records``, the median µs per turn of replaying them, their steps per turn,
    and each kind's checks: how many, and median µs each."""
    results = [replay(record) for record in records]
    assert all(not result.findings for result in results)
    turns = sum(len(result.turns) for result in results)
    cost = median_seconds(lambda: [replay(record) for record in records], rounds) / turns * 1e6
    kinds = checks_by_kind(results)
    steps = sum(len(move.legs) for checks in kinds.values() for check in checks for move in check[3])
    each = {kind: (len(checks), median_seconds(partial(check_all, checks), rounds) / max(len(checks), 1) * 1e6)
            for kind, checks in kinds.items() if checks}
    return turns, cost, steps / turns, each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for bot in ("random", "greedy"):
        figures = {variant: measure(games_of(variant, bot, args.games, 11), args.rounds) for variant in VARIANTS}
        for variant, (_, cost, steps, each) in figures.items():
            kinds = ", ".join(f"{kind} {count} × {micros:.2f}" for kind, (count, micros) in each.items())
            print(f"{bot:6} {variant:7}: {cost:5.2f} µs/turn, {steps:.2f} steps/turn; checks: {kinds} µs")
        turns, cost, _, each = figures["gulbara"]
        short = figures["short"][1]
        plain = each.get("plain-full", (0, 0.0))[1]
        ordered = [(count, micros) for kind, (count, micros) in each.items() if kind.startswith("ordered")]
        saved = sum(count * (micros - plain) for count, micros in ordered) / turns
        print(f"{bot:6} gulbara floor: {cost - saved:5.2f} µs/turn = {(cost - saved) / short:.2f}× short nardy's "
              f"(now {cost / short:.2f}×)")


if __name__ == "__main__":
    main()
