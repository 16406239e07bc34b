"""The typed vocabulary: every kind of action has its replay handler, found without getattr."""
from nardy_cli.core.moves import parse_play
from nardy_cli.record import ACTION_KINDS, Action, GameRecord
from nardy_cli.replay import HANDLERS, replay


def test_every_action_kind_has_a_handler():
    assert set(HANDLERS) == set(ACTION_KINDS)
    assert all(handler.__name__ == f"on_{kind}" for kind, handler in HANDLERS.items())


def test_an_action_of_no_kind_is_a_finding_and_the_replay_goes_on():
    record = GameRecord(tags={"Variant": "long"})
    record.actions = [Action("w", "roll", (6, 5), parse_play("24/13"), line=3, column=1),
                      Action("b", "castle", line=4, column=1),
                      Action("b", "roll", (3, 1), parse_play("24/20"), line=5, column=1)]
    result = replay(record)
    assert [(f.code, f.message, f.line) for f in result.findings] == [("syntax", "unknown action 'castle'", 4)]
    assert [turn.legal for turn in result.turns] == [True, True]


def test_the_cube_is_in_play_by_default_in_short_nardy_only():
    from nardy_cli.core.variants import GULBARA, LONG, SHORT

    assert (LONG.cube, SHORT.cube, GULBARA.cube) == (False, True, False)  # RULES.md: cube=off / on / off
