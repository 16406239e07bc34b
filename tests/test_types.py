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
                      Action("b", "castle", line=4, column=1),  # type: ignore[arg-type]  # no kind, on purpose
                      Action("b", "roll", (3, 1), parse_play("24/20"), line=5, column=1)]
    result = replay(record)
    assert [(f.code, f.message, f.line) for f in result.findings] == [("syntax", "unknown action 'castle'", 4)]
    assert [turn.legal for turn in result.turns] == [True, True]


def test_the_cube_is_in_play_by_default_in_short_nardy_only():
    from nardy_cli.core.variants import GULBARA, LONG, SHORT

    assert (LONG.cube, SHORT.cube, GULBARA.cube) == (False, True, False)  # RULES.md: cube=off / on / off


def test_records_copy_and_pickle_whole():
    """Records go to worker processes and back, and converters copy them: nothing of an action is lost."""
    import copy
    import dataclasses
    import pickle

    from nardy_cli.record import Evaluation

    record = GameRecord(tags={"Variant": "short"}, source="x.mat", line=2, actions=[
        Action("w", "roll", (3, 1), parse_play("8/5 6/5"), number=1, comments=["a fine start"], line=3, column=5,
               analysis=(Evaluation("move", "2-ply", -0.1, 0.0),)),
        Action("b", "double", value=2, number=1, line=3, column=30)])
    for again in (copy.deepcopy(record), pickle.loads(pickle.dumps(record)), copy.copy(record)):
        assert again == record and again.actions[0].analysis[0].lost == 0.1
    moved = dataclasses.replace(record.actions[0], side="b")
    assert (moved.side, moved.moves, moved.comments) == ("b", record.actions[0].moves, ["a fine start"])
