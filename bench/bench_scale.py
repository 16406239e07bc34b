"""Validation and statistics over large corpora on 1 and 2 worker processes (nardy_cli.parallel).

Builds, or reuses from a cache directory, gzip-compressed long-nardy NTN corpora of 10k, 100k
and 1M games. Self-play with the random bot makes a few dozen games a second a core, so a base
of distinct games is generated once, in parallel, and a corpus of N games is that base repeated
(gzip members concatenated): the output says so. For each corpus and task (``validate``, and
``stats`` when nardy_cli.stats has ``game_row``) it prints games/s and turns/s with each number
of workers, the speed-up against linear, the CPU seconds and the peak resident memory of the
whole process tree (psutil, sampled; else getrusage). First it measures what shipping parsed
records would cost against shipping raw lines. Prints, never asserts.

    python bench/bench_scale.py [--sizes 10k,100k,1M] [--jobs 1,2] [--tasks validate,stats]
                                [--chunk-games N] [--base 1000] [--cache ~/.cache/nardy-bench]

Measured on a 2-core machine shared with other jobs, 200 games: NTN parsing 3.2-3.4 ms a game,
replay 6-7 ms; pickling the parsed records 0.9 ms a game and unpickling them 2.2-2.5 ms (as much
as parsing their text again), against 0.01-0.02 ms for their raw lines.
"""
from __future__ import annotations

import argparse
import gzip
import importlib
import io
import multiprocessing
import os
import pickle
import resource
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Self

from nardy_cli.notations import notation
from nardy_cli.parallel import CHUNK_GAMES, available_cores, map_games, replayed, validated
from nardy_cli.replay import replay
from nardy_cli.rules import Rules
from nardy_cli.selfplay import generate

try:
    import psutil
except ImportError:  # peak memory from getrusage then
    psutil = None

SIZES = {"10k": 10_000, "100k": 100_000, "1M": 1_000_000}
PART_GAMES = 50


# --- measuring ----------------------------------------------------------------------------


class TreeMonitor:
    """Peak memory and CPU seconds of this process and all its descendants while in use, sampled
    by a helper process (a thread would make map_games start its workers another way). Memory is
    the sum of resident sets (pages shared by forked workers counted in each) and, with psutil,
    the sum of proportional sets (shared pages divided among their sharers)."""

    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        self.peak_rss = 0
        self.peak_pss: int | None = None
        self.cpu = 0.0

    def __enter__(self) -> Self:
        self._times = os.times()
        if psutil is not None:
            self._pipe, end = multiprocessing.Pipe()
            self._process = multiprocessing.get_context("fork").Process(
                target=_watch, args=(os.getpid(), end, self.interval), daemon=True)
            self._process.start()
            self._pipe.recv()  # the first sample is taken
        return self

    def __exit__(self, *exc: object) -> None:
        if psutil is not None:
            self._pipe.send("stop")
            self.peak_rss, self.peak_pss, self.cpu = self._pipe.recv()
            self._process.join()
            return
        usage = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        self.peak_rss = sum(u.ru_maxrss for u in usage) * 1024  # KiB on Linux; of the children, the largest
        self.cpu = sum(os.times()[:4]) - sum(self._times[:4])


def _watch(root: int, pipe: Any, interval: float) -> None:
    """Sample the tree under ``root`` (but this process) until told to stop; send the peak RSS and PSS
    and the CPU seconds."""
    tree, me = psutil.Process(root), os.getpid()
    first: dict[int, float] = {}  # CPU seconds when first seen: 0 for the processes started meanwhile
    last: dict[int, float] = {}
    peak_rss = peak_pss = 0
    started = False
    while True:
        rss = pss = 0
        for process in [tree, *tree.children(recursive=True)]:
            if process.pid == me:
                continue
            try:
                with process.oneshot():
                    memory = process.memory_full_info()
                    times = process.cpu_times()
            except psutil.Error:  # gone meanwhile
                continue
            rss, pss = rss + memory.rss, pss + memory.pss
            last[process.pid] = times.user + times.system
            first.setdefault(process.pid, 0.0 if started else last[process.pid])
        if not started:
            started = True
            pipe.send("started")
        peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
        if pipe.poll(interval):
            break
    pipe.send((peak_rss, peak_pss, sum(last[pid] - first[pid] for pid in last)))


