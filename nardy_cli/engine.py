"""The rules engine: legal plays, checking recorded plays, outcomes — one engine for both games.

Everything is computed from the mover's point of view: ``me`` is the mover's
board and ``opp`` the opponent's, each in its owner's numbering (see
:mod:`nardy_cli.position`). Legal plays are generated breadth-first, one die at
a time, keeping one representative per distinct intermediate position, so
doubles never explode into permutations.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from .position import CHECKERS, Board, Position, opposite_point
from .record import BAR, BLACK, OFF, SIDE_NAMES, WHITE, Move, other, point_name
from .rules import Rules

HOME_TOP = 6
HEAD = 24
OPP_HEAD = 12  # the opponent's head, in long nardy, seen in the mover's numbering

_OPPOSITE = {variant: (0,) + tuple(opposite_point(variant, p) for p in range(1, 25)) + (0,)
             for variant in ("long", "short")}


class Step(NamedTuple):
    """One die played by one checker: from ``src`` to ``dst`` (25 = bar, 0 = off)."""

    src: int
    dst: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{point_name(self.src)}/{point_name(self.dst)}{'*' if self.hit else ''}"


_new_step = tuple.__new__  # builds a Step without NamedTuple's slower keyword-aware constructor


def steps_to_moves(steps: tuple[Step, ...] | list[Step]) -> tuple[Move, ...]:
    """Steps as written moves: highest point first, equal steps merged into ``(n)``."""
    ordered = sorted(steps, key=lambda s: (-s.src, -s.dst, not s.hit))
    moves: list[Move] = []
    for step in ordered:
        move = Move((step.src, step.dst), (step.hit,))
        if moves and moves[-1].path == move.path and moves[-1].hits == move.hits:
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

    __slots__ = ("steps", "_turn", "_state", "_position")

    def __init__(self, steps: tuple[Step, ...], turn: "_Turn", state: tuple[Board, Board]) -> None:
        self.steps = steps
        self._turn, self._state = turn, state
        self._position: Position | None = None

    @property
    def position(self) -> Position:
        if self._position is None:
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
    def hits(self) -> int:
        return sum(step.hit for step in self.steps)


@dataclass(frozen=True)
class Finding:
    """Why something recorded is not legal: a code of formats/findings.md and a message.

    ``option`` names the rule option and value the verdict depends on
    (``head=classic``), when one does.
    """

    code: str
    message: str
    option: str | None = None

    def __str__(self) -> str:
        return f"{self.code}: {self.message}" + (f" ({self.option})" if self.option else "")


@dataclass(frozen=True)
class Verdict:
    """The judgement of one recorded play.

    ``play`` is the legal play when the record is legal; ``position`` is the
    position after the turn — after the recorded play even when it is illegal,
    as far as it can physically be made, or None when it cannot.
    """

    play: Play | None
    finding: Finding | None
    position: Position | None

    @property
    def legal(self) -> bool:
        return self.finding is None


# Reasons a single step fails, in the mover's terms; turned into findings by _Turn.finding.
_NO_CHECKER, _BAR_FIRST, _HEAD, _BEAR_OFF_HOME, _BEAR_OFF_HIGHER, _BLOCKED, _SIX_BLOCK = range(7)


class _Turn:
    """What a turn's rules need, computed once for a position and roll."""

    __slots__ = ("rules", "position", "side", "dice", "is_double", "me", "opp", "opposite",
                 "long", "top", "head_start", "head_limit", "head_reason", "opp_lowest",
                 "block_step", "block_turn")

    def __init__(self, rules: Rules, position: Position, dice: tuple[int, int]) -> None:
        if rules.variant != position.variant:
            raise ValueError(f"{rules.variant} rules cannot judge a {position.variant} position")
        if not all(1 <= d <= 6 for d in dice) or len(dice) != 2:
            raise ValueError(f"dice must be two numbers 1-6, found {dice}")
        self.rules, self.position, self.dice = rules, position, tuple(dice)
        self.side = position.turn
        self.is_double = dice[0] == dice[1]
        self.me, self.opp = position.board(self.side), position.board(other(self.side))
        self.opposite = _OPPOSITE[position.variant]
        self.long = position.variant == "long"
        self.top = HEAD if self.long else BAR
        self.head_start = self.me[HEAD]
        self.head_limit, self.head_reason = self._head_limit() if self.long else (CHECKERS, "")
        self.opp_lowest = self._opponent_lowest() if self.long else 0
        self.block_step = self.long and rules.block == "step"
        self.block_turn = self.long and rules.block == "turn"

    # --- long nardy's special rules ------------------------------------------------

    def _head_limit(self) -> tuple[int, str]:
        """How many checkers may leave the head this turn, and why."""
        if self.side not in self.position.first or not self.is_double:
            return 1, "only one checker may leave the head per turn"
        die, head = self.dice[0], self.rules.head
        stop = self._head_checker_stop(die)
        if head == "classic" and die in (6, 4, 3):
            return 2, ""
        if head == "strict" and die in (6, 4, 3) and stop == OPP_HEAD:
            return 2, ""
        if head == "general" and stop is not None:
            return 2, ""
        if head == "general":
            return 1, f"one checker can play the whole {die}-{die} from the head"
        if head == "strict" and die in (6, 4, 3):
            return 1, f"the checker from the head is stopped on {stop}, not by the opponent's head"
        return 1, f"{die}-{die} does not let a second checker leave the head"

    def _head_checker_stop(self, die: int) -> int | None:
        """Where one checker leaving the head with this double is stopped, or None if it is not."""
        for k in range(1, 5):
            point = HEAD - k * die
            if point <= 0 or self.opp[self.opposite[point]]:
                return max(point, 0)
        return None

    def _opponent_lowest(self) -> int:
        """The opponent's most advanced checker (own numbering); 0 once one is borne off."""
        if self.opp[OFF]:
            return 0
        return next(p for p in range(1, 25) if self.opp[p])

    def _block_at(self, me: Board, point: int) -> bool:
        """Whether ``me`` holds an illegal six-block through ``point`` (mover's numbering).

        Blocks run along the opponent's route, so runs are measured in the
        opponent's numbering; a block is legal while an opponent checker is
        ahead of it (further along their route, or borne off).
        """
        opposite = self.opposite
        low = high = opposite[point]
        while low > 1 and me[opposite[low - 1]]:
            low -= 1
        while high < 24 and me[opposite[high + 1]]:
            high += 1
        return high - low >= 5 and self.opp_lowest >= low

    def illegal_block(self, me: Board) -> bool:
        """Whether the position ``me`` holds an illegal six-block anywhere."""
        return any(me[p] and self._block_at(me, p) for p in range(1, 25))

    # --- steps ---------------------------------------------------------------------

    def step(self, me: Board, opp: Board, src: int, die: int) -> tuple[Board, Board, Step] | int:
        """Play ``die`` from ``src``: the boards after it and the step, or the reason it is illegal."""
        if not me[src]:
            return _NO_CHECKER
        if me[BAR] and src != BAR:
            return _BAR_FIRST
        if src == HEAD and self.long and self.head_start - me[HEAD] >= self.head_limit:
            return _HEAD
        dst = src - die
        board = list(me)
        board[src] -= 1
        if dst <= 0:
            highest = self.top
            while not me[highest]:
                highest -= 1
            if highest > HOME_TOP:
                return _BEAR_OFF_HOME
            if dst < 0 and src != highest:
                return _BEAR_OFF_HIGHER
            board[OFF] += 1
            return tuple(board), opp, _new_step(Step, (src, OFF, die, False))
        opp_point = self.opposite[dst]
        held = opp[opp_point]
        if held:
            if held > 1 or self.long:
                return _BLOCKED
            hit_board = list(opp)
            hit_board[opp_point] = 0
            hit_board[BAR] += 1
            opp = tuple(hit_board)
        board[dst] += 1
        board_after = tuple(board)
        if self.block_step and not me[dst] and self._block_at(board_after, dst):
            return _SIX_BLOCK
        return board_after, opp, _new_step(Step, (src, dst, die, bool(held)))

    def finding(self, reason: int, src: int, die: int) -> Finding:
        """The finding for a step that failed for ``reason``."""
        name, rules = SIDE_NAMES[self.side], self.rules
        target = point_name(max(src - die, 0))
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
        if reason == _BLOCKED:
            held = "held by" if self.long else "made by two or more checkers of"
            return Finding("blocked", f"{src}/{target}: point {target} is {held} {SIDE_NAMES[other(self.side)]}")
        return Finding("six-block", f"{point_name(src)}/{target} builds six points in a row with no "
                       f"{SIDE_NAMES[other(self.side)]} checker ahead", rules.describe("block"))

    # --- whole plays ---------------------------------------------------------------

    def sequences(self) -> list[tuple[int, ...]]:
        if self.is_double:
            return [(self.dice[0],) * 4]
        high, low = max(self.dice), min(self.dice)
        return [(high, low), (low, high)]

    def plays(self) -> dict[tuple[Board, Board], tuple[Step, ...]]:
        """Every legal play as {(me, opp) after it: its steps}; ``{start: ()}`` for a pass."""
        start = (self.me, self.opp)
        by_depth: list[dict[tuple[Board, Board], tuple[Step, ...]]] = [{start: ()}]
        higher_die_states: set[tuple[Board, Board]] = set()
        for order, sequence in enumerate(self.sequences()):
            frontier = {start: ()}
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
        for depth in range(len(by_depth) - 1, -1, -1):
            level = by_depth[depth]
            if self.block_turn:
                level = {s: steps for s, steps in level.items() if not self.illegal_block(s[0])}
            if depth == 1 and not self.is_double:
                higher = {s: steps for s, steps in level.items() if s in higher_die_states}
                level = higher or level
            if level:
                return level
        return {start: ()}

    def position_after(self, me: Board, opp: Board) -> Position:
        """The position once this turn is over: boards set, the other side to move."""
        position = self.position
        return position.unchecked(other(self.side), *((me, opp) if self.side == WHITE else (opp, me)),
                                  position.first - {self.side})


