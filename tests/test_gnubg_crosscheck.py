"""Short nardy's legal plays against GNU Backgammon's, on thousands of positions from random games."""
import random

import pytest

from gnubg_judge import Via, legal_results_many, require_gnubg_cli, require_gnubg_module, safe_to_compare
from nardy_cli.core.engine import Engine
from nardy_cli.core.position import Position
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import SIDES, Side

pytestmark = pytest.mark.gnubg
SHORT = Engine(Rules.preset("short"))


def random_cases(games: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """Every position of ``games`` random games, each with a fresh random roll."""
    rng, cases = random.Random(seed), []
    for _ in range(games):
        position = Position.start("short", rng.choice(SIDES))
        while not position.is_over():
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            cases.append((position, dice))
            position = rng.choice(SHORT.legal_plays(position, dice)).position
    return cases


def ours(position: Position, dice: tuple[int, int]) -> frozenset:
    mover = position.turn
    other: Side = "b" if mover == "w" else "w"
    return frozenset((p.position.board(mover), p.position.board(other)) for p in SHORT.legal_plays(position, dice))


def compare(cases, via: Via) -> None:
    boards = [(p.board(p.turn), p.board("b" if p.turn == "w" else "w"), dice) for p, dice in cases]
    theirs = legal_results_many(boards, via=via)
    mismatches = [(str(p), dice, len(ours(p, dice)), len(t)) for (p, dice), t in zip(cases, theirs)
                  if ours(p, dice) != t]
    assert not mismatches, mismatches[:5]


@pytest.mark.slow
def test_legal_plays_agree_with_gnubg_without_bear_off():
    require_gnubg_module()
    cases = [(p, d) for p, d in random_cases(60, seed=11) if safe_to_compare(p.board(p.turn), d)]
    assert len(cases) > 3000
    compare(cases, via="module")


@pytest.mark.slow
def test_legal_plays_agree_with_gnubg_in_bear_off_positions():
    require_gnubg_cli()
    cases = [(p, d) for p, d in random_cases(30, seed=12) if not safe_to_compare(p.board(p.turn), d)]
    assert len(cases) > 200
    compare(cases[:400], via="auto")
