"""A lean check of recorded plays on the common path, beside the engine's full judge.

:class:`QuickCheck` accepts a recorded play only when it can prove it legal cheaply —
its moves resolve into legal steps that use every die (or every step of a cascade), or
it bears off the last checker with a double, or no die can be played at all, or a lean
search of the roll finds no longer play (and the higher-die rule holds) — and otherwise
declines (returns None), so that :meth:`Engine.check <nardy_cli.core.engine.Engine.check>`
decides with its generator; so does the first-turn head exception of a double. It never
finds a play illegal: every finding comes from the full path. It works on plain lists
changed in place and undone, in the full path's search order, so an accepted play has
exactly the steps the full path gives it (``tests/test_fast_check.py`` compares both
paths on generated and mutated plays of every game).

The primitives both paths share (dice paths of a written move, the six-block test, a
roll's steps) live here, below the engine.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import accumulate

from nardy_cli.core.moves import Move, Step, new_step
from nardy_cli.core.position import Position
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import BAR, OFF, WHITE
from nardy_cli.core.variants import CASCADE_STEPS, CHECKERS, HEAD, VARIANTS, Board, cascade_steps

HOME_TOP = 6  # the highest point of a home, in the mover's numbering

Paths = list[tuple[tuple[int, ...], tuple[int, ...]]]
Accepted = tuple[Board, Board, tuple[Step, ...], tuple[int, ...]]
"""A play proved legal: the mover's and the opponent's boards after it, its steps, the steps it passes."""


def roll_sequence(variant: str, cascade: str | None, dice: tuple[int, int],
                  passed: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """The steps a roll gives: larger die first for a non-double, four of a double, a
    cascade's sequence, or the ``passed`` steps themselves. Raises ValueError for dice
    that are not two numbers 1-6."""
    return _roll_sequence(variant, cascade, tuple(dice), None if passed is None else tuple(passed))


@lru_cache(maxsize=256)
def _roll_sequence(variant: str, cascade: str | None, dice: tuple[int, ...],
                   passed: tuple[int, ...] | None) -> tuple[int, ...]:
    if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two numbers 1-6, found {dice}")
    if passed is not None:
        return passed
    if dice[0] != dice[1]:
        return (max(dice), min(dice))
    if VARIANTS[variant].cascade:
        return cascade_steps(dice[0], CASCADE_STEPS[cascade or "four"])
    return (dice[0],) * 4


@lru_cache(maxsize=4096)
def dice_paths(distance: int, to_off: bool, dice: tuple[int, ...]) -> Paths:
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


def preferred_paths(opp: Board | list[int], opposite: tuple[int, ...], src: int, paths: Paths) -> Paths:
    """Paths that do not hit on the way first, as GNU Backgammon expands ``13/7``."""
    def hits_on_the_way(path: tuple[int, ...]) -> bool:
        point = src
        for die in path[:-1]:
            point -= die
            if point > 0 and opp[opposite[point]] == 1:
                return True
        return False

    return sorted(paths, key=lambda entry: (len(entry[0]), hits_on_the_way(entry[0])))


def opponent_lowest(opp: Board | list[int]) -> int:
    """The opponent's most advanced checker (own numbering); 0 once one is borne off."""
    if opp[OFF]:
        return 0
    return next(p for p in range(1, 25) if opp[p])


def block_at(me: Board | list[int], point: int, opposite: tuple[int, ...], lowest: int) -> bool:
    """Whether ``me`` holds an illegal six-block through ``point`` (mover's numbering).

    Blocks run along the opponent's route, so runs are measured in the opponent's
    numbering; a block is legal while an opponent checker is ahead of it (further along
    their route, or borne off): ``lowest`` is the opponent's most advanced checker.
    """
    low = high = opposite[point]
    while low > 1 and me[opposite[low - 1]]:
        low -= 1
    while high < 24 and me[opposite[high + 1]]:
        high += 1
    return high - low >= 5 and lowest >= low


