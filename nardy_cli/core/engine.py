"""The rules engine: legal plays, checking recorded plays, outcomes — one engine for every game.

Everything is computed from the mover's point of view: ``me`` is the mover's
board and ``opp`` the opponent's, each in its owner's numbering (see
:mod:`nardy_cli.core.position`). Legal plays are generated breadth-first, one die at
a time, keeping one representative per distinct intermediate position, so
doubles — and crazy nardy's cascades of up to 24 steps — never explode into
permutations. What differs between the games comes from :mod:`nardy_cli.core.variants`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import accumulate
from typing import Final, NamedTuple, cast

from nardy_cli.core.compiled import Value, picklable
from nardy_cli.core.fast_check import (
    HOME_TOP,
    QuickCheck,
    block_at,
    dice_paths,
    head_limit,
    illegal_block,
    opponent_lowest,
    preferred_paths,
    roll_sequence,
)
from nardy_cli.core.moves import Move, Step, point_name, step_of
from nardy_cli.core.position import CHECKERS, Board, Position
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import BAR, BLACK, OFF, SIDE_NAMES, WHITE, Side, other
from nardy_cli.core.variants import HEAD, VARIANTS


def steps_to_moves(steps: tuple[Step, ...] | list[Step]) -> tuple[Move, ...]:
    """Steps as written moves: highest point first, equal steps merged into ``(n)`` — at most
    ``(4)``, as notations write it: a cascade's fifth equal step starts another move."""
    ordered = sorted(steps, key=lambda s: (-s.src, -s.dst, not s.hit))
    moves: list[Move] = []
    for step in ordered:
        move = Move((step.src, step.dst), (step.hit,))
        if moves and moves[-1].path == move.path and moves[-1].hits == move.hits and moves[-1].count < 4:
            moves[-1] = Move(move.path, move.hits, moves[-1].count + 1)
        else:
            moves.append(move)
    return tuple(moves)


def format_steps(steps: tuple[Step, ...] | list[Step]) -> str:
    """Standard notation: highest point first, equal steps as ``(n)``, ``-`` for no play."""
    return " ".join(str(move) for move in steps_to_moves(steps)) or "-"


class Play:
    """A legal play: its steps in playing order and the position it leads to.

    The resulting position is built on first use: most plays a generator yields
    are only compared or counted.
    """

    __slots__ = ("steps", "_turn", "_state", "_position", "_passed")

    def __init__(self, steps: tuple[Step, ...], turn: _Turn | None, state: tuple[Board, Board]) -> None:
        self.steps = steps
        self._turn, self._state = turn, state
        self._position: Position | None = None
        self._passed: tuple[int, ...] | None = None

    @staticmethod
    def known(steps: tuple[Step, ...], state: tuple[Board, Board], position: Position,
              passed: tuple[int, ...]) -> Play:
        """A play whose position and passed steps are already known (from the fast check)."""
        play = Play(steps, None, state)  # not a classmethod's cls(...): compiled, that is a call through Python
        play._position, play._passed = position, passed
        return play

    @property
    def position(self) -> Position:
        if self._position is None:
            assert self._turn is not None
            self._position = self._turn.position_after(*self._state)
        return self._position

    def __str__(self) -> str:
        return format_steps(self.steps)

    def __repr__(self) -> str:
        return f"Play({self})"

    def __eq__(self, other_play: object) -> bool:
        return isinstance(other_play, Play) and self._state == other_play._state

    def __hash__(self) -> int:
        return hash(self._state)

    @property
    def dice_used(self) -> int:
        return len(self.steps)

    @property
    def passed(self) -> tuple[int, ...]:
        """The steps of a cascade this play passes to the opponent (crazy nardy), in order."""
        if self._passed is None:
            assert self._turn is not None
            self._passed = self._turn.passed_after(len(self.steps), self._state)
        return self._passed

    @property
    def hits(self) -> int:
        return sum(step.hit for step in self.steps)


class FindingStep(Value):
    """The step a finding names: from ``src`` to ``dst`` (25 = bar, 0 = off) with ``die``, the
    ``index``-th step (from 0) of the play as the engine tried it. ``die`` and ``index`` are None
    when the finding is about a written move as a whole (``18/14`` that no die left can play).
    Read-only; a plain class, not a frozen dataclass: defining one compiles its six generated
    methods at every start (about 5 M instructions)."""

    __slots__ = ("_src", "_dst", "_die", "_index")
    __match_args__ = ("src", "dst", "die", "index")

    def __init__(self, src: int, dst: int, die: int | None = None, index: int | None = None) -> None:
        self._src, self._dst, self._die, self._index = src, dst, die, index

    @property
    def src(self) -> int:
        return self._src

    @property
    def dst(self) -> int:
        return self._dst

    @property
    def die(self) -> int | None:
        return self._die

    @property
    def index(self) -> int | None:
        return self._index

    def _fields(self) -> tuple[int, int, int | None, int | None]:
        return self._src, self._dst, self._die, self._index


@dataclass(frozen=True)
class Finding:
    """Why something recorded is not legal: a code of formats/findings.md and a message.

    ``option`` names the rule option and value the verdict depends on
    (``head=classic``), when one does; ``step`` the step the message names, when it names one.
    """

    code: str
    message: str
    option: str | None = None
    step: FindingStep | None = None

    def __str__(self) -> str:
        return f"{self.code}: {self.message}" + (f" ({self.option})" if self.option else "")


