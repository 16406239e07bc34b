"""Engine throughput: legal-play generations and recorded-play checks per second.

Positions are the distinct positions of self-played games (random bot, fixed
seeds). Recorded plays are random legal plays of random rolls, written as a record
writes them, and are checked twice: by the full path alone (``Engine.judge``, the
legal plays' generator) and by ``Engine.check`` (the fast check first, the full path
when it declines), in alternating rounds. Times are the process's CPU time (a shared
machine's load then counts less). Prints the median rate of several rounds,
how many plays the fast check accepted, and the peak memory; no assertion, no timing
limit.

    python bench/bench_engine.py [--games 40] [--rounds 5]
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import time
from collections.abc import Callable

from nardy_cli.core.engine import Engine, steps_to_moves
from nardy_cli.core.fast_check import QuickCheck
from nardy_cli.core.position import Position
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import Side
from nardy_cli.core.variants import Board

ALL_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]
GAMES = ("long", "short", "gulbara")


def roll(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def positions_of(rules: Rules, games: int, seed: int) -> list[Position]:
    rng, engine = random.Random(seed), Engine(rules)
    seen: dict[tuple[Board, Board, Side], Position] = {}
    for _ in range(games):
        position = Position.start(rules.variant)
        while not position.is_over():
            seen.setdefault((position.white, position.black, position.turn), position)
            position = engine.choose_play(position, roll(rng), rng.choice).position
    return list(seen.values())


def rates(works: dict[str, Callable[[], object]], items: int, rounds: int) -> dict[str, float]:
    """Median items/s of each work, the works timed in alternating rounds (a shared machine's
    load then weighs on all alike)."""
    seen: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(rounds):
        for name, work in works.items():
            start = time.process_time()
            work()
            seen[name].append(items / (time.process_time() - start))
    return {name: statistics.median(values) for name, values in seen.items()}


def compare_checks(label: str, engine: Engine, cases: list, rounds: int) -> None:
    """Print the full path's and ``check``'s rates side by side for ``cases``."""
    if not cases:
        return
    accepted = sum(QuickCheck(engine.rules)(*case) is not None for case in cases)
    found = rates({"full": lambda: [engine.judge(*case) for case in cases],
                   "check": lambda: [engine.check(*case) for case in cases]}, len(cases), rounds)
    full, check = found["full"], found["check"]
    print(f"  {label:24} full path {full:9,.0f}/s ({1e6 / full:7.1f} µs)   check {check:9,.0f}/s "
          f"({1e6 / check:6.1f} µs)   {check / full:5.1f}×   fast check accepts {accepted / len(cases):6.1%} "
          f"of {len(cases)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for variant in GAMES:
        rules = Rules.preset(variant)
        engine = Engine(rules)
        positions = positions_of(rules, args.games, seed=7)
        rng = random.Random(1)
        for label, doubles in (("non-doubles", False), ("doubles", True)):
            if variant == "gulbara" and doubles:
                continue  # a cascade's legal plays run to tens of thousands: a checker picks them step by step
            dice = [d for d in ALL_DICE if (d[0] == d[1]) == doubles]
            cases = [(p, rng.choice(dice)) for p in positions]
            # Callable[..., object]: mypy fits no lambda with defaults (binding the loop's values) to Callable[[], ...]
            work: dict[str, Callable[..., object]] = {
                "plays": lambda cases=cases, engine=engine: [engine.legal_plays(*case) for case in cases]}
            generated = rates(work, len(cases), args.rounds)["plays"]
            print(f"{variant:7} {label:11} legal-play generations: {generated:9,.0f}/s "
                  f"({len(cases)} distinct positions)")
        checks = []
        for position in positions:
            rolled = roll(rng)
            play = engine.choose_play(position, rolled, rng.choice)
            checks.append((position, rolled, steps_to_moves(play.steps)))
        print(f"{variant:7} recorded legal plays checked:")
        compare_checks("all", engine, checks, args.rounds)
        compare_checks("non-doubles", engine, [case for case in checks if case[1][0] != case[1][1]], args.rounds)
        compare_checks("doubles" if variant != "gulbara" else "doubles (cascades)", engine,
                       [case for case in checks if case[1][0] == case[1][1]], args.rounds)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (RSS): {peak:.0f} MB")


if __name__ == "__main__":
    main()
