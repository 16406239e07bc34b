"""`nardy validate` through Click's CliRunner: every finding code, exact places, summaries, samples."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"


def validate(tmp_path, text: str, *args: str):
    path = tmp_path / "game.ntn"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(cli, ["validate", str(path), *args])


def only_finding(tmp_path, text: str, *args: str) -> str:
    result = validate(tmp_path, text, *args)
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert len(lines) == 3 and lines[2].startswith("rules: "), result.output  # finding, summary, rule set
    return lines[0].replace(str(tmp_path / "game.ntn"), "game.ntn")


LONG = '[White "Алиев Р."]\n[Black "Petrov S."]\n[Variant "long"]\n'
SHORT = '[White "A"]\n[Black "B"]\n[Variant "short"]\n'

CASES = {
    "dice": (LONG + "\n1. 63: 24/18 18/14\n",
             "game.ntn:5:4: game 1 (Алиев Р. – Petrov S.), move 1 White 63: 24/18 18/14: dice: 18/14 cannot be "
             "played with the dice left (3) of the roll 63"),
    "no-checker": (LONG + "\n1. 63: 13/7 13/10\n",
                   "game.ntn:5:4: game 1 (Алиев Р. – Petrov S.), move 1 White 63: 13/7 13/10: no-checker: White "
                   "has no checker on 13; the replay stops here: the recorded play cannot be made on the board"),
    "blocked": (LONG + '[Position "long w 24x14,18 24x15 -"]\n\n1. 61: 18/12 24/23\n',
                "game.ntn:6:4: game 1 (Алиев Р. – Petrov S.), move 1 White 61: 18/12 24/23: blocked: 18/12: point 12 "
                "is held by Black; the replay stops here: the recorded play cannot be made on the board"),
    "head": (LONG + "\n1. 63: 24/18/15            51: 24/19/18\n2. 42: 24/20 24/22\n",
             "game.ntn:6:4: game 1 (Алиев Р. – Petrov S.), move 2 White 42: 24/20 24/22: head: two checkers left the "
             "head: only one checker may leave the head per turn (head=classic)"),
    "six-block": (LONG + '[Position "long w 19,17x2,16x2,15x2,14x2,13x2,1x4 24x15 -"]\n\n1. 11: 19/15\n',
                  "game.ntn:6:4: game 1 (Алиев Р. – Petrov S.), move 1 White 11: 19/15: six-block: 19/18 builds six "
                  "points in a row with no Black checker ahead (block=step)"),
    "bear-off": (LONG + '[Position "long w 7,3x2 24x15 -"]\n\n1. 31: 3/off 3/2\n',
                 "game.ntn:6:4: game 1 (Алиев Р. – Petrov S.), move 1 White 31: 3/off 3/2: bear-off: White bears off "
                 "from 3 before all checkers are home"),
    "bar": (SHORT + '[Position "short w bar,13x14 24x2,6x12,4"]\n\n1. 41: 13/9 13/12\n',
            "game.ntn:6:4: game 1 (A – B), move 1 White 41: 13/9 13/12: bar: White must enter the checker on the bar "
            "before moving 13"),
    "not-maximal": (LONG + "\n1. 63: 24/18\n",
                    "game.ntn:5:4: game 1 (Алиев Р. – Petrov S.), move 1 White 63: 24/18: not-maximal: 1 die played "
                    "where 2 can be"),
    "higher-die": (SHORT + '[Position "short w 13 23x2,6x13"]\n\n1. 65: 13/8\n',
                   "game.ntn:6:4: game 1 (A – B), move 1 White 65: 13/8: higher-die: only one die can be played and "
                   "the 6 must be"),
    "after-end": (LONG + '[Position "long w 1 6x15 -"]\n[Result "2-0"]\n\n1. 21: 1/off              43: 6/2 6/3\n2-0\n',
                  "game.ntn:7:27: game 1 (Алиев Р. – Petrov S.), move 1 Black 43: 6/2 6/3: after-end: the game was "
                  "already over (finish)"),
    "result": (LONG + '[Position "long w 1 6x15 -"]\n[Result "1-0"]\n\n1. 21: 1/off\n1-0\n',
               "game.ntn:8:1: game 1 (Алиев Р. – Petrov S.): result: declared 1-0 but White won with "
               "home-mars: 2-0 (scoring=oin-mars)"),
    "opening": (SHORT + "\n1. 66: 24/18(2) 13/7(2)\n",
                "game.ntn:5:4: game 1 (A – B), move 1 White 66: 24/18(2) 13/7(2): opening: the opening roll of "
                "short nardy cannot be a double"),
    "cube": (LONG + "\n1. 63: 24/18/15            double 2\n2. take\n",
             "game.ntn:5:28: game 1 (Алиев Р. – Petrov S.), move 1 Black double 2: cube: the doubling cube is not "
             "used (cube=off)"),
    "turn-order": (LONG + "\n1. 63: 24/18/15            51: 24/19/18\n3. 42: 24/20/18\n",
                   "game.ntn:6:4: game 1 (Алиев Р. – Petrov S.), move 3 White 42: 24/20/18: turn-order: move number 3 "
                   "where 2 was expected"),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_every_finding_code_with_its_place(tmp_path, code):
    text, expected = CASES[code]
    assert only_finding(tmp_path, text) == expected


def test_syntax_error_is_located_and_later_games_still_read(tmp_path):
    text = LONG + "\n1. 63: 24/18/15  7x: 24/20\n*\n\n" + LONG + "\n1. 63: 24/18\n"
    result = validate(tmp_path, text)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{tmp_path / 'game.ntn'}:5:18: game 1") and ": syntax: " in lines[0]
    assert ": game 2 " in lines[-3] and "not-maximal" in lines[-3]
    assert lines[-2].startswith("1 file, 2 games")
    assert lines[-1] == "rules: long opening=reroll head=classic block=step last_roll=off scoring=oin-mars cube=off " \
                        "(2 games)"


def test_rule_override_changes_the_verdict(tmp_path):
    text, _ = CASES["six-block"]
    assert validate(tmp_path, text, "--rule", "block=turn").exit_code == 0
    assert validate(tmp_path, text, "--rule", "block=nonsense").exit_code == 2


def test_a_game_of_an_unknown_variant_is_not_judged_nor_counted_as_another(tmp_path):
    nack = tmp_path / "nack.mat"
    nack.write_text('; [Variation "Hypergammon"]\n\n 0 point match\n\n Game 1\n a : 0    b : 0\n'
                    '  1) 31: 8/5 6/5\n', encoding="utf-8")
    text, _ = CASES["six-block"]
    (tmp_path / "game.ntn").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(nack), str(tmp_path / "game.ntn"), "--rule", "block=turn"])
    assert result.exit_code == 1, result.output
    assert "syntax: rules: unknown variant 'hypergammon': expected one of long, short, gulbara" in result.output
    assert "rules: hypergammon: not judged (1 game)" in result.output  # not under long nardy's preset
    assert "rules: long opening=reroll head=classic block=turn" in result.output  # the option fits the long game
    data = json.loads(CliRunner().invoke(cli, ["validate", str(nack), "--format", "json"]).output)
    assert data["rules"] == {"hypergammon: not judged": 1} and data["findings"][0]["rules"] == "hypergammon: not judged"
    stats = CliRunner().invoke(cli, ["stats", str(nack), "-q", "--format", "json", "--by", "variant"])
    body = json.loads(stats.output[stats.output.index("{"):])
    assert [(row["variant"], row["games"]) for row in body["summary"]] == [("hypergammon", 1)]


def test_illegal_turn_then_replay_goes_on(tmp_path):
    text = LONG + "\n1. 63: 24/18 24/21            51: 24/19/18\n2. 42: 24/20 24/22\n"
    result = validate(tmp_path, text)
    assert result.output.count(": head: ") == 2
    assert "move 1 White" in result.output and "move 2 White" in result.output


def test_unplayable_record_stops_the_replay(tmp_path):
    result = validate(tmp_path, LONG + "\n1. 63: 13/7 13/10     51: 24/19/18\n")
    assert "the replay stops here" in result.output


def test_json_output(tmp_path):
    text, _ = CASES["head"]
    result = validate(tmp_path, text, "--format", "json")
    data = json.loads(result.output)
    assert data["files"] == 1 and data["games"] == 1
    (finding,) = data["findings"]
    assert finding["code"] == "head" and finding["game"] == 1 and finding["turn"] == 3
    assert finding["move_number"] == 2 and finding["side"] == "white"
    assert (finding["line"], finding["column"]) == (6, 4)
    assert finding["rules"].startswith("long opening=reroll head=classic")


def test_missing_input_exit_2_others_still_read(tmp_path):
    good = tmp_path / "good.ntn"
    good.write_text(LONG + "\n1. 63: 24/18/15\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "missing.ntn"), str(good)])
    assert result.exit_code == 2
    assert "1 file, 1 game" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("name", ["long/club-evening", "long/kazan-cup-2026", "short/club-night-cube",
                                  "generated/long-200", "generated/short-200",
                                  "gulbara/club-crazy-evening", "gulbara/crazy-cup-faults"])
def test_samples_give_their_expected_output(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, ["validate", f"sample_games/{name}.ntn"])
    expected = (SAMPLES / "expected" / f"{name.split('/')[1]}.validate.out").read_text(encoding="utf-8")
    assert result.output == expected
    assert result.exit_code == (1 if "findings (" in expected else 0)


@pytest.mark.slow
def test_two_workers_give_the_same_output(monkeypatch):
    monkeypatch.chdir(ROOT)
    one = CliRunner().invoke(cli, ["validate", "sample_games/", "--jobs", "1"])
    two = CliRunner().invoke(cli, ["validate", "sample_games/", "--jobs", "2", "--format", "text"])
    assert one.output == two.output and one.exit_code == two.exit_code == 1
