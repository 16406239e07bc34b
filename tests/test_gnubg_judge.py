"""The gnubg judge on positions whose legal plays were counted by hand, and its two ways of asking gnubg."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import gnubg_judge
from gnubg_judge import (
    OPENING,
    JudgeUnavailable,
    Via,
    legal_results,
    legal_results_many,
    require_gnubg_cli,
    require_gnubg_module,
    run_gnubg,
    safe_to_compare,
    side,
)
from nardy_cli.notations.gnubg_ids import BAR, OFF, Side, check_board

VIAS: list[Via] = ["module", "cli"]


def require(via: str) -> None:
    """Skip (or fail under CI) unless gnubg can be asked ``via`` this way."""
    if via == "cli":
        require_gnubg_cli()
    else:
        require_gnubg_module()


def moved(start: Side, *steps: tuple[int, int]) -> Side:
    """``start`` with one checker moved per (from, to) step."""
    counts = list(start)
    for src, dst in steps:
        counts[src] -= 1
        counts[dst] += 1
    return tuple(counts)


@pytest.mark.gnubg
@pytest.mark.parametrize("via", VIAS)
def test_opening_31(via: Via) -> None:
    """3-1 from the opening: 16 plays, all to different positions.

    One checker 4 pips: 24/20, 13/9, 8/4, 6/2 (4 plays). Two checkers: the 3
    from 24, 13, 8 or 6 (to 21, 10, 5, 3) and the 1 from 24, 8 or 6 (13/12 is
    blocked): 4 x 3 = 12 plays.
    """
    require(via)
    results = legal_results(OPENING, OPENING, (3, 1), via)
    assert len(results) == 16
    assert (moved(OPENING, (8, 5), (6, 5)), OPENING) in results
    assert (moved(OPENING, (24, 20)), OPENING) in results
    assert all(opponent == OPENING for _, opponent in results)


@pytest.mark.gnubg
@pytest.mark.parametrize("via", VIAS)
def test_opening_66(via: Via) -> None:
    """6-6 from the opening: 11 plays.

    18/12 and 7/1 are blocked and bearing off is not allowed, so each play is
    a x 24/18, b x 13/7, c x 8/2 with a + b + c = 4, a <= 2, c <= 3:
    4 (a=0) + 4 (a=1) + 3 (a=2) = 11.
    """
    require(via)
    results = legal_results(OPENING, OPENING, (6, 6), via)
    assert len(results) == 11
    assert (moved(OPENING, (24, 18), (24, 18), (13, 7), (13, 7)), OPENING) in results
    assert (moved(OPENING, (8, 2), (8, 2), (8, 2), (13, 7)), OPENING) in results


@pytest.mark.gnubg
@pytest.mark.parametrize("via", VIAS)
def test_entering_with_a_hit(via: Via) -> None:
    """A checker on the bar and one on 6, 2-1, the opponent's blot on the mover's 22.

    bar/23 then 23/22* or 6/5; bar/24 then 24/22* or 6/4: three results, the
    hit one (reached both ways) with the opponent's checker on its bar.
    """
    require(via)
    mover = side(bar=1, p6=1)
    opponent = side(p3=1)  # its 3 point is the mover's 22
    hit = moved(opponent, (3, BAR))
    assert legal_results(mover, opponent, (2, 1), via) == {
        (moved(mover, (BAR, 22)), hit),
        (moved(mover, (BAR, 23), (6, 5)), opponent),
        (moved(mover, (BAR, 24), (6, 4)), opponent),
    }


@pytest.mark.gnubg
@pytest.mark.parametrize("via", VIAS)
def test_dancing_leaves_the_position(via: Via) -> None:
    """On the bar against a closed board nothing can be played: the one result is the position itself."""
    require(via)
    mover = side(bar=2, p6=2)
    opponent = side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2)
    assert legal_results(mover, opponent, (6, 6), via) == {(mover, opponent)}


BEAR_OFF_CASES = [
    # 6 and 1 left, 2-1: 6/4 1/off or 6/3 (via 4 or 5); the 2 cannot bear off from 1 while 6 is occupied.
    (side(p6=1, p1=1), side(p1=5), (2, 1), {side(p4=1), side(p3=1, p1=1)}),
    # 6-5: the 6 bears off from 6, the 5 plays 6/1 or 5/off.
    (
        side(p6=2, p5=2, p2=3),
        side(p22=5),
        (6, 5),
        {side(p5=2, p2=3, p1=1), side(p6=1, p5=1, p2=3)},
    ),
    # 3-3 with three checkers on 3 and 2: all off.
    (side(p3=2, p2=1), side(p19=5), (3, 3), {side()}),
]


@pytest.mark.gnubg
@pytest.mark.parametrize(("mover", "opponent", "dice", "expected"), BEAR_OFF_CASES)
def test_bear_off(mover: Side, opponent: Side, dice: tuple[int, int], expected: set[Side]) -> None:
    """Bear-offs: the module cuts these plays short, so the judge asks the CLI."""
    require_gnubg_cli()
    assert not safe_to_compare(mover, dice)
    assert legal_results(mover, opponent, dice) == {(m, opponent) for m in expected}


@pytest.mark.gnubg
def test_module_refuses_to_guess_bear_offs() -> None:
    require_gnubg_module()
    mover, opponent, dice, _ = BEAR_OFF_CASES[0]
    with pytest.raises(JudgeUnavailable, match="cuts plays short at the first bear-off"):
        legal_results(mover, opponent, dice, via="module")


def test_safe_to_compare() -> None:
    rolls = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]
    assert all(safe_to_compare(OPENING, roll) for roll in rolls)
    one_out = side(p12=1, p6=14)  # 6 pips from home
    assert safe_to_compare(one_out, (5, 4))  # both dice are needed to come home
    assert not safe_to_compare(one_out, (6, 1))  # 12/6, then the 1 may bear off
    assert not safe_to_compare(one_out, (2, 2))  # 12/10/8/6, then a 2 may bear off
    assert safe_to_compare(side(bar=1, p6=14), (6, 6))  # 19 pips: more than three 6s


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="both sides have checkers there"):
        legal_results(side(p1=1), side(p24=1), (3, 1))
    with pytest.raises(ValueError, match="dice must be two values 1-6"):
        legal_results(OPENING, OPENING, (0, 1))


def random_board(rng: random.Random, home: bool) -> tuple[Side, Side]:
    """Random legal sides; with ``home`` the mover is near or in its home board (bear-offs likely)."""
    while True:
        mover, opponent = [0] * 26, [0] * 26
        for _ in range(15):
            mover[rng.randrange(0, 10) if home else rng.randrange(0, 26)] += 1
        free = [OFF, BAR] + [p for p in range(1, 25) if not mover[25 - p]]
        for _ in range(15):
            opponent[rng.choice(free)] += 1
        try:
            check_board(tuple(mover), tuple(opponent))
        except ValueError:  # both on the bar against closed boards
            continue
        return tuple(mover), tuple(opponent)


@pytest.mark.slow
@pytest.mark.gnubg
def test_module_and_cli_agree() -> None:
    """On random positions the module (where it can answer) and the CLI give the same results."""
    require_gnubg_module()
    require_gnubg_cli()
    rng = random.Random(20240601)
    cases = [
        (*random_board(rng, home=i % 3 == 0), (rng.randint(1, 6), rng.randint(1, 6))) for i in range(150)
    ]
    by_cli = legal_results_many(cases, via="cli")
    assert legal_results_many(cases) == by_cli
    safe = [i for i, (mover, _, dice) in enumerate(cases) if safe_to_compare(mover, dice)]
    assert 50 < len(safe) < len(cases)
    assert legal_results_many([cases[i] for i in safe], via="module") == [by_cli[i] for i in safe]


@pytest.mark.gnubg
def test_run_gnubg_reports_warnings(tmp_path: Path) -> None:
    """Messages about bad commands come back on stdout, missing files on stderr."""
    require_gnubg_cli()
    commands = tmp_path / "commands.gnubg"
    commands.write_text(f"set matchid MIkuCAAAAAAE\nimport mat {tmp_path / 'missing.mat'}\n")
    stdout, stderr = run_gnubg(commands, timeout=60)
    assert "Illegal match ID 'MIkuCAAAAAAE'" in stdout
    assert "missing.mat: No such file or directory" in stderr


def test_missing_gnubg_skips_but_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gnubg_judge, "gnubg_module", None)
    monkeypatch.setattr(gnubg_judge, "GNUBG_CLI", None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="not installed; install it with .ci/install-judges.sh"):
        require_gnubg_module()
    with pytest.raises(JudgeUnavailable, match="gnubg program is needed here but not installed"):
        legal_results(OPENING, OPENING, (3, 1))
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run these tests, not skip them"):
        require_gnubg_cli()
