"""A lean check of recorded plays on the common path, beside the engine's full judge.

:class:`QuickCheck` accepts a recorded play only when it can prove it legal cheaply —
its moves resolve into legal steps that use every die (or every step of a cascade), or
it bears off the last checker with a double, or no die can be played at all, or a lean
search of the roll finds no longer play (and the higher-die rule holds; for a cascade, or a
long-nardy double, that stops early, a count of pips and steps proves most stops without the
search) — and otherwise declines (returns None), so that :meth:`Engine.check
<nardy_cli.core.engine.Engine.check>` decides with its generator. It never finds a play
illegal: every finding comes from the full path. It works on plain lists changed in place and
undone, in the full path's search order, so an accepted play has exactly the steps the full
path gives it (``tests/test_fast_check.py`` compares both paths on generated and mutated plays
of every game).

The primitives both paths share (dice paths of a written move, the six-block test, the head
limit, a roll's steps) live here, below the engine.
"""
from __future__ import annotations

from bisect import insort
from functools import lru_cache
from typing import Final

from nardy_cli.core.moves import Move, Step, step_of
from nardy_cli.core.position import Position
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import BAR, OFF, WHITE
from nardy_cli.core.variants import CASCADE_STEPS, CHECKERS, HEAD, VARIANTS, Board, cascade_steps

HOME_TOP: Final = 6  # the highest point of a home, in the mover's numbering

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


_PATHS: Final[dict[int, Paths]] = {}  # dice_paths by _paths_key: a look-up by an int, not a call through Python
_PATHS_KEPT: Final = 4096


def dice_paths(distance: int, to_off: bool, dice: tuple[int, ...]) -> Paths:
    """Orders of dice that carry a checker exactly ``distance`` points (or, bearing off,
    past the edge on the last die), fewest dice first, each with the dice left over (a list
    shared between callers: never change it)."""
    key = _paths_key(distance, to_off, dice)
    paths = _PATHS.get(key) if key >= 0 else None
    if paths is None:
        paths = _find_paths(distance, to_off, dice)
        if key >= 0 and len(_PATHS) < _PATHS_KEPT:
            _PATHS[key] = paths
    return paths


def _paths_key(distance: int, to_off: bool, dice: tuple[int, ...]) -> int:
    """One number for each distance (-32 to 31), bearing off or not, and dice 1-7 (a digit each,
    so their number is known); -1 for others, which are not kept."""
    if not -32 <= distance < 32:
        return -1
    key = 0
    for die in dice:
        if not 1 <= die <= 7:
            return -1
        key = key * 8 + die
    return (key * 2 + (1 if to_off else 0)) * 64 + distance + 32


def _find_paths(distance: int, to_off: bool, dice: tuple[int, ...]) -> Paths:
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
    """``paths`` (fewest dice first, as :func:`dice_paths` gives them) with, among those of as many
    dice, the ones that do not hit on the way first, as GNU Backgammon expands ``13/7``: a stable
    sort by (dice, hits on the way), written as a loop (compiled, ``sorted`` with a key function
    calls through Python for every path)."""
    preferred: Paths = []
    hitting: Paths = []  # those of the current number of dice that hit on the way
    length = 0
    for entry in paths:
        path = entry[0]
        if len(path) != length:
            preferred.extend(hitting)
            hitting = []
            length = len(path)
        point, hits = src, False
        for index in range(len(path) - 1):
            point -= path[index]
            if point > 0 and opp[opposite[point]] == 1:
                hits = True
                break
        if hits:
            hitting.append(entry)
        else:
            preferred.append(entry)
    return preferred + hitting


def opponent_lowest(opp: Board) -> int:
    """The opponent's most advanced checker (own numbering); 0 once one is borne off, or when
    the board has none."""
    if opp[OFF]:
        return 0
    for point in range(1, 25):  # a loop on a tuple, not a generator on either board: compiled, direct indexing
        if opp[point]:
            return point
    return 0


def block_at(me: list[int], point: int, opposite: tuple[int, ...], lowest: int) -> bool:
    """Whether ``me`` holds an illegal six-block through ``point`` (mover's numbering).

    Blocks run along the opponent's route, so runs are measured in the opponent's
    numbering; a block is legal while an opponent checker is ahead of it (further along
    their route, or borne off): ``lowest`` is the opponent's most advanced checker. The
    board is a list, whoever calls (compiled, indexing a list or a tuple is direct, a union
    of both generic).
    """
    low = high = opposite[point]
    while low > 1 and me[opposite[low - 1]]:
        low -= 1
    while high < 24 and me[opposite[high + 1]]:
        high += 1
    return high - low >= 5 and lowest >= low


def illegal_block(me: list[int], opposite: tuple[int, ...], lowest: int) -> bool:
    """Whether ``me`` holds an illegal six-block anywhere."""
    return any(me[p] and block_at(me, p, opposite, lowest) for p in range(1, 25))


OPP_HEAD: Final = 12  # the opponent's head, where there is a head, seen in the mover's numbering


