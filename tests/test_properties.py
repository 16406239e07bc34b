"""Invariants of the engine over random legal games (hypothesis)."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy_cli.analysis.selfplay import play_game
from nardy_cli.core.engine import Engine
from nardy_cli.core.moves import Move
from nardy_cli.core.position import CHECKERS, Position
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import BAR, OFF, SIDES, other
from nardy_cli.replay import replay

RULE_SETS = [Rules.parse(text) for text in (
    "long", "long head=general block=turn", "long head=strict block=off last_roll=on", "long opening=play",
    "short", "short jacoby=on")]

rule_sets = st.sampled_from(RULE_SETS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
fast = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_turns(rules: Rules, seed: int, limit: int = 400):
    """(position, dice, plays) along one random legal game."""
    rng = random.Random(seed)
    engine = Engine(rules)
    position = Position.start(rules.variant, rng.choice(SIDES) if rules.variant == "short" else "w")
    for _ in range(limit):
        if position.is_over():
            return
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = engine.legal_plays(position, dice)
        yield position, dice, plays
        position = rng.choice(plays).position


@pytest.mark.slow
@fast
@given(rule_sets, seeds)
def test_checkers_are_conserved_and_points_never_shared(rules, seed):
    for position, _dice, plays in random_turns(rules, seed):
        for play in plays:
            after = play.position
            Position(after.variant, after.turn, after.white, after.black)  # validates the invariants
            assert sum(after.white) == sum(after.black) == CHECKERS
            assert after.turn == other(position.turn)


@pytest.mark.slow
@fast
@given(rule_sets, seeds)
def test_pips_drop_by_the_dice_used(rules, seed):
    for position, _dice, plays in random_turns(rules, seed):
        side = position.turn
        for play in plays:
            moved = sum(step.src - step.dst for step in play.steps)
            assert all(step.die >= step.src - step.dst for step in play.steps)
            assert all(step.die == step.src - step.dst for step in play.steps if step.dst != OFF)
            assert position.pips(side) - play.position.pips(side) == moved
            hits = sum(step.hit for step in play.steps)
            if rules.variant == "long":
                assert play.position.pips(other(side)) == position.pips(other(side)) and not hits
                if all(step.dst != OFF for step in play.steps):
                    assert moved == sum(step.die for step in play.steps)
            else:
                assert play.position.board(other(side))[BAR] == position.board(other(side))[BAR] + hits


@pytest.mark.slow
@fast
@given(rule_sets, seeds)
def test_plays_are_distinct_and_use_the_same_number_of_dice(rules, seed):
    for _position, dice, plays in random_turns(rules, seed):
        assert len({(p.position.white, p.position.black) for p in plays}) == len(plays)
        assert len({p.dice_used for p in plays}) == 1
        assert plays[0].dice_used <= (4 if dice[0] == dice[1] else 2)


@pytest.mark.slow
@fast
@given(rule_sets, seeds)
def test_every_legal_play_checks_as_legal(rules, seed):
    engine = Engine(rules)
    for position, dice, plays in random_turns(rules, seed, limit=60):
        for play in plays[:5]:
            moves = tuple(Move((s.src, s.dst), (s.hit,)) for s in play.steps)
            verdict = engine.check(position, dice, moves)
            assert verdict.legal, (str(position), dice, str(play), verdict.finding)
            assert verdict.position == play.position


@settings(max_examples=15, deadline=None)
@given(rule_sets, seeds)
def test_a_generated_game_always_validates(rules, seed):
    record = play_game(rules, random.Random(seed), "random")
    result = replay(record)
    assert result.findings == [], result.findings[:3]
    assert result.ending in ("finish", "draw")


@pytest.mark.slow
@fast
@given(rule_sets, seeds)
def test_a_play_using_fewer_dice_is_caught(rules, seed):
    engine = Engine(rules)
    for position, dice, plays in random_turns(rules, seed, limit=80):
        play = plays[0]
        if len(play.steps) < 2 or any(step.dst == OFF for step in play.steps):
            continue
        shorter = tuple(Move((s.src, s.dst)) for s in play.steps[:-1])
        verdict = engine.check(position, dice, shorter)
        assert verdict.finding is not None and verdict.finding.code == "not-maximal", (
            str(position), dice, str(play), verdict.finding)


@pytest.mark.slow
@fast
@given(st.sampled_from([r for r in RULE_SETS if r.variant == "long"]), seeds)
def test_landing_on_an_opponent_checker_is_caught(rules, seed):
    engine = Engine(rules)
    for position, dice, _plays in random_turns(rules, seed, limit=80):
        mine, theirs = position.board(position.turn), position.board(other(position.turn))
        for src in range(24, 0, -1):
            dst = src - dice[0]
            if mine[src] and dst > 0 and theirs[dst + 12 if dst <= 12 else dst - 12]:
                verdict = engine.check(position, dice, (Move((src, dst)),))
                assert verdict.finding is not None and verdict.finding.code == "blocked", (
                    str(position), dice, src, dst, verdict.finding)
                break
