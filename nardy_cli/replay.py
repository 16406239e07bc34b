"""Replaying a recorded game through the engine: every turn, cube action and result judged.

:func:`replay` never raises on a bad record: everything wrong becomes a
:class:`GameFinding` located at the action it concerns, and after an illegal
turn the replay goes on from the recorded play wherever it can physically be
made, so later faults of the same game are still reported.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Final

from nardy_cli.core.compiled import picklable
from nardy_cli.core.engine import Engine, Finding, Verdict, game_outcome, jacoby_applies, outcome_category
from nardy_cli.core.moves import Move, Step
from nardy_cli.core.position import CHECKERS, Position, PositionError
from nardy_cli.core.rules import OPTIONS, SCORING, Rules, RulesError, stated_options, tag_rules
from nardy_cli.core.scores import (
    UNFINISHED,
    Result,
    Score,
    is_money,
    match_length,
    point_readings,
    resignation_level,
    result_error,
)
from nardy_cli.core.sides import SIDE_NAMES, WHITE, Side, other
from nardy_cli.core.variants import VARIANTS
from nardy_cli.record import STANDARD_TAGS, Action, ActionKind, GameRecord, next_cell


@dataclass(frozen=True)
class GameFinding(Finding):
    """A :class:`~nardy_cli.core.engine.Finding` placed in its game: which turn, which side, where in the file."""

    turn: int | None = None
    move_number: int | None = None
    side: Side | None = None
    action: str | None = None
    line: int = 0
    column: int = 0


class ReplayedTurn:
    """One roll of the game as replayed; ``action`` is its 0-based index in the record's actions.

    A plain class with slots, built once a turn: what only statistics ask (``dice_used``,
    ``hits``, ``pips_lost``) is worked out from the play's steps when asked.
    """

    __slots__ = ("action", "turn", "side", "dice", "moves", "before", "after", "legal", "passed", "_steps",
                 "_lost")

    def __init__(self, action: int, turn: int, side: Side, dice: tuple[int, int], moves: tuple[Move, ...],
                 before: Position, after: Position, steps: tuple[Step, ...], legal: bool,
                 offered: Engine | tuple[int, ...],
                 passed: tuple[int, ...] = ()) -> None:
        self.action, self.turn, self.side, self.dice, self.moves = action, turn, side, dice, moves
        self.before, self.after, self.legal = before, after, legal
        self.passed = passed  # the steps of a cascade passed to the opponent (crazy nardy)
        self._steps = steps  # the legal play's steps, as the engine played them
        self._lost: int | Engine | tuple[int, ...] = offered  # the steps the roll offered, or the engine
        # that tells them from the position and dice, until pips_lost is first asked: then its value

    @property
    def dice_used(self) -> int:
        return len(self._steps)

    @property
    def hits(self) -> int:
        return sum(step.hit for step in self._steps)

    @property
    def pips_lost(self) -> int:
        """The pips of the steps offered that the play leaves unplayed; 0 for an illegal play."""
        if not self.legal:
            return 0
        if not isinstance(self._lost, int):
            offered = self._lost.steps(self.before, self.dice) if isinstance(self._lost, Engine) else self._lost
            lost = 0
            for die in offered:  # loops, not sum(): compiled, sum() of a tuple is a call through Python
                lost += die
            for step in self._steps:
                lost -= step.die
            self._lost = lost
        return self._lost

    @property
    def play(self) -> str:
        """The play as recorded, in NTN text."""
        return " ".join([str(move) for move in self.moves]) or "-"

    def __repr__(self) -> str:
        return f"ReplayedTurn(turn={self.turn}, side={self.side!r}, dice={self.dice}, play={self.play!r})"


@dataclass
class GameReplay:
    """What a replay established about one game."""

    record: GameRecord
    rules: Rules | None  # None when the game was not judged: its variant, or a rule given, is unknown
    findings: list[GameFinding] = field(default_factory=list)
    notes: list[GameFinding] = field(default_factory=list)  # facts worth saying that are no fault
    turns: list[ReplayedTurn] = field(default_factory=list)
    passed_plays: list[ReplayedTurn] = field(default_factory=list)  # plays of passed steps, by the opponent
    start: Position | None = None
    final: Position | None = None
    first_mover: Side | None = None
    ending: str | None = None  # finish / draw / drop / resign, None while unfinished
    winner: Side | None = None
    category: str | None = None  # koks / home-mars / mars / oin of the final position
    points: int | None = None
    complete: bool = True  # False when the replay had to stop early
    judged_actions: int = 0  # the record's first actions judged: all, unless the replay stopped (at the last of them)

    @property
    def legal(self) -> bool:
        return not self.findings

    @property
    def variant(self) -> str:
        """The game's variant: its rules', or the record's when it was not judged."""
        return self.record.variant if self.rules is None else self.rules.variant

    @property
    def rules_text(self) -> str:
        """The rules the game was judged under, as text; ``hypergammon: not judged`` when it was not."""
        return f"{self.record.variant}: not judged" if self.rules is None else str(self.rules)

    @property
    def opening_not_double(self) -> bool:
        """Whether the game's first roll could not be a double (see :func:`first_roll_not_double`)."""
        return self.rules is not None and first_roll_not_double(self.record, self.rules)