class Verdict(Value):
    """The judgement of one recorded play (read-only).

    ``play`` is the legal play when the record is legal; ``position`` is the
    position after the turn — after the recorded play even when it is illegal,
    as far as it can physically be made, or None when it cannot. ``passed`` holds
    the steps of a cascade that pass to the opponent (crazy nardy).
    """

    # A plain class, not a frozen dataclass: one is made every turn, and compiled, a dataclass's
    # generated __init__ costs ten times as much as this one.
    __slots__ = ("_play", "_finding", "_position", "_passed")
    __match_args__ = ("play", "finding", "position", "passed")

    def __init__(self, play: Play | None, finding: Finding | None, position: Position | None,
                 passed: tuple[int, ...] = ()) -> None:
        self._play, self._finding, self._position, self._passed = play, finding, position, passed

    @property
    def play(self) -> Play | None:
        return self._play

    @property
    def finding(self) -> Finding | None:
        return self._finding

    @property
    def position(self) -> Position | None:
        return self._position

    @property
    def passed(self) -> tuple[int, ...]:
        return self._passed

    @property
    def legal(self) -> bool:
        return self._finding is None

    def _fields(self) -> tuple[Play | None, Finding | None, Position | None, tuple[int, ...]]:
        return self._play, self._finding, self._position, self._passed


class Split(NamedTuple):
    """A recorded play in single-die steps (see :meth:`Engine.split`).

    ``paths`` holds, for each hop written (``13/7``), the points it passes, one per die
    (``13, 8, 7`` for a 5-1), in the order written; None when the hops do not fit the dice.
    ``position`` is the position after the play, None when it cannot be made on the board.
    """

    paths: tuple[tuple[int, ...], ...] | None
    position: Position | None


# Reasons a single step fails, in the mover's terms; turned into findings by _Turn.finding.
_NO_CHECKER: Final = 0
_BAR_FIRST: Final = 1
_HEAD: Final = 2
_BEAR_OFF_HOME: Final = 3
_BEAR_OFF_HIGHER: Final = 4
_BLOCKED: Final = 5
_SIX_BLOCK: Final = 6
_EXACT_OFF: Final = 7
_EXACT_HOME: Final = 8