def head_limit(rule: str | None, passing: bool, first_double: bool, die: int, opp: Board | list[int],
               opposite: tuple[int, ...]) -> tuple[int, str]:
    """How many checkers may leave the head this turn under option ``head`` (``rule``), and why
    no more: the steps passed by an opponent, or a roll that is not a double on the mover's first
    turn (``first_double``), let one go."""
    if passing:
        return 1, "only one checker may leave the head in the steps passed by the opponent"
    if not first_double:
        return 1, "only one checker may leave the head per turn"
    stop = _head_checker_stop(die, opp, opposite)
    if rule == "classic" and die in (6, 4, 3):
        return 2, ""
    if rule == "strict" and die in (6, 4, 3) and stop == OPP_HEAD:
        return 2, ""
    if rule == "general" and stop is not None:
        return 2, ""
    if rule == "general":
        return 1, f"one checker can play the whole {die}-{die} from the head"
    if rule == "strict" and die in (6, 4, 3):
        return 1, f"the checker from the head is stopped on {stop}, not by the opponent's head"
    return 1, f"{die}-{die} does not let a second checker leave the head"


def _head_checker_stop(die: int, opp: Board | list[int], opposite: tuple[int, ...]) -> int | None:
    """Where one checker leaving the head with the four steps of a double is stopped, or None if it is not."""
    for k in range(1, 5):
        point = HEAD - k * die
        if point <= 0 or opp[opposite[point]]:
            return max(point, 0)
    return None


_SEQUENCES: Final[dict[tuple[str, str | None], list[tuple[int, ...] | None]]] = {}
"""Each roll's steps (not passed ones) by variant and cascade rule, then by first * 8 + second die:
a look-up in a list, not a call through Python."""


class QuickCheck:
    """The fast check under one rule set: call it as :meth:`Engine.check
    <nardy_cli.core.engine.Engine.check>`."""

    __slots__ = ("variant", "cascade", "head_rule", "settings", "sequences")

    def __init__(self, rules: Rules) -> None:
        variant = VARIANTS[rules.variant]
        self.variant, self.cascade, self.head_rule = rules.variant, rules.cascade, rules.head
        self.sequences = _SEQUENCES.setdefault((rules.variant, rules.cascade), [None] * 64)
        self.settings = (variant.opposite, variant.hits, variant.head, BAR if variant.bar else HEAD,
                         rules.bearoff == "exact", variant.six_block and rules.block == "step",
                         variant.six_block and rules.block == "turn", variant.six_block, variant.cascade)

    def sequence(self, dice: tuple[int, int], passed: tuple[int, ...] | None = None) -> tuple[int, ...]:
        """:func:`roll_sequence` under these rules, a roll's steps looked up in a list by its dice."""
        if passed is None and len(dice) == 2:
            first, second = dice
            if 0 < first < 7 and 0 < second < 7:
                sequence = self.sequences[first * 8 + second]
                if sequence is None:
                    sequence = self.sequences[first * 8 + second] = roll_sequence(self.variant, self.cascade, dice)
                return sequence
        return roll_sequence(self.variant, self.cascade, dice, passed)

    def __call__(self, position: Position, dice: tuple[int, int], moves: tuple[Move, ...],
                 passed: tuple[int, ...] | None = None) -> Accepted | None:
        """The mover's and the opponent's boards after a recorded play, its steps and the steps
        it passes (crazy nardy), when the play is proved legal cheaply; None when the full path
        must decide."""
        if position.variant != self.variant or len(dice) != 2:
            return None
        try:
            sequence = self.sequence(dice, passed)
        except (ValueError, TypeError):  # bad dice, or dice not in a tuple: the full path decides
            return None
        opposite, hits, head, top, exact, block_step, block_turn, six_block, cascade = self.settings
        passing = passed is not None
        is_double = passing or dice[0] == dice[1]
        side = position.turn
        mine, theirs = (position.white, position.black) if side == WHITE else (position.black, position.white)
        me, opp = list(mine), list(theirs)
        legs = [leg for move in moves for leg in move.legs]
        if len(legs) > len(sequence):
            return None
        lowest = opponent_lowest(theirs) if six_block else 0
        leaving = head_limit(self.head_rule, passing, is_double and side in position.first, dice[0], opp,
                             opposite)[0] if head else 1
        head_left = me[HEAD] - leaving  # checkers that must stay on the head
        board = _Board(me, opp, opposite, hits, head, head_left, top, exact, block_step, lowest)
        steps = board.steps
        if passing or (cascade and is_double):  # the steps are one sequence played in order
            if not _follow(legs, sequence, board):
                return None
            depth = len(steps)
            finished = me[OFF] == CHECKERS  # bearing off the last checker counts as the whole sequence
            if block_turn and illegal_block(me, opposite, lowest):
                return None
            ordered: Accepted = (tuple(me), _after_hits(opp, theirs, steps), tuple(steps),
                                 () if passing or finished else sequence[depth:])
            if not (depth == len(sequence) or finished) and _longer_exists(depth, sequence, True, board, block_turn):
                return None
            return ordered

        if not _first_resolution(legs, sequence, board):
            board.undo(0)
            if not _resolve(legs, sequence, board):
                return None
        if block_turn and illegal_block(me, opposite, lowest):
            return None
        result: Accepted = (tuple(me), _after_hits(opp, theirs, steps), tuple(steps), ())
        made = len(steps)
        # A double that bears off the last checker uses as many steps as any play: each checker
        # takes ceil(point / die) steps in every play that moves it off.
        if made == len(sequence) or (is_double and made and me[OFF] == CHECKERS):
            return result
        orders = (sequence,) if is_double else (sequence, sequence[::-1])
        if exact and not hits and not block_turn and not any(mine[HOME_TOP + 1:]):
            # all home (bearoff=exact): a step only bears off a checker from its die's point, so the
            # longest play is counted, not searched; one that bears off the last checker counts as
            # all the steps, the die it takes being the only one that can bear off a lone checker
            finished = me[OFF] == CHECKERS
            return result if finished or made == max(_bearing_off(mine, order) for order in orders) else None
        if not made:  # a pass: legal when no die can be played at all
            sources = (BAR,) if me[BAR] else range(top, 0, -1)
            return None if any(me[src] and board.play(src, die) for die in set(sequence) for src in sources) else result
        for order in orders:
            if _longer_exists(made, order, False, board, block_turn):
                return None
        if made == 1 and result[2][0][2] != sequence[0]:  # the higher-die rule: the larger die, if it can be played
            reached = _reached_by(sequence[0], board, block_turn)
            if reached and (result[0], result[1]) not in reached:
                return None
        return result


