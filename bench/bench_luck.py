"""The one-sided bear-off table and the luck figures: how long the table takes to compute and to
read back from its cache, and what luck adds to the statistics of a real corpus (bglab-sample).

Prints medians of ``--repeat`` runs, never asserts.

    python bench/bench_luck.py [--corpus DIR] [--repeat 3]
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from nardy_cli.analysis import bearoff
from nardy_cli.analysis.luck import game_luck
from nardy_cli.replay import replay
from nardy_cli.run.corpus import iter_games

CORPUS = Path("/work/shared/corpora/bglab-sample")


def median_seconds(work, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    print(f"bear-off table: {len(bearoff.positions())} positions")
    print(f"  computed in {median_seconds(bearoff.build, args.repeat):.2f} s (median of {args.repeat})")
    with tempfile.TemporaryDirectory() as folder:
        import os

        os.environ["NARDY_CACHE_DIR"] = folder

        def load() -> None:
            bearoff.table.cache_clear()
            bearoff.table()

        load()  # computes and writes the cache
        print(f"  read from the cache in {median_seconds(load, args.repeat):.3f} s")

    results = [replay(game.record) for game in iter_games([str(args.corpus)], on_error=print)]
    turns = sum(len(result.turns) for result in results)
    races = sum(turn is not None for result in results for turn in game_luck(result)[1] if turn.bearoff is not None)
    replay_time = median_seconds(lambda: [replay(result.record) for result in results], args.repeat)
    luck_time = median_seconds(lambda: [game_luck(result) for result in results], args.repeat)
    print(f"{args.corpus.name}: {len(results)} games, {turns} turns, {races} pure-race bear-off rolls")
    print(f"  replay {replay_time:.2f} s, luck {luck_time:.2f} s ({100 * luck_time / replay_time:.0f} % of the replay)")


if __name__ == "__main__":
    main()
