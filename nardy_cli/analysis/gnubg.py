"""Error rates and luck of short-nardy matches by GNU Backgammon's program (``gnubg -t``).

GNU Backgammon is GPL: nardy runs it as a separate program, never imports it. Each match (as
:mod:`nardy_cli.matches` groups them) is written as a MAT file by nardy's own MAT writer,
imported by gnubg, analysed (``analyse match``) at the plies asked for, and gnubg's own
``show statistics match`` and ``show statistics game`` of each game are read back into rows
(formats/stats-tables.md, "Analysis by GNU Backgammon").
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from typing import Any

from nardy_cli import notations
from nardy_cli.matches import Match, MatchChecker, match_game
from nardy_cli.record import GameRecord
from nardy_cli.replay import replay
from nardy_cli.run.corpus import CorpusGame

INSTALL_HINT = ("nardy analyse --engine gnubg needs GNU Backgammon's program gnubg: install it with "
                "'apt-get install gnubg' (Debian, Ubuntu), 'brew install gnubg' (macOS) or from "
                "https://www.gnu.org/software/gnubg/")
ANALYSIS_COLUMNS = ("file", "first_game", "scope", "game", "player", "opponent", "moves", "unforced_moves",
                    "checker_error", "checker_error_rate", "blunders", "cube_decisions", "cube_errors",
                    "cube_error", "cube_error_rate", "error", "error_rate", "luck", "luck_rate", "rating")
SECTIONS = {"Chequerplay statistics": "checker", "Luck statistics": "luck", "Cube statistics": "cube",
            "Overall statistics": "overall"}
CUBE_ERROR_LINES = ("Missed doubles below CP", "Missed doubles above CP", "Wrong doubles below DP",
                    "Wrong doubles above TG", "Wrong takes", "Wrong passes")
LABEL_WIDTH, VALUE_WIDTH = 41, 24  # gnubg's columns of a statistics line (counted in bytes)
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


class GnubgError(Exception):
    """gnubg could not analyse a match: it is missing, failed or took too long."""


def find_gnubg() -> str | None:
    """The gnubg program: on the PATH, or where Debian puts it."""
    return shutil.which("gnubg") or ("/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None)


def commands(mat_path: str, games: int, plies: int) -> str:
    """The gnubg commands that analyse the match of ``mat_path`` and show its statistics, then each game's."""
    lines = ["set display off", f"set analysis chequerplay evaluation plies {plies}",
             f"set analysis cubedecision evaluation plies {plies}", f'import mat "{mat_path}"', "analyse match",
             "show statistics match", "first game", "show statistics game"]
    lines += ["next game", "show statistics game"] * (games - 1)
    return "\n".join(lines) + "\n"


def run_gnubg(program: str, records: Iterable[GameRecord], games: int, *, plies: int = 0,
              timeout: float = 600) -> str:
    """gnubg's output for the match of ``records``, written as MAT; :class:`GnubgError` when it fails."""
    with tempfile.TemporaryDirectory(prefix="nardy-gnubg-") as folder:
        mat_path = os.path.join(folder, "match.mat")
        with open(mat_path, "w", encoding="utf-8") as out:
            notations.writer("mat")(records, out)
        script = os.path.join(folder, "commands.txt")
        with open(script, "w", encoding="utf-8") as out:
            out.write(commands(mat_path, games, plies))
        env = {**os.environ, "HOME": folder, "LC_ALL": "C.UTF-8", "LANGUAGE": ""}
        try:
            done = subprocess.run([program, "-t", "-q", "-r", "-s", folder, "-c", script], capture_output=True,
                                  env=env, timeout=timeout, stdin=subprocess.DEVNULL, check=False)
        except subprocess.TimeoutExpired:
            raise GnubgError(f"gnubg took longer than {timeout:g} s (--timeout)") from None
        except OSError as error:
            raise GnubgError(f"cannot run {program}: {error.strerror or error}") from None
    output = done.stdout.decode("utf-8", "replace")
    if done.returncode != 0 or "Player" not in output:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GnubgError(f"gnubg failed (status {done.returncode}){': ' + message[-1] if message else ''}")
    return output


