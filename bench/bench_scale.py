"""nardy validate and nardy stats over large corpora with 1 and 2 worker processes.

Builds, or reuses from a cache directory, gzip-compressed long-nardy NTN corpora of 10k, 100k
and 1M games. Self-play with the random bot makes a few dozen games a second a core, so a base
of distinct games is generated once, in parallel, and a corpus of N games is that base repeated
(gzip members concatenated): the output says so (``--players N``: each game's players drawn
from N names, as on a server). Each command runs as users run it, ``nardy
validate -q --jobs N CORPUS`` and ``nardy stats -q --jobs N CORPUS`` (``stats-parquet``: also
``--parquet DIR``; ``stats-out``: also ``--out DIR``, the report) and ``nardy convert --to jsonl``
(``convert``), in a child process whose whole tree is sampled (psutil) for peak resident
memory: the sum of resident sets (pages shared by forked workers counted in each) and of
proportional sets (shared pages divided among their sharers, what the tree really takes). It
prints games/s and turns/s, the speed-up against one worker and against linear, and the CPU
seconds (medians of ``--rounds`` runs, alternating with the nardy of ``--against PYTHON`` when
given); then long and crazy against short nardy per turn and per step checked, less the start-up
(``--short``, ``--crazy``), and what shipping parsed records to workers would cost against shipping raw lines.
Prints, never asserts.

    python bench/bench_scale.py [--sizes 10k,100k,1M] [--jobs 1,2,local:2] [--base 1000] [--short 2000]
                                [--crazy 2000] [--tasks validate,stats,stats-out,stats-parquet,convert]
                                [--rounds 1] [--against PYTHON] [--players 0] [--cache ~/.cache/nardy-bench]

Measured on a 2-core machine shared with other jobs, 200 games: NTN parsing 3.2-3.4 ms a game,
replay 6-7 ms; pickling the parsed records 0.9 ms a game and unpickling them 2.2-2.5 ms (as much
as parsing their text again), against 0.01-0.02 ms for their raw lines.
"""
from __future__ import annotations

import argparse
import gzip
import io
import json
import multiprocessing
import os
import pickle
import random
import re
import resource
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import psutil  # installed with the dask extra (distributed needs it)
from bench_startup import USERS_ENVIRONMENT  # a sibling script

from nardy_cli.analysis.selfplay import generate
from nardy_cli.core.rules import Rules
from nardy_cli.notations import notation
from nardy_cli.replay import replay
from nardy_cli.run.parallel import available_cores

SIZES = {"1k": 1_000, "10k": 10_000, "100k": 100_000, "1M": 1_000_000}
PART_GAMES = 50


# --- measuring ----------------------------------------------------------------------------


@dataclass
class Run:
    """One timed command over a corpus."""

    games: int
    turns: int
    seconds: float
    cpu: float
    peak_rss: int
    peak_pss: int
    output: str

    def text(self, label: str, speedup: str = "") -> str:
        """One line of figures."""
        return (f"  {label:<20} {self.games / self.seconds:8.1f} games/s {self.turns / self.seconds:9.0f} turns/s"
                f"  wall {self.seconds:7.1f} s  cpu {self.cpu:7.1f} s  peak RSS {self.peak_rss / 2**20:5.0f} MiB"
                f" (PSS {self.peak_pss / 2**20:4.0f})" + speedup)


