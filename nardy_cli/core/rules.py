"""Rule sets: a variant plus every rule option of RULES.md, with named presets.

A verdict is always reached *under a named rule set*: ``str(rules)`` spells out
every option, and :meth:`Rules.describe` names the one a finding depends on.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, cast

from nardy_cli.core.compiled import picklable
from nardy_cli.core.variants import NAMES as VARIANTS
from nardy_cli.core.variants import VARIANTS as TABLE
from nardy_cli.core.variants import (
    Bearoff,
    Block,
    Cascade,
    Head,
    Opening,
    OptionName,
    Scoring,
    Switch,
    Variant,
    VariantError,
    VariantName,
)
from nardy_cli.core.variants import variant as variant_entry

# option -> {variant: allowed values, the default first}, from the variant table
OPTIONS: dict[OptionName, dict[VariantName, tuple[str, ...]]] = {
    option: {entry.name: entry.options[option] for entry in TABLE.values() if option in entry.options}
    for option in dict.fromkeys(option for entry in TABLE.values() for option in entry.options)}

# Points per outcome category under each scoring scheme (RULES.md, "Outcomes and points").
SCORING: dict[Scoring, dict[str, int]] = {
    "oin-mars": {"koks": 2, "home-mars": 2, "mars": 2, "oin": 1},
    "oin-mars-koks": {"koks": 3, "home-mars": 2, "mars": 2, "oin": 1},
    "home-mars": {"koks": 2, "home-mars": 3, "mars": 2, "oin": 1},
    "backgammon": {"koks": 3, "mars": 2, "oin": 1},
}


class RulesError(ValueError):
    """A rule text names an unknown variant, option or value."""


@dataclass(frozen=True)
class Rules:
    """A variant and the values of its rule options (``None`` for options the variant lacks).

    However built (constructor, preset, parse, :meth:`with_options`, ``dataclasses.replace``),
    an option left ``None`` takes the variant's default, and an option the variant lacks or a
    value it does not allow is a :class:`RulesError`: ``Rules(variant="short")`` is short
    nardy's preset, never short nardy with long nardy's values.
    """

    variant: VariantName = "long"
    opening: Opening | None = None
    head: Head | None = None
    block: Block | None = None
    last_roll: Switch | None = None
    scoring: Scoring | None = None
    cube: Switch | None = None
    crawford: Switch | None = None
    jacoby: Switch | None = None
    cascade: Cascade | None = None
    bearoff: Bearoff | None = None

    def __post_init__(self) -> None:
        title = _entry(self.variant).title
        for option, by_variant in OPTIONS.items():
            value, values = getattr(self, option), by_variant.get(self.variant)
            if values is None:
                if value is not None:
                    raise RulesError(f"rule option {option!r} does not exist in {title}: "
                                     f"its options are {option_values([self.variant])}")
            elif value is None:
                object.__setattr__(self, option, values[0])
            elif value not in values:
                raise RulesError(f"{option}={value} is not allowed in {title}: expected one of {', '.join(values)}")

    @classmethod
    def preset(cls, variant: str) -> Rules:
        """The defaults of a variant of the table (``long``, ``short``, ``gulbara``)."""
        name = _entry(variant).name
        preset = _PRESETS.get(name)
        if preset is None:  # made once: every game starts from its variant's preset
            preset = _PRESETS[name] = cls(variant=name)
        return preset

    @classmethod
    def parse(cls, text: str, base: Rules | str | None = None) -> Rules:
        """Rules from ``"[variant] key=value ..."``, over ``base`` (a Rules or a preset name).

        >>> str(Rules.parse("long head=general"))
        'long opening=reroll head=general block=step last_roll=off scoring=oin-mars cube=off'
        """
        words = _words(text)
        if words and "=" not in words[0]:
            base = words.pop(0)
        rules = cls.preset(base) if isinstance(base, str) else base or cls.preset("long")
        return rules.with_options(words)

    def with_options(self, settings: list[str] | tuple[str, ...], *, own_only: bool = False) -> Rules:
        """These rules with ``key=value`` settings applied (``variant=short`` switches preset first).

        With ``own_only``, settings of options this variant does not have are
        skipped, so one set of overrides can serve a corpus of both games.
        """
        rules = self
        pairs = []
        for setting in settings:
            key, value = _setting(setting)
            if key == "variant":
                rules = Rules.preset(value)
            else:
                pairs.append((key, value))
        for key, value in pairs:
            if key not in OPTIONS:
                raise RulesError(f"unknown rule option {key!r}: the options are {option_values()}")
            allowed = OPTIONS[key]
            values = allowed.get(rules.variant)
            if own_only and (values is None or value not in values and
                             any(value in other for other in allowed.values())):
                continue  # an option or a value of the other game
            rules = rules.with_option(key, value)
        return rules

    def with_option(self, option: OptionName, value: str) -> Rules:
        """These rules with ``option`` set to ``value``; :class:`RulesError` when the variant has no
        such option or value."""
        return replace(self, **{option: cast(Any, value)})  # a text: __post_init__ checks it

    @property
    def title(self) -> str:
        """``long nardy``, ``short nardy``, ``crazy nardy``: the game's name in messages."""
        return TABLE[self.variant].title

    def options(self) -> dict[str, str]:
        """The options of this variant and their values, in the canonical order."""
        return {name: value for name in _OPTION_FIELDS if (value := getattr(self, name)) is not None}

    def describe(self, option: str) -> str:
        """``head=classic``: how a finding names the option that decided it."""
        return f"{option}={getattr(self, option)}"

    def points(self, category: str) -> int:
        """Points of an outcome category under this scoring scheme, before the cube."""
        assert self.scoring is not None, "every variant has a scoring option"
        return SCORING[self.scoring][category]

    def __str__(self) -> str:
        text = _TEXTS.get(self)
        if text is None:
            text = _TEXTS[self] = " ".join([self.variant] + [f"{k}={v}" for k, v in self.options().items()])
        return text

    def differences(self) -> str:
        """Only the options that differ from the variant's preset, as ``key=value`` text."""
        preset = Rules.preset(self.variant).options()
        return " ".join(f"{k}={v}" for k, v in self.options().items() if preset[k] != v)


