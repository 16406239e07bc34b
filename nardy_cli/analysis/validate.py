"""Certifying records: replay every game of a corpus and report each finding where it stands."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple, Protocol, TypeVar

from nardy_cli.core.sides import SIDE_NAMES
from nardy_cli.matches import MatchChecker, MatchGame, match_game
from nardy_cli.replay import GameFinding, GameReplay, replay, tag_findings
from nardy_cli.run.corpus import CorpusGame

R = TypeVar("R")


class Summary:
    """Counts over a validation run.

    A plain class, not a dataclass: defining one compiles its generated methods at every start
    (see :class:`~nardy_cli.cli.options.Corpus`)."""

    __slots__ = ("files", "games", "turns", "legal_games", "findings", "unreadable", "rules", "notes", "matches",
                 "complete_matches")

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.games = self.turns = self.legal_games = self.unreadable = self.notes = 0
        self.findings: Counter[str] = Counter()
        self.rules: Counter[str] = Counter()  # games judged under each rule set
        self.matches = self.complete_matches = 0

    def add(self, game: Validated) -> None:
        """Count one validated game."""
        self.files.add(game.source)
        self.games += 1
        self.turns += game.turns
        self.legal_games += game.legal
        if game.findings:  # Counter.update costs as much as all the rest of a game's counting
            self.findings.update(finding["code"] for finding in game.findings)
        self.notes += len(game.notes)
        self.rules[game.rules] += 1

    def text(self) -> str:
        total = sum(self.findings.values())
        by_code = ", ".join(f"{code} {n}" for code, n in sorted(self.findings.items()))
        counts = [_count(len(self.files), "file"), _count(self.games, "game")]
        if self.matches:
            counts.append(f"{_count(self.matches, 'match')} ({self.complete_matches} complete)")
        counts += [_count(self.turns, "turn"), _count(self.legal_games, "legal game"), _count(total, "finding")]
        text = ", ".join(counts)
        text += f" ({by_code})" if by_code else ""
        if self.notes:
            text += ", " + _count(self.notes, "note")
        if self.unreadable:
            text += ", " + _count(self.unreadable, "unreadable input")
        for rules, games in sorted(self.rules.items()):
            text += f"\nrules: {rules} ({_count(games, 'game')})"
        return text

    def as_dict(self) -> dict[str, Any]:
        return {"files": len(self.files), "games": self.games, "turns": self.turns,
                "legal_games": self.legal_games, "findings_by_code": dict(sorted(self.findings.items())),
                "unreadable": self.unreadable, "rules": dict(sorted(self.rules.items())), "notes": self.notes,
                "matches": self.matches, "complete_matches": self.complete_matches}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}{'es' if noun.endswith('ch') else 's'}"


def validate_games(games: Iterator[CorpusGame], overrides: tuple[str, ...] = ()
                   ) -> Iterator[tuple[CorpusGame, GameReplay]]:
    """Replay each game under its rules with ``overrides`` applied."""
    for game in games:
        yield game, replay(game.record, overrides)


def with_tag_findings(game: CorpusGame, result: GameReplay, build: Callable[[CorpusGame, GameReplay], R]) -> R:
    """``build(game, result)`` with a finding for each unknown tag (``validate --strict``)."""
    result.findings.extend(tag_findings(game.record))
    result.findings.sort(key=lambda finding: (not finding.line, finding.line, finding.column))
    return build(game, result)


class Placed(Protocol):
    """A game's place in a corpus: its input, its index there, ``White – Black``."""

    @property
    def source(self) -> str: ...

    @property
    def index(self) -> int: ...

    @property
    def title(self) -> str: ...


def finding_line(game: Placed, finding: GameFinding) -> str:
    """One compiler-style line: ``file:line:col: game N (White – Black), move 7 White 63: ...: code: message``."""
    where = f"{game.source}:{finding.line}:{finding.column}"
    what = f"game {game.index} ({game.title})"
    if finding.action and finding.action != "result":
        move = f"move {finding.move_number} " if finding.move_number is not None else ""
        side = f"{SIDE_NAMES[finding.side]} " if finding.side else ""
        what += f", {move}{side}{finding.action}"
    return f"{where}: {what}: {finding}"


