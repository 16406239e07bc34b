"""Engine throughput: legal-play generations and recorded-play checks per second.

Positions are the distinct positions of self-played games (random bot, fixed
seeds). Prints the median rate of several rounds and the peak memory; no
assertion, no timing limit.

    python bench/bench_engine.py [--games 40] [--rounds 5]
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import time

from nardy_cli.core.engine import Engine
from nardy_cli.core.moves import Move
from nardy_cli.core.position import Position
from nardy_cli.core.rules import Rules

ALL_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def positions_of(rules: Rules, games: int, seed: int) -> list[Position]:
    rng, engine, seen = random.Random(seed), Engine(rules), {}
    for _ in range(games):
        position = Position.start(rules.variant)
        while not position.is_over():
            seen.setdefault((position.white, position.black, position.turn), position)
            plays = engine.legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6)))
            position = rng.choice(plays).position
    return list(seen.values())


def rate(work, items: list, rounds: int) -> float:
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        for item in items:
            work(item)
        rates.append(len(items) / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for variant in ("long", "short"):
        rules = Rules.preset(variant)
        engine = Engine(rules)
        positions = positions_of(rules, args.games, seed=7)
        rng = random.Random(1)
        for label, doubles in (("non-doubles", False), ("doubles", True)):
            dice = [d for d in ALL_DICE if (d[0] == d[1]) == doubles]
            cases = [(p, rng.choice(dice)) for p in positions]
            generated = rate(lambda case, engine=engine: engine.legal_plays(*case), cases, args.rounds)
            print(f"{variant:5} {label:11} legal-play generations: {generated:9,.0f}/s "
                  f"({len(cases)} distinct positions)")
        checks = []
        for position in positions:
            dice = rng.choice(ALL_DICE)
            play = rng.choice(engine.legal_plays(position, dice))
            if len(play.steps) == (4 if dice[0] == dice[1] else 2):
                checks.append((position, dice, tuple(Move((s.src, s.dst)) for s in play.steps)))
        checked = rate(lambda case, engine=engine: engine.check(*case), checks, args.rounds)
        print(f"{variant:5} recorded plays using all dice, checked: {checked:9,.0f}/s "
              f"({1e6 / checked:.1f} µs each, {len(checks)} plays)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (RSS): {peak:.0f} MB")


if __name__ == "__main__":
    main()