def _after_hits(opp: list[int], before: Board, steps: list[Step]) -> Board:
    """The opponent's board after ``steps``: ``before`` itself unless a step hit (most plays hit
    nothing, and a board made anew costs its copy and its freeing)."""
    for step in steps:
        if step.hit:
            return tuple(opp)
    return before


class _Board:
    """The mover's and the opponent's boards of one check, played on and taken back in place, with
    the steps made (a class, not closures: compiled, its calls are direct). Counts change as
    ``x[i] = x[i] - 1``, here and in this module's other loops: compiled, ``x[i] -= 1`` is a generic
    in-place operation (``PyNumber_InPlaceSubtract``), not an operation on ints."""

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
                me[src] = me[src] - 1
                me[OFF] = me[OFF] + 1
                self.steps.append(step_of(src, OFF, die, False))
                return True
            if highest <= HOME_TOP:
                return False
        opp, opposite = self.opp, self.opposite
        opp_point = opposite[dst]
        held = opp[opp_point]
        if held and (held > 1 or not self.hits):
            return False
        me[src] = me[src] - 1
        me[dst] = me[dst] + 1
        if self.block_step and me[dst] == 1 and block_at(me, dst, opposite, self.lowest):
            me[src] = me[src] + 1
            me[dst] = me[dst] - 1
            return False
        if held:
            opp[opp_point] = 0
            opp[BAR] = opp[BAR] + 1
        self.steps.append(step_of(src, dst, die, bool(held)))
        return True

    def undo(self, mark: int) -> None:
        """Take back the steps made after the first ``mark``."""
        steps, me, opp, opposite = self.steps, self.me, self.opp, self.opposite
        while len(steps) > mark:
            src, dst, _, hit = steps.pop()
            me[src] = me[src] + 1
            me[dst] = me[dst] - 1
            if hit:
                opp[opposite[dst]] = 1
                opp[BAR] = opp[BAR] - 1


def _first_resolution(legs: list[tuple[int, int]], dice: tuple[int, ...], board: _Board) -> bool:
    """The first resolution :func:`_resolve` tries, with no backtracking: the written legs in
    order, each by its first dice path (most plays resolve so)."""
    steps = board.steps
    for src, dst in legs:
        single = _single_die(src - dst, dst == OFF, dice)
        if single >= 0:  # the first of the paths: one die (most legs), found without them
            if not board.play(src, dice[single]):
                return False
            dice = dice[:single] + dice[single + 1:]
            continue
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


def _single_die(distance: int, to_off: bool, dice: tuple[int, ...]) -> int:
    """The index of the first die that carries a checker ``distance`` points (or off, past the
    edge), or -1: :func:`dice_paths` puts the paths of one die first, in the order of ``dice``,
    and none of them passes a point on the way, so :func:`preferred_paths` leaves them first."""
    for index in range(len(dice)):
        die = dice[index]
        if die == distance or (to_off and die > distance):
            return index
    return -1


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
    """The play the engine's ``follow`` finds for written legs of an ordered sequence: its first
    path, and where that gets stuck its whole search, depth first within a small budget of
    boards. True when it makes every leg (the steps played in place), False when none does,
    the budget runs out or a leg lands on the opponent (the full path decides)."""
    opp, opposite = board.opp, board.opposite
    counts = board.me[:]
    for src, dst in legs:
        if dst != OFF and opp[opposite[dst]]:
            return False
        counts[src] = counts[src] - 1
        counts[dst] = counts[dst] + 1
    for count in counts:
        if count < 0:
            return False
    waste = not board.exact and any(dst == OFF for _, dst in legs)
    if not waste and not _first_steps_make(sequence, sum(src - dst for src, dst in legs)):
        return False  # each step takes its die's pips off the legs: they must end at a sum of the first steps
    search = _Follow(sequence, board, waste)
    if search.first_path(sorted(legs)):
        return True
    board.undo(0)
    return search.walk(sorted(legs))