def command_run(arguments: list[str], interval: float = 0.2,
                python: str = sys.executable) -> tuple[float, float, int, int, str]:
    """Run ``nardy ARGUMENTS`` (the nardy ``python`` imports) and sample its process tree: wall and
    CPU seconds, peak RSS and PSS (bytes) and its standard output.

    The samples come every 10 ms at first, 1.25 times further apart each time up to ``interval``,
    so that a run of a fraction of a second is sampled too. (The kernel's own peak, ``ru_maxrss``,
    would not do: a child starts with the peak of the process it was forked from, this one.) The
    wall time ends when the command ends, not at the next sample; the CPU time is the tree's own
    account (``getrusage`` of the reaped children), not a sum of samples."""
    nardy = [python, "-P", "-c", "from nardy_cli.cli.main import cli; cli()"]  # -P: not this directory's nardy_cli
    peak_rss = peak_pss = 0
    pause = min(0.01, interval)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as errors:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        root = subprocess.Popen(nardy + arguments, stdout=out, stderr=errors, env=USERS_ENVIRONMENT)
        tree_root, ended = psutil.Process(root.pid), os.pidfd_open(root.pid)
        while True:
            rss = pss = 0
            try:
                tree = [tree_root, *tree_root.children(recursive=True)]
            except psutil.Error:
                tree = []
            for process in tree:
                try:
                    memory = process.memory_full_info()
                except psutil.Error:  # gone meanwhile
                    continue
                rss, pss = rss + memory.rss, pss + memory.pss
            peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
            if select.select([ended], [], [], pause)[0]:  # the command has ended
                break
            pause = min(pause * 1.25, interval)
        seconds = time.perf_counter() - start
        os.close(ended)
        root.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if root.returncode not in (0, 1):
            errors.seek(0)
            raise SystemExit(f"nardy {' '.join(arguments)} failed ({root.returncode}): {errors.read()}")
        out.seek(0)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return seconds, cpu, peak_rss, peak_pss, out.read()


def workers_option(jobs: int | str) -> list[str]:
    """``--jobs N``, or ``--dask local:N`` for ``local:N``: Dask on N local worker processes (its process scheduler)."""
    return ["--dask", jobs] if isinstance(jobs, str) and jobs.startswith("local") else ["--jobs", str(jobs)]


def timed(task: str, paths: list[Path], jobs: int | str, counts: tuple[int, int] | None,
          python: str = sys.executable) -> Run:
    """``nardy validate`` or ``nardy stats`` over ``paths`` with ``jobs`` workers (see
    :func:`workers_option`); the games and turns are validate's count, or ``counts`` when given."""
    if task == "validate":
        arguments = ["validate", "--format", "json", *workers_option(jobs), *map(str, paths)]
    elif task == "convert":
        if counts is None:
            raise SystemExit("--tasks: convert counts no games; put validate or stats before it")
        arguments = ["convert", "-q", "--to", "jsonl", *workers_option(jobs), *map(str, paths)]
    else:
        arguments = ["stats", "-q", "--by", "variant", "--format", "json", *workers_option(jobs), *map(str, paths)]
    with tempfile.TemporaryDirectory() as folder:
        if task == "stats-parquet":
            arguments += ["--parquet", folder]
        elif task == "stats-out":
            arguments += ["--out", folder, "--force"]
        elif task == "convert":
            arguments += ["-o", os.path.join(folder, "games.jsonl")]
        seconds, cpu, peak_rss, peak_pss, output = command_run(arguments, python=python)
    if counts is None:
        if task == "validate":
            summary = json.loads(output)
            counts = summary["games"], summary["turns"]
        else:  # one row a variant: its games and mean length
            rows = json.loads(output)["summary"]
            counts = sum(row["games"] for row in rows), round(sum(row["games"] * row["mean_turns"] for row in rows))
    return Run(*counts, seconds, cpu, peak_rss, peak_pss, output)


def worker_count(jobs: int | str) -> int:
    """How many workers ``jobs`` (a number or ``local:N``) runs."""
    return jobs if isinstance(jobs, int) else int(jobs.partition(":")[2] or available_cores())


def machine_context(jobs: list[int | str]) -> str:
    """The cores, the load, and the speed-up that plain CPU work gets here now."""
    context = f"{available_cores()} cores, load average {os.getloadavg()[0]:.1f}"
    if max(map(worker_count, jobs)) <= 1:
        return context
    return (context + f"; a pure-Python loop split over processes runs {machine_speedup(jobs)}: about the "
            "most the speed-ups below can reach now")


