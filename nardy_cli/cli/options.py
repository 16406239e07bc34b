"""The options the commands share, as decorators, and :class:`Corpus`, the one arguments object
the options of a command over a corpus build (see :func:`pass_corpus`)."""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import wraps
from typing import Any, NamedTuple

import click

from nardy_cli import notations
from nardy_cli.core.position import Position, PositionError
from nardy_cli.core.rules import RulesError, option_values
from nardy_cli.core.variants import NAMES as VARIANT_NAMES
from nardy_cli.files.output import OutputError
from nardy_cli.files.sources import check_encoding
from nardy_cli.record import InputError
from nardy_cli.reporting.labels import LANGS

EXIT_FINDINGS, EXIT_INPUT = 1, 2
"""The exit statuses of every command besides 0: findings (what they are is the command's), and
an input that cannot be read or a command misused (see :meth:`~nardy_cli.cli.task.CorpusTask.exit`)."""


class Corpus(NamedTuple):
    """What a command over a corpus was asked to read and how: the inputs (``PATH...``,
    ``--from``, ``--encoding``, ``--glob``, ``--allow-empty``), the ``--rule`` overrides, where
    the per-game work runs (``--jobs``, ``--dask``), ``--quiet`` and ``--legal-only``.

    A named tuple, not a frozen dataclass: the records made at start-up are (a dataclass costs
    ten times as much to define, a fifth of a small run's time for all of them)."""

    paths: tuple[str, ...]
    input_format: str | None = None
    encoding: str | None = None
    pattern: str | None = None
    allow_empty: bool = False
    rules: tuple[str, ...] = ()
    jobs: int = 0
    dask: str | None = None
    quiet: bool = False
    legal_only: bool = False


CORPUS_FIELDS = Corpus._fields


def pass_corpus(function: Callable[..., Any]) -> Callable[..., Any]:
    """Hand the command its corpus options as one :class:`Corpus`, its first argument, and the
    other options as they are. Goes below the option decorators (it takes what they give)."""
    @wraps(function)
    def wrapper(**options: Any) -> Any:
        corpus = Corpus(**{name: options.pop(name) for name in CORPUS_FIELDS if name in options})
        return function(corpus, **options)
    return wrapper


def usage_errors(function: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the library's input errors into clear messages and exit status 2, never a traceback
    (and :meth:`~nardy_cli.cli.task.CorpusTask.map` a ``--dask`` that cannot be used)."""
    @wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except (RulesError, PositionError, OutputError, notations.UnknownFormat) as error:
            raise click.UsageError(str(error)) from None
    return wrapper


# --- the options -------------------------------------------------------------------------


def _known_encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value:
        try:
            check_encoding(value)
        except InputError as error:
            raise click.BadParameter(str(error)) from None
    return value


def input_options(function: Callable) -> Callable:
    """``PATH...``, ``--from``, ``--encoding`` and ``--glob``: the inputs of a command over a corpus."""
    for decorator in reversed([
        click.argument("paths", nargs=-1, required=True, metavar="PATH..."),
        click.option("--from", "input_format", type=click.Choice(notations.NAMES + ("json",)),
                     help="Read the inputs as this notation instead of detecting it."),
        click.option("--encoding", callback=_known_encoding,
                     help="Decode the inputs with this encoding (default: detected)."),
        click.option("--glob", "pattern", metavar="PATTERN",
                     help="In directories and archives, read only files matching PATTERN, e.g. '*.mat'."),
    ]):
        function = decorator(function)
    return function


def rule_option(function: Callable) -> Callable:
    return click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
                        help="A rule option over the game's own rules, e.g. head=general (repeatable; "
                             f"default first): {option_values()}.")(function)


def allow_empty_option(function: Callable) -> Callable:
    return click.option("--allow-empty", is_flag=True,
                        help="Accept inputs without a game (an empty file or directory); by default each is an "
                             "error (exit status 2), so that a record cut to nothing does not pass.")(function)


def parallel_options(function: Callable) -> Callable:
    """``--jobs`` and ``--dask``: where the per-game work runs (same output either way)."""
    function = click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
                            help="Worker processes; 0 = every core, 1 = no pool.")(function)
    return click.option("--dask", metavar="CLUSTER",
                        help="Run on Dask: local[:WORKERS] (Dask's process scheduler on this machine) or "
                             "tcp://HOST:PORT (a Dask cluster's scheduler) (pip install 'nardy-cli[dask]').")(function)


def quiet_option(function: Callable) -> Callable:
    return quiet_help("No progress bar (there is one only on a terminal).")(function)


def quiet_help(help_text: str) -> Callable[[Callable], Callable]:
    """``--quiet``/``-q`` with a command's own meaning of it."""
    return click.option("--quiet", "-q", is_flag=True, help=help_text)


def corpus_options(function: Callable) -> Callable:
    """The inputs, rule overrides, ``--quiet``, ``--jobs`` and ``--dask`` of a command over a whole corpus."""
    return input_options(rule_option(quiet_option(parallel_options(function))))


def legal_only_option(function: Callable) -> Callable:
    """``--legal-only`` of a command that sums the statistics of a corpus."""
    return click.option("--legal-only", is_flag=True,
                        help="Leave out the games with a finding (by default they count, and how many "
                             "there are is said on standard error).")(function)


def format_option(*choices: str) -> Callable[[Callable], Callable]:
    def decorator(function: Callable) -> Callable:
        return click.option("--format", "output_format", type=click.Choice(choices), default=choices[0],
                            show_default=True, help="Output format.")(function)
    return decorator


def output_options(function: Callable) -> Callable:
    function = click.option("-o", "--output", metavar="FILE", help="Write here instead of standard output.")(function)
    return click.option("--force", is_flag=True, help="Replace an existing output file.")(function)


def lang_option(function: Callable) -> Callable:
    return lang_help("Language of labels and titles (en, ru).")(function)


def lang_help(help_text: str) -> Callable[[Callable], Callable]:
    """``--lang`` with what a command puts in that language."""
    return click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True, help=help_text)