_FOLLOW_BUDGET: Final = 64
"""Boards the search of written legs visits before it leaves them to the full path (most plays are
followed with no step taken back)."""


class _Follow:
    """The search of :func:`_follow`, as the engine's ``follow`` makes it: each board's next steps
    taken in its order, a board with the same legs left at the same depth searched once (from
    where it was first reached), and what is left of a budget of boards."""

    __slots__ = ("sequence", "board", "waste", "seen", "budget")

    def __init__(self, sequence: tuple[int, ...], board: _Board, waste: bool) -> None:
        self.sequence, self.board, self.waste = sequence, board, waste
        self.seen: set[tuple[bytes, tuple[tuple[int, int], ...], int]] = set()
        self.budget = _FOLLOW_BUDGET

    def first_path(self, left: list[tuple[int, int]]) -> bool:
        """The search's first path, with no step taken back and no board kept (most plays are
        followed so): whether it makes the sorted legs ``left`` (stepped along in place)."""
        board, sequence, waste = self.board, self.sequence, self.waste
        depth = 0
        while left:
            if depth == len(sequence):
                return False
            die = sequence[depth]
            chosen = None
            for wanted in (True, False):  # the engine tries moves of exactly this die first, the last one first
                for index in range(len(left) - 1, -1, -1):
                    src, dst = left[index]
                    if (src - dst == die) == wanted and _fits(src, dst, die, waste) and board.play(src, die):
                        chosen = index
                        break
                if chosen is not None:
                    break
            if chosen is None:
                return False
            _step_leg(left, chosen, die)
            depth += 1
        return True

    def walk(self, left: list[tuple[int, int]]) -> bool:
        """Whether the sorted legs ``left`` can be made from the boards as they are (their steps
        then played); False too once the budget ran out."""
        if not left:
            return True
        board = self.board
        depth = len(board.steps)
        if depth == len(self.sequence) or self.budget <= 0:
            return False
        self.budget -= 1
        die, seen = self.sequence[depth], self.seen
        following: list[tuple[int, list[tuple[int, int]]]] = []  # the engine's stack: its last entry searched first
        for exact in (False, True):
            for index, (src, dst) in enumerate(left):
                if ((src - dst == die) != exact or (index and left[index - 1] == left[index])
                        or not _fits(src, dst, die, self.waste)):
                    continue
                if board.play(src, die):
                    rest = left[:]
                    _step_leg(rest, index, die)
                    key = (bytes(board.me), tuple(rest), depth + 1)
                    if key not in seen:
                        seen.add(key)
                        following.append((src, rest))
                    board.undo(depth)
        for src, rest in reversed(following):
            board.play(src, die)
            if self.walk(rest):
                return True
            board.undo(depth)
            if self.budget <= 0:
                return False
        return False


def _first_steps_make(sequence: tuple[int, ...], pips: int) -> bool:
    """Whether the first steps of ``sequence`` (none, or some) add up to ``pips``."""
    total = 0
    for die in sequence:
        if total >= pips:
            break
        total += die
    return total == pips


def _fits(src: int, dst: int, die: int, waste: bool) -> bool:
    """Whether a step of ``die`` from ``src`` stays on the leg to ``dst`` (or, wasting pips, bears off)."""
    return src - die >= dst or (dst == OFF and waste and src - die < 0)


def _step_leg(left: list[tuple[int, int]], index: int, die: int) -> None:
    """Step leg ``index`` of the sorted legs ``left`` along by ``die``, keeping them sorted (in place)."""
    src, dst = left.pop(index)
    landed = max(src - die, 0)
    if landed != dst:
        insort(left, (landed, dst))


