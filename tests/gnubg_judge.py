"""An independent judge for tests: the legal plays of a backgammon position, by GNU Backgammon.

Board representation (as in ``nardy_cli.notations.gnubg_ids``): a side is a 26-tuple in
its own numbering, [0] borne off, [1..24] points, [25] bar; one side's point
``p`` is the other's ``25 - p``. ``legal_results(on_roll, opponent, dice)``
returns the set of distinct positions that the legal plays lead to, each as
``(mover_after, opponent_after)`` -- the sides are NOT swapped; the opponent's
hit checkers are on its bar, index 25; if nothing can be played the only
result is the position itself.

Two ways to ask gnubg, chosen with ``via``:

* ``"module"``: the PyPI ``gnubg`` module, in process (well under a
  millisecond a position). ``gnubg.findbestmoves(board, cubeinfo,
  evalcontext, dice)`` takes ``board = (opponent, on_roll)``, each 25 counts
  (index i = point i+1 in that side's own numbering, index 24 = bar, nothing
  for borne off) and moves ``board[1]``; it returns one entry per distinct
  resulting position, ``{"move": (from, to, from, to, ...), "score": ...}``
  with points 1..24 in the mover's numbering, 25 = bar, 0 = off. LIMITATION:
  the tuple stops at the first 0, so a play that bears off is cut short there
  (6/off 5/off comes back as ``(6,)``) and its result is unknown. Such plays
  are detected (odd length); ``safe_to_compare`` tells beforehand, cheaply and
  conservatively, whether a roll can involve a bear-off.
* ``"cli"``: the Debian ``gnubg`` program, one process per batch: for each
  position ``set gnubgid PositionID:MatchID`` (player 1 on roll) and ``hint``
  at cubeless 0-ply, which lists every legal play in gnubg's notation
  (``bar/22*/21``, ``13/7(2)``, ``6/off``), parsed here. About 0.3 s a batch.
* ``"auto"`` (default): the module, and the CLI for the positions where the
  module cut a play short (or for all of them without the module).

Hits are not taken from gnubg's ``*`` marks but from the board: a checker
landing on a lone opposing checker sends it to the bar (gnubg writes an
intermediate point whenever a hit happens there).

``run_gnubg(command_file)`` runs ``gnubg -t -q -r -c FILE`` for tests that feed
gnubg other commands (e.g. importing .mat files and looking for warnings).

Tests call ``require_gnubg_module()`` / ``require_gnubg_cli()`` first: they
skip when gnubg is missing, except under CI (environment variable ``CI`` set),
which installs gnubg with ``.ci/install-judges.sh``: there they fail.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import pytest

from nardy_cli.notations.gnubg_ids import BAR, OFF, MatchState, Side, check_board, match_id, position_id

try:
    import gnubg as gnubg_module
except ImportError:  # the judge then falls back to the CLI, or tests skip
    gnubg_module = None

Position = tuple[Side, Side]
Dice = tuple[int, int]
Case = tuple[Side, Side, Dice]
Via = Literal["auto", "module", "cli"]

GNUBG_CLI: str | None = shutil.which("gnubg") or (
    "/usr/games/gnubg" if os.access("/usr/games/gnubg", os.X_OK) else None
)
INSTALL_HINT = "install it with .ci/install-judges.sh"


def side(**points: int) -> Side:
    """A side for tests from ``p6=5, bar=1``-style counts; the rest of its 15 checkers are borne off."""
    counts = [0] * 26
    for name, n in points.items():
        counts[BAR if name == "bar" else int(name.removeprefix("p"))] = n
    counts[OFF] = 15 - sum(counts)
    return tuple(counts)


OPENING = side(p24=2, p13=5, p8=3, p6=5)


class JudgeUnavailable(RuntimeError):
    """The judge cannot answer: gnubg is missing, or the module cut a bear-off short."""


def _require(present: bool, what: str) -> None:
    if present:
        return
    reason = f"{what} is not installed; {INSTALL_HINT}"
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must run these tests, not skip them)")
    pytest.skip(reason)


def require_gnubg_module() -> None:
    """Skip the calling test without the PyPI gnubg module (fail under CI)."""
    _require(gnubg_module is not None, "the gnubg Python module (pip install gnubg)")


def require_gnubg_cli() -> None:
    """Skip the calling test without the gnubg program (fail under CI)."""
    _require(GNUBG_CLI is not None, "the gnubg program (apt-get install gnubg)")


def safe_to_compare(on_roll: Side, dice: Dice) -> bool:
    """True when the mover cannot bear off during this roll, so the module's answer is complete.

    Bearing off needs every checker home and then one more die: with pips
    ``need`` still to bring home (a bar checker counts 19), that takes
    ``need <= max die`` for a non-double and ``need <= 3 * die`` for a double.
    """
    need = sum(on_roll[p] * (p - 6) for p in range(7, BAR + 1))
    d1, d2 = dice
    return need > (3 * d1 if d1 == d2 else max(d1, d2))


def _apply(on_roll: Side, opponent: Side, steps: Sequence[tuple[int, int]]) -> Position:
    """Play single-checker steps (from, to; 25 = bar, 0 = off), hitting lone opposing checkers."""
    me, opp = list(on_roll), list(opponent)
    for src, dst in steps:
        if not me[src]:
            raise AssertionError(f"gnubg moved from an empty point {src}: {steps}")
        me[src] -= 1
        me[dst] += 1
        if dst != OFF and opp[25 - dst]:
            if opp[25 - dst] > 1:
                raise AssertionError(f"gnubg landed on the opponent's made point {dst}: {steps}")
            opp[25 - dst] = 0
            opp[BAR] += 1
    return tuple(me), tuple(opp)


def _module_results(on_roll: Side, opponent: Side, dice: Dice) -> frozenset[Position] | None:
    """The results by the PyPI module, or None when it cut a bear-off short."""
    board = (tuple(opponent[1:]), tuple(on_roll[1:]))
    # money game, centred cube, player 1 (board[1]) on roll; cubeless 0-ply: only the list of plays matters
    cubeinfo = gnubg_module.cubeinfo(1, -1, 1, 0, (0, 0), 0)
    evalcontext = gnubg_module.evalcontext(0, 0, 1, 0, 0.0)
    moves = gnubg_module.findbestmoves(board, cubeinfo, evalcontext, dice)
    plays = [m["move"] for m in moves]
    if any(len(play) % 2 for play in plays):
        return None
    return frozenset(
        _apply(on_roll, opponent, list(zip(play[::2], play[1::2]))) for play in plays
    ) or frozenset({(tuple(on_roll), tuple(opponent))})


_HINT_LINE = re.compile(r"^\s*\d+\.\s+Cubeless 0-ply\s+(?P<play>\S.*?)\s+Eq\.:")
_NOTATION = re.compile(r"(?P<path>(?:bar|\d+)(?:/(?:\d+|off)\*?)+)(?:\((?P<count>\d+)\))?")
_CLI_SETUP = (
    "set player 0 human",
    "set player 1 human",
    "set evaluation chequerplay evaluation plies 0",
    "set evaluation chequerplay evaluation cubeful off",
)


def _parse_play(text: str) -> list[tuple[int, int]]:
    """Single-checker steps of a play in gnubg notation, e.g. ``bar/22*/21 13/7(2)``."""
    steps: list[tuple[int, int]] = []
    for token in text.split():
        m = _NOTATION.fullmatch(token)
        if not m:
            raise AssertionError(f"unexpected gnubg notation {token!r} in {text!r}")
        points = [
            BAR if p == "bar" else OFF if p == "off" else int(p)
            for p in m["path"].replace("*", "").split("/")
        ]
        steps += list(itertools.pairwise(points)) * int(m["count"] or 1)
    return steps


def _cli_results(cases: Sequence[Case]) -> list[frozenset[Position]]:
    """The results of each case by one run of the gnubg program."""
    ids = [
        f"{position_id(on_roll, opponent)}:{match_id(MatchState(player_on_roll=1, turn=1, dice=dice))}"
        for on_roll, opponent, dice in cases
    ]
    commands = [*_CLI_SETUP, *(line for gid in ids for line in (f"set gnubgid {gid}", "hint 100000"))]
    with tempfile.TemporaryDirectory() as tmp:
        command_file = Path(tmp, "judge.gnubg")
        command_file.write_text("\n".join(commands) + "\n")
        stdout, stderr = run_gnubg(command_file, timeout=60 + len(cases))
    sections = re.split(r"^Setting GNUbg ID (\S+)$", stdout, flags=re.MULTILINE)
    if sections[1::2] != ids:
        raise AssertionError(f"gnubg did not take every position (stderr: {stderr!r}):\n{stdout[-3000:]}")
    results = []
    for (on_roll, opponent, _dice), section in zip(cases, sections[2::2]):
        plays = [m["play"] for m in map(_HINT_LINE.match, section.splitlines()) if m]
        if not plays and "There are no legal moves." not in section:
            raise AssertionError(f"no hint from gnubg for {on_roll}, {opponent}:\n{section}")
        results.append(
            frozenset(_apply(on_roll, opponent, _parse_play(play)) for play in plays)
            or frozenset({(tuple(on_roll), tuple(opponent))})
        )
    return results


def legal_results_many(
    cases: Sequence[Case], via: Via = "auto"
) -> list[frozenset[Position]]:
    """For each ``(on_roll, opponent, dice)``, the distinct ``(mover, opponent)`` results of its legal plays."""
    for on_roll, opponent, dice in cases:
        check_board(on_roll, opponent)
        if len(dice) != 2 or any(d not in range(1, 7) for d in dice):
            raise ValueError(f"dice must be two values 1-6, got {dice!r}")
    results: list[frozenset[Position] | None] = [None] * len(cases)
    if via != "cli" and gnubg_module is not None:
        results = [_module_results(*case) for case in cases]
        if via == "module" and None in results:
            cut = cases[results.index(None)]
            raise JudgeUnavailable(
                f"the gnubg module cuts plays short at the first bear-off, e.g. in {cut}; "
                "check safe_to_compare() first or use via='auto'"
            )
    elif via == "module":
        raise JudgeUnavailable(f"the gnubg Python module is not installed; {INSTALL_HINT}")
    todo = [i for i, r in enumerate(results) if r is None]
    if todo:
        if GNUBG_CLI is None:
            raise JudgeUnavailable(f"the gnubg program is needed here but not installed; {INSTALL_HINT}")
        for i, r in zip(todo, _cli_results([cases[i] for i in todo])):
            results[i] = r
    return [r for r in results if r is not None]


def legal_results(
    on_roll: Side, opponent: Side, dice: Dice, via: Via = "auto"
) -> frozenset[Position]:
    """The distinct ``(mover, opponent)`` positions that the legal plays of ``dice`` lead to."""
    return legal_results_many([(on_roll, opponent, dice)], via)[0]


def run_gnubg(command_file: str | os.PathLike[str], timeout: float = 60.0) -> tuple[str, str]:
    """Run ``gnubg -t -q -r -c command_file`` and return its (stdout, stderr).

    gnubg reads no rc file (``-r``) and keeps its preferences in a throw-away
    directory; messages are in English (``LC_ALL=C.UTF-8``). Raises
    ``subprocess.TimeoutExpired`` after ``timeout`` seconds, RuntimeError if
    gnubg exits with an error status, JudgeUnavailable if it is not installed.
    """
    if GNUBG_CLI is None:
        raise JudgeUnavailable(f"the gnubg program is not installed; {INSTALL_HINT}")
    with tempfile.TemporaryDirectory() as prefs:
        env = {**os.environ, "HOME": prefs, "LC_ALL": "C.UTF-8", "LANGUAGE": ""}
        proc = subprocess.run(
            [GNUBG_CLI, "-t", "-q", "-r", "-s", prefs, "-c", os.fspath(command_file)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            env=env,
            timeout=timeout,
            check=False,
        )
    if proc.returncode:
        raise RuntimeError(f"gnubg exited with status {proc.returncode}: {proc.stderr[-2000:]}")
    return proc.stdout, proc.stderr
