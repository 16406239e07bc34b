"""What a user reads: rule options, tags, finding messages, convert's notation and exit status, help."""
import warnings

import click
import pytest
from click.testing import CliRunner

from nardy_cli.cli.main import cli
from nardy_cli.core.rules import RulesError, check_overrides, option_values

LONG = '[White "A"]\n[Black "B"]\n[Variant "long"]\n'


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def write(tmp_path, text: str, name: str = "game.ntn") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- --rule -------------------------------------------------------------------------------


@pytest.mark.parametrize("setting, message", [
    ("hed=classic", "unknown rule option 'hed': the options are opening=reroll|play, head=classic|general|strict"),
    ("head=generall", "head=generall is not a value of head: expected classic|general|strict (long nardy)"),
    ("cube=maybe", "cube=maybe is not a value of cube: expected off|on (long nardy); on|off (short nardy)"),
])
def test_a_bad_rule_is_a_usage_error_listing_keys_and_values(tmp_path, setting, message):
    result = run("validate", write(tmp_path, LONG + "\n1. 63: 24/18/15\n"), "--rule", setting)
    assert result.exit_code == 2 and message in result.output
    assert "short nardy" not in message or "(short nardy)" in result.output


def test_a_rule_that_fits_no_game_read_is_a_usage_error(tmp_path):
    result = run("validate", write(tmp_path, LONG + "\n1. 63: 24/18/15\n"), "--rule", "scoring=backgammon")
    assert result.exit_code == 2
    assert "syntax" not in result.output  # the game is judged, not turned into a finding
    assert ("--rule: scoring=backgammon is not a value of scoring: expected oin-mars|oin-mars-koks|home-mars "
            "(long nardy); it applies to none of the games read") in result.output


def test_stats_too_refuses_a_rule_that_fits_no_game(tmp_path):
    result = run("stats", write(tmp_path, LONG + "\n1. 63: 24/18/15\n"), "-q", "--rule", "scoring=backgammon")
    assert result.exit_code == 2 and "it applies to none of the games read" in result.output


def test_a_rule_of_one_variant_serves_a_mixed_corpus(tmp_path):
    short = '[Variant "short"]\n\n1. 31: 8/5 6/5\n'
    result = run("validate", write(tmp_path, LONG + "\n1. 63: 24/18/15\n\n" + short), "--rule", "scoring=backgammon")
    assert result.exit_code == 0, result.output
    assert "rules: long opening=reroll head=classic block=step last_roll=off scoring=oin-mars" in result.output


def test_option_values_lists_defaults_first():
    assert option_values(["short"]) == "scoring=backgammon, cube=on|off, crawford=on|off, jacoby=off|on (short nardy)"
    with pytest.raises(RulesError, match="does not exist in short nardy"):
        check_overrides(["head=classic"], ["short"])
    # each game by its name in English, as the README and the reports call it
    assert option_values(["gulbara"]).endswith("cascade=four|two, bearoff=exact|standard (crazy nardy)")
    with pytest.raises(RulesError, match=r"expected four\|two \(crazy nardy\)"):
        check_overrides(["cascade=three"], ["long", "gulbara"])


def test_a_bad_rules_tag_is_reported_at_its_line_and_the_game_still_judged(tmp_path):
    path = write(tmp_path, LONG + '[Rules "head=clasic"]\n\n1. 63: 24/18 18/14\n')
    lines = run("validate", path).output.splitlines()
    assert lines[0].startswith(f"{path}:4:1: game 1 (A – B): syntax: Rules tag: head=clasic is not allowed in "
                               "long nardy: expected one of classic, general, strict; the game is judged without "
                               "the tag, under long opening=reroll head=classic")
    assert lines[1].startswith(f"{path}:6:4: game 1 (A – B), move 1 White 63: 24/18 18/14: dice:")


@pytest.mark.parametrize("text", ["short", "variant=short scoring=backgammon", "short cube=off"])
def test_a_rules_tag_that_names_another_game_is_reported_and_the_game_judged_as_its_variant(tmp_path, text):
    """The tag switched the rules to short nardy's while the record stayed a long game: the summary
    said short, the statistics long, and the SGF writer failed on it."""
    path = write(tmp_path, LONG + f'[Rules "{text}"]\n\n1. 63: 24/18 24/21\n')
    lines = run("validate", path).output.splitlines()
    assert lines[0] == (f"{path}:4:1: game 1 (A – B): syntax: Rules tag: it names short nardy, but the game is long "
                        "nardy (its Variant tag); the game is judged without the tag, under long opening=reroll "
                        "head=classic block=step last_roll=off scoring=oin-mars cube=off")
    assert ": head: two checkers left the head" in lines[1]
    same_game = write(tmp_path, LONG + '[Rules "long head=general"]\n\n1. 63: 24/15\n', "same.ntn")
    assert run("validate", same_game).exit_code == 0  # a rule text naming the game's own variant is fine


