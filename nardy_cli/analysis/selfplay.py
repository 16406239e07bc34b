"""Self-play: games legal by construction, for samples, tests and benchmarks.

Two bots choose among the engine's legal plays: ``random`` uniformly, and
``greedy`` by a one-ply evaluation that races, keeps its checkers safe and
builds points, so its games look like games.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from nardy_cli.core.engine import Engine, Play, game_outcome, steps_to_moves
from nardy_cli.core.position import CHECKERS, Position
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import BAR, BLACK, OFF, WHITE, Side, other
from nardy_cli.core.variants import VARIANTS
from nardy_cli.record import Action, GameRecord

BOTS = ("random", "greedy")


def _roll(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def _opening_roll(rng: random.Random, rules: Rules) -> tuple[int, int]:
    """The first roll: never a double where the opening dice are the first roll."""
    dice = _roll(rng)
    if not VARIANTS[rules.variant].opening_double or rules.opening == "play":
        while dice[0] == dice[1]:
            dice = _roll(rng)
    return dice


def _evaluate(play: Play, side: Side) -> float:
    """How good the position after ``play`` is for ``side`` (higher is better)."""
    position = play.position
    mine, theirs = position.board(side), position.board(other(side))
    score = 3.0 * (position.pips(other(side)) - position.pips(side)) + 10.0 * mine[OFF]
    made = sum(1 for p in range(1, 25) if mine[p] >= 2)
    if VARIANTS[position.variant].hits:
        # opponent checkers at my point x (bar = 0) move upwards in my numbering: a blot within
        # 12 pips ahead of one of them is at risk
        attackers = [25 - q for q in range(1, 26) if theirs[q]]
        danger = sum((2 if point <= 12 else 1) for point in range(1, 25)
                     if mine[point] == 1 and any(0 < point - x <= 12 for x in attackers))
        score += 6.0 * made - 9.0 * danger + 8.0 * theirs[BAR]
        score += 4.0 * sum(1 for p in range(1, 7) if mine[p] >= 2)
    else:
        occupied = [p for p in range(1, 25) if mine[p]]
        score += 2.5 * len(occupied) - 1.5 * max(mine[24] - 10, 0)
        score -= 1.0 * sum(max(mine[p] - 3, 0) for p in range(1, 24))
        score += 3.0 * sum(1 for p in range(13, 19) if mine[p])  # points in the opponent's way
    return score


def _chooser(bot: str, rng: random.Random) -> Callable[[list[Play], Side], Play]:
    if bot == "random":
        return lambda plays, side: rng.choice(plays)
    if bot == "greedy":
        return lambda plays, side: max(plays, key=lambda play: (_evaluate(play, side), rng.random()))
    raise ValueError(f"unknown bot {bot!r}: expected one of {', '.join(BOTS)}")


def _for_side(choose: Callable[[list[Play], Side], Play], side: Side) -> Callable[[list[Play]], Play]:
    return lambda plays: choose(plays, side)


def play_game(rules: Rules, rng: random.Random, bot: str = "greedy", *,
              white: str | None = None, black: str | None = None) -> GameRecord:
    """One complete self-played game under ``rules`` as a record (no cube actions); in crazy
    nardy the steps a cascade passes are played by the opponent as a ``passed`` action."""
    engine, choose = Engine(rules), _chooser(bot, rng)
    first = WHITE if VARIANTS[rules.variant].white_starts else rng.choice((WHITE, BLACK))
    position = Position.start(rules.variant, first)
    tags = {"Event": "nardy self-play", "White": white or f"{bot} bot", "Black": black or f"{bot} bot",
            "Variant": rules.variant}
    if rules.differences():
        tags["Rules"] = rules.differences()
    record = GameRecord(tags=tags)
    dice, row, owed_last_roll = _opening_roll(rng, rules), 0, None
    while True:
        side = position.turn
        if side == WHITE or row == 0:
            row += 1
        play = engine.choose_play(position, dice, _for_side(choose, side))
        record.actions.append(Action(side, "roll", dice, steps_to_moves(play.steps), number=row))
        position = play.position
        if play.passed:
            passed = engine.choose_play(position, dice, _for_side(choose, other(side)), play.passed)
            record.actions.append(Action(other(side), "passed", dice, steps_to_moves(passed.steps), number=row))
            position = passed.position
            if position.winner() == other(side):  # the opponent finished in the passed steps
                if rules.last_roll == "on" and other(side) == first:
                    owed_last_roll, position = side, position.with_turn(side)
                    dice = _roll(rng)
                    continue
                result = None
                break
        if owed_last_roll == side:
            result = "1/2-1/2" if position.borne_off(side) == CHECKERS else None
            break
        if position.winner() == side:
            if rules.last_roll == "on" and side == first:
                owed_last_roll = other(side)
                dice = _roll(rng)
                continue
            result = None
            break
        dice = _roll(rng)
    if result is None:
        outcome = game_outcome(rules, position, money=True)  # a lone game is a money game
        assert outcome is not None, "the loop ends when a side has borne off all"
        result = f"{outcome.points}-0" if outcome.winner == WHITE else f"0-{outcome.points}"
    record.result = result
    record.tags["Result"] = result
    return record


def generate(rules: Rules, games: int, seed: int = 0, bot: str = "greedy") -> Iterator[GameRecord]:
    """``games`` self-played games, reproducible from ``seed``."""
    rng = random.Random(seed)
    for number in range(1, games + 1):
        record = play_game(rules, rng, bot)
        record.tags["Game"] = str(number)
        yield record