class _Turn:
    """What a turn's rules need, computed once for a position and roll.

    ``passed`` makes it the turn in which the side to move plays the steps its
    opponent's cascade passed to it (crazy nardy): those steps in order, one checker
    from the head at most, and the same side still to roll afterwards.
    """

    __slots__ = ("rules", "position", "side", "dice", "is_double", "me", "opp", "opposite",
                 "hits", "top", "head", "head_start", "head_limit", "head_reason", "opp_lowest",
                 "block_step", "block_turn", "exact", "cascade", "passing", "sequence")

    def __init__(self, rules: Rules, position: Position, dice: tuple[int, int],
                 passed: tuple[int, ...] | None = None) -> None:
        if rules.variant != position.variant:
            raise ValueError(f"{rules.variant} rules cannot judge a {position.variant} position")
        variant = VARIANTS[position.variant]
        self.sequence = roll_sequence(position.variant, rules.cascade, dice, passed)
        self.rules, self.position, self.dice = rules, position, tuple(dice)
        self.side = position.turn
        self.passing = passed is not None
        self.is_double = dice[0] == dice[1] or self.passing
        self.cascade = variant.cascade and self.is_double
        self.me, self.opp = position.board(self.side), position.board(other(self.side))
        self.opposite = variant.opposite
        self.hits = variant.hits
        self.head = variant.head
        self.top = BAR if variant.bar else HEAD
        self.head_start = self.me[HEAD]
        self.head_limit, self.head_reason = (head_limit(rules.head, self.passing, self.side in position.first
                                                        and self.is_double, self.dice[0], self.opp, self.opposite)
                                             if self.head else (CHECKERS, ""))
        self.opp_lowest = opponent_lowest(self.opp) if variant.six_block else 0
        self.block_step = variant.six_block and rules.block == "step"
        self.block_turn = variant.six_block and rules.block == "turn"
        self.exact = rules.bearoff == "exact"

    # --- long nardy's special rules ------------------------------------------------

    def illegal_block(self, me: Board) -> bool:
        """Whether the position ``me`` holds an illegal six-block anywhere."""
        return illegal_block(list(me), self.opposite, self.opp_lowest)

    # --- steps ---------------------------------------------------------------------

    def step(self, me: Board, opp: Board, src: int, die: int) -> tuple[Board, Board, Step] | int:
        """Play ``die`` from ``src``: the boards after it and the step, or the reason it is illegal."""
        if not me[src]:
            return _NO_CHECKER
        if me[BAR] and src != BAR:
            return _BAR_FIRST
        if src == HEAD and self.head and self.head_start - me[HEAD] >= self.head_limit:
            return _HEAD
        dst = src - die
        board = list(me)  # counts changed as x[i] = x[i] - 1: compiled, x[i] -= 1 is a generic in-place operation
        board[src] = board[src] - 1
        if dst <= 0 or (self.exact and src <= HOME_TOP):
            highest = self.top
            while not me[highest]:
                highest -= 1
            if dst <= 0:
                if highest > HOME_TOP:
                    return _BEAR_OFF_HOME
                if dst < 0 and (self.exact or src != highest):
                    return _EXACT_OFF if self.exact else _BEAR_OFF_HIGHER
                board[OFF] = board[OFF] + 1
                return tuple(board), opp, step_of(src, OFF, die, False)
            if highest <= HOME_TOP:  # exact bear-off: no moves inside the home once all are there
                return _EXACT_HOME
        opp_point = self.opposite[dst]
        held = opp[opp_point]
        if held:
            if held > 1 or not self.hits:
                return _BLOCKED
            hit_board = list(opp)
            hit_board[opp_point] = 0
            hit_board[BAR] = hit_board[BAR] + 1
            opp = tuple(hit_board)
        board[dst] = board[dst] + 1
        board_after = tuple(board)
        if self.block_step and not me[dst] and block_at(board, dst, self.opposite, self.opp_lowest):
            return _SIX_BLOCK
        return board_after, opp, step_of(src, dst, die, bool(held))

    def finding(self, reason: int, src: int, die: int, index: int | None = None) -> Finding:
        """The finding for a step that failed for ``reason``, the ``index``-th of the play tried."""
        name, rules = SIDE_NAMES[self.side], self.rules
        end = max(src - die, 0)
        target, step = point_name(end), FindingStep(src, end, die, index)
        if reason == _NO_CHECKER:
            hint = (" (Black's points are counted from Black's own side: was the play written in "
                    "White's numbering?)" if self.side == BLACK else "")
            return Finding("no-checker", f"{name} has no checker on {point_name(src)}{hint}")
        if reason == _BAR_FIRST:
            return Finding("bar", f"{name} must enter the checker on the bar before moving {point_name(src)}")
        if reason == _HEAD:
            if self.head_limit > 1:
                return Finding("head", "more than two checkers left the head", rules.describe("head"))
            why = f": {self.head_reason}" if self.head_reason else ""
            return Finding("head", f"two checkers left the head{why}", rules.describe("head"))
        if reason == _BEAR_OFF_HOME:
            return Finding("bear-off", f"{name} bears off from {src} before all checkers are home")
        if reason == _BEAR_OFF_HIGHER:
            return Finding("bear-off", f"{name} bears off from {src} with a {die} while a checker stands higher")
        if reason == _EXACT_OFF:
            return Finding("bear-off", f"{name} bears off from {src} with a {die}: only a checker on {die} may be "
                           "borne off with it", rules.describe("bearoff"))
        if reason == _EXACT_HOME:
            return Finding("bear-off", f"{name} moves {src}/{target} inside the home once all checkers are home",
                           rules.describe("bearoff"), step)
        if reason == _BLOCKED:
            held = "made by two or more checkers of" if self.hits else "held by"
            return Finding("blocked", f"{src}/{target}: point {target} is {held} {SIDE_NAMES[other(self.side)]}",
                           step=step)
        return Finding("six-block", f"{point_name(src)}/{target} builds six points in a row with no "
                       f"{SIDE_NAMES[other(self.side)]} checker ahead", rules.describe("block"), step)

    # --- whole plays ---------------------------------------------------------------

    @property
    def ordered(self) -> bool:
        """Whether the steps are one sequence played in order (a cascade, or passed steps)."""
        return self.cascade or self.passing

    def sequences(self) -> list[tuple[int, ...]]:
        """The orders the steps may be played in: both for a non-double, the sequence otherwise."""
        if self.is_double:
            return [self.sequence]
        return [self.sequence, self.sequence[::-1]]

    def plays(self) -> dict[tuple[Board, Board], tuple[Step, ...]]:
        """Every legal play as {(me, opp) after it: its steps}; ``{start: ()}`` for a pass."""
        start = (self.me, self.opp)
        by_depth: list[dict[tuple[Board, Board], tuple[Step, ...]]] = [{start: ()}]
        higher_die_states: set[tuple[Board, Board]] = set()
        for order, sequence in enumerate(self.sequences()):
            frontier: dict[tuple[Board, Board], tuple[Step, ...]] = {start: ()}
            for depth, die in enumerate(sequence, 1):
                reached: dict[tuple[Board, Board], tuple[Step, ...]] = {}
                for (me, opp), steps in frontier.items():
                    for src in range(self.top, 0, -1):
                        if me[src]:
                            result = self.step(me, opp, src, die)
                            if result.__class__ is tuple:
                                state = (result[0], result[1])
                                if state not in reached:
                                    reached[state] = steps + (result[2],)
                if not reached:
                    break
                if depth == 1 and order == 0:
                    higher_die_states = set(reached)
                if len(by_depth) <= depth:
                    by_depth.append({})
                level = by_depth[depth]
                for state, steps in reached.items():
                    level.setdefault(state, steps)
                frontier = reached
        if self.ordered:  # bearing off the last checker counts as playing the whole sequence
            finished = {state: steps for level in by_depth for state, steps in level.items()
                        if state[0][OFF] == CHECKERS}
            if finished:
                whole = by_depth[-1] if len(by_depth) > len(self.sequence) else {}
                return {**self._unblocked(whole), **finished}
        for depth in range(len(by_depth) - 1, -1, -1):
            level = self._unblocked(by_depth[depth])
            if depth == 1 and not self.is_double:
                higher = {s: steps for s, steps in level.items() if s in higher_die_states}
                level = higher or level
            if level:
                return level
        return {start: ()}

    def _unblocked(self, level: dict[tuple[Board, Board], tuple[Step, ...]]
                   ) -> dict[tuple[Board, Board], tuple[Step, ...]]:
        """``level`` without the plays that end on an illegal six-block, under ``block=turn``."""
        if self.block_turn:
            return {s: steps for s, steps in level.items() if not self.illegal_block(s[0])}
        return level

    def longest(self, me: Board | None = None, opp: Board | None = None, depth: int = 0,
                enough: int | None = None) -> int:
        """How many steps of the sequence the longest legal play makes (all, when one bears off
        the last checker), from the start or from boards reached after ``depth`` steps: a
        depth-first search that stops once ``enough`` (default: all) steps are reached."""
        full, best = len(self.sequence), 0
        target = full if enough is None else enough
        seen: set[tuple[Board, int]] = set()
        stack = [(self.me if me is None else me, self.opp if opp is None else opp, depth)]
        while stack:
            me, opp, depth = stack.pop()
            if me[OFF] == CHECKERS:
                return full
            if depth > best and not (self.block_turn and self.illegal_block(me)):
                best = depth
                if best >= target:
                    return best
            if depth == full:
                continue
            die = self.sequence[depth]
            for src in range(self.top, 0, -1):
                if me[src]:
                    result = self.step(me, opp, src, die)
                    if isinstance(result, tuple) and (result[0], depth + 1) not in seen:
                        seen.add((result[0], depth + 1))
                        stack.append((result[0], result[1], depth + 1))
        return best

    def follow(self, legs: list[tuple[int, int]], prune: bool = False
               ) -> tuple[tuple[int, tuple[Step, ...]] | None, Finding | None]:
        """A play of a beginning of the sequence, in order, that makes the written ``legs`` (each
        hop one or more steps of one checker): (steps made, steps), or None and the failure that
        got furthest.

        With ``prune``, states whose remaining hops cannot share out the dice still to play are
        dropped: the play found is the same (only dead ends are cut), but the failure returned
        is then not the one that got furthest. Many hops of a 24-step cascade make the unpruned
        search exponential."""
        waste = not self.exact and any(dst == OFF for _, dst in legs)
        sums = set(accumulate(self.sequence, initial=0))
        prefix = list(accumulate(self.sequence, initial=0))
        depth_of = {total: depth for depth, total in enumerate(prefix)}
        failure: tuple[int, Finding | None] = (-1, None)
        seen: set[tuple[Board, tuple[tuple[int, int], ...], int]] = set()
        stack: list[tuple[Board, Board, tuple[tuple[int, int], ...], int, tuple[Step, ...]]] = [
            (self.me, self.opp, tuple(sorted(legs)), 0, ())]
        while stack:
            me, opp, left, depth, steps = stack.pop()
            if not left:
                return (depth, steps), None
            if depth == len(self.sequence) or not (waste or prefix[depth] + sum(a - b for a, b in left) in sums):
                continue
            if prune and not waste:
                end = depth_of[prefix[depth] + sum(a - b for a, b in left)]
                dice = self.sequence[depth:end]
                if not _dice_share(tuple(sorted((a - b for a, b in left), reverse=True)),
                                   tuple(dice.count(value) for value in range(1, 7))):
                    continue
            die = self.sequence[depth]
            exact_last = sorted(enumerate(left), key=lambda entry: entry[1][0] - entry[1][1] == die)
            for index, (src, dst) in exact_last:  # the stack pops hops of exactly this die first
                if (index and left[index - 1] == (src, dst)) or not (
                        src - die >= dst or (dst == OFF and waste and src - die < 0)):
                    continue
                result = self.step(me, opp, src, die)
                if not isinstance(result, tuple):
                    if depth > failure[0]:
                        failure = (depth, self.finding(result, src, die, depth))
                    continue
                landed = result[2].dst
                rest = left[:index] + left[index + 1:]
                if landed != dst:
                    rest = tuple(sorted(rest + ((landed, dst),)))
                if (result[0], rest, depth + 1) not in seen:
                    seen.add((result[0], rest, depth + 1))
                    stack.append((result[0], result[1], rest, depth + 1, steps + (result[2],)))
        return None, failure[1]

    def reach(self, target: Board) -> tuple[dict[int, tuple[Step, ...]], Finding | None]:
        """The ways of playing a beginning of the sequence, in order, that end on ``target``
        ({steps made: steps}), and else the failure that got furthest towards it.

        Checkers only move down, so a board with fewer checkers on or above some point than
        ``target`` has there cannot lead to it: that prunes the search."""
        def below_target(me: Board) -> bool:
            mine = goal = 0
            for point in range(self.top, 0, -1):
                mine, goal = mine + me[point], goal + target[point]
                if mine < goal:
                    return True
            return False

        found: dict[int, tuple[Step, ...]] = {}
        failure: tuple[int, Finding | None] = (-1, None)
        seen: set[tuple[Board, int]] = set()
        stack: list[tuple[Board, Board, int, tuple[Step, ...]]] = [(self.me, self.opp, 0, ())]
        while stack:
            me, opp, depth, steps = stack.pop()
            if me == target:
                found.setdefault(depth, steps)
                continue
            if depth == len(self.sequence):
                continue
            die = self.sequence[depth]
            for src in range(self.top, 0, -1):
                if not me[src]:
                    continue
                result = self.step(me, opp, src, die)
                if not isinstance(result, tuple):
                    if depth > failure[0]:
                        board = list(me)
                        board[src] -= 1
                        board[max(src - die, 0)] += 1
                        if not below_target(tuple(board)):
                            failure = (depth, self.finding(result, src, die, depth))
                elif (result[0], depth + 1) not in seen and not below_target(result[0]):
                    seen.add((result[0], depth + 1))
                    stack.append((result[0], result[1], depth + 1, steps + (result[2],)))
        return found, failure[1]

    def passed_after(self, depth: int, state: tuple[Board, Board]) -> tuple[int, ...]:
        """The steps a cascade's mover passes to the opponent after a play of ``depth`` steps
        ending in ``state``: none once the mover has borne off all, none outside a cascade."""
        if not self.cascade or self.passing or state[0][OFF] == CHECKERS:
            return ()
        return self.sequence[depth:]

    def position_after(self, me: Board, opp: Board) -> Position:
        """The position once this turn is over: boards set, the other side to move (after passed
        steps, the same side, who then rolls, still on its first turn if it was)."""
        return position_after(self.position, me, opp, self.passing)


