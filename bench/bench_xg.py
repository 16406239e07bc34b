"""Reading eXtreme Gammon .xg files: the shared corpus's .xg files repeated to --files files
(1,000 by default, as links in a temporary directory), read, then read and validated with 1 and
2 worker processes.

Prints, for each, the median of --rounds runs: files/s, games/s, turns/s, and the peak memory
that Python allocated while reading (tracemalloc, sequential read only). Prints, never asserts.

    python bench/bench_xg.py [--corpus DIR] [--files 1000] [--jobs 1,2] [--rounds 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from functools import partial
from pathlib import Path

from nardy_cli.analysis.validate import validated
from nardy_cli.run.corpus import iter_games
from nardy_cli.run.parallel import map_games, replayed

ROOT = Path(__file__).resolve().parent.parent
CORPORA = (ROOT.parent / "shared" / "corpora" / "xg", Path("/work/shared/corpora/xg"))


def repeated(corpus: Path, files: int, directory: Path) -> list[str]:
    """``files`` links in ``directory`` to the corpus's .xg files, taken in turn."""
    originals = sorted(corpus.glob("*.xg"))
    if not originals:
        sys.exit(f"{corpus}: no .xg file")
    paths = []
    for number in range(files):
        link = directory / f"{number:05d}-{originals[number % len(originals)].name}"
        os.symlink(originals[number % len(originals)], link)
        paths.append(str(link))
    return paths


def read_once(paths: list[str]) -> tuple[float, int, int]:
    """Seconds, games and turns (the rolls of the records) of one sequential read."""
    errors: list[str] = []
    start = time.perf_counter()
    games = turns = 0
    for game in iter_games(paths, on_error=errors.append):
        games += 1
        turns += sum(action.kind == "roll" for action in game.record.actions)
    if errors:
        sys.exit(f"unexpected errors: {errors[:3]}")
    return time.perf_counter() - start, games, turns


def peak_bytes(paths: list[str]) -> int:
    """The most memory Python held at once while reading ``paths`` (a separate, slower run)."""
    tracemalloc.start()
    for _ in iter_games(paths, on_error=print):
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def validate_once(paths: list[str], jobs: int) -> tuple[float, int, int]:
    """Seconds, games and turns of reading and validating every game with ``jobs`` workers."""
    task = partial(replayed, build=validated)
    start = time.perf_counter()
    games = turns = 0
    for result in map_games(paths, task, jobs=jobs, on_error=lambda message: sys.exit(message)):
        games += 1
        turns += result.turns
    return time.perf_counter() - start, games, turns


def rates(label: str, files: int, seconds: list[float], games: int, turns: int, extra: str = "") -> None:
    median = statistics.median(seconds)
    print(f" {label:<28} {files / median:9.1f} files/s {games / median:10.1f} games/s {turns / median:11.1f} "
          f"turns/s  median {median:6.2f} s{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="The directory of .xg files (default: the shared corpus's xg/).")
    parser.add_argument("--files", type=int, default=1000, help="How many files to read.")
    parser.add_argument("--jobs", default="1,2", help="Numbers of worker processes for reading and validating.")
    parser.add_argument("--rounds", type=int, default=3, help="Runs of each measure; the median is printed.")
    args = parser.parse_args()
    corpus = args.corpus or next((path for path in CORPORA if path.is_dir()), None)
    if corpus is None:
        sys.exit(f"no corpus: none of {', '.join(map(str, CORPORA))} exists (give --corpus)")
    with tempfile.TemporaryDirectory() as directory:
        paths = repeated(corpus, args.files, Path(directory))
        size = sum(os.path.getsize(path) for path in paths)
        print(f"{corpus}: {args.files} files ({size / 2**20:.1f} MiB), {os.cpu_count()} cores, "
              f"Python {sys.version.split()[0]}")
        reads = [read_once(paths) for _ in range(args.rounds)]
        _, games, turns = reads[0]
        rates("read", args.files, [read[0] for read in reads], games, turns,
              f"  peak {peak_bytes(paths) / 2**20:.1f} MiB held")
        for jobs in (int(count) for count in args.jobs.split(",")):
            runs = [validate_once(paths, jobs) for _ in range(args.rounds)]
            rates(f"read + validate, {jobs} job{'s' if jobs > 1 else ''}", args.files, [run[0] for run in runs],
                  runs[0][1], runs[0][2])


if __name__ == "__main__":
    main()