class Engine:
    """One rules engine for both games, configured by a :class:`Rules`."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def legal_plays(self, position: Position, dice: tuple[int, int]) -> list[Play]:
        """Every legal play of ``dice``, distinct by resulting position; one empty play for a pass."""
        turn = _Turn(self.rules, position, dice)
        return [Play(steps, turn, state) for state, steps in turn.plays().items()]

    def check(self, position: Position, dice: tuple[int, int], moves: tuple[Move, ...]) -> Verdict:
        """Judge a recorded play: legal when its moves, in some order and with chained or
        consolidated moves expanded, form a legal play."""
        turn = _Turn(self.rules, position, dice)
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
            return self._illegal(turn, (me, opp), Finding(
                "six-block", f"the play ends with six points in a row and no "
                f"{SIDE_NAMES[other(turn.side)]} checker ahead", self.rules.describe("block")))
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
                if opp[opp_point] > (0 if turn.long else 1):
                    return None
                if opp[opp_point]:
                    opp[opp_point] -= 1
                    opp[BAR] += 1
            me[src] -= 1
            me[dst] += 1
        return tuple(me), tuple(opp)


@lru_cache(maxsize=4096)
def _dice_paths(distance: int, to_off: bool, dice: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Orders of dice that carry a checker exactly ``distance`` points (or, bearing off,
    past the edge on the last die), fewest dice first, each with the dice left over."""
    found: dict[tuple[int, ...], tuple[int, ...]] = {}

    def extend(path: tuple[int, ...], left: tuple[int, ...], travelled: int) -> None:
        for i, die in enumerate(left):
            total, candidate, rest = travelled + die, path + (die,), left[:i] + left[i + 1:]
            if total == distance or (to_off and total > distance):
                found.setdefault(candidate, rest)
            elif total < distance:
                extend(candidate, rest, total)

    extend((), dice, 0)
    return sorted(found.items(), key=lambda entry: len(entry[0]))


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
            paths = _dice_paths(src - dst, dst == OFF, dice)
            if not paths:
                self._fail(self._dice_finding(src, dst, dice), done)
            elif len(paths) > 1:
                paths = self._preferred(opp, src, paths)
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
                self._fail(self.turn.finding(result, src, die), done)
                return None
            me, opp, step = result
            steps += (step,)
            src = step.dst
        return me, opp, steps

    def _preferred(self, opp: Board, src: int, paths: list) -> list:
        """Paths that do not hit on the way first, as GNU Backgammon expands ``13/7``."""
        opposite = self.turn.opposite

        def hits_on_the_way(path: tuple[int, ...]) -> bool:
            point = src
            for die in path[:-1]:
                point -= die
                if point > 0 and opp[opposite[point]] == 1:
                    return True
            return False

        return sorted(paths, key=lambda entry: (len(entry[0]), hits_on_the_way(entry[0])))

    def _dice_finding(self, src: int, dst: int, dice: tuple[int, ...]) -> Finding:
        roll = f"{self.turn.dice[0]}{self.turn.dice[1]}"
        if not dice:
            return Finding("dice", f"{point_name(src)}/{point_name(dst)} is a move too many: the moves before it "
                           f"use every die of the roll {roll}")
        return Finding("dice", f"{point_name(src)}/{point_name(dst)} cannot be played "
                       f"with the dice left ({'/'.join(map(str, dice))}) of the roll {roll}")


CATEGORIES = ("koks", "home-mars", "mars", "oin")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: winner, category (koks / home-mars / mars / oin) and points."""

    winner: str
    category: str
    points: int


def outcome_category(position: Position, loser: str) -> str:
    """The first category of RULES.md's table whose condition holds for ``loser``."""
    board = position.board(loser)
    if board[OFF]:
        return "oin"
    if any(board[19:25]) or board[BAR]:
        return "koks"
    if position.variant == "long" and sum(board[1:HOME_TOP + 1]) == CHECKERS:
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
    points = rules.points(category)
    if rules.jacoby == "on" and money and position.cube_value == 1:
        points = 1
    return Outcome(winner, category, points * position.cube_value)