# --- tags ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_tag_names_are_matched_without_regard_to_case(tmp_path):
    path = write(tmp_path, '[white "A"]\n[variant "short"]\n\n1. 31: 8/5 6/5\n')
    result = run("validate", path)
    assert result.exit_code == 0 and "rules: short" in result.output
    assert "[White \"A\"]\n[Variant \"short\"]" in run("convert", path, "--to", "ntn").output


@pytest.mark.slow
def test_unknown_tags_are_kept_and_reported_with_strict(tmp_path):
    path = write(tmp_path, LONG + '[Venue "Club"]\n\n1. 63: 24/18/15\n')
    assert run("validate", path).exit_code == 0
    assert '[Venue "Club"]' in run("convert", path, "--to", "ntn").output
    result = run("validate", path, "--strict")
    assert result.exit_code == 1
    assert result.output.startswith(f"{path}:4:1: game 1 (A – B): tag: unknown tag 'Venue' (kept): the standard "
                                    "tags are Event, Site")


# --- finding messages ---------------------------------------------------------------------


def test_findings_are_printed_in_line_order(tmp_path):
    path = write(tmp_path, LONG + "\n1. 63 24/18 24/21  51: 24/19 19/18\n")
    lines = run("validate", path).output.splitlines()
    assert [line.split(": ")[0] for line in lines[:2]] == [f"{path}:5:4", f"{path}:5:6"]


def test_a_move_after_every_die_is_used_says_so(tmp_path):
    result = run("validate", write(tmp_path, LONG + "\n1. 63: 24/15 22/19\n"))
    assert "dice: 22/19 is a move too many: the moves before it use every die of the roll 63" in result.output
    assert "no dice" not in result.output


def test_black_in_whites_numbering_gets_a_hint(tmp_path):
    result = run("validate", write(tmp_path, LONG + "\n1. 63: 24/18/15  52: 12/7 12/10\n"))
    assert ("no-checker: Black has no checker on 12 (Black's points are counted from Black's own side: was the "
            "play written in White's numbering?)") in result.output


def test_moves_names_the_positions_it_takes():
    result = run("moves", "backgammon", "63")
    assert result.exit_code == 2
    assert "unknown position 'backgammon' (backgammon is 'short'): expected 'long' or 'short'" in result.output
    assert "Position ID" in run("moves", "--help").output and "XGID" in run("moves", "--help").output


# --- convert ------------------------------------------------------------------------------


@pytest.mark.slow
def test_convert_infers_the_notation_from_the_output_name(tmp_path):
    source = write(tmp_path, LONG + "\n1. 63: 24/18/15\n")
    result = run("convert", source, "-o", str(tmp_path / "hand.sgf"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "hand.sgf").read_text(encoding="utf-8").startswith("(;FF[4]GM[6]")
    assert run("convert", source, "-o", str(tmp_path / "hand.json")).exit_code == 0
    assert (tmp_path / "hand.json").read_text(encoding="utf-8").startswith("[")


@pytest.mark.slow
def test_convert_warns_when_to_and_the_extension_disagree(tmp_path):
    source = write(tmp_path, LONG + "\n1. 63: 24/18/15\n")
    result = run("convert", source, "--to", "JSONL", "-o", str(tmp_path / "out.json"))
    assert result.exit_code == 0
    assert "warning: writing jsonl (--to) to " in result.output and "whose extension says json" in result.output


def test_convert_needs_a_notation():
    result = run("convert", "sample_games/short")
    assert result.exit_code == 2 and "--to is needed" in result.output


@pytest.mark.slow
def test_convert_reports_repairs_and_exits_1(tmp_path):
    source = write(tmp_path, LONG + "\n1. 63 24/18/15  51: 24/19 19/18\n2. 7x: 18/11\n")
    result = run("convert", source, "--to", "ntn")
    assert result.exit_code == 1
    assert f'warning: {source}:5:6: expected ":" after the roll 63: game 1 is converted as far as it could be read' \
        in result.output
    assert f"warning: {source}:6:4: expected a roll like 63: or 6-3:" in result.output


# --- help ---------------------------------------------------------------------------------


def commands(group, prefix=()):
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield prefix + (name,), command
        if isinstance(command, click.Group):
            yield from commands(command, prefix + (name,))


def test_help_summaries_are_whole_and_every_option_is_documented():
    for group in ((), ("plot",)):
        listing = run(*group, "--help").output.split("Commands:")[1]
        assert "..." not in listing
    for path, command in commands(cli):
        for parameter in command.params:
            if parameter.param_type_name == "option":
                assert parameter.help, f"nardy {' '.join(path)} {parameter.opts[0]} has no help"
        if "--rule" in run(*path, "--help").output:
            assert "head=classic|general|strict" in run(*path, "--help").output


def test_show_says_which_file_of_a_directory_it_used():
    result = CliRunner().invoke(cli, ["show", "sample_games/long", "--game", "3", "--turn", "1"])
    assert "game 3 of sample_games/long: game 1 of sample_games/long/kazan-cup-2026.ntn" in result.output


@pytest.mark.slow
def test_no_deprecation_warnings(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        assert run("stats", "sample_games/short", "-q").exit_code == 0
