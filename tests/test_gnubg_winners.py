"""Every winner nardy reads from the real corpus is the winner GNU Backgammon's import reads.

GNU Backgammon imports each real match file and saves it as SGF; the winner (left- or
right-hand player) of each of its games must be that of nardy's replay of the same file. GNU Backgammon is the judge,
never a part of nardy (see tests/gnubg_judge.py).
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from nardy_cli.notations import mat, sgf
from nardy_cli.replay import replay
from nardy_cli.scores import Result

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
FILES = sorted([*CORPORA.glob("bglab-sample/*.txt"), *CORPORA.glob("tournament/*"), *CORPORA.glob("xg/*.mat")])
FILES = [path for path in FILES if path.suffix in (".txt", ".mat")]
GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


def ours(path: Path) -> list[str | None]:
    """The winner of each game; a game without a single roll, which GNU Backgammon imports with no
    result ("No game in progress."), has none."""
    with path.open(encoding="utf-8-sig", errors="replace", newline="") as lines:
        return [replay(record).winner if any(action.kind == "roll" for action in record.actions) else None
                for record in mat.read_games(lines, str(path))]


def gnubg_saves(tmp_path: Path, inputs: list[Path]) -> list[Path]:
    """GNU Backgammon's SGF of each input (``import mat``, ``save match``), in one run."""
    commands = ["set display off"]
    saved = [tmp_path / f"{number}.sgf" for number in range(len(inputs))]
    for source, target in zip(inputs, saved):
        commands += [f'import mat "{source}"', f'save match "{target}"']
    script = tmp_path / "commands.txt"
    script.write_text("\n".join(commands) + "\n", encoding="utf-8")
    subprocess.run([GNUBG, "-t", "-q", "-c", str(script)], capture_output=True, text=True,
                   stdin=subprocess.DEVNULL, timeout=600)
    return saved


def theirs(saved: Path) -> list[str | None]:
    records = sgf.read_games(saved.read_text(encoding="utf-8").splitlines(True))
    return [(Result.parse(record.result or "") or Result(None)).winner for record in records]


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (gnubg) is not installed")
@pytest.mark.skipif(not FILES, reason="the shared corpora are not here")
def test_every_winner_agrees_with_gnubg(tmp_path: Path) -> None:
    saved = gnubg_saves(tmp_path, FILES)
    assert [path.name for path, save in zip(FILES, saved) if not save.exists()] == []  # gnubg read them all
    disagreements = [(path.name, ours(path), theirs(save)) for path, save in zip(FILES, saved)
                     if ours(path) != theirs(save)]
    assert disagreements == []
    assert sum(len(ours(path)) for path in FILES) > 850
