"""nardy validate and nardy stats over real match files (bglab-sample) with 1 and 2 worker
processes, against GNU Backgammon importing the same files.

Each round runs, one after the other, GNU Backgammon's ``import mat`` of every file (one
``gnubg -t -q -c FILE`` session), then ``nardy validate`` and ``nardy stats`` with each number
of workers, as users run them, each in a child process whose whole tree is sampled for peak
memory (see ``bench_scale.command_run``). On a shared machine the load changes from one minute to
the next, so the runs alternate and every figure is the median over the rounds; a ratio is the
median of the ratios within each round. ``--against PYTHON`` also runs the nardy of another
interpreter (another checkout's virtual environment) in each round, alternating with this one.
Prints, never asserts.

    python bench/bench_corpus.py [--corpus DIR] [--jobs 1,2] [--rounds 5] [--against PYTHON]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = (ROOT.parent / "shared" / "corpora" / "bglab-sample", Path("/work/shared/corpora/bglab-sample"))
# bench/ itself too: with PYTHONSAFEPATH (the tests' pure-Python runs) a script's folder is not on the path
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests")]

from bench_scale import Run, machine_context, timed  # noqa: E402  (a sibling script)

from gnubg_judge import GNUBG_CLI, run_gnubg  # noqa: E402  (a test helper)


def gnubg_import_seconds(files: list[Path]) -> float:
    """Wall seconds of one gnubg session importing every file as a match."""
    with tempfile.TemporaryDirectory() as directory:
        commands = Path(directory) / "import.txt"
        commands.write_text("".join(f"import mat {path}\n" for path in files), encoding="utf-8")
        start = time.perf_counter()
        run_gnubg(commands, timeout=3600)
        return time.perf_counter() - start


def median_line(label: str, runs: list[Run], extra: str = "") -> str:
    """One line of median figures over the rounds; peak memory is the highest of any round."""
    seconds = statistics.median(run.seconds for run in runs)
    cpu = statistics.median(run.cpu for run in runs)
    games, turns = runs[0].games, runs[0].turns
    return (f"  {label:<22} {games / seconds:8.1f} games/s {turns / seconds:9.0f} turns/s  wall {seconds:6.2f} s"
            f"  cpu {cpu:6.2f} s  peak RSS {max(run.peak_rss for run in runs) / 2**20:4.0f} MiB"
            f" (PSS {max(run.peak_pss for run in runs) / 2**20:4.0f})" + extra)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path,
                        help="The directory of .mat/.txt match files, its subdirectories too (default: bglab-sample).")
    parser.add_argument("--jobs", default="1,2", help="Numbers of worker processes to compare.")
    parser.add_argument("--rounds", type=int, default=5, help="Rounds of alternating runs; medians are printed.")
    parser.add_argument("--against", metavar="PYTHON",
                        help="Also time the nardy that this interpreter imports (e.g. another checkout's venv).")
    args = parser.parse_args()
    corpus = args.corpus or next((path for path in CORPORA if path.is_dir()), None)
    if corpus is None:
        sys.exit(f"no corpus: none of {', '.join(map(str, CORPORA))} exists (give --corpus)")
    files = sorted(path for path in corpus.rglob("*") if path.suffix in (".txt", ".mat") and path.is_file())
    jobs: list[int | str] = [int(count) for count in args.jobs.split(",")]
    pythons = {"": sys.executable} | ({" (against)": args.against} if args.against else {})
    print(machine_context(jobs))
    print(f"{corpus}: {len(files)} files, {sum(path.stat().st_size for path in files) / 2**20:.1f} MiB, "
          f"{args.rounds} rounds")
    gnubg: list[float] = []
    runs: dict[tuple[str, str, int | str], list[Run]] = defaultdict(list)
    counts: tuple[int, int] | None = None
    for _ in range(args.rounds):
        if GNUBG_CLI is not None:
            gnubg.append(gnubg_import_seconds(files))
        for count in jobs:
            for task in ("validate", "stats"):
                for name, python in pythons.items():
                    run = timed(task, files, count, counts, python)
                    counts = counts or (run.games, run.turns)
                    runs[(task, name, count)].append(run)
    for task in ("validate", "stats"):
        print(f" nardy {task}:")
        for (run_task, name, count), task_runs in runs.items():
            if run_task != task:
                continue
            extra = ""
            if gnubg:
                ratio = statistics.median(run.seconds / seconds for run, seconds in zip(task_runs, gnubg))
                extra += f"  {ratio:5.1f}x gnubg's time"
            if task == "stats":
                validate = runs[("validate", name, count)]
                ratio = statistics.median(run.seconds / other.seconds for run, other in zip(task_runs, validate))
                extra += f"  {ratio:4.2f}x validate's time"
            print(median_line(f"{count} worker{'s' if count != 1 else ''}{name}", task_runs, extra))
    if gnubg:
        games = counts[0] if counts else 0
        seconds = statistics.median(gnubg)
        print(f" gnubg import mat: {games / seconds:8.1f} games/s  wall {seconds:6.2f} s  ({GNUBG_CLI})")
    else:
        print(" gnubg is not installed: no comparison")


if __name__ == "__main__":
    main()
