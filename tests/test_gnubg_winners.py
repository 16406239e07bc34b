"""Every winner nardy reads from the real corpus is the winner GNU Backgammon's import reads.

GNU Backgammon imports each real match file and saves it as SGF; the winner (left- or
right-hand player) of each of its games must be that of nardy's replay of the same file. GNU Backgammon is the judge,
never a part of nardy (see tests/gnubg_judge.py).
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from locations import corpus_files
from nardy_cli.core.engine import game_outcome
from nardy_cli.core.scores import Result, Score, is_money, match_length, resignation_level
from nardy_cli.notations import mat, sgf
from nardy_cli.record import GameRecord
from nardy_cli.replay import replay

FILES = [path for path in corpus_files("bglab-sample/*.txt", "tournament/*", "xg/*.mat")
         if path.suffix in (".txt", ".mat")]


def ours(path: Path) -> list[str | None]:
    """The winner of each game; a game without a single roll, which GNU Backgammon imports with no
    result ("No game in progress."), has none."""
    with path.open(encoding="utf-8-sig", errors="replace", newline="") as lines:
        return [replay(record).winner if any(action.kind == "roll" for action in record.actions) else None
                for record in mat.read_games(lines, str(path))]


def gnubg_saves(gnubg: str, tmp_path: Path, inputs: list[Path], load: str = "import mat"
                ) -> tuple[list[Path], list[str]]:
    """GNU Backgammon's SGF of each input (``import mat`` or ``load match``, then ``save match``),
    in one run, and the lines in which it complained."""
    commands = ["set display off"]
    saved = [tmp_path / f"gnubg{number}.sgf" for number in range(len(inputs))]
    for source, target in zip(inputs, saved):
        commands += [f'{load} "{source}"', f'save match "{target}"']
    script = tmp_path / "commands.txt"
    script.write_text("\n".join(commands) + "\n", encoding="utf-8")
    run = subprocess.run([gnubg, "-t", "-q", "-c", str(script)], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=600)
    complaints = [line for line in (run.stdout + run.stderr).splitlines()
                  if re.search(r"(?i)warning|error|unrecognised|invalid", line)]
    return saved, complaints


def theirs(saved: Path) -> list[str | None]:
    records = sgf.read_games(saved.read_text(encoding="utf-8").splitlines(True))
    return [(Result.parse(record.result or "") or Result(None)).winner for record in records]


@pytest.mark.slow
@pytest.mark.skipif(not FILES, reason="the shared corpora are not here")
def test_every_winner_agrees_with_gnubg(gnubg: str, tmp_path: Path) -> None:
    saved, _ = gnubg_saves(gnubg, tmp_path, FILES)  # it complains of Galaxy's "Losses" lines
    assert [path.name for path, save in zip(FILES, saved) if not save.exists()] == []  # gnubg read them all
    disagreements = [(path.name, ours(path), theirs(save)) for path, save in zip(FILES, saved)
                     if ours(path) != theirs(save)]
    assert disagreements == []
    assert sum(len(ours(path)) for path in FILES) > 850


def expected(record: GameRecord) -> tuple[str | None, int | None]:
    """The winner and the points GNU Backgammon gives a game: a played-out game's full value, a
    dropped cube's value, a resignation's level times the cube (a server's capped figure is not
    what GNU Backgammon keeps)."""
    result = replay(record)
    points = result.points
    # a played-out game's value, not a server's house rule
    if result.ending == "finish" and result.final is not None and result.rules is not None:
        outcome = game_outcome(result.rules, result.final, money=is_money(match_length(record.tags.get("MatchLength"))))
        points = outcome.points if outcome else points
    if result.ending == "resign" and points is not None and result.winner is not None and result.final is not None:
        cube = result.final.cube_value
        score = Score.parse(record.tags.get("Score")) or Score()
        level = resignation_level(points, cube, score.of(result.winner), match_length(record.tags.get("MatchLength")))
        points = level * cube if level else points
    return result.winner, points


def gnubg_results(save: Path) -> list[tuple[str | None, int | None]]:
    results = [Result.parse(record.result or "") or Result(None)
               for record in sgf.read_games(save.read_text(encoding="utf-8").splitlines(True))]
    return [(result.winner, result.points if result.winner else None) for result in results]


@pytest.mark.slow
@pytest.mark.skipif(not FILES, reason="the shared corpora are not here")
@pytest.mark.parametrize("notation", ["mat", "sgf"])
def test_gnubg_reads_the_same_winners_points_and_resignations_in_what_nardy_writes(gnubg: str, tmp_path: Path,
                                                                                  notation: str) -> None:
    written, games = [], []
    for number, path in enumerate(FILES):
        with path.open(encoding="utf-8-sig", errors="replace", newline="") as lines:
            records = list(mat.read_games(lines, str(path)))
        target = tmp_path / f"nardy{number}.{notation}"
        with target.open("w", encoding="utf-8") as out:
            (mat if notation == "mat" else sgf).write_games(records, out)
        written.append(target)
        # GNU Backgammon imports no result for a MAT game without a single roll ("No game in progress.")
        games.append([expected(record) if notation == "sgf" or any(action.kind == "roll" for action in record.actions)
                      else (None, None) for record in records])
    saved, complaints = gnubg_saves(gnubg, tmp_path, written, "import mat" if notation == "mat" else "load match")
    assert complaints == []
    disagreements = [(path.name, ours_, gnubg_results(save)) for path, save, ours_ in zip(FILES, saved, games)
                     if ours_ != gnubg_results(save)]
    assert disagreements == []
