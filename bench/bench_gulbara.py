"""Crazy nardy: the per-turn cost of validating self-played gulbara games.

Games are self-played (both bots, fixed seeds), then replayed and judged as
``nardy validate`` does. Prints the median over several rounds of the cost per
turn — all turns, and the cascade turns (doubles) and passed-step plays alone —
beside long and short nardy's per-turn cost for the same number of games. No
assertion, no timing limit.

    python bench/bench_gulbara.py [--games 40] [--rounds 3]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from nardy_cli.analysis.selfplay import play_game
from nardy_cli.core.engine import Engine
from nardy_cli.core.rules import Rules
from nardy_cli.replay import replay


def games_of(variant: str, bot: str, games: int, seed: int) -> list:
    rng = random.Random(seed)
    return [play_game(Rules.preset(variant), rng, bot) for _ in range(games)]


def per_turn(records: list, rounds: int) -> tuple[float, int, int, int, list]:
    """Median µs per turn over ``rounds`` replays, the turns, cascades and passed plays, and the
    replays themselves."""
    costs = []
    for _ in range(rounds):
        start = time.perf_counter()
        results = [replay(record) for record in records]
        costs.append((time.perf_counter() - start) / sum(len(r.turns) for r in results) * 1e6)
    assert all(not result.findings for result in results)
    turns = sum(len(r.turns) for r in results)
    cascades = sum(turn.dice[0] == turn.dice[1] for r in results for turn in r.turns)
    passed = sum(len(r.passed_plays) for r in results)
    return statistics.median(costs), turns, cascades, passed, results


def ordered_cost(results: list, rounds: int) -> float:
    """Median µs per check of a cascade or of passed steps alone (``Engine.check`` of a double
    or with passed steps: the fast check, and the full judge where it declines), each check made
    again on the replayed turn's position (timing the calls from outside: a compiled replay's
    calls cannot be wrapped)."""
    checks = []
    for result in results:
        engine = Engine(result.rules)
        checks += [(engine, turn.before, turn.dice, turn.moves, None) for turn in result.turns
                   if turn.dice[0] == turn.dice[1]]
        passes = [turn.passed for turn in result.turns if turn.passed]
        if len(passes) == len(result.passed_plays):  # each pass played, in order
            checks += [(engine, play.before, play.dice, play.moves, steps)
                       for play, steps in zip(result.passed_plays, passes)]
    costs = []
    for _ in range(rounds):
        start = time.perf_counter()
        for engine, position, dice, moves, passed in checks:
            engine.check(position, dice, moves, passed)
        costs.append((time.perf_counter() - start) / max(len(checks), 1) * 1e6)
    return statistics.median(costs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for bot in ("random", "greedy"):
        long_cost, long_turns, _, _, _ = per_turn(games_of("long", bot, args.games, 11), args.rounds)
        short_cost, short_turns, _, _, _ = per_turn(games_of("short", bot, args.games, 11), args.rounds)
        cost, turns, cascades, passed, results = per_turn(games_of("gulbara", bot, args.games, 11), args.rounds)
        print(f"{bot:6} gulbara: {cost:5.1f} µs/turn over {turns} turns ({cascades} cascades, {passed} passed plays); "
              f"cascade or passed check alone {ordered_cost(results, args.rounds):5.1f} µs; "
              f"long nardy: {long_cost:5.1f} µs/turn over {long_turns} turns; "
              f"short nardy: {short_cost:5.1f} µs/turn over {short_turns} turns")


if __name__ == "__main__":
    main()
