"""GNU Backgammon's analysis of a checker play in its SGF files (formats/sgf.md), as evaluations.

gnubg writes, on the node of a roll, ``A[i][move E ver 3 p1 p2 p3 p4 p5 equity 2C ...]...``
(the plays it evaluated, best first; ``i`` is the index of the play made; each ``E`` entry
holds five winning chances, the play's equity and its evaluation level, ``2C`` for 2-ply
cubeful; the plays gnubg did not look at more deeply come last, at fewer plies) and
``LU[luck]`` (the luck of the roll; ``-inf`` when not computed). Rollout entries (``R``) and
the cube analysis (``DA``) are not read.
"""
from __future__ import annotations

import math

from nardy_cli.record import Evaluation


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _entry(text: str) -> tuple[float, str] | None:
    """The equity and level of one ``E`` entry of ``A[]``, None for any other."""
    tokens = text.split()
    if len(tokens) < 2 or tokens[1] != "E":
        return None
    at = 4 if tokens[2:3] == ["ver"] else 2
    if len(tokens) < at + 7:
        return None
    equity = _number(tokens[at + 5])
    plies = tokens[at + 6].rstrip("C")
    if equity is None or not plies.isdigit():
        return None
    return equity, f"gnubg {plies}-ply"


def move_evaluation(plays: list[str] | None, luck: str | None) -> Evaluation | None:
    """The evaluation of a roll from the values of its ``A`` property (``plays``) and ``LU``
    (``luck``); None when they hold nothing nardy reads."""
    lucky = _number(luck.strip()) if luck is not None else None
    played = best = None
    level = ""
    if plays and len(plays) > 2 and plays[0].strip().isdigit():  # one play alone is forced: no decision
        entries = [_entry(text) for text in plays[1:]]
        index = int(plays[0].strip())
        if index < len(entries) and all(entries):
            judged = [entry for entry in entries if entry]
            played, level = judged[index]
            best = judged[0][0]  # gnubg's best, listed first: plays below it may be of fewer plies
    if played is None and lucky is None:
        return None
    return Evaluation("move", level, played, best, lucky)
