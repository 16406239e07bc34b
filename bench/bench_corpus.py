"""Reading and validating real match files (bglab-sample) with 1 and 2 worker processes,
and, when GNU Backgammon is installed, gnubg importing the same files, for comparison.

Prints games/s and turns/s for each number of workers, then gnubg's time for ``import mat``
of every file in one ``gnubg -t -q -c FILE`` session and how many times faster or slower
nardy is. Prints, never asserts.

    python bench/bench_corpus.py [--corpus DIR] [--jobs 1,2]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bench_scale import compare_jobs, machine_context

ROOT = Path(__file__).resolve().parent.parent
CORPORA = (ROOT.parent / "shared" / "corpora" / "bglab-sample", Path("/work/shared/corpora/bglab-sample"))
sys.path.insert(0, str(ROOT / "tests"))

from gnubg_judge import GNUBG_CLI, run_gnubg  # noqa: E402  (a test helper: tests/ is put on the path above)


def gnubg_import_seconds(files: list[Path]) -> float:
    """Wall seconds of one gnubg session importing every file as a match."""
    with tempfile.TemporaryDirectory() as directory:
        commands = Path(directory) / "import.txt"
        commands.write_text("".join(f"import mat {path}\n" for path in files), encoding="utf-8")
        start = time.perf_counter()
        run_gnubg(commands, timeout=3600)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="The directory of .mat/.txt match files (default: bglab-sample).")
    parser.add_argument("--jobs", default="1,2", help="Numbers of worker processes to compare.")
    args = parser.parse_args()
    corpus = args.corpus or next((path for path in CORPORA if path.is_dir()), None)
    if corpus is None:
        sys.exit(f"no corpus: none of {', '.join(map(str, CORPORA))} exists (give --corpus)")
    files = sorted(path for path in corpus.iterdir() if path.suffix in (".txt", ".mat"))
    jobs = [int(count) for count in args.jobs.split(",")]
    print(machine_context(jobs))
    print(f"{corpus}: {len(files)} files, {sum(path.stat().st_size for path in files) / 2**20:.1f} MiB")
    print(" nardy validate:")
    runs = compare_jobs("validate", files, jobs, None)
    if GNUBG_CLI is None:
        print("gnubg is not installed: no comparison")
        return
    seconds = gnubg_import_seconds(files)
    games = runs[0].games
    print(f" gnubg import mat: {games / seconds:8.1f} games/s  wall {seconds:7.1f} s  ({GNUBG_CLI})")
    for run, count in zip(runs, jobs):
        print(f"  nardy with {count} worker{'s' if count > 1 else ''}: {seconds / run.seconds:.2f} times gnubg's speed")


if __name__ == "__main__":
    main()
