"""Certifying records: replay every game of a corpus and report each finding where it stands."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .corpus import CorpusGame
from .record import SIDE_NAMES
from .replay import GameFinding, GameReplay, replay, tag_findings

R = TypeVar("R")


@dataclass
class Summary:
    """Counts over a validation run."""

    files: set[str] = field(default_factory=set)
    games: int = 0
    turns: int = 0
    legal_games: int = 0
    findings: Counter = field(default_factory=Counter)
    unreadable: int = 0
    rules: Counter = field(default_factory=Counter)  # games judged under each rule set

    def add(self, game: CorpusGame, result: GameReplay) -> None:
        self.files.add(game.source)
        self.games += 1
        self.turns += len(result.turns)
        self.legal_games += result.legal
        self.findings.update(finding.code for finding in result.findings)
        self.rules[str(result.rules)] += 1

    def merge(self, other: "Summary") -> None:
        self.files |= other.files
        self.games += other.games
        self.turns += other.turns
        self.legal_games += other.legal_games
        self.findings.update(other.findings)
        self.unreadable += other.unreadable
        self.rules.update(other.rules)

    def text(self) -> str:
        total = sum(self.findings.values())
        by_code = ", ".join(f"{code} {n}" for code, n in sorted(self.findings.items()))
        text = ", ".join([_count(len(self.files), "file"), _count(self.games, "game"), _count(self.turns, "turn"),
                          _count(self.legal_games, "legal game"), _count(total, "finding")])
        text += f" ({by_code})" if by_code else ""
        if self.unreadable:
            text += ", " + _count(self.unreadable, "unreadable input")
        for rules, games in sorted(self.rules.items()):
            text += f"\nrules: {rules} ({_count(games, 'game')})"
        return text

    def as_dict(self) -> dict[str, Any]:
        return {"files": len(self.files), "games": self.games, "turns": self.turns,
                "legal_games": self.legal_games, "findings_by_code": dict(sorted(self.findings.items())),
                "unreadable": self.unreadable, "rules": dict(sorted(self.rules.items()))}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def validate_games(games: Iterator[CorpusGame], overrides: tuple[str, ...] = ()
                   ) -> Iterator[tuple[CorpusGame, GameReplay]]:
    """Replay each game under its rules with ``overrides`` applied."""
    for game in games:
        yield game, replay(game.record, overrides, crawford=game.crawford)


def with_tag_findings(game: CorpusGame, result: GameReplay, build: Callable[[CorpusGame, GameReplay], R]) -> R:
    """``build(game, result)`` with a finding for each unknown tag (``validate --strict``)."""
    result.findings.extend(tag_findings(game.record))
    result.findings.sort(key=lambda finding: (finding.line, finding.column))
    return build(game, result)


def finding_line(game: CorpusGame, finding: GameFinding) -> str:
    """One compiler-style line: ``file:line:col: game N (White – Black), move 7 White 63: ...: code: message``."""
    where = f"{game.source}:{finding.line}:{finding.column}"
    what = f"game {game.index} ({game.record.title()})"
    if finding.action and finding.action != "result":
        move = f"move {finding.move_number} " if finding.move_number is not None else ""
        side = f"{SIDE_NAMES[finding.side]} " if finding.side else ""
        what += f", {move}{side}{finding.action}"
    return f"{where}: {what}: {finding}"


def finding_dict(game: CorpusGame, result: GameReplay, finding: GameFinding) -> dict[str, Any]:
    """A finding as the JSON output of ``nardy validate`` lists it."""
    return {"path": game.source, "game": game.index, "turn": finding.turn,
            "move_number": finding.move_number,
            "side": SIDE_NAMES[finding.side].lower() if finding.side else None,
            "line": finding.line, "column": finding.column, "code": finding.code,
            "message": finding.message, "option": finding.option, "action": finding.action,
            "rules": str(result.rules)}
