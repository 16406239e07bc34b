"""Rule sets cannot be built inconsistent: every way of building one gives its variant's own
options, each with a value the variant allows (the tables of RULES.md, checked by hand here)."""
from dataclasses import replace
from typing import Any, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy_cli.core import variants
from nardy_cli.core.rules import GULBARA, LONG, OPTIONS, SHORT, Rules, RulesError

# RULES.md's option tables: each variant's options, the default first
LONG_TABLE = {
    "opening": ("reroll", "play"),
    "head": ("classic", "general", "strict"),
    "block": ("step", "turn", "off"),
    "last_roll": ("off", "on"),
    "scoring": ("oin-mars", "oin-mars-koks", "home-mars"),
    "cube": ("off", "on"),
}
TABLES = {
    "long": LONG_TABLE,
    "short": {"scoring": ("backgammon",), "cube": ("on", "off"), "crawford": ("on", "off"), "jacoby": ("off", "on")},
    "gulbara": {**LONG_TABLE, "cascade": ("four", "two"), "bearoff": ("exact", "standard")},
}
ALL_OPTIONS = ("opening", "head", "block", "last_roll", "scoring", "cube", "crawford", "jacoby", "cascade", "bearoff")
CASES = [(variant, option, value) for variant, table in TABLES.items() for option, values in table.items()
         for value in values]
MISSING = [(variant, option) for variant, table in TABLES.items() for option in ALL_OPTIONS if option not in table]


@pytest.mark.parametrize("variant", TABLES)
def test_the_constructor_gives_the_variants_own_defaults(variant):
    rules = Rules(variant=variant)
    assert rules == Rules.preset(variant) == Rules.parse(variant)
    assert rules.options() == {option: values[0] for option, values in TABLES[variant].items()}


def test_short_nardy_is_never_built_with_long_nardys_values():
    rules = Rules(variant="short")
    assert str(rules) == "short scoring=backgammon cube=on crawford=on jacoby=off"
    assert (rules.opening, rules.head, rules.block, rules.last_roll) == (None, None, None, None)
    assert rules.points("koks") == 3  # backgammon scores 3, long nardy's oin-mars 2
    assert str(Rules()) == "long opening=reroll head=classic block=step last_roll=off scoring=oin-mars cube=off"
    assert str(Rules(variant="gulbara")) == ("gulbara opening=reroll head=classic block=step last_roll=off "
                                             "scoring=oin-mars cube=off cascade=four bearoff=exact")
    assert (LONG, SHORT, GULBARA) == (Rules(), Rules(variant="short"), Rules(variant="gulbara"))


@pytest.mark.parametrize("variant,option,value", CASES)
def test_every_allowed_value_by_every_path(variant, option, value):
    built = [Rules(variant=variant, **{option: value}), Rules.parse(f"{variant} {option}={value}"),
             Rules.preset(variant).with_options([f"{option}={value}"]),
             Rules.preset(variant).with_option(option, value), replace(Rules.preset(variant), **{option: value})]
    for rules in built:
        assert getattr(rules, option) == value
        assert rules == built[0]
        assert rules.options() == {**{key: values[0] for key, values in TABLES[variant].items()}, option: value}


@pytest.mark.parametrize("variant,option,value", CASES)
def test_a_value_out_of_range_is_refused(variant, option, value):
    message = f"{option}=never is not allowed in {variants.variant(variant).title}: expected one of " \
              f"{', '.join(TABLES[variant][option])}"
    never: dict[str, Any] = {option: "never"}  # Any: a value out of the option's Literal type, on purpose
    for build in (lambda: Rules(variant=variant, **never),
                  lambda: Rules.parse(f"{variant} {option}=never"),
                  lambda: Rules.preset(variant).with_options([f"{option}=never"]),
                  lambda: replace(Rules.preset(variant), **never)):
        with pytest.raises(RulesError) as error:
            build()
        assert str(error.value) == message