def median_run(runs: list[Run]) -> Run:
    """The median of each figure of ``runs`` (of one command)."""
    def median(values: list[float]) -> Any:
        return statistics.median(values)

    return Run(runs[0].games, runs[0].turns, median([run.seconds for run in runs]), median([run.cpu for run in runs]),
               median([run.peak_rss for run in runs]), median([run.peak_pss for run in runs]), runs[0].output)


def compare_jobs(task: str, paths: list[Path], jobs: list[int | str], counts: tuple[int, int] | None,
                 rounds: int = 1, against: str | None = None) -> list[Run]:
    """Print one line a number of workers (or Dask on local workers), with the speed-up against the
    first and against linear: medians of ``rounds`` runs, alternating with the nardy of the
    ``against`` Python when given (its line follows)."""
    pythons = {"": sys.executable} | ({" (against)": against} if against else {})
    runs: list[Run] = []
    for spec in jobs:
        measured: dict[str, list[Run]] = {name: [] for name in pythons}
        for _ in range(rounds):
            for name, python in pythons.items():
                measured[name].append(timed(task, paths, spec, counts, python))
                counts = counts or (measured[name][-1].games, measured[name][-1].turns)
        count = worker_count(spec)
        for name in pythons:
            run = median_run(measured[name])
            speedup = ""
            if runs and not name:
                factor = runs[0].seconds / run.seconds
                speedup = f"  speed-up {factor:4.2f}x ({factor / (count / worker_count(jobs[0])):4.0%} of linear)"
            label = f"dask {spec}" if isinstance(spec, str) else f"{count} worker{'s' if count > 1 else ''}"
            print(run.text(label + name, speedup), flush=True)
            if not name:
                runs.append(run)
    return runs


def _spin(iterations: int) -> int:
    total = 0
    for number in range(iterations):
        total += number & 7
    return total


def machine_speedup(jobs: list[int | str], tasks: int = 12, iterations: int = 250_000, rounds: int = 5) -> str:
    """What the machine gives now: the speed-up of a pure-Python loop split over each number of
    processes, medians of ``rounds`` alternating rounds, each pool's workers started before the clock
    (one short round on a shared machine swung from 1.3x to 2.2x on 2 cores)."""
    counts = [1] + sorted({worker_count(spec) for spec in jobs} - {1})
    seconds: dict[int, list[float]] = {count: [] for count in counts}
    context = multiprocessing.get_context("fork")
    pools = {count: ProcessPoolExecutor(count, mp_context=context) for count in counts}
    try:
        for count, pool in pools.items():
            list(pool.map(_spin, [1] * count))
        for _ in range(rounds):
            for count, pool in pools.items():
                start = time.perf_counter()
                list(pool.map(_spin, [iterations] * tasks))
                seconds[count].append(time.perf_counter() - start)
    finally:
        for pool in pools.values():
            pool.shutdown()
    alone = statistics.median(seconds[1])
    speedups = ", ".join(f"{alone / statistics.median(seconds[count]):.2f}x with {count}" for count in counts[1:])
    return f"{speedups} (medians of {rounds} rounds)"


# --- corpora --------------------------------------------------------------------------------


def ntn_text(games: Iterator[Any]) -> str:
    out = io.StringIO()
    notation("ntn").write_games(games, out)
    return out.getvalue()


def generate_part(variant: str, seed: int, games: int) -> str:
    """``games`` self-played games (random bot) as NTN."""
    return ntn_text(generate(Rules.preset(variant), games, seed, "random"))


def base_corpus(cache: Path, games: int, variant: str = "long") -> Path:
    """A gzip-compressed NTN file of ``games`` distinct games, generated on every core once."""
    path = cache / f"{variant}-base-{games}.ntn.gz"
    if path.exists():
        return path
    print(f"generating {games} distinct {variant}-nardy games on {available_cores()} cores (random bot)...",
          flush=True)
    start = time.perf_counter()
    sizes = [min(PART_GAMES, games - done) for done in range(0, games, PART_GAMES)]
    with ProcessPoolExecutor(available_cores()) as pool:
        text = "\n".join(pool.map(partial(generate_part, variant), range(1, len(sizes) + 1), sizes))
    cache.mkdir(parents=True, exist_ok=True)
    partial_path = path.with_suffix(".tmp")
    partial_path.write_bytes(gzip.compress((text + "\n").encode("utf-8")))
    partial_path.replace(path)
    print(f"  {games / (time.perf_counter() - start):.1f} games/s", flush=True)
    return path