def game_rules(record: GameRecord, overrides: list[str] | tuple[str, ...] = ()) -> tuple[Rules, RulesError | None]:
    """The rules a game is judged under: its variant's preset, its ``Rules`` tag, then ``overrides``,
    and the error of a ``Rules`` tag that is not a valid rule text (the tag is then left out).

    Raises :class:`RulesError` when the variant or an override is not valid.
    """
    rules, error = tag_rules(record.variant, record.tags.get("Rules"))
    return rules.with_options(list(overrides), own_only=True), error


def tag_findings(record: GameRecord) -> list[GameFinding]:
    """A ``tag`` finding for each tag that is not a standard tag of formats/ntn.md (``--strict``)."""
    return [GameFinding("tag", f"unknown tag {name!r} (kept): the standard tags are {', '.join(STANDARD_TAGS)}",
                        line=record.tag_places.get(name, (record.line, 1))[0],
                        column=record.tag_places.get(name, (record.line, 1))[1])
            for name in record.tags if name not in STANDARD_TAGS]


def action_text(action: Action) -> str:
    """``63: 24/18 24/21`` for a roll, the cube word otherwise."""
    if action.kind == "roll" and action.dice:
        return f"{action.dice[0]}{action.dice[1]}: {action.play_text}"
    if action.kind == "passed":
        return f"> {action.play_text}"
    return action.kind + (f" {action.value}" if action.value is not None else "")


def first_roll_not_double(record: GameRecord, rules: Rules) -> bool:
    """Whether the game's first roll may not be a double: short nardy, and long nardy with
    ``opening=play``, unless the game starts from a ``Position`` tag."""
    return not record.tags.get("Position") and (not VARIANTS[rules.variant].opening_double
                                                or rules.opening == "play")


