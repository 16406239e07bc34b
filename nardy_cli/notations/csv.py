"""CSV for spreadsheets and pandas: one row per action, with the pips the replay computes.

Write-only: a spreadsheet row holds the facts of a turn, not a record to read
back (convert to JSON Lines for that). See formats/csv.md for the columns.
"""
from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import TextIO

from ..record import OFF, SIDE_NAMES, WHITE, BLACK, GameRecord
from ..replay import replay

NAME = "csv"
EXTENSIONS = (".csv",)
COLUMNS = ("game", "event", "round", "white", "black", "variant", "action", "turn", "move_number", "side",
           "kind", "dice", "play", "cube_value", "pips_white_before", "pips_black_before", "pips_white_after",
           "pips_black_after", "hits", "off_white", "off_black", "legal", "finding")


def write_games(games: Iterable[GameRecord], out: TextIO) -> list[str]:
    """Replay each game and write a row per action; comments and tags beyond the
    columns are not carried (a warning says so once)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    dropped = False
    for number, game in enumerate(games, 1):
        dropped = dropped or bool(game.comments) or any(a.comments for a in game.actions)
        result = replay(game)
        findings = {}
        for finding in result.findings:
            findings.setdefault((finding.line, finding.column), finding.code)
        turns = {turn.action: turn for turn in result.turns}
        position = result.start
        turn_number = 0
        for index, action in enumerate(game.actions):
            before, hits = position, 0
            legal = (action.line, action.column) not in findings
            replayed = turns.get(index)
            if replayed is not None:
                turn_number = replayed.turn
                before, position = replayed.before, replayed.after
                hits, legal = replayed.hits, replayed.legal
            after = position
            writer.writerow([
                number, game.tags.get("Event", ""), game.tags.get("Round", ""), game.player(WHITE),
                game.player(BLACK), game.variant, index + 1, turn_number + (replayed is None), action.number or "",
                SIDE_NAMES[action.side].lower(), action.kind,
                f"{action.dice[0]}{action.dice[1]}" if action.dice else "",
                action.play_text if action.kind == "roll" else "",
                after.cube_value if after else "",
                *(_pips(before) + _pips(after)), hits,
                *(_off(after)), legal, findings.get((action.line, action.column), ""),
            ])
    return ["CSV keeps no comments: they were dropped"] if dropped else []


def _pips(position) -> list:
    return [position.pips(WHITE), position.pips(BLACK)] if position is not None else ["", ""]


def _off(position) -> list:
    return [position.board(WHITE)[OFF], position.board(BLACK)[OFF]] if position is not None else ["", ""]