@dataclass
class Run:
    """One timed run over a corpus."""

    games: int
    turns: int
    seconds: float
    cpu: float
    peak_rss: int
    peak_pss: int | None

    def text(self, label: str, speedup: str = "") -> str:
        """One line of figures (a worker's last 0.1 s of CPU may be missed)."""
        return (f"  {label:<10} {self.games / self.seconds:8.1f} games/s {self.turns / self.seconds:9.0f} turns/s"
                f"  wall {self.seconds:7.1f} s  cpu {self.cpu:7.1f} s  peak RSS {self.peak_rss / 2**20:5.0f} MiB"
                + (f" (PSS {self.peak_pss / 2**20:4.0f})" if self.peak_pss is not None else "") + speedup)


def timed(paths: list[str], task: Callable[[Any], Any], turns_of: Callable[[Any], int], **options: Any) -> Run:
    """Run ``task`` over ``paths`` with ``map_games(**options)``, counting games and turns."""
    games = turns = 0
    errors: list[str] = []
    start = time.perf_counter()
    with TreeMonitor() as monitor:
        for result in map_games(paths, task, on_error=errors.append, **options):
            games += 1
            turns += turns_of(result)
    seconds = time.perf_counter() - start
    for error in errors:
        print(f"  error: {error}")
    return Run(games, turns, seconds, monitor.cpu, monitor.peak_rss, monitor.peak_pss)


def machine_context(jobs: list[int]) -> str:
    """The cores, the load, and the speed-up that plain CPU work gets here now."""
    return (f"{available_cores()} cores, load average {os.getloadavg()[0]:.1f}; a pure-Python loop split over "
            f"processes runs {machine_speedup(jobs)} (the ceiling for the speed-ups below)")


def compare_jobs(paths: list[str], task: Callable[[Any], Any], turns_of: Callable[[Any], int],
                 jobs: list[int], **options: Any) -> list[Run]:
    """Print one line a number of workers, with the speed-up against the first and against linear."""
    runs: list[Run] = []
    for count in jobs:
        run = timed(paths, task, turns_of, jobs=count, **options)
        speedup = ""
        if runs:
            factor = runs[0].seconds / run.seconds
            speedup = f"  speed-up {factor:4.2f}x ({factor / (count / jobs[0]):4.0%} of linear)"
        print(run.text(f"{count} worker{'s' if count > 1 else ''}", speedup), flush=True)
        runs.append(run)
    return runs


def _spin(iterations: int) -> int:
    total = 0
    for number in range(iterations):
        total += number & 7
    return total


def machine_speedup(jobs: list[int], tasks: int = 4, iterations: int = 3_000_000) -> str:
    """What the machine gives now: the speed-up of a pure-Python loop split over each number of processes."""
    jobs = [1] + [count for count in jobs if count > 1]
    seconds = []
    for count in jobs:
        start = time.perf_counter()
        with ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork")) as pool:
            list(pool.map(_spin, [iterations] * tasks))
        seconds.append(time.perf_counter() - start)
    return ", ".join(f"{seconds[0] / s:.2f}x with {count}" for count, s in zip(jobs[1:], seconds[1:]))


def tasks() -> dict[str, tuple[Callable[[Any], Any], Callable[[Any], int]]]:
    """The tasks to time: validate, and stats when its per-game row function is there."""
    found: dict[str, tuple[Callable[[Any], Any], Callable[[Any], int]]] = {
        "validate": (partial(replayed, build=validated), lambda result: result.summary.turns)}
    try:
        game_row = importlib.import_module("nardy_cli.stats").game_row
    except (ImportError, AttributeError):
        print("stats: nardy_cli.stats.game_row is not available, only validate is timed")
    else:
        found["stats"] = (partial(replayed, build=game_row), lambda row: row["turns"])
    return found


# --- corpora --------------------------------------------------------------------------------


def ntn_text(games: Iterator[Any]) -> str:
    out = io.StringIO()
    notation("ntn").write_games(games, out)
    return out.getvalue()


def generate_part(seed: int, games: int) -> str:
    """``games`` self-played long-nardy games (random bot) as NTN."""
    return ntn_text(generate(Rules.preset("long"), games, seed, "random"))