class _Replayer:
    """The state of one game's replay; see :func:`replay`."""

    def __init__(self, record: GameRecord, rules: Rules, stated: set[str]) -> None:
        self.record, self.rules = record, rules
        self.stated = stated  # the options the record or the command line set
        self.engine = Engine(rules)
        self.result = GameReplay(record, rules)
        self.length = match_length(record.tags.get("MatchLength"))
        self.money = is_money(self.length)
        self.score = Score.parse(record.tags.get("Score"))  # the match score before the game, if stated
        self.turn_index = 0
        self.action_index = 0
        self.cell = (0, 1)  # the cell of the last action, see next_cell
        self.pending_double: Side | None = None
        self.extra_roll_for: Side | None = None  # last_roll: the side owed one final roll
        # a cascade's roll, the steps it passes, and whether it was legal (no second finding if not)
        self.pending_pass: tuple[Action, tuple[int, ...], bool] | None = None

    def finding(self, finding: Finding, action: Action | None, *, side: Side | None = None,
                turn: int | None = None) -> None:
        self.result.findings.append(GameFinding(
            finding.code, finding.message, finding.option, finding.step,
            turn=turn if turn is not None else (self.turn_index or None),
            move_number=action.number if action else None,
            side=side or (action.side if action else None),
            action=action_text(action) if action else None,
            line=action.line if action else self.record.line,
            column=action.column if action else 1,
        ))

    # --- the whole game ------------------------------------------------------------

    def run(self) -> GameReplay:
        record, result = self.record, self.result
        position = self.start_position()
        if position is None:
            result.complete = False
            return result
        result.start = position
        for self.action_index, action in enumerate(record.actions):
            result.judged_actions = self.action_index + 1
            if self.pending_pass and action.kind != "passed":
                self.missing_pass(position)
            if self.is_over() and not (action.kind == "roll" and action.side == self.extra_roll_for):
                self.finding(Finding("after-end", f"the game was already over ({result.ending})"), action)
                continue
            if action.kind != "passed":  # passed steps share the cell of the cascade's roll
                self.check_number(action)
            handler = HANDLERS.get(action.kind)
            if handler is None:
                self.finding(Finding("syntax", f"unknown action {action.kind!r}"), action)
                continue
            position = handler(self, action, position)
            if position is None:
                result.complete = False
                break
            result.final = position
        if self.pending_pass and position is not None:
            self.missing_pass(position)
        result.final = result.final or result.start
        self.check_result()
        return result

    def start_position(self) -> Position | None:
        text = self.record.tags.get("Position")
        if not text:
            position = Position.start(self.rules.variant)
            first = self.record.actions[0].side if self.record.actions else WHITE
            return position if VARIANTS[self.rules.variant].white_starts else position.with_turn(first)
        try:
            position = Position.parse(text)
        except PositionError as error:
            self.finding(Finding("syntax", f"Position tag: {error}"), None)
            return None
        if position.variant != self.rules.variant:
            self.finding(Finding("syntax", f"Position tag is {VARIANTS[position.variant].title} but the game is "
                                 f"{self.rules.title}"), None)
            return None
        return position

    def check_number(self, action: Action) -> None:
        """A written move number must be the row of the action's cell (see :func:`next_cell`)."""
        self.cell = next_cell(self.cell, action.side)
        row = self.cell[0]
        if action.number is not None and action.number != row:
            self.finding(Finding("turn-order", f"move number {action.number} where {row} was expected"), action,
                         turn=self.turn_index + 1)

    def is_over(self) -> bool:
        return self.result.ending is not None

    # --- actions -------------------------------------------------------------------

    def on_roll(self, action: Action, position: Position) -> Position | None:
        self.turn_index += 1
        result = self.result
        if self.pending_double:
            self.finding(Finding("cube", f"{SIDE_NAMES[other(self.pending_double)]} rolled without "
                                 "answering the double"), action)
            self.pending_double = None
        if action.side != position.turn:
            self.finding(Finding("turn-order", f"{SIDE_NAMES[action.side]} moved but it was "
                                 f"{SIDE_NAMES[position.turn]}'s turn"), action)
            position = position.with_turn(action.side)
        if result.first_mover is None:
            result.first_mover = action.side
            self.check_opening(action)
        if action.dice is None:
            self.finding(Finding("syntax", "a turn without dice"), action)
            return position
        if action.moves is None:  # rolled, then resigned: nothing to judge
            return position
        verdict = self.engine.check(position, action.dice, action.moves)
        after = self.judged(verdict, action)
        if after is None:
            return None
        result.turns.append(ReplayedTurn(
            self.action_index, self.turn_index, action.side, action.dice, action.moves, position, after,
            verdict.play.steps if verdict.play else (), verdict.legal,
            self.engine, verdict.passed))
        if verdict.passed:
            self.pending_pass = (action, verdict.passed, verdict.legal)
        self.after_roll(action, after)
        return after

    def judged(self, verdict: Verdict, action: Action) -> Position | None:
        """The position after a checked play, its finding reported; None, with a finding saying the
        replay stops, when the recorded play cannot be made on the board."""
        if verdict.position is None:
            assert verdict.finding is not None  # a legal play always has its position
            stop = f"{verdict.finding.message}; the replay stops here: the recorded play cannot be made on the board"
            self.finding(replace(verdict.finding, message=stop), action)
            return None
        if verdict.finding:
            self.finding(verdict.finding, action)
        return verdict.position

    def on_passed(self, action: Action, position: Position) -> Position | None:
        """The steps of a cascade passed to ``action.side``, played at once (crazy nardy)."""
        pending, self.pending_pass = self.pending_pass, None
        if pending is None:
            self.finding(Finding("pass-unexpected", f"{SIDE_NAMES[action.side]} plays passed steps, but "
                                 "no steps were passed to them", self.cascade_option()), action)
            return position
        roll, passed, _ = pending
        if roll.dice is None:
            return position
        if action.side != other(roll.side):
            self.finding(Finding("turn-order", f"{SIDE_NAMES[action.side]} plays the steps passed to "
                                 f"{SIDE_NAMES[other(roll.side)]}"), action)
            action = replace(action, side=other(roll.side))
        if action.moves is None:  # not recorded
            return position
        verdict = self.engine.check(position, roll.dice, action.moves, passed)
        after = self.judged(verdict, action)
        if after is None:
            return None
        self.result.passed_plays.append(ReplayedTurn(
            self.action_index, self.turn_index, action.side, roll.dice, action.moves, position, after,
            verdict.play.steps if verdict.play else (), verdict.legal, passed))
        if after.winner() is not None and not self.is_over():
            self.after_roll(action, after)
        return after

    def missing_pass(self, position: Position) -> None:
        """Passed steps the record does not play: a finding when the opponent could play one."""
        assert self.pending_pass is not None
        (roll, passed, cascade_legal), self.pending_pass = self.pending_pass, None
        if not cascade_legal or self.is_over() or roll.dice is None:
            return
        playable = self.engine.choose_play(position, roll.dice, lambda plays: plays[0], passed).steps
        if playable:
            self.finding(Finding("pass-missing", f"the steps {' '.join(map(str, passed))} pass to "
                                 f"{SIDE_NAMES[other(roll.side)]}, who plays none of them where "
                                 f"{len(playable) if len(playable) > 1 else 'one'} can be "
                                 "(write them after the roll: > moves)", self.cascade_option()), roll)

    def cascade_option(self) -> str | None:
        return self.rules.describe("cascade") if self.rules.cascade else None

    def after_roll(self, action: Action, position: Position) -> None:
        result = self.result
        winner = position.winner()
        if action.side == self.extra_roll_for:  # the last_roll option's final roll
            self.extra_roll_for = None
            if position.borne_off(action.side) == CHECKERS:
                result.ending, result.winner, result.points, result.category = "draw", None, 0, None
                return
            winner = other(action.side)  # the finished side wins, judged on the final position
        elif winner is None:
            return
        outcome = game_outcome(self.rules, position, money=self.money)
        assert outcome is not None, "one side has borne off all: the game has an outcome"
        result.ending, result.winner, result.points = "finish", winner, outcome.points
        result.category = outcome.category
        if self.rules.last_roll == "on" and winner == result.first_mover:
            self.extra_roll_for = other(winner)

    def check_opening(self, action: Action) -> None:
        doubled = action.dice is not None and action.dice[0] == action.dice[1]
        if not (doubled and first_roll_not_double(self.record, self.rules)):
            return
        if not VARIANTS[self.rules.variant].opening_double:
            self.finding(Finding("opening", f"the opening roll of {self.rules.title} cannot be a double"), action)
        else:
            self.finding(Finding("opening", "the opening dice are the first roll and cannot be a double",
                                 self.rules.describe("opening")), action)

    def on_double(self, action: Action, position: Position) -> Position:
        rules = self.rules
        if rules.cube == "off":
            self.finding(Finding("cube", "the doubling cube is not used", rules.describe("cube")), action,
                         turn=self.turn_index + 1)
        if action.side != position.turn:
            self.finding(Finding("turn-order", f"{SIDE_NAMES[action.side]} doubled on "
                                 f"{SIDE_NAMES[position.turn]}'s turn"), action, turn=self.turn_index + 1)
        if position.cube_owner not in (None, action.side):
            self.finding(Finding("cube", f"{SIDE_NAMES[action.side]} doubled without owning the cube"),
                         action, turn=self.turn_index + 1)
        if action.value is not None and action.value != 2 * position.cube_value:
            self.finding(Finding("cube", f"the cube goes to {2 * position.cube_value}, not {action.value}"),
                         action, turn=self.turn_index + 1)
        self.pending_double = action.side
        return position

    def answer(self, action: Action) -> bool:
        """Whether ``action`` answers a pending double of the other side (a finding if not)."""
        if self.pending_double != other(action.side):
            self.finding(Finding("cube", f"{SIDE_NAMES[action.side]} answered ({action.kind}) "
                                 "no double"), action, turn=self.turn_index + 1)
            return False
        return True

    def on_take(self, action: Action, position: Position) -> Position:
        if self.answer(action):
            self.pending_double = None
            position = position.with_cube(2 * position.cube_value, action.side)
        return position

    def on_beaver(self, action: Action, position: Position) -> Position:
        if self.answer(action):
            if not self.money:
                self.finding(Finding("cube", "a beaver is allowed only in money play"), action,
                             turn=self.turn_index + 1)
            self.pending_double = None
            position = position.with_cube(4 * position.cube_value, action.side)
        return position

    def on_drop(self, action: Action, position: Position) -> Position:
        if self.answer(action):
            self.pending_double = None
            result = self.result
            result.ending, result.winner, result.points = "drop", other(action.side), position.cube_value
        return position

    def on_resign(self, action: Action, position: Position) -> Position:
        result = self.result
        result.ending, result.winner = "resign", other(action.side)
        result.points = action.value
        return position

    # --- the declared result -------------------------------------------------------

    def check_result(self) -> None:
        result, record = self.result, self.record
        final = result.final
        if final is not None and result.category is None and result.winner is not None:
            result.category = outcome_category(final, other(result.winner))
        declared = record.result
        if declared is None or declared == UNFINISHED:
            if declared == UNFINISHED and result.ending in ("finish", "draw"):
                self.result_finding(f"the game is over ({self.expected_text()}) but marked unfinished")
            return
        parsed = Result.parse(declared)
        if parsed is None:
            self.result_finding(result_error(declared) or f"unreadable result {declared!r}")
            return
        if parsed.is_draw:
            if result.ending != "draw":
                self.result_finding(f"declared a draw but {self.expected_text()}")
            return
        assert parsed.winner is not None
        winner, points = parsed.winner, parsed.points
        termination = record.tags.get("Termination", "").strip().lower()
        if result.ending is None:
            if termination in ("resign", "drop", "forfeit", "timeout", "time"):
                result.ending, result.winner = termination, winner
                result.points = self.possible_points(winner, points, declared)
            else:
                self.result_finding(f"declared {declared} but the game is not over "
                                    "(no finish, drop or resignation recorded)")
            return
        if result.ending == "resign":
            if winner == result.winner:
                result.points = self.possible_points(winner, points if result.points is None else result.points,
                                                     declared)
                if result.points is None or points in self.readings(winner, result.points):
                    return
            self.result_finding(f"declared {declared} but {self.expected_text()}")
            return
        if winner == result.winner and result.points is not None:
            if points in self.readings(winner, result.points):
                return
            option = self.undeclared_option(points)
            if option:
                result.points = points  # what the game scored under the server's rule
                cube = "an unturned cube" if final is None or final.cube_value == 1 else f"a {final.cube_value}-cube"
                self.result.notes.append(self.located(
                    "note", f"{_points(points)} declared for {_article(result.category)} on {cube}: "
                    f"consistent with {option}", None))
                return
        self.result_finding(f"declared {declared} but {self.expected_text()}")

    def readings(self, winner: Side, full: int) -> tuple[int, ...]:
        """The figures a record may state for ``full`` points won by ``winner`` (see
        :func:`~nardy_cli.core.scores.point_readings`)."""
        return point_readings(full, (self.score or Score()).of(winner), self.length)

    def possible_points(self, winner: Side, points: int, declared: str) -> int | None:
        """``points`` stated for a resignation or termination when some level of the game (single,
        mars, koks on the cube of the final position) explains them; else None, with a finding."""
        cube = self.result.final.cube_value if self.result.final else 1
        levels = set(SCORING[self.rules.scoring or "backgammon"].values())
        if resignation_level(points, cube, (self.score or Score()).of(winner), self.length, levels) is not None:
            return points
        most = max(levels) * cube
        if self.score is not None and not self.money and points == self.length - self.score.of(winner):
            self.result.notes.append(self.located(
                "note", f"{_points(points)} declared: more than a game on a {cube}-cube is worth, but exactly what "
                f"{SIDE_NAMES[winner]} needed to win the match (a match given up or lost on time?)", None))
            return points
        self.result_finding(f"declared {declared}: {_points(points)} is more than a game on a {cube}-cube can be "
                            f"worth ({_points(most)})" if points > most else
                            f"declared {declared}: no game on a {cube}-cube is worth {_points(points)}")
        return None

    def undeclared_option(self, points: int) -> str | None:
        """``key=value`` of a rule option the record does not state under which the finished game
        is worth ``points`` (a server's unwritten house rule, such as Jacoby in a match)."""
        final, winner = self.result.final, self.result.winner
        if final is None or winner is None or self.result.ending != "finish":
            return None
        for option, values in OPTIONS.items():
            if option in self.stated or option not in ("scoring", "jacoby"):
                continue
            for value in values.get(self.rules.variant, ()):
                if value == getattr(self.rules, option):
                    continue
                outcome = game_outcome(self.rules.with_option(option, value), final, money=True)
                if outcome and points in self.readings(winner, outcome.points):
                    return f"{option}={value}"
        return None

    def expected_text(self) -> str:
        result = self.result
        if result.ending == "draw":
            return "the last roll made it a draw (1/2-1/2)"
        if result.winner is None:
            return "the game is not over"
        score = f"{result.points}-0" if result.winner == WHITE else f"0-{result.points}"
        how = {"drop": "on a dropped double", "resign": "by resignation"}.get(
            result.ending or "", f"with {result.category}")
        return f"{SIDE_NAMES[result.winner]} won {how}: {score}"

    def result_finding(self, message: str) -> None:
        option = None
        if self.result.ending == "finish":
            option = self.rules.describe("jacoby" if self.jacoby_counted() else "scoring")
        self.result.findings.append(self.located("result", message, option))

    def jacoby_counted(self) -> bool:
        """Whether the Jacoby rule made the finished game's mars or koks count as a single game."""
        final, category = self.result.final, self.result.category
        return (final is not None and jacoby_applies(self.rules, final, money=self.money)
                and category is not None and self.rules.points(category) > 1)

    def located(self, code: str, message: str, option: str | None) -> GameFinding:
        """A finding about the declared result, at the result's place in the file."""
        record = self.record
        line = record.result_line or (record.actions[-1].line if record.actions else 0) or record.line
        return GameFinding(code, message, option, line=line, column=record.result_column or 1, action="result")


