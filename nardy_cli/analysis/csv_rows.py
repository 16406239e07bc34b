"""CSV for spreadsheets and pandas: one row per action, with the pips the replay computes.

Write-only: a spreadsheet row holds the facts of a turn, not a record to read
back (convert to JSON Lines for that). See formats/csv.md for the columns.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from nardy_cli.core.position import Position
from nardy_cli.core.sides import BLACK, OFF, SIDE_NAMES, WHITE
from nardy_cli.notations import GameWriter, Target, Warnings
from nardy_cli.record import GameRecord
from nardy_cli.replay import GameReplay, ReplayedTurn, replay

NAME = "csv"
EXTENSIONS = (".csv",)
COLUMNS = ("game", "event", "round", "white", "black", "variant", "action", "turn", "move_number", "side",
           "kind", "dice", "play", "cube_value", "pips_white_before", "pips_black_before", "pips_white_after",
           "pips_black_after", "hits", "off_white", "off_black", "legal", "finding")


@dataclass(frozen=True)
class CsvGame:
    """A game's rows as CSV text but for their first column, the game's number in the output."""

    rows: tuple[str, ...]  # each with its line end; a quoted value may hold more
    has_comments: bool


def prepare(game: GameRecord) -> CsvGame:
    """Replay ``game`` and format a row per action."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    rows = []
    result = replay(game)
    findings: dict[tuple[int, int], str] = {}
    for finding in result.findings:
        findings.setdefault((finding.line, finding.column), finding.code)
    turns = {turn.action: turn for turn in result.turns + result.passed_plays}
    afters = _positions_after(game, result, turns)
    before, turn_number = result.start, 0
    for index, action in enumerate(game.actions):
        after = afters[index]
        hits: int | str = 0
        legal: bool | str = (action.line, action.column) not in findings
        replayed = turns.get(index)
        if replayed is not None:
            turn_number = replayed.turn
            before, hits, legal = replayed.before, replayed.hits, replayed.legal
        if after is None:  # not judged: the replay stopped before it, or knows no rules for the game
            hits, legal = "", ""
        writer.writerow([
            game.tags.get("Event", ""), game.tags.get("Round", ""), game.player(WHITE),
            game.player(BLACK), game.variant, index + 1, turn_number + (replayed is None), action.number or "",
            SIDE_NAMES[action.side].lower(), action.kind,
            f"{action.dice[0]}{action.dice[1]}" if action.dice else "",
            action.play_text if action.kind in ("roll", "passed") else "",
            after.cube_value if after else "",
            *(_pips(before) + _pips(after)), hits,
            *(_off(after)), legal, findings.get((action.line, action.column), ""),
        ])
        rows.append(text.getvalue())
        text.seek(0)
        text.truncate()
        before = after
    return CsvGame(tuple(rows), bool(game.comments) or any(a.comments for a in game.actions))


def _positions_after(game: GameRecord, result: GameReplay, turns: dict[int, ReplayedTurn]) -> list[Position | None]:
    """The position after each action the replay judged (None after those): a roll's own, and a cube
    action's or a resignation's the one the next roll starts from (a take's cube turned), or the
    final position."""
    afters: list[Position | None] = [None] * len(game.actions)
    upcoming = result.final
    for index in range(result.judged_actions - 1, -1, -1):
        replayed = turns.get(index)
        afters[index] = upcoming if replayed is None else replayed.after
        if replayed is not None:
            upcoming = replayed.before
    return afters


class _CsvWriter(GameWriter[CsvGame]):
    """The header row, then every game's rows numbered; comments and tags beyond the columns are
    not carried (a warning says so once)."""

    def __init__(self, out: TextIO, warnings: Warnings) -> None:
        super().__init__(out, warnings)
        self.dropped_comments = False

    def begin(self) -> None:
        csv.writer(self.out, lineterminator="\n").writerow(COLUMNS)

    def write(self, number: int, game: CsvGame) -> None:
        self.dropped_comments = self.dropped_comments or game.has_comments
        # a number needs no quoting, so it joins the formatted rest of the row as the csv module would write it
        self.out.write("".join(f"{number},{row}" for row in game.rows))

    def end(self) -> Iterable[str]:
        return ["CSV keeps no comments: they were dropped"] if self.dropped_comments else []


TARGET = Target(prepare, _CsvWriter)
write_games = TARGET.write_games


def _pips(position) -> list:
    return [position.pips(WHITE), position.pips(BLACK)] if position is not None else ["", ""]


def _off(position) -> list:
    return [position.board(WHITE)[OFF], position.board(BLACK)[OFF]] if position is not None else ["", ""]