def picture_options(default: str) -> Callable[[Callable], Callable]:
    """``-o FILE`` (``default`` when not given), ``--force`` and ``--lang`` of a command that draws."""
    def decorator(function: Callable) -> Callable:
        function = click.option("-o", "--output", metavar="FILE", default=default, show_default=True,
                                help="Picture to write: .png or .svg.")(function)
        function = click.option("--force", is_flag=True, help="Replace an existing file.")(function)
        return lang_option(function)
    return decorator


# --- the values of arguments -------------------------------------------------------------


def parse_dice(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*([1-6])\s*[-x,]?\s*([1-6])\s*", text)
    if not match:
        raise click.BadParameter(f"expected two dice like 63 or 6-3, found {text!r}", param_hint="DICE")
    return int(match.group(1)), int(match.group(2))


def parse_position(text: str) -> Position:
    """A position in nardy's notation, ``long`` / ``short`` for the start, (short nardy) a GNU
    Backgammon Position ID, GNUBG ID or XGID, or the name of an eXtreme Gammon ``.xgp`` file."""
    return parse_position_and_roll(text)[0]


def parse_position_and_roll(text: str) -> tuple[Position, tuple[int, int] | None]:
    """:func:`parse_position`, and the dice rolled there when the text gives them (a GNUBG ID's
    Match ID, an XGID and an ``.xgp`` file of a checker play do)."""
    text = text.strip()
    if text in VARIANT_NAMES:
        return Position.start(text), None
    if os.path.isfile(text):  # an eXtreme Gammon .xgp file: the position it shows
        return notations.notation("xg").file_position(text)
    if " " not in text:
        if text.isalpha() and text.islower():
            short = " (backgammon is 'short')" if text == "backgammon" else ""
            raise PositionError(f"unknown position {text!r}{short}: expected 'long' or 'short' for the start, a "
                                "quoted position like 'long w 24x14,18 24x15 b', a GNU Backgammon Position ID or "
                                "GNUBG ID, or an XGID")
        from nardy_cli.notations.gnubg_ids import short_position

        try:
            return short_position(text)
        except ValueError as error:
            raise PositionError(f"{text!r} is neither a position nor a Position ID, GNUBG ID or XGID: "
                                f"{error}") from None
    return Position.parse(text), None