def _longer_exists(depth: int, sequence: tuple[int, ...], ordered: bool, board: _Board, block_turn: bool) -> bool:
    """Whether some play of ``sequence`` in order makes more than ``depth`` steps, or (when the
    sequence is ``ordered``, a cascade) bears off the last checker, counting a play that ends on
    an illegal six-block under ``block=turn`` as the engine does (not at all); searched depth
    first from the start of the turn, the boards undone as it goes.

    A cascade's stop is not searched at once: :func:`_out_of_reach` first tries to prove that no
    longer play exists, and the search, if it must go on, skips every board from which that proof
    holds, a finer proof tried in turn where it takes long (:data:`_STAGES`). A double's four
    steps are in order too: where nothing is hit (long nardy), its cheapest proof is tried before
    its search (it settles most doubles that stop short at a fraction of the search's cost)."""
    board.undo(0)
    if not ordered:
        if (not board.hits and sequence[0] == sequence[-1]
                and _out_of_reach(board, _free_points(board.opp, board.opposite), 0, depth + 1, sequence, 0)):
            return False
        found = _Search(depth, sequence, False, board, block_turn, -1).deeper(0)
        board.undo(0)
        return found
    free = _free_points(board.opp, board.opposite)
    values, counted = len(set(sequence[:depth + 1])), -1  # counting more than there are is counting all
    found = False
    for proofs, budget in _STAGES:
        board.undo(0)
        finer = sorted({min(tracked, values) for tracked in proofs if min(tracked, values) > counted})
        counted = finer[-1] if finer else counted
        if any(_out_of_reach(board, free, 0, depth + 1, sequence, tracked) for tracked in finer):
            found = False
            break
        search = _Search(depth, sequence, True, board, block_turn, budget)
        search.free = free
        found = search.deeper(0)
        if not search.budget < 0 <= search.nodes:
            break
    board.undo(0)
    return found


_STAGES: Final[tuple[tuple[tuple[int, ...], int], ...]] = (((0, 2, 3, 4), 16), ((5,), -1))
"""What a cascade's check tries, stage by stage: proofs by :func:`_out_of_reach` at the start of the
turn, cheapest first (steps of how many of the highest values are counted beside the pips: counting
every value makes too many keys), and, failing them, a search that skips the boards those proofs
settle, within a budget of boards (-1: none, as the last stage must be), past which the next stage's
finer proof is tried (a finer proof costs little where the search takes thousands of boards, but
more than the search where it takes a few). Validating five generated sets of crazy-nardy games
(300 random of seed 11, 300 greedy of seed 23, and 200 random each under cascade=two, block=turn and
bearoff=standard) costs 1,809, 1,663, 1,103, 1,282 and 1,074 M instructions in all with these;
1,823, 1,663, 1,106, 1,282 and 1,068 M with every proof first and no budget; 1,802, 1,663, 1,110,
1,282 and 1,071 M with a first budget of 8; 1,820, 1,663, 1,103, 1,282 and 1,078 M with 32; 1,817,
1,675, 1,112, 1,280 and 1,075 M with (((0, 2, 3), 16), ((4, 5), -1)). Before :func:`_adds_up` met
its checkers from both ends, these also did better than (((0, 2, 3), 16), ((4,), 16), ((5,), -1)),
than no stage past ((4,), -1) and than a first budget of 64 boards."""


class _Search:
    """The depth-first search of :func:`_longer_exists`: the boards reached, by steps made, and
    what is left of its budget of boards (-1 once it ran out; none when created with -1); given
    the opponent's ``free`` points, it skips the boards :func:`_out_of_reach` proves hopeless."""

    __slots__ = ("depth", "sequence", "ordered", "board", "block_turn", "seen", "budget", "nodes", "free")

    def __init__(self, depth: int, sequence: tuple[int, ...], ordered: bool, board: _Board, block_turn: bool,
                 budget: int) -> None:
        self.depth, self.sequence, self.ordered, self.board = depth, sequence, ordered, board
        self.block_turn = block_turn
        self.seen: dict[int, set[bytes]] = {}  # by steps made, each made at the first board of its depth
        self.budget, self.nodes = budget, -1 if budget < 0 else 0
        self.free = 0

    def deeper(self, made: int) -> bool:
        """Whether a longer play goes on from the boards after ``made`` steps (False, too, when
        the budget ran out: the search is then abandoned)."""
        board, sequence = self.board, self.sequence
        me = board.me
        if self.ordered and me[OFF] == CHECKERS:
            return True
        if made > self.depth and not (self.block_turn and illegal_block(me, board.opposite, board.lowest)):
            return True
        if made == len(sequence):
            return False
        if self.nodes >= 0:
            if self.nodes == self.budget:
                self.budget = -1
                return False
            self.nodes += 1
        if (self.free and made and sequence[made] != sequence[made - 1]
                and _out_of_reach(board, self.free, made, self.depth + 1, sequence, 0)):
            return False
        die = sequence[made]
        reached = self.seen.get(made + 1)
        if reached is None:
            reached = self.seen[made + 1] = set()
        for src in range(board.top, 0, -1):
            if me[src] and board.play(src, die):
                if made:  # (one step from the start, each source leaves a board of its own: none to look up)
                    position = bytes(me)
                    if position in reached:
                        board.undo(made)
                        continue
                    reached.add(position)
                if self.deeper(made + 1):
                    return True
                if self.budget < 0 <= self.nodes:
                    return False
                board.undo(made)
        return False