_OPTION_FIELDS = tuple(field.name for field in fields(Rules) if field.name != "variant")
_PRESETS: dict[str, Rules] = {}
_TEXTS: dict[Rules, str] = {}
"""Each rule set's text, made once: every game's is written (a finding's, a match's, the summary's),
and one string for all the games of a rule set is pickled once in a worker's batch of results. There
are 1,088 rule sets in all (216 long, 8 short, 864 crazy), whatever the input."""


def _entry(variant: str) -> Variant:
    """The variant table's entry of ``variant``; :class:`RulesError` when there is none."""
    try:
        return variant_entry(variant)
    except VariantError as error:
        raise RulesError(str(error)) from None


def _words(text: str) -> list[str]:
    """The words of a rule text: ``long head=general, block=turn``."""
    return text.replace(",", " ").split()


def _key(setting: str) -> str:
    """The option name of a ``key=value`` setting, ``-`` read as ``_``."""
    return setting.partition("=")[0].strip().replace("-", "_")


def _setting(setting: str) -> tuple[str, str]:
    """A ``key=value`` setting as (option name, value); :class:`RulesError` when it is none."""
    _, sep, value = setting.partition("=")
    if not sep or not value.strip():
        raise RulesError(f"expected key=value, found {setting!r}")
    return _key(setting), value.strip()


def tag_rules(variant: str, text: str | None) -> tuple[Rules, RulesError | None]:
    """The rules a game's tags state: its variant's preset, then its ``Rules`` tag ``text``, and the
    error of a ``Rules`` tag that is not a valid rule text of that variant (the tag is then left
    out); :class:`RulesError` when the variant is unknown."""
    rules = Rules.preset(variant)
    if not text:
        return rules, None
    try:
        stated = Rules.parse(text, base=rules)
    except RulesError as error:
        return rules, error
    if stated.variant != rules.variant:  # "short" or "variant=short" in the tag of a long game
        return rules, RulesError(f"it names {stated.title}, but the game is {rules.title} (its Variant tag)")
    return stated, None


def stated_options(settings: str | list[str] | tuple[str, ...]) -> set[str]:
    """The option names that a rule text or a list of ``key=value`` settings sets."""
    words = _words(settings) if isinstance(settings, str) else settings
    return {_key(word) for word in words if "=" in word} - {"variant"}


def option_values(variants: list[str] | tuple[str, ...] = VARIANTS) -> str:
    """Every option of ``variants`` with its values, the default first: how errors and help list them.

    >>> option_values(["short"])
    'scoring=backgammon, cube=on|off, crawford=on|off, jacoby=off|on (short nardy)'
    """
    return "; ".join(", ".join(f"{key}={'|'.join(values[variant])}" for key, values in OPTIONS.items()
                               if variant in values) + f" ({TABLE[variant].title})" for variant in variants)


def check_overrides(settings: list[str] | tuple[str, ...], variants: list[str] | tuple[str, ...] = VARIANTS) -> None:
    """Raise :class:`RulesError` unless every ``key=value`` is valid in at least one of ``variants``;
    the error lists every option and value of those variants."""
    for setting in settings:
        key, value = _setting(setting)
        if key == "variant":
            Rules.preset(value)
            continue
        if key not in OPTIONS:
            raise RulesError(f"unknown rule option {key!r}: the options are {option_values(variants)}")
        if not any(value in OPTIONS[key][variant] for variant in variants if variant in OPTIONS[key]):
            present = [variant for variant in variants if variant in OPTIONS[key]]
            if not present:
                raise RulesError(f"rule option {key!r} does not exist in "
                                 f"{' or '.join(TABLE[variant].title for variant in variants)}: "
                                 f"the options are {option_values(variants)}")
            allowed = "; ".join(f"{'|'.join(OPTIONS[key][variant])} ({TABLE[variant].title})" for variant in present)
            raise RulesError(f"{key}={value} is not a value of {key}: expected {allowed}")


LONG = Rules.preset("long")
SHORT = Rules.preset("short")
GULBARA = Rules.preset("gulbara")


picklable(Rules)