def base_corpus(cache: Path, games: int) -> Path:
    """A gzip-compressed NTN file of ``games`` distinct games, generated on every core once."""
    path = cache / f"long-base-{games}.ntn.gz"
    if path.exists():
        return path
    print(f"generating {games} distinct games on {available_cores()} cores (random bot)...", flush=True)
    start = time.perf_counter()
    sizes = [min(PART_GAMES, games - done) for done in range(0, games, PART_GAMES)]
    with ProcessPoolExecutor(available_cores()) as pool:
        text = "\n".join(pool.map(generate_part, range(1, len(sizes) + 1), sizes))
    cache.mkdir(parents=True, exist_ok=True)
    partial_path = path.with_suffix(".tmp")
    partial_path.write_bytes(gzip.compress((text + "\n").encode("utf-8")))
    partial_path.replace(path)
    print(f"  {games / (time.perf_counter() - start):.1f} games/s", flush=True)
    return path


def corpus(cache: Path, base: Path, base_games: int, games: int) -> Path:
    """``games`` games: the base repeated (its gzip member concatenated) ``games / base_games`` times."""
    path = cache / f"long-{games}-from-{base_games}.ntn.gz"
    if not path.exists():
        member = base.read_bytes()
        partial_path = path.with_suffix(".tmp")
        with partial_path.open("wb") as out:
            for _ in range(games // base_games):
                out.write(member)
        partial_path.replace(path)
    return path


# --- shipping records or lines ------------------------------------------------------------


def transport(base: Path, games: int = 200) -> None:
    """Per game: parsing NTN and replaying, against pickling parsed records or the raw lines."""
    lines, starts = [], 0
    with gzip.open(base, "rt", encoding="utf-8") as text:
        for line in text:
            starts += line.startswith("[Event")
            if starts > games:
                break
            lines.append(line)

    def per_game(work: Callable[[], Any]) -> tuple[float, Any]:
        start = time.process_time()
        value = work()
        return (time.process_time() - start) / games * 1000, value

    parse, records = per_game(lambda: list(notation("ntn").read_games(lines, "base")))
    replaying, _ = per_game(lambda: [replay(record) for record in records])
    record_dump, packed = per_game(lambda: pickle.dumps(records, pickle.HIGHEST_PROTOCOL))
    record_load, _ = per_game(lambda: pickle.loads(packed))
    line_dump, packed_lines = per_game(lambda: pickle.dumps(lines, pickle.HIGHEST_PROTOCOL))
    line_load, _ = per_game(lambda: pickle.loads(packed_lines))
    print(f"shipping {games} games to a worker (CPU ms a game): parse NTN {parse:.2f}, replay {replaying:.2f}; "
          f"parsed records: pickle {record_dump:.2f} + unpickle {record_load:.2f} ({len(packed) / games:.0f} B); "
          f"raw lines: pickle {line_dump:.3f} + unpickle {line_load:.3f} ({len(packed_lines) / games:.0f} B)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10k", help="Corpus sizes among 10k, 100k, 1M (comma-separated).")
    parser.add_argument("--jobs", default="1,2", help="Numbers of worker processes to compare.")
    parser.add_argument("--tasks", default="validate,stats", help="Tasks to time: validate, stats.")
    parser.add_argument("--chunk-games", type=int, default=CHUNK_GAMES, help="Games a work unit.")
    parser.add_argument("--base", type=int, default=1000, help="Distinct games, repeated to make each corpus.")
    parser.add_argument("--cache", type=Path, default=Path("~/.cache/nardy-bench").expanduser(),
                        help="Where the corpora are kept between runs.")
    args = parser.parse_args()
    sizes = [SIZES[size] for size in args.sizes.split(",")]
    jobs = [int(count) for count in args.jobs.split(",")]
    base = base_corpus(args.cache, args.base)
    print(machine_context(jobs))
    transport(base)
    chosen = {name: task for name, task in tasks().items() if name in args.tasks.split(",")}
    for games in sizes:
        path = corpus(args.cache, base, args.base, games)
        print(f"\n{games} games: {args.base} distinct games repeated {games // args.base} times, "
              f"{path} ({path.stat().st_size / 2**20:.1f} MiB gzip)", flush=True)
        for name, (task, turns_of) in chosen.items():
            print(f" {name}:")
            compare_jobs([str(path)], task, turns_of, jobs, chunk_games=args.chunk_games)


if __name__ == "__main__":
    main()