def _free_points(opp: list[int], opposite: tuple[int, ...]) -> int:
    """The points (mover's numbering) the opponent does not hold, as bits."""
    free = 0
    for point in range(1, 25):
        if not opp[opposite[point]]:
            free |= 1 << point
    return free


_HOME: Final = 0b1111110  # the home points 1-6, as bits
_OUTSIDE: Final = 0b1111111111111111110000000  # the points 7-24, as bits
_FIELD: Final = 4  # bits of one count in a key of counts (counts up to 7: a die value has at most four steps)


def _out_of_reach(board: _Board, free: int, made: int, goal: int, sequence: tuple[int, ...], tracked: int) -> bool:
    """Whether it is certain that no play of ``sequence`` in order from the boards after ``made``
    steps makes ``goal`` steps or bears off the last checker (crazy nardy: no hits, no bar).

    A proof by counting under looser rules: each checker on its own (no six-block, every landing
    the opponent leaves free, at most one more checker from the head), taking any of the steps in
    their order. A play of k steps moves the checkers exactly as many pips as those k dice
    (``bearoff=exact``) and makes as many steps of each value: so up to the step T after which all
    checkers are first home (if ever) the checkers' pips, and their steps of the ``tracked``
    highest values, must add up to the dice's, one checker having come home with the last of them;
    from T on each step bears off a checker from its die's point (exact bear-off), so enough
    checkers must stand on those points at T; a play that bears off the last checker before the
    goal is one of these, its steps from T all bear-offs. False when no such proof is found
    (``bearoff=standard`` wastes pips in a bear-off: then only turns in which no checker is borne
    off are proved)."""
    me = board.me
    if board.hits or me[BAR]:
        return False
    outside = sum(me[point] for point in range(HOME_TOP + 1, HEAD + 1))
    if not outside:  # all home (none on the head): each step bears off a checker from its die's point
        return board.exact and _bearing_off(me, sequence[made:]) < goal - made
    movers = min(me[HEAD], max(me[HEAD] - board.head_left, 0)) if board.head else me[HEAD]
    points = [point for point in range(1, HEAD) if me[point]]
    counts = [me[point] for point in points]
    if movers:
        points.append(HEAD)
        counts.append(movers)
    prefix = [0]  # the pips of the first steps, by their number
    for die in sequence[made:]:
        prefix.append(prefix[-1] + die)
    full = len(sequence) - made
    wanted = goal - made
    first_home = full + 1  # steps before all checkers can be home: never while the head keeps more than one
    finish = wanted  # steps after which all checkers might be borne off, when fewer than the goal
    if movers == me[HEAD]:
        pips_out = sum((point - HOME_TOP) * me[point] for point in range(HOME_TOP + 1, HEAD + 1))
        first_home = next((k for k in range(outside, full + 1) if prefix[k] >= pips_out), full + 1)
        pips = sum(point * me[point] for point in range(1, HEAD + 1))
        if first_home <= full and not board.exact and pips <= prefix[full]:
            return False  # all checkers might be borne off
        if first_home <= full and board.exact and pips in prefix[1:wanted]:
            finish = prefix.index(pips)  # all might be borne off before the goal: a play to disprove too
    if first_home < wanted and not board.exact:
        return False
    steps = sequence[made:goal]
    if first_home >= wanted and _short_of_pips(points, counts, steps, free, prefix[wanted]):
        return True  # what the final count below would find first, without building its keys
    values = sorted(set(steps))[-tracked:] if tracked else []
    weights = [0] * (HOME_TOP + 1)  # the key of one step of each value counted
    for slot, value in enumerate(values):
        weights[value] = 1 << (_FIELD * slot)
    # each checker's points reachable so far, by the key of the counted steps it made to get there
    ends: list[dict[int, int]] = [{0: 1 << point} for point in points]
    before = ends
    for k in range(wanted + 1):
        if first_home <= k < wanted:
            rest = steps[k:finish] if k < finish else steps[k:]  # bear-offs to the last checker, or to the goal
            if _may_all_be_home(counts, ends, rest):
                last = steps[k - 1]
                arrivals = [_moved(by_key, last, weights[last], free & _HOME, _OUTSIDE) for by_key in before]
                if _home_at(points, counts, ends, arrivals, prefix[k], _key(steps[:k], weights), len(values), rest):
                    return False
        if k == wanted:
            key, fields = _key(steps, weights), len(values)
            options = [_options(point, by_key, _OUTSIDE | _HOME, [], 0) for point, by_key in zip(points, ends)]
            if first_home <= full and board.exact:  # not all home before the last step: one stayed outside till then
                outsider = 1 << (_FIELD * fields)
                key, fields = key + outsider, fields + 1
                last = steps[k - 1]
                for index in range(len(points)):
                    stayed = {step_key: at & _OUTSIDE for step_key, at in before[index].items() if at & _OUTSIDE}
                    options[index] += _options(points[index], _moved(stayed, last, weights[last], free, -1),
                                               _OUTSIDE | _HOME, [], outsider)
            return not _adds_up(counts, options, prefix[k], key, fields)
        before = ends
        ends = [_moved(by_key, steps[k], weights[steps[k]], free, -1) for by_key in ends]
    return True