HANDLERS: Final[dict[ActionKind, Callable[[_Replayer, Action, Position], Position | None]]] = {
    "roll": _Replayer.on_roll, "passed": _Replayer.on_passed, "double": _Replayer.on_double,
    "take": _Replayer.on_take, "beaver": _Replayer.on_beaver, "drop": _Replayer.on_drop,
    "resign": _Replayer.on_resign}
"""The handler of each kind of action: it judges the action and returns the position after it
(None when the replay cannot go on)."""


def _points(points: int) -> str:
    return f"{points} point" + ("" if points == 1 else "s")


def _article(category: str | None) -> str:
    word = {"mars": "gammon (mars)", "koks": "backgammon (koks)"}.get(category or "", category or "game")
    return ("an " if word[0] in "aeiou" else "a ") + word


def replay(record: GameRecord, overrides: list[str] | tuple[str, ...] = ()) -> GameReplay:
    """Replay ``record`` under its rules (tags, then ``overrides``) and judge every action.

    What depends on the games before (the match score, the Crawford game) is judged by
    :mod:`nardy_cli.matches`.
    """
    try:
        rules, tag_error = game_rules(record, overrides)
    except RulesError as error:
        result = GameReplay(record, None, complete=False)
        line, column = record.tag_places.get("Variant", (record.line, 1))
        result.findings.append(GameFinding("syntax", f"rules: {error}", line=line, column=column))
        return result
    replayer = _Replayer(record, rules, stated_options(record.tags.get("Rules", "")) | stated_options(overrides))
    for syntax_error in record.errors:
        replayer.result.findings.append(GameFinding("syntax", syntax_error.message, line=syntax_error.line,
                                                    column=syntax_error.column))
    if record.errors_not_kept:
        last = record.errors[-1]
        replayer.result.findings.append(GameFinding("syntax", f"and {record.errors_not_kept} more syntax errors in "
                                                    "this game, not listed", line=last.line, column=last.column))
    replayer.result.notes.extend(GameFinding("note", note.message, line=note.line, column=note.column)
                                 for note in record.notes)
    if tag_error is not None:
        line, column = record.tag_places.get("Rules", (record.line, 1))
        replayer.result.findings.append(GameFinding(
            "syntax", f"Rules tag: {tag_error}; the game is judged without the tag, under {rules}",
            line=line, column=column))
    result = replayer.run()
    # in the order of the file; findings that have no line last
    result.findings.sort(key=lambda finding: (not finding.line, finding.line, finding.column))
    return result


picklable(GameFinding)