def finding_dict(game: Placed, rules: str, finding: GameFinding) -> dict[str, Any]:
    """A finding as the JSON output of ``nardy validate`` lists it."""
    return {"path": game.source, "game": game.index, "turn": finding.turn,
            "move_number": finding.move_number,
            "side": SIDE_NAMES[finding.side].lower() if finding.side else None,
            "line": finding.line, "column": finding.column, "code": finding.code,
            "message": finding.message, "option": finding.option, "action": finding.action,
            "rules": rules}


class Validated(NamedTuple):
    """Validating one game, small enough to ship (the results of workers are pickled): what the
    summary counts of it, its findings and notes as lines and as JSON objects, and what the match
    checks need of it (a named tuple, as the records made at start-up are: see
    :class:`~nardy_cli.cli.options.Corpus`)."""

    source: str
    turns: int
    legal: bool
    rules: str  # the rules it was judged under, as text
    lines: tuple[str, ...]
    findings: tuple[dict[str, Any], ...]
    note_lines: tuple[str, ...]
    notes: tuple[dict[str, Any], ...]
    match: MatchGame | None


def validated(game: CorpusGame, result: GameReplay) -> Validated:
    """What ``nardy validate`` shows of one replayed game."""
    rules = result.rules_text
    return Validated(game.source, len(result.turns), result.legal, rules,
                     tuple(finding_line(game, finding) for finding in result.findings),
                     tuple(finding_dict(game, rules, finding) for finding in result.findings),
                     tuple(finding_line(game, note) for note in result.notes),
                     tuple(finding_dict(game, rules, note) for note in result.notes),
                     match_game(game.source, game.index, game.record, result))


class Certification:
    """A validation run: the games' own findings, then those of their matches, in corpus order
    (a plain class, as :class:`Summary` is)."""

    __slots__ = ("summary", "checker")

    def __init__(self) -> None:
        self.summary = Summary()
        self.checker = MatchChecker()

    def add(self, result: Validated) -> Validated:
        """``result`` with the match findings that came with it (those of a match it shows to have
        ended come first), all counted."""
        self.summary.add(result)
        assert result.match is not None
        found = self.checker.add(result.match)
        self.checker.ended()  # the matches it ended are counted, and need not be kept till the end
        return self._with(result, found, result.match)

    def close(self) -> Validated | None:
        """The findings of the last match, once every game is in; the summary then counts the matches."""
        found = self.checker.close()
        self._count_matches()
        return self._with(None, found, None) if found else None

    def _with(self, result: Validated | None, found: list[tuple[MatchGame, GameFinding]],
              game: MatchGame | None) -> Validated:
        if result is not None and not found:  # most games: nothing of their match to add
            return result
        notes = [(where, finding) for where, finding in found if finding.code == "note"]
        own = [finding for where, finding in found if finding.code != "note"]
        self.summary.findings.update(finding.code for finding in own)
        self.summary.notes += len(notes)
        if result is None:
            result = Validated("", 0, False, "", (), (), (), (), None)
        elif own and not result.lines:
            self.summary.legal_games -= 1
        own_lines = tuple(finding_line(game, finding) for finding in own) if game else ()
        own_dicts = tuple(finding_dict(game, game.rules, finding) for finding in own) if game else ()
        return result._replace(
            lines=result.lines + own_lines, findings=result.findings + own_dicts,
            note_lines=tuple(finding_line(where, note) for where, note in notes) + result.note_lines,
            notes=tuple(finding_dict(where, where.rules, note) for where, note in notes) + result.notes)

    def _count_matches(self) -> None:
        self.summary.matches, self.summary.complete_matches = self.checker.matches, self.checker.complete

    def certified(self, results: Iterable[Validated]) -> Iterator[Validated]:
        """Every result of ``results`` (games in corpus order) with its match findings, then the
        notes of the last match."""
        for result in results:
            yield self.add(result)
        last = self.close()
        if last is not None:
            yield last