@lru_cache(maxsize=1 << 16)
def _dice_share(lengths: tuple[int, ...], counts: tuple[int, ...]) -> bool:
    """Whether dice (``counts[v - 1]`` dice of value v) can be shared out among hops of
    ``lengths`` pips (longest first), every die used, each hop's dice summing to its length."""
    if not lengths:
        return not any(counts)

    def shares(left: int, largest: int, counts: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if not left:
            yield counts
            return
        for value in range(min(largest, left), 0, -1):
            if counts[value - 1]:
                yield from shares(left - value, value, counts[:value - 1] + (counts[value - 1] - 1,) + counts[value:])

    return any(_dice_share(lengths[1:], rest) for rest in shares(lengths[0], 6, counts))


def position_after(position: Position, me: Board, opp: Board, passing: bool = False) -> Position:
    """``position`` once its side to move has played to ``me`` (and the opponent's ``opp``): the
    other side to move (after passed steps, the same side, who then rolls, still on its first
    turn if it was)."""
    side, first = position.turn, position.first
    white, black = (me, opp) if side == WHITE else (opp, me)
    if passing:
        return position.unchecked(side, white, black, first)
    return position.unchecked(other(side), white, black, first - {side} if side in first else first)


def sequence_text(steps: tuple[int, ...]) -> str:
    """``4×4 4×5 4×6``: a sequence of steps by value, ``none`` when empty."""
    groups: list[list[int]] = []
    for die in steps:
        if groups and groups[-1][0] == die:
            groups[-1][1] += 1
        else:
            groups.append([die, 1])
    return " ".join(f"{count}×{die}" for die, count in groups) or "none"


def _steps(count: int) -> str:
    return f"{count} step" + ("" if count == 1 else "s")


class Engine:
    """One rules engine for every game, configured by a :class:`Rules`."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._quick = QuickCheck(rules)

    def legal_plays(self, position: Position, dice: tuple[int, int],
                    passed: tuple[int, ...] | None = None) -> list[Play]:
        """Every legal play of ``dice``, distinct by resulting position; one empty play for a pass.

        With ``passed``, the plays of the steps an opponent's cascade passed to the side to move."""
        turn = _Turn(self.rules, position, dice, passed)
        return [Play(steps, turn, state) for state, steps in turn.plays().items()]

    def choose_play(self, position: Position, dice: tuple[int, int], choose: Callable[[list[Play]], Play],
                    passed: tuple[int, ...] | None = None) -> Play:
        """A legal play picked by ``choose`` (a bot): among all legal plays, or, for a cascade or
        passed steps, one step at a time among the steps that still allow the longest play —
        a 1-1 cascade has tens of thousands of distinct plays, each step only a few choices."""
        turn = _Turn(self.rules, position, dice, passed)
        if not turn.ordered:
            return choose([Play(steps, turn, state) for state, steps in turn.plays().items()])
        most = turn.longest()
        play = Play((), turn, (turn.me, turn.opp))
        for depth in range(most):
            me, opp = play._state
            if me[OFF] == CHECKERS:
                break
            candidates: dict[tuple[Board, Board], tuple[Step, ...]] = {}
            for src in range(turn.top, 0, -1):
                result = turn.step(me, opp, src, turn.sequence[depth]) if me[src] else None
                if (isinstance(result, tuple) and (result[0], result[1]) not in candidates
                        and turn.longest(result[0], result[1], depth + 1, most) >= most):
                    candidates[(result[0], result[1])] = play.steps + (result[2],)
            play = choose([Play(steps, turn, state) for state, steps in candidates.items()])
        return play

    def steps(self, position: Position, dice: tuple[int, int]) -> tuple[int, ...]:
        """The steps a roll gives, in order when they must be played in order (a cascade)."""
        if self.rules.variant != position.variant:
            raise ValueError(f"{self.rules.variant} rules cannot judge a {position.variant} position")
        return self._quick.sequence(dice)

    def check(self, position: Position, dice: tuple[int, int], moves: tuple[Move, ...],
              passed: tuple[int, ...] | None = None) -> Verdict:
        """Judge a recorded play: legal when its moves, in some order and with chained or
        consolidated moves expanded, form a legal play (for a cascade or passed steps:
        a legal play of the sequence in order, see :meth:`_check_ordered`).

        Most recorded plays are proved legal by :class:`~nardy_cli.core.fast_check.QuickCheck`,
        with the verdict :meth:`judge` gives them; the rest, and every finding, are judged
        by :meth:`judge`."""
        quick = self._quick(position, dice, moves, passed)
        if quick is None:
            return self.judge(position, dice, moves, passed)
        me, opp, steps, rest = quick
        after = position_after(position, me, opp, passed is not None)
        return Verdict(Play.known(steps, (me, opp), after, rest), None, after, rest)

    def judge(self, position: Position, dice: tuple[int, int], moves: tuple[Move, ...],
              passed: tuple[int, ...] | None = None) -> Verdict:
        """:meth:`check` by the full path alone, the legal plays' generator: the reference
        the fast check is tested against."""
        turn = _Turn(self.rules, position, dice, passed)
        if turn.ordered:
            return self._check_ordered(turn, moves)
        legs = [leg for move in moves for leg in move.legs]
        dice_list = turn.sequences()[0]
        if len(legs) > len(dice_list):
            return self._illegal(turn, self._physical(turn, legs), Finding(
                "dice", f"{len(legs)} moves for a roll of {dice[0]}{dice[1]}"))
        search = _LegSearch(turn)
        resolved = search.run(turn.me, turn.opp, legs, dice_list)
        if resolved is None:
            # No order of the written moves is legal step by step, yet the play is legal if a
            # legal play of these dice reaches the same position (GNU Backgammon's criterion).
            physical = self._physical(turn, legs)
            legal = turn.plays() if physical is not None else {}
            if physical in legal:
                return Verdict(Play(legal[physical], turn, physical), None, turn.position_after(*physical))
            finding = search.failure or Finding("dice", f"the moves do not match the roll {dice[0]}{dice[1]}")
            return self._illegal(turn, physical, finding)
        me, opp, steps = resolved
        if turn.block_turn and turn.illegal_block(me):
            return self._illegal(turn, (me, opp), self._block_finding(turn))
        play = Play(steps, turn, (me, opp))
        if len(steps) == len(dice_list):
            return Verdict(play, None, play.position)
        legal = turn.plays()
        if (me, opp) in legal:
            return Verdict(play, None, play.position)
        most = len(next(iter(legal.values())))
        if len(steps) < most:
            used = "no die" if not steps else "1 die" if len(steps) == 1 else f"{len(steps)} dice"
            finding = Finding("not-maximal", f"{used} played where {most} can be")
        else:
            finding = Finding("higher-die", f"only one die can be played and the {max(dice)} must be")
        return Verdict(None, finding, play.position)

    def _block_finding(self, turn: _Turn) -> Finding:
        return Finding("six-block", f"the play ends with six points in a row and no "
                       f"{SIDE_NAMES[other(turn.side)]} checker ahead", self.rules.describe("block"))

    def _check_ordered(self, turn: _Turn, moves: tuple[Move, ...]) -> Verdict:
        """Judge a cascade or passed steps: legal when a legal play of a beginning of the
        sequence, in order, ends where the written moves do, and no longer beginning can be
        played. Findings: ``cascade-short``, ``cascade-order``, ``cascade-past``, or the rule
        a step breaks on the way."""
        sequence, full = turn.sequence, len(turn.sequence)
        option = self.rules.describe("cascade")  # passed steps, too, are the cascade's
        what = f"{'passed steps' if turn.passing else 'cascade'} {sequence_text(sequence)}"
        legs = [leg for move in moves for leg in move.legs]
        physical = self._physical_any_order(turn, legs)
        if physical is None:
            return self._illegal(turn, None, self._leg_failure(turn, legs))
        if len(legs) > full:
            return self._illegal(turn, physical, Finding(
                "dice", f"{len(legs)} moves for the {len(sequence)} steps of the {what}", option))
        pips = sum(src - dst for src, dst in legs)
        prefix = list(accumulate(sequence, initial=0))
        wasteful = self.rules.bearoff != "exact" and any(dst == OFF for _, dst in legs)
        written = next((k for k, total in enumerate(prefix) if total == pips or (wasteful and total >= pips)), None)
        # a play of a beginning of the sequence moves the checkers as many pips as its steps
        # (at most that many, wasting a bear-off): none ends where the moves do if none takes their pips
        followed, failure = turn.follow(legs, prune=True) if written is not None else (None, None)
        found = dict([followed]) if followed else {}
        if not found and written is not None:  # other steps may reach the same position (GNU Backgammon's criterion)
            found, reach_failure = turn.reach(physical[0])
            if not found:  # the finding names the failure that got furthest: the unpruned search's
                failure = turn.follow(legs)[1] or reach_failure
        finished = physical[0][OFF] == CHECKERS
        if found:
            most = full if finished or full in found else turn.longest()
            depth = most if most in found else max(found)
            play = Play(found[depth], turn, physical)
            passed = turn.passed_after(depth, physical)
            if turn.block_turn and turn.illegal_block(physical[0]):
                return Verdict(None, self._block_finding(turn), play.position, passed)
            if depth == most or finished:
                return Verdict(play, None, play.position, passed)
            return Verdict(None, Finding("cascade-short", f"{_steps(depth)} of the {what} played where {most} "
                                         "can be", option), play.position, passed)
        passed = turn.passed_after(written, physical) if written is not None else ()
        position = turn.position_after(*physical)
        most = turn.longest()
        if written is None:
            finding = Finding("dice" if pips > prefix[-1] else "cascade-order",
                              f"the moves take {pips} pips, which no beginning of the {what} takes "
                              f"(its steps are played in order: {', '.join(map(str, prefix[1:]))})", option)
        elif written > most:
            rest = "are lost" if turn.passing else f"pass to {SIDE_NAMES[other(turn.side)]}"
            finding = Finding("cascade-past", f"{_steps(written)} of the {what} played, but it stops after {most}: "
                              f"no {sequence[most]} can be played there, and the steps from it {rest}", option)
            passed = turn.passed_after(most, physical)
        else:
            finding = failure or Finding("cascade-order", f"the moves cannot be played as the {what} in order",
                                         option)
        return Verdict(None, finding, position, passed)

    @staticmethod
    def _physical_any_order(turn: _Turn, legs: list[tuple[int, int]]) -> tuple[Board, Board] | None:
        """The boards after the written moves in whatever order they can be made (a game
        without hits: the opponent's checkers stay); None when no order makes them."""
        me = list(turn.me)
        for src, dst in legs:
            if dst != OFF and turn.opp[turn.opposite[dst]]:
                return None
            me[src] -= 1
            me[dst] += 1
        return (tuple(me), turn.opp) if min(me) >= 0 else None

    @staticmethod
    def _leg_failure(turn: _Turn, legs: list[tuple[int, int]]) -> Finding:
        """Why the written moves cannot be made in any order: a move onto a point the opponent
        holds, or from a point where no checker stands or arrives."""
        me = list(turn.me)
        for src, dst in legs:
            if dst != OFF and turn.opp[turn.opposite[dst]]:
                return replace(turn.finding(_BLOCKED, src, src - dst), step=FindingStep(src, dst))
            me[src] -= 1
            me[dst] += 1
        return turn.finding(_NO_CHECKER, next(p for p in range(BAR, -1, -1) if me[p] < 0), 0)

    @staticmethod
    def _illegal(turn: _Turn, state: tuple[Board, Board] | None, finding: Finding) -> Verdict:
        return Verdict(None, finding, None if state is None else turn.position_after(*state))

    @staticmethod
    def _physical(turn: _Turn, legs: list[tuple[int, int]]) -> tuple[Board, Board] | None:
        """The boards after the written moves made as written, dice and rules aside;
        None when a move cannot be made at all (no checker there, or the point is
        occupied by the opponent beyond hitting)."""
        me, opp = list(turn.me), list(turn.opp)
        for src, dst in legs:
            if not me[src]:
                return None
            if dst != OFF:
                opp_point = turn.opposite[dst]
                if opp[opp_point] > (1 if turn.hits else 0):
                    return None
                if opp[opp_point]:
                    opp[opp_point] -= 1
                    opp[BAR] += 1
            me[src] -= 1
            me[dst] += 1
        return tuple(me), tuple(opp)

    def split(self, position: Position, dice: tuple[int, int], moves: tuple[Move, ...]) -> Split:
        """A recorded play in single-die steps, for notations that write one step per die (SGF).

        Each hop is split as :meth:`check` plays it when the hops can be played as legal steps
        of ``dice``; otherwise by the dice alone, no rule judged (the fewest dice, landings on points
        the opponent holds, then on blots, avoided where the dice allow), and the steps are then
        made as far as the board allows, so that an illegal play is still written as recorded.
        Not for a cascade (``ValueError``).
        """
        turn = _Turn(self.rules, position, dice)
        if turn.ordered:
            raise ValueError("a cascade's steps are played in order: they need no splitting")
        legs = [leg for move in moves for leg in move.legs]
        resolved = _LegSearch(turn).run(turn.me, turn.opp, legs, turn.sequence)
        if resolved is not None:
            return Split(_hop_paths(legs, resolved[2]), turn.position_after(resolved[0], resolved[1]))
        paths = _paths_by_dice(turn, legs, turn.sequence)
        made = legs if paths is None else [hop for path in paths for hop in zip(path, path[1:])]
        state = self._physical(turn, made)
        return Split(None if paths is None else tuple(paths), None if state is None else turn.position_after(*state))


def _hop_paths(legs: list[tuple[int, int]], steps: tuple[Step, ...]) -> tuple[tuple[int, ...], ...]:
    """The points each leg passes, one per step, in the order of ``legs``, from ``steps`` that play
    the legs one after another in some order (as :class:`_LegSearch` finds them)."""
    def partition(start: int, left: list[tuple[int, int]]) -> list[tuple[int, ...]] | None:
        if start == len(steps):
            return None if left else []
        path = [steps[start].src]
        for step in steps[start:]:
            if step.src != path[-1]:
                break
            path.append(step.dst)
            if (path[0], path[-1]) in left:
                rest = list(left)
                rest.remove((path[0], path[-1]))
                found = partition(start + len(path) - 1, rest)
                if found is not None:
                    return [tuple(path), *found]
        return None

    found = partition(0, legs)
    assert found is not None, "the steps play the legs"
    by_leg: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    for path in found:
        by_leg.setdefault((path[0], path[-1]), []).append(path)
    return tuple(by_leg[leg].pop() for leg in legs)


def _paths_by_dice(turn: _Turn, legs: list[tuple[int, int]], dice: tuple[int, ...]) -> list[tuple[int, ...]] | None:
    """Each leg's points, one per die, by the dice alone, no rule judged: the fewest dice, then
    landings on points the opponent holds, then on blots, avoided where the dice allow; None
    when the legs do not fit the dice."""
    if not legs:
        return []
    (src, dst), opp, opposite = legs[0], turn.opp, turn.opposite
    held = 2 if turn.hits else 1

    def landings(path: tuple[int, ...]) -> list[int]:
        return list(accumulate(path[:-1], lambda point, die: point - die, initial=src))[1:]

    def rank(entry: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, int, int]:
        there = [opp[opposite[point]] for point in landings(entry[0])]
        return len(entry[0]), sum(n >= held for n in there), sum(turn.hits and n == 1 for n in there)

    for path, rest in sorted(dice_paths(src - dst, dst == OFF, dice), key=rank):
        tail = _paths_by_dice(turn, legs[1:], rest)
        if tail is not None:
            return [(src, *landings(path), dst), *tail]
    return None


class _LegSearch:
    """Finds dice and an order that turn written legs into legal steps, remembering the
    failure that got furthest (in legs made) when none does."""

    def __init__(self, turn: _Turn) -> None:
        self.turn = turn
        self.failure: Finding | None = None
        self.failure_depth = -1

    def _fail(self, finding: Finding, depth: int) -> None:
        if depth > self.failure_depth:
            self.failure, self.failure_depth = finding, depth

    def run(self, me: Board, opp: Board, legs: list[tuple[int, int]], dice: tuple[int, ...],
            steps: tuple[Step, ...] = (), done: int = 0) -> tuple[Board, Board, tuple[Step, ...]] | None:
        if not legs:
            return me, opp, steps
        for index, (src, dst) in enumerate(legs):
            rest = legs[:index] + legs[index + 1:]
            paths = dice_paths(src - dst, dst == OFF, dice)
            if not paths:
                self._fail(self._dice_finding(src, dst, dice), done)
            elif len(paths) > 1:
                paths = preferred_paths(opp, self.turn.opposite, src, paths)
            for path, remaining in paths:
                result = self._walk(me, opp, src, path, steps, done)
                if result is not None:
                    found = self.run(result[0], result[1], rest, remaining, result[2], done + 1)
                    if found is not None:
                        return found
        return None

    def _walk(self, me: Board, opp: Board, src: int, path: tuple[int, ...],
              steps: tuple[Step, ...], done: int) -> tuple[Board, Board, tuple[Step, ...]] | None:
        for die in path:
            result = self.turn.step(me, opp, src, die)
            if result.__class__ is int:
                self._fail(self.turn.finding(result, src, die, len(steps)), done)
                return None
            me, opp, step = cast("tuple[Board, Board, Step]", result)
            steps += (step,)
            src = step.dst
        return me, opp, steps

    def _dice_finding(self, src: int, dst: int, dice: tuple[int, ...]) -> Finding:
        roll, move = f"{self.turn.dice[0]}{self.turn.dice[1]}", FindingStep(src, dst)
        if not dice:
            return Finding("dice", f"{point_name(src)}/{point_name(dst)} is a move too many: the moves before it "
                           f"use every die of the roll {roll}", step=move)
        return Finding("dice", f"{point_name(src)}/{point_name(dst)} cannot be played "
                       f"with the dice left ({'/'.join(map(str, dice))}) of the roll {roll}", step=move)


class Outcome(Value):
    """How a finished game ended: winner, category (koks / home-mars / mars / oin) and points
    (read-only; a plain class, as :class:`FindingStep` is)."""

    __slots__ = ("_winner", "_category", "_points")
    __match_args__ = ("winner", "category", "points")

    def __init__(self, winner: Side, category: str, points: int) -> None:
        self._winner, self._category, self._points = winner, category, points

    @property
    def winner(self) -> Side:
        return self._winner

    @property
    def category(self) -> str:
        return self._category

    @property
    def points(self) -> int:
        return self._points

    def _fields(self) -> tuple[Side, str, int]:
        return self._winner, self._category, self._points


def outcome_category(position: Position, loser: Side) -> str:
    """The first category of RULES.md's table whose condition holds for ``loser``."""
    board = position.board(loser)
    if board[OFF]:
        return "oin"
    if any(board[19:25]) or board[BAR]:
        return "koks"
    if VARIANTS[position.variant].home_mars and sum(board[1:HOME_TOP + 1]) == CHECKERS:
        return "home-mars"
    return "mars"


def game_outcome(rules: Rules, position: Position, *, money: bool = False) -> Outcome | None:
    """The outcome of a finished game under ``rules`` (None while nobody has borne off all).

    Points are the scheme's points times the cube; with ``jacoby=on`` in a money
    game an unturned cube scores mars and koks as a single game.
    """
    winner = position.winner()
    if winner is None:
        return None
    category = outcome_category(position, other(winner))
    points = 1 if jacoby_applies(rules, position, money=money) else rules.points(category)
    return Outcome(winner, category, points * position.cube_value)


def jacoby_applies(rules: Rules, position: Position, *, money: bool) -> bool:
    """Whether the Jacoby rule scores a game ending in ``position`` as a single game whatever its
    outcome: ``jacoby=on``, money play, the cube never turned."""
    return rules.jacoby == "on" and money and position.cube_value == 1


picklable(Finding)