def corpus(cache: Path, base: Path, base_games: int, games: int, players: int = 0) -> Path:
    """``games`` games: the base repeated (its gzip member concatenated) ``games / base_games`` times;
    with ``players``, each game's two players are drawn at random from that many names (a server's
    corpus: the statistics keep a group per player)."""
    path = cache / f"long-{games}-from-{base_games}{f'-players-{players}' if players else ''}.ntn.gz"
    if not path.exists():
        member = base.read_bytes()
        text = gzip.decompress(member).decode("utf-8")
        draw = random.Random(players)
        partial_path = path.with_suffix(".tmp")
        with partial_path.open("wb") as out:
            for _ in range(games // base_games):
                out.write(gzip.compress(with_players(text, players, draw).encode("utf-8"), 1) if players else member)
        partial_path.replace(path)
    return path


def with_players(text: str, players: int, draw: random.Random) -> str:
    """NTN games with White and Black drawn from ``players`` names, never the same two in a game."""
    pair: list[int] = []

    def name(tag: re.Match[str]) -> str:
        if tag[1] == "White":
            pair[:] = draw.sample(range(players), 2)
        return f'[{tag[1]} "player {pair[tag[1] == "Black"]}"]'

    return re.sub(r'^\[(White|Black) "[^"\n]*"\]$', name, text, flags=re.M)


def first_games(base: Path, games: int) -> list[str]:
    """The lines of the first ``games`` games of a gzip-compressed NTN corpus."""
    lines, starts = [], 0
    with gzip.open(base, "rt", encoding="utf-8") as text:
        for line in text:
            starts += line.startswith("[Event")
            if starts > games:
                break
            lines.append(line)
    return lines


# --- shipping records or lines ------------------------------------------------------------


def transport(base: Path, games: int = 200) -> None:
    """Per game: parsing NTN and replaying, against pickling parsed records or the raw lines."""
    lines = first_games(base, games)

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


def steps_checked(path: Path) -> int:
    """The steps of the plays validate checks in a corpus: each roll's play and each play of passed steps."""
    steps = 0
    with gzip.open(path, "rt", encoding="utf-8") as text:
        for record in notation("ntn").read_games(text, str(path)):
            result = replay(record)
            steps += sum(turn.dice_used for turn in (*result.turns, *result.passed_plays))
    return steps


def per_turn(bases: dict[str, Path], rounds: int = 3) -> None:
    """Long and crazy against short nardy: validate's µs per turn, and per step checked, on one
    worker over each variant's base, run in alternation ``rounds`` times each, less the start-up
    (a run over the base's first game, in the same alternation: the bases differ in size, so the
    start-up would weigh more on a turn of the smaller ones); the fastest run of each is compared
    (the least disturbed by other jobs on a shared machine)."""
    runs: dict[str, list[Run]] = {variant: [] for variant in bases}
    starts: dict[str, list[Run]] = {variant: [] for variant in bases}
    with tempfile.TemporaryDirectory() as folder:
        firsts = {variant: Path(folder, f"{variant}-first.ntn.gz") for variant in bases}
        for variant, path in bases.items():
            firsts[variant].write_bytes(gzip.compress("".join(first_games(path, 1)).encode("utf-8")))
        for _ in range(rounds):
            for variant, path in bases.items():
                runs[variant].append(timed("validate", [path], 1, None))
                starts[variant].append(timed("validate", [firsts[variant]], 1, None))
        first_steps = {variant: steps_checked(path) for variant, path in firsts.items()}
    best = {variant: min(variant_runs, key=lambda run: run.seconds / run.turns)
            for variant, variant_runs in runs.items()}
    start_up = {variant: min(variant_starts, key=lambda run: run.seconds) for variant, variant_starts in starts.items()}
    turn_cost, step_cost = {}, {}
    for variant, run in best.items():
        start, steps = start_up[variant], steps_checked(bases[variant]) - first_steps[variant]
        seconds, turns = run.seconds - start.seconds, run.turns - start.turns
        if turns <= 0 or steps <= 0:  # a base of one game
            turn_cost[variant] = step_cost[variant] = 0.0
            print(run.text(variant, "  one game: no turn past the start-up to measure"), flush=True)
            continue
        turn_cost[variant], step_cost[variant] = seconds / turns, seconds / steps
        spread = sorted(round(r.turns / r.seconds) for r in runs[variant])
        print(run.text(variant, f"  {turn_cost[variant] * 1e6:.1f} µs/turn, {step_cost[variant] * 1e6:.1f} µs/step "
                                f"({steps / turns:.2f} steps a turn; less a start-up of "
                                f"{start.seconds:.2f} s; turns/s of the {rounds} runs: "
                                f"{', '.join(map(str, spread))})"), flush=True)
    for variant, name in (("long", "long-nardy"), ("gulbara", "crazy-nardy")):
        if variant not in best:
            continue
        if min(turn_cost[variant], turn_cost["short"]) <= 0:
            print(f"  a {name} turn: too few games to compare, a run took no longer than its first game")
            continue
        print(f"  a {name} turn costs {turn_cost[variant] / turn_cost['short']:.2f}x a short-nardy turn "
              f"(goal: at most 1), a step {step_cost[variant] / step_cost['short']:.2f}x a step")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10k",
                        help="Corpus sizes: 1k, 10k, 100k, 1M or a number of games (comma-separated).")
    parser.add_argument("--jobs", default="1,2",
                        help="Numbers of worker processes to compare; local:N is Dask on N local worker processes.")
    parser.add_argument("--tasks", default="validate,stats",
                        help="Commands to time: validate, stats, stats-out, stats-parquet, convert (not first).")
    parser.add_argument("--rounds", type=int, default=1, help="Runs of each command; the medians are printed.")
    parser.add_argument("--against", metavar="PYTHON",
                        help="Also run, alternating, the nardy that this Python imports (another worktree's).")
    parser.add_argument("--base", type=int, default=1000, help="Distinct games, repeated to make each corpus.")
    parser.add_argument("--short", type=int, default=2000,
                        help="Short-nardy games for the per-turn comparison (0: skip it).")
    parser.add_argument("--crazy", type=int, default=2000,
                        help="Crazy-nardy games in the per-turn comparison (0: leave crazy nardy out).")
    parser.add_argument("--players", type=int, default=0,
                        help="Draw each game's players from this many names (0: the bots' names, two players).")
    parser.add_argument("--cache", type=Path, default=Path("~/.cache/nardy-bench").expanduser(),
                        help="Where the corpora are kept between runs.")
    args = parser.parse_args()
    sizes = [SIZES[size] if size in SIZES else int(size) for size in args.sizes.split(",")]
    jobs: list[int | str] = [spec if spec.startswith("local") else int(spec) for spec in args.jobs.split(",")]
    base = base_corpus(args.cache, args.base)
    print(machine_context(jobs))
    transport(base)
    if args.short:
        print("\nper turn, validate on 1 worker:")
        bases = {"long": base, "short": base_corpus(args.cache, args.short, "short")}
        if args.crazy:
            bases["gulbara"] = base_corpus(args.cache, args.crazy, "gulbara")
        per_turn(bases)
    for games in sizes:
        path = corpus(args.cache, base, args.base, games, args.players)
        drawn = f", players drawn from {args.players} names" if args.players else ""
        print(f"\n{games} games: {args.base} distinct games repeated {games // args.base} times{drawn}, "
              f"{path} ({path.stat().st_size / 2**20:.1f} MiB gzip)", flush=True)
        counts = None
        for task in args.tasks.split(","):
            print(f" nardy {task}:")
            first = compare_jobs(task, [path], jobs, counts, args.rounds, args.against)[0]
            counts = (first.games, first.turns)


if __name__ == "__main__":
    main()