def illegal_block(me: Board | list[int], opposite: tuple[int, ...], lowest: int) -> bool:
    """Whether ``me`` holds an illegal six-block anywhere."""
    return any(me[p] and block_at(me, p, opposite, lowest) for p in range(1, 25))


class QuickCheck:
    """The fast check under one rule set: call it as :meth:`Engine.check
    <nardy_cli.core.engine.Engine.check>`."""

    __slots__ = ("variant", "cascade", "settings")

    def __init__(self, rules: Rules) -> None:
        variant = VARIANTS[rules.variant]
        self.variant, self.cascade = rules.variant, rules.cascade
        self.settings = (variant.opposite, variant.hits, variant.head, BAR if variant.bar else HEAD,
                         rules.bearoff == "exact", variant.six_block and rules.block == "step",
                         variant.six_block and rules.block == "turn", variant.six_block, variant.cascade)

    def __call__(self, position: Position, dice: tuple[int, int], moves: tuple[Move, ...],
                 passed: tuple[int, ...] | None = None) -> Accepted | None:
        """The mover's and the opponent's boards after a recorded play, its steps and the steps
        it passes (crazy nardy), when the play is proved legal cheaply; None when the full path
        must decide."""
        if position.variant != self.variant or len(dice) != 2:
            return None
        try:
            sequence = _roll_sequence(self.variant, self.cascade, dice, passed)
        except (ValueError, TypeError):  # bad dice, or dice not in a tuple: the full path decides
            return None
        opposite, hits, head, top, exact, block_step, block_turn, six_block, cascade = self.settings
        passing = passed is not None
        is_double = passing or dice[0] == dice[1]
        side = position.turn
        if head and is_double and not passing and side in position.first:
            return None  # the first-turn head exception: the full path knows its options
        if side == WHITE:
            me, opp = list(position.white), list(position.black)
        else:
            me, opp = list(position.black), list(position.white)
        legs = [leg for move in moves for leg in move.legs]
        if len(legs) > len(sequence):
            return None
        lowest = opponent_lowest(opp) if six_block else 0
        head_left = me[HEAD] - 1  # the head rule without a first-turn exception: one checker may leave
        board = _Board(me, opp, opposite, hits, head, head_left, top, exact, block_step, lowest)
        steps = board.steps
        if passing or (cascade and is_double):  # the steps are one sequence played in order
            if not _follow(legs, sequence, board):
                return None
            depth = len(steps)
            finished = me[OFF] == CHECKERS  # bearing off the last checker counts as the whole sequence
            if block_turn and illegal_block(me, opposite, lowest):
                return None
            ordered: Accepted = (tuple(me), tuple(opp), tuple(steps), () if passing or finished else sequence[depth:])
            if not (depth == len(sequence) or finished) and _longer_exists(depth, sequence, True, board, block_turn):
                return None
            return ordered

        if not _first_resolution(legs, sequence, board):
            board.undo(0)
            if not _resolve(legs, sequence, board):
                return None
        if block_turn and illegal_block(me, opposite, lowest):
            return None
        result: Accepted = (tuple(me), tuple(opp), tuple(steps), ())
        made = len(steps)
        # A double that bears off the last checker uses as many steps as any play: each checker
        # takes ceil(point / die) steps in every play that moves it off.
        if made == len(sequence) or (is_double and made and me[OFF] == CHECKERS):
            return result
        if not made:  # a pass: legal when no die can be played at all
            sources = (BAR,) if me[BAR] else range(top, 0, -1)
            return None if any(me[src] and board.play(src, die) for die in set(sequence) for src in sources) else result
        for order in (sequence,) if is_double else (sequence, sequence[::-1]):
            if _longer_exists(made, order, False, board, block_turn):
                return None
        if made == 1 and result[2][0][2] != sequence[0]:  # the higher-die rule: the larger die, if it can be played
            reached = _reached_by(sequence[0], board, block_turn)
            if reached and (result[0], result[1]) not in reached:
                return None
        return result