def _short_of_pips(points: list[int], counts: list[int], steps: tuple[int, ...], free: int, pips: int) -> bool:
    """Whether checkers (``counts`` on ``points``), each taking any of ``steps`` in their order onto
    ``free`` points and none borne off, cannot move ``pips`` pips in all even each as far as it can."""
    farthest = 0
    for point, count in zip(points, counts):
        reach = 1 << point
        for die in steps:
            reach |= (reach >> die) & free
        farthest += count * (point - ((reach & -reach).bit_length() - 1))
        if farthest >= pips:
            return False
    return True


def _bearing_off(me: Board | list[int], steps: tuple[int, ...]) -> int:
    """How many of ``steps`` can be played once all checkers are home, bearing off exactly (each
    step bears off a checker from its die's point, the only step it allows), all of them once the
    last checker is borne off."""
    left, on_board = list(me), CHECKERS - me[OFF]
    for made, die in enumerate(steps):
        if not left[die]:
            return made
        left[die] = left[die] - 1
        on_board -= 1
        if not on_board:
            break
    return len(steps)


def _moved(by_key: dict[int, int], die: int, weight: int, landing: int, leaving: int) -> dict[int, int]:
    """``by_key`` (points by key of counted steps) after one more step of ``die``, which may be
    played or not (only played: with ``leaving`` not -1, played from those points). Played or not,
    it is ``by_key`` itself when the step reaches no new point (most do not): these dicts are
    never changed once made."""
    grown = by_key if leaving == -1 else {}
    for key, at in by_key.items():
        moved = ((at & leaving) >> die) & landing
        if moved:
            grown_key = key + weight
            reached = grown.get(grown_key, 0)
            if reached | moved != reached:
                if grown is by_key:
                    grown = dict(by_key)
                grown[grown_key] = reached | moved
    return grown


def _key(steps: tuple[int, ...], weights: list[int]) -> int:
    """The key of counts of ``steps`` (of the values with a weight)."""
    return sum(weights[die] for die in steps)


def _options(point: int, by_key: dict[int, int], within: int, places: list[int], extra: int) -> list[tuple[int, int]]:
    """The (key, pips) a checker from ``point`` may end with: on the points of ``by_key`` within
    ``within``, its key raised by ``extra``, or also by a place it ends on (``places``); those of
    one key in a row, those of a place after them (:func:`_adds_up` adds a key once for a row)."""
    options = []
    placed = []
    for key, at in by_key.items():
        at &= within
        while at:
            end = (at & -at).bit_length() - 1  # the lowest point left
            at &= at - 1
            options.append((key + extra, point - end))
            if places and places[end]:
                placed.append((key + extra + places[end], point - end))
    return options + placed


def _may_all_be_home(counts: list[int], ends: list[dict[int, int]], rest: tuple[int, ...]) -> bool:
    """Whether the checkers (``counts`` of each kind), reaching the points of ``ends``, may all be
    home with a checker on each point of ``rest`` to bear off, by where they reach alone."""
    reach = []
    for by_key in ends:
        at = _points_of(by_key)
        if not at & _HOME:
            return False
        reach.append(at)
    dice = sorted(set(rest))
    wanted = [rest.count(die) for die in dice]
    for chosen in range(1, 1 << len(dice)):  # Hall's condition: every set of those points finds its checkers
        bits = sum(1 << die for slot, die in enumerate(dice) if chosen >> slot & 1)
        if sum(count for count, at in zip(counts, reach) if at & bits) < sum(
                wanted[slot] for slot in range(len(dice)) if chosen >> slot & 1):
            return False
    return True


def _home_at(points: list[int], counts: list[int], ends: list[dict[int, int]], arrivals: list[dict[int, int]],
             pips: int, key: int, fields: int, rest: tuple[int, ...]) -> bool:
    """Whether the checkers, reaching the points of ``ends``, may all be first home having moved
    ``pips`` with counted steps making ``key``, one of them arriving with the last step (on the
    points of ``arrivals``, among those of ``ends``), and with a checker on each point of ``rest``
    to bear off.

    Tried first with no step counted, each checker's points of all keys as one (a looser count: if
    it fails, so does this one); that settles most at a small part of the cost of counting steps,
    which on some boards is hundreds of times higher."""
    if fields and not _home_at(points, counts, [{0: _points_of(by_key)} for by_key in ends],
                               [{0: _points_of(by_key)} for by_key in arrivals], pips, 0, 0, rest):
        return False
    arrived = 1 << (_FIELD * fields)  # the key of the checker that came home last
    dice = sorted(set(rest))
    places = [0] * (HOME_TOP + 1)  # the key of a checker placed on each point to bear off from
    for slot, die in enumerate(dice):
        places[die] = 1 << (_FIELD * (fields + 1 + slot))
        key += rest.count(die) * places[die]
    options = [_options(point, by_key, _HOME, places, 0) + _options(point, arriving, _HOME, places, arrived)
               for point, by_key, arriving in zip(points, ends, arrivals)]
    return _adds_up(counts, options, pips, key + arrived, fields + 1 + len(dice))