@pytest.mark.parametrize("variant,option", MISSING)
def test_an_option_the_variant_lacks_is_refused(variant, option):
    value = next(values[0] for table in TABLES.values() if option in table for values in [table[option]])
    title = variants.variant(variant).title
    foreign: dict[str, Any] = {option: value}  # Any: an option of another variant, on purpose
    for build in (lambda: Rules(variant=variant, **foreign),
                  lambda: Rules.parse(f"{variant} {option}={value}"),
                  lambda: Rules.preset(variant).with_options([f"{option}={value}"]),
                  lambda: replace(Rules.preset(variant), **foreign)):
        with pytest.raises(RulesError, match=f"rule option '{option}' does not exist in {title}: its options are "):
            build()


def test_switching_variant_by_replace_keeps_no_foreign_values():
    with pytest.raises(RulesError, match="rule option 'opening' does not exist in short nardy"):
        replace(LONG, variant="short")
    with pytest.raises(RulesError, match="scoring=backgammon is not allowed in long nardy"):
        replace(SHORT, variant="long")
    # gulbara is long nardy plus two options: long's values carry over, the new ones take their defaults
    assert replace(LONG.with_options(["head=general"]), variant="gulbara") == GULBARA.with_options(["head=general"])
    # with_options switches preset first, so nothing of the old variant leaks
    assert LONG.with_options(["head=general"]).with_options(["variant=short", "cube=off"]) == \
        SHORT.with_options(["cube=off"])


@pytest.mark.parametrize("build", [lambda: Rules(variant="medium"),  # type: ignore[arg-type]  # no variant, on purpose
                                   lambda: Rules.preset("medium"),
                                   lambda: Rules.parse("medium"), lambda: LONG.with_options(["variant=medium"])])
def test_an_unknown_variant_is_refused(build):
    with pytest.raises(RulesError, match="unknown variant 'medium': expected one of long, short, gulbara"):
        build()


@pytest.mark.parametrize("scheme,points", [
    ("long", {"koks": 2, "home-mars": 2, "mars": 2, "oin": 1}),
    ("long scoring=oin-mars-koks", {"koks": 3, "home-mars": 2, "mars": 2, "oin": 1}),
    ("long scoring=home-mars", {"koks": 2, "home-mars": 3, "mars": 2, "oin": 1}),
    ("short", {"koks": 3, "mars": 2, "oin": 1}),
    ("gulbara", {"koks": 2, "home-mars": 2, "mars": 2, "oin": 1}),
])
def test_points_of_each_preset(scheme, points):
    rules = Rules.parse(scheme)
    assert {category: rules.points(category) for category in points} == points


def test_the_literal_types_name_the_tables_values():
    """The option value types of variants.py allow exactly the values some entry of the table allows."""
    types: dict[variants.OptionName, Any] = {
        "opening": variants.Opening, "head": variants.Head, "block": variants.Block,
        "last_roll": variants.Switch, "scoring": variants.Scoring, "cube": variants.Switch,
        "crawford": variants.Switch, "jacoby": variants.Switch, "cascade": variants.Cascade,
        "bearoff": variants.Bearoff}
    assert set(types) == set(OPTIONS) == set(get_args(variants.OptionName))
    for option, literal in types.items():
        assert set(get_args(literal)) >= {value for values in OPTIONS[option].values() for value in values}
    switch = {value for option in ("last_roll", "cube", "crawford", "jacoby") for value in get_args(types[option])}
    assert switch == {"off", "on"}
    assert set(get_args(variants.Scoring)) == {value for values in OPTIONS["scoring"].values() for value in values}
    assert variants.NAMES == get_args(variants.VariantName)


ANY_VALUE = sorted({value for values in OPTIONS.values() for by_variant in values.values() for value in by_variant})


@given(st.sampled_from(list(TABLES)), st.dictionaries(st.sampled_from(ALL_OPTIONS), st.sampled_from(ANY_VALUE)))
def test_rules_are_consistent_or_refused(variant, settings):
    """Whatever is asked for, a Rules holds exactly its variant's options, each with an allowed value."""
    table = TABLES[variant]
    consistent = all(option in table and value in table[option] for option, value in settings.items())
    try:
        rules = Rules(variant=variant, **settings)
    except RulesError:
        assert not consistent
        return
    assert consistent
    assert rules.options() == {option: settings.get(option, values[0]) for option, values in table.items()}
    assert Rules.parse(str(rules)) == rules