def statistics_blocks(output: str) -> list[tuple[tuple[str, str], dict[tuple[str, str], tuple[str, str]]]]:
    """Each statistics block of gnubg's output: its two players' names and {(section, label): (first
    player's value, second's)}."""
    blocks: list[tuple[tuple[str, str], dict[tuple[str, str], tuple[str, str]]]] = []
    section = ""
    for line in output.splitlines():
        if line.startswith("Player "):
            names = re.split(r"\s{2,}", line[len("Player"):].strip())
            blocks.append(((names[0], names[1] if len(names) > 1 else ""), {}))
            section = ""
        elif not blocks:
            continue
        elif line.strip() in SECTIONS:
            section = SECTIONS[line.strip()]
        elif len(line.encode()) > LABEL_WIDTH and section:
            raw = line.encode()
            label = raw[:LABEL_WIDTH].decode(errors="replace").strip()
            first = raw[LABEL_WIDTH:LABEL_WIDTH + VALUE_WIDTH].decode(errors="replace").strip()
            second = raw[LABEL_WIDTH + VALUE_WIDTH:].decode(errors="replace").strip()
            label = re.sub(r"\s+\(?m?EMG( \(MWC\))?\)?$", "", label)  # "Error rate mEMG (MWC)": "Error rate"
            blocks[-1][1][(section, label)] = (first, second)
    return blocks


def _number(text: str) -> float | None:
    found = _NUMBER.search(text)
    return float(found.group()) if found else None


def _count(text: str) -> int:
    value = _number(text)
    return int(value) if value is not None else 0


def block_rows(names: tuple[str, str], values: dict[tuple[str, str], tuple[str, str]]) -> list[dict[str, Any]]:
    """The two players' rows (:data:`ANALYSIS_COLUMNS` without where) of one statistics block.

    Errors and luck are in EMG (gnubg's "normalised" equity), negative for errors; rates in
    milli-EMG a decision (error rate ×1000)."""
    rows = []
    for column, (player, opponent) in enumerate((names, names[::-1])):
        def value(section: str, label: str, column: int = column) -> str:
            return values.get((section, label), ("", ""))[column]

        rows.append({
            "player": player, "opponent": opponent,
            "moves": _count(value("checker", "Total moves")),
            "unforced_moves": _count(value("checker", "Unforced moves")),
            "checker_error": _number(value("checker", "Error total")),
            "checker_error_rate": _number(value("checker", "Error rate")),
            "blunders": _count(value("checker", "Moves marked very bad")),
            "cube_decisions": _count(value("cube", "Close or actual cube decisions")),
            "cube_errors": sum(_count(value("cube", label)) for label in CUBE_ERROR_LINES),
            "cube_error": _number(value("cube", "Error total")),
            "cube_error_rate": _number(value("cube", "Error rate")),
            "error": _number(value("overall", "Error total")),
            "error_rate": _number(value("overall", "Error rate")),
            "luck": _number(value("luck", "Luck total")),
            "luck_rate": _number(value("luck", "Luck rate")),
            "rating": value("overall", "Overall rating") or None,
        })
    return rows


def analysis_rows(output: str, source: str, first_game: int) -> list[dict[str, Any]]:
    """The rows of one analysed match: the match's two players, then each game's."""
    rows = []
    for number, (names, values) in enumerate(statistics_blocks(output)):
        where = {"file": source, "first_game": first_game, "scope": "game" if number else "match",
                 "game": number or None}
        rows += [{**where, **row} for row in block_rows(names, values)]
    return rows


def short_matches(games: Iterable[CorpusGame], rules: tuple[str, ...] = ()
                  ) -> Iterator[tuple[Match, list[GameRecord]]]:
    """Each short-nardy match of ``games`` (in corpus order), as :class:`~nardy_cli.matches.MatchChecker`
    groups them, with its records, as soon as it ends: what gnubg can analyse."""
    checker = MatchChecker()
    records: dict[int, list[tuple[GameRecord, str]]] = {}  # each game of a match with its variant, as replayed

    def ended() -> Iterator[tuple[Match, list[GameRecord]]]:
        for match in checker.ended():
            kept = records.pop(id(match), [])
            if kept and all(variant == "short" for _, variant in kept):
                yield match, [record for record, _ in kept]

    for game in games:
        result = replay(game.record, rules)
        checker.add(match_game(game.source, game.index, game.record, result))
        if checker.current is not None:
            records.setdefault(id(checker.current), []).append((game.record, result.variant))
        yield from ended()
    checker.close()
    yield from ended()