class _Board:
    """The mover's and the opponent's boards of one check, played on and taken back in place, with
    the steps made (a class, not closures: compiled, its calls are direct)."""

    __slots__ = ("me", "opp", "steps", "opposite", "hits", "head", "head_left", "top", "exact", "block_step",
                 "lowest")

    def __init__(self, me: list[int], opp: list[int], opposite: tuple[int, ...], hits: bool, head: bool,
                 head_left: int, top: int, exact: bool, block_step: bool, lowest: int) -> None:
        self.me, self.opp, self.opposite = me, opp, opposite
        self.steps: list[Step] = []
        self.hits, self.head, self.head_left, self.top, self.exact = hits, head, head_left, top, exact
        self.block_step, self.lowest = block_step, lowest

    def play(self, src: int, die: int) -> bool:
        """Play ``die`` from ``src``, as :meth:`_Turn.step` judges it; False if illegal."""
        me = self.me
        if not me[src] or (me[BAR] and src != BAR) or (src == HEAD and self.head and me[HEAD] <= self.head_left):
            return False
        dst = src - die
        exact = self.exact
        if dst <= 0 or (exact and src <= HOME_TOP):
            highest = self.top
            while not me[highest]:
                highest -= 1
            if dst <= 0:
                if highest > HOME_TOP or (dst < 0 and (exact or src != highest)):
                    return False
                me[src] -= 1
                me[OFF] += 1
                self.steps.append(new_step(Step, (src, OFF, die, False)))
                return True
            if highest <= HOME_TOP:
                return False
        opp, opposite = self.opp, self.opposite
        opp_point = opposite[dst]
        held = opp[opp_point]
        if held and (held > 1 or not self.hits):
            return False
        me[src] -= 1
        me[dst] += 1
        if self.block_step and me[dst] == 1 and block_at(me, dst, opposite, self.lowest):
            me[src] += 1
            me[dst] -= 1
            return False
        if held:
            opp[opp_point] = 0
            opp[BAR] += 1
        self.steps.append(new_step(Step, (src, dst, die, bool(held))))
        return True

    def undo(self, mark: int) -> None:
        """Take back the steps made after the first ``mark``."""
        steps, me, opp, opposite = self.steps, self.me, self.opp, self.opposite
        while len(steps) > mark:
            src, dst, _, hit = steps.pop()
            me[src] += 1
            me[dst] -= 1
            if hit:
                opp[opposite[dst]] = 1
                opp[BAR] -= 1


def _first_resolution(legs: list[tuple[int, int]], dice: tuple[int, ...], board: _Board) -> bool:
    """The first resolution :func:`_resolve` tries, with no backtracking: the written legs in
    order, each by its first dice path (most plays resolve so)."""
    steps = board.steps
    for src, dst in legs:
        paths = dice_paths(src - dst, dst == OFF, dice)
        if len(paths) != 1:
            if not paths:
                return False
            paths = preferred_paths(board.opp, board.opposite, src, paths)
        path, dice = paths[0]
        for die in path:
            if not board.play(src, die):
                return False
            src = steps[-1][1]
    return True


def _resolve(legs: list[tuple[int, int]], dice: tuple[int, ...], board: _Board) -> bool:
    """Written legs resolved into legal steps in the order of the engine's leg search (the
    first resolution it finds), the boards left after them; False, the boards as they
    were, when none is found."""
    if not legs:
        return True
    steps = board.steps
    for index, (src, dst) in enumerate(legs):
        paths = dice_paths(src - dst, dst == OFF, dice)
        if len(paths) > 1:
            paths = preferred_paths(board.opp, board.opposite, src, paths)
        if not paths:
            continue
        rest = legs[:index] + legs[index + 1:]
        for path, remaining in paths:
            mark, point = len(steps), src
            for die in path:
                if not board.play(point, die):
                    break
                point = steps[-1][1]
            else:
                if _resolve(rest, remaining, board):
                    return True
            board.undo(mark)
    return False


