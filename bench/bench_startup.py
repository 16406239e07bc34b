"""Start-up of the ``nardy`` commands: wall time and peak memory of a whole run of small commands,
where importing is most of the work (a text board should start as fast as ``nardy moves``;
only the pictures need matplotlib, and only stats's tables need pandas). The empty inputs
measure start-up alone.

Prints medians of ``--repeat`` runs, never asserts.

    python bench/bench_startup.py [--repeat 9]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = str(ROOT / "sample_games" / "long" / "kazan-cup-2026.ntn")
NARDY = str(Path(sys.executable).parent / "nardy")
USERS_ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
"""As users run nardy: Python keeps the compiled bytecode of the modules it imports (an editable
install has none until a first run writes it). Without it, every start compiles the package's
pure-Python modules again: 0.05 s a run here."""


def commands(folder: str) -> dict[str, list[str]]:
    empty = os.path.join(folder, "empty.ntn")  # start-up and nothing else
    Path(empty).touch()
    return {
        "moves long 66": ["moves", "long", "66"],
        "show (text board)": ["show", SAMPLE, "--game", "2", "--turn", "10"],
        "show --position": ["show", "--position", "long w 24x14,18 24x15 b", "--dice", "63"],
        "validate (empty)": ["validate", empty, "--allow-empty", "--jobs", "1"],
        "validate -j2 (empty)": ["validate", empty, "--allow-empty", "--jobs", "2"],
        "convert (empty)": ["convert", empty, "--allow-empty", "--to", "ntn", "--jobs", "1"],
        "validate (6 games)": ["validate", SAMPLE],
        "stats (6 games)": ["stats", SAMPLE, "--jobs", "1"],
        "show -o board.png": ["show", SAMPLE, "--game", "2", "-o", f"{folder}/board.png", "--force"],
    }


def run(arguments: list[str]) -> tuple[float, float]:
    """Seconds and peak resident megabytes of one ``nardy`` run."""
    start = time.perf_counter()
    process = subprocess.Popen([NARDY, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=USERS_ENVIRONMENT)
    _, _, usage = os.wait4(process.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        named = commands(folder)
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in named}
        for _ in range(args.repeat):  # interleaved, so a busy moment of the machine hits every command alike
            for name, arguments in named.items():
                runs[name].append(run(arguments))
    print(f"nardy start-up, median of {args.repeat} runs")
    for name, figures in runs.items():
        seconds = statistics.median(seconds for seconds, _ in figures)
        megabytes = statistics.median(megabytes for _, megabytes in figures)
        print(f"  {name:20} {seconds * 1000:6.0f} ms {megabytes:6.0f} MB")


if __name__ == "__main__":
    main()