def _points_of(by_key: dict[int, int]) -> int:
    """The points of ``by_key`` under any key, as bits."""
    at = 0
    for points_at in by_key.values():
        at |= points_at
    return at


def _adds_up(counts: list[int], options: list[list[tuple[int, int]]], pips: int, key: int, fields: int) -> bool:
    """Whether checkers (``counts`` of each kind), each ending with one of its kind's ``options``
    (key, pips moved), can move ``pips`` pips in all with keys adding up to ``key``: a subset sum
    of pips, on the bits of an int, for each key.

    The checkers are added from both ends, the next one to the side that has fewer keys so far,
    and the two sides met by key: the keys multiply with each checker of many options (one from
    outside home), and the heaviest counts take a third to a half of the time they take with every
    checker added in order."""
    need = [key >> (_FIELD * field) & 0b1111 for field in range(fields)]
    excess = sum((7 - count) << (_FIELD * field) for field, count in enumerate(need))
    over = sum(8 << (_FIELD * field) for field in range(fields))  # a field above its count, once excess is added
    farthest: list[int] = []  # the most pips one checker of each kind moves
    most_steps: list[list[int]] = []  # the most steps of each counted value one checker of each kind makes
    for kind in options:
        most, most_of = 0, [0] * fields
        for step_key, move in kind:
            if move > most:
                most = move
            for field in range(fields):
                made = step_key >> (_FIELD * field) & 0b1111
                if made > most_of[field]:
                    most_of[field] = made
        farthest.append(most)
        most_steps.append(most_of)
    # the checkers not placed in order (those added from the end among them) move at most left pips,
    # and make at most supply steps of each counted value
    left = sum(count * most for count, most in zip(counts, farthest))
    if left < pips:
        return False
    supply = [sum(count * kind[field] for count, kind in zip(counts, most_steps)) for field in range(fields)]
    limit = (1 << (pips + 1)) - 1
    sums_by_key = {0: 1}
    checkers = [index for index, count in enumerate(counts) for _ in range(count)]
    front, back = 0, len(checkers)  # the next checker added in order, and one past the next added from the end
    ending = {0: 1 << pips}  # the sums the checkers added in order must end at, by key, for those from the end
    while front < back:
        if len(ending) < len(sums_by_key):
            back -= 1
            ending = _ending(ending, options[checkers[back]], excess, over)
            if not ending:
                return False
            continue
        index = checkers[front]
        front += 1
        left -= farthest[index]
        within = limit >> max(pips - left, 0) << max(pips - left, 0)  # sums the checkers left can complete
        floor = 0  # the key of the counts the checkers left can complete, at the least
        for field in range(fields):
            supply[field] = supply[field] - most_steps[index][field]
            floor += max(need[field] - supply[field], 0) << (_FIELD * field)
        floor = over - floor  # added to a key, a field that stays below 8 is below its floor
        grown: dict[int, int] = {}
        for made_key, sums in sums_by_key.items():
            total, reached, fits = -1, 0, False  # the key of options in a row, the sums they reach
            for step_key, move in options[index]:
                if made_key + step_key != total:  # a new row: the sums of the last added at once
                    if reached:
                        grown[total] = grown.get(total, 0) | reached
                    total, reached = made_key + step_key, 0
                    fits = not ((total + excess) & over or (floor != over and (total + floor) & over != over))
                if fits:
                    reached = reached | (sums << move) & within
            if reached:
                grown[total] = grown.get(total, 0) | reached
        if not grown:
            return False
        if grown == sums_by_key:  # more checkers of this kind change nothing
            while front < back and checkers[front] == index:
                front += 1
                left -= farthest[index]
                for field in range(fields):
                    supply[field] = supply[field] - most_steps[index][field]
        sums_by_key = grown
    # no field of a key made from either end is above its count: key - made_key borrows from no field
    return any(sums & ending.get(key - made_key, 0) for made_key, sums in sums_by_key.items())


def _ending(ending: dict[int, int], options: list[tuple[int, int]], excess: int, over: int) -> dict[int, int]:
    """For :func:`_adds_up`: the sums at which the checkers added in order must end, by the key
    they must end with, for the checkers of ``ending`` and one more, of these ``options``, to
    complete the sum; no field of a key above its count."""
    grown: dict[int, int] = {}
    for made_key, sums in ending.items():
        total, reached = -1, 0  # the key of options in a row, the sums they reach
        for step_key, move in options:
            if made_key + step_key != total:
                if reached and not (total + excess) & over:
                    grown[total] = grown.get(total, 0) | reached
                total, reached = made_key + step_key, 0
            reached = reached | sums >> move
        if reached and not (total + excess) & over:
            grown[total] = grown.get(total, 0) | reached
    return grown


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