def _follow(legs: list[tuple[int, int]], sequence: tuple[int, ...], board: _Board) -> bool:
    """The first play the engine's ``follow`` tries for written legs of an ordered sequence,
    step by step with no backtracking: True when it makes every leg (the steps played in
    place), False when it gets stuck or a leg lands on the opponent (the full path decides)."""
    opp, opposite = board.opp, board.opposite
    counts = board.me[:]
    for src, dst in legs:
        if dst != OFF and opp[opposite[dst]]:
            return False
        counts[src] -= 1
        counts[dst] += 1
    if min(counts) < 0:
        return False
    waste = not board.exact and any(dst == OFF for _, dst in legs)
    prefix = list(accumulate(sequence, initial=0))
    sums = set(prefix)
    left = sorted(legs)
    depth = 0
    while left:
        if depth == len(sequence) or not (waste or prefix[depth] + sum(a - b for a, b in left) in sums):
            return False
        die = sequence[depth]
        chosen = None
        for wanted in (True, False):  # the engine tries moves of exactly this die first, the last one first
            for index in range(len(left) - 1, -1, -1):
                src, dst = left[index]
                if (src - dst == die) != wanted or not (
                        src - die >= dst or (dst == OFF and waste and src - die < 0)):
                    continue
                if board.play(src, die):
                    chosen = index
                    break
            if chosen is not None:
                break
        if chosen is None:
            return False
        src, dst = left.pop(chosen)
        landed = max(src - die, 0)
        if landed != dst:
            left.append((landed, dst))
            left.sort()
        depth += 1
    return True


def _longer_exists(depth: int, sequence: tuple[int, ...], ordered: bool, board: _Board, block_turn: bool) -> bool:
    """Whether some play of ``sequence`` in order makes more than ``depth`` steps, or (when the
    sequence is ``ordered``, a cascade) bears off the last checker, counting a play that ends on
    an illegal six-block under ``block=turn`` as the engine does (not at all); searched depth
    first from the start of the turn, the boards undone as it goes."""
    board.undo(0)
    seen: list[set[bytes]] = [set() for _ in range(len(sequence) + 1)]  # the boards reached, by steps made
    found = _deeper(0, depth, sequence, ordered, board, block_turn, seen)
    board.undo(0)
    return found


def _deeper(made: int, depth: int, sequence: tuple[int, ...], ordered: bool, board: _Board, block_turn: bool,
            seen: list[set[bytes]]) -> bool:
    """:func:`_longer_exists` from ``made`` steps on."""
    me = board.me
    if ordered and me[OFF] == CHECKERS:
        return True
    if made > depth and not (block_turn and illegal_block(me, board.opposite, board.lowest)):
        return True
    if made == len(sequence):
        return False
    die, reached = sequence[made], seen[made + 1]
    for src in range(board.top, 0, -1):
        if me[src] and board.play(src, die):
            position = bytes(me)
            if position not in reached:
                reached.add(position)
                if _deeper(made + 1, depth, sequence, ordered, board, block_turn, seen):
                    return True
            board.undo(made)
    return False


def _reached_by(die: int, board: _Board, block_turn: bool) -> set[tuple[Board, Board]]:
    """The boards one step of ``die`` leads to from the start of the turn (those ending on an
    illegal six-block left out under ``block=turn``)."""
    board.undo(0)
    me, opp = board.me, board.opp
    reached: set[tuple[Board, Board]] = set()
    for src in range(board.top, 0, -1):
        if me[src] and board.play(src, die):
            if not (block_turn and illegal_block(me, board.opposite, board.lowest)):
                reached.add((tuple(me), tuple(opp)))
            board.undo(0)
    return reached
