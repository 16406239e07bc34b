"""The ``nardy`` command: a thin Click layer over the library."""
from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from functools import partial, wraps
from typing import Any

import click

from nardy_cli import notations
from nardy_cli.analysis import exports
from nardy_cli.analysis.selfplay import BOTS, generate
from nardy_cli.analysis.validate import Certification, Validated, validated, with_tag_findings
from nardy_cli.core.engine import Engine, sequence_text
from nardy_cli.core.position import Position, PositionError
from nardy_cli.core.rules import Rules, RulesError, check_overrides, option_values
from nardy_cli.core.variants import NAMES as VARIANT_NAMES
from nardy_cli.core.variants import VARIANTS
from nardy_cli.files.output import OutputError, Terminated, atomic_output
from nardy_cli.files.sources import check_encoding
from nardy_cli.notations import Prepared
from nardy_cli.notations.gnubg_ids import short_position
from nardy_cli.record import GameRecord, InputError, InputErrorBudget
from nardy_cli.reporting import russian
from nardy_cli.run import progress
from nardy_cli.run.corpus import CorpusGame
from nardy_cli.run.parallel import ClusterError, map_games, replayed

EXIT_FINDINGS, EXIT_INPUT = 1, 2


# --- shared options ----------------------------------------------------------------------


def rule_option(function: Callable) -> Callable:
    return click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
                        help="A rule option over the game's own rules, e.g. head=general (repeatable; "
                             f"default first): {option_values()}.")(function)


def format_option(*choices: str) -> Callable[[Callable], Callable]:
    def decorator(function: Callable) -> Callable:
        return click.option("--format", "output_format", type=click.Choice(choices), default=choices[0],
                            show_default=True, help="Output format.")(function)
    return decorator


def _known_encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value:
        try:
            check_encoding(value)
        except InputError as error:
            raise click.BadParameter(str(error)) from None
    return value


def input_options(function: Callable) -> Callable:
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


def allow_empty_option(function: Callable) -> Callable:
    return click.option("--allow-empty", is_flag=True,
                        help="Accept inputs without a game (an empty file or directory); by default each is an "
                             "error (exit status 2), so that a record cut to nothing does not pass.")(function)


def parallel_options(function: Callable) -> Callable:
    """``--jobs`` and ``--dask``: where the per-game work runs (same output either way)."""
    function = click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
                            help="Worker processes; 0 = every core, 1 = no pool.")(function)
    return click.option("--dask", metavar="CLUSTER",
                        help="Run on Dask: local, local:WORKERS or tcp://HOST:PORT "
                             "(pip install 'nardy-cli[dask]').")(function)


def output_options(function: Callable) -> Callable:
    function = click.option("-o", "--output", metavar="FILE", help="Write here instead of standard output.")(function)
    return click.option("--force", is_flag=True, help="Replace an existing output file.")(function)


def quiet_option(function: Callable) -> Callable:
    return click.option("--quiet", "-q", is_flag=True,
                        help="No progress bar (there is one only on a terminal).")(function)


def usage_errors(function: Callable) -> Callable:
    """Turn the library's input errors into clear messages and exit status 2, never a traceback."""
    @wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except (RulesError, PositionError, OutputError, notations.UnknownFormat, ClusterError) as error:
            raise click.UsageError(str(error)) from None
    return wrapper


def parse_dice(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*([1-6])\s*[-x,]?\s*([1-6])\s*", text)
    if not match:
        raise click.BadParameter(f"expected two dice like 63 or 6-3, found {text!r}", param_hint="DICE")
    return int(match.group(1)), int(match.group(2))


def parse_position(text: str) -> Position:
    """A position in nardy's notation, ``long`` / ``short`` for the start, (short nardy) a GNU
    Backgammon Position ID or an XGID, or the name of an eXtreme Gammon ``.xgp`` file."""
    text = text.strip()
    if text in VARIANT_NAMES:
        return Position.start(text)
    if os.path.isfile(text):  # an eXtreme Gammon .xgp file: the position it shows
        return notations.notation("xg").file_position(text)
    if " " not in text:
        if text.isalpha() and text.islower():
            short = " (backgammon is 'short')" if text == "backgammon" else ""
            raise PositionError(f"unknown position {text!r}{short}: expected 'long' or 'short' for the start, a "
                                "quoted position like 'long w 24x14,18 24x15 b', a GNU Position ID or an XGID")
        try:
            return short_position(text)
        except ValueError as error:
            raise PositionError(f"{text!r} is neither a position nor a Position ID or XGID: {error}") from None
    return Position.parse(text)


# --- commands ----------------------------------------------------------------------------


class _Guarded(click.Group):
    """A group whose commands never end in a traceback, unless ``--debug`` asks for one."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except Terminated:
            _fail(ctx, "terminated (SIGTERM); a file being written is removed, an existing one left as it was")
        except KeyboardInterrupt:
            raise click.Abort() from None
        except BrokenPipeError:  # the reader of our output went away (`nardy ... | head`): nothing to say
            _silence_stdout()
            ctx.exit(0)
        except OSError as error:  # what is left is writing standard output: the disk or device is full
            _silence_stdout()
            _fail(ctx, f"cannot write the output: {error.strerror or error}; what was written is incomplete")
        except MemoryError:
            _fail(ctx, "out of memory: an input holds a game or a line too large to read here (see "
                       "formats/input.md, Limits)")
        except Exception as error:  # the last line of defence: say what failed, and how to learn more
            if ctx.meta.get("nardy.debug"):
                raise
            click.echo(f"error: {type(error).__name__}: {error} (run again with --debug for the details, "
                       "and please report it)", err=True)
            ctx.exit(EXIT_INPUT)


def _silence_stdout() -> None:
    """Standard output to /dev/null, so that the final flush of what could not be written is quiet."""
    with suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _fail(ctx: click.Context, message: str) -> None:
    """A plain message and exit status 2, for what stops a run that is nobody's bug."""
    with suppress(OSError, ValueError):
        click.echo(f"error: {message}", err=True)
    ctx.exit(EXIT_INPUT)


@click.group(cls=_Guarded)
@click.version_option(package_name="nardy-cli")
@click.option("--debug", is_flag=True, help="Show the full traceback of an unexpected error.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Replay, validate, analyse and convert records of long, short and crazy nardy."""
    ctx.meta["nardy.debug"] = debug


@cli.command(short_help="Every legal play of a roll in a position.")
@click.argument("position")
@click.argument("dice")
@rule_option
@format_option("text", "json")
@usage_errors
def moves(position: str, dice: str, rules: tuple[str, ...], output_format: str) -> None:
    """Every legal play of DICE in POSITION.

    POSITION is in nardy's position notation (formats/position.md), quoted, e.g.
    'long w 24x14,18 24x15 b', or just 'long' / 'short' / 'gulbara' for the start; for short
    nardy also a GNU Backgammon Position ID (4HPwATDgc/ABMA) or an eXtreme Gammon
    XGID (XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10). DICE: 63 or 6-3. In crazy
    nardy a double is a cascade: each play says which of its steps pass to the opponent.
    """
    start = parse_position(position)
    roll = parse_dice(dice)
    game_rules = Rules.preset(start.variant).with_options(list(rules))
    engine = Engine(game_rules)
    plays = sorted(engine.legal_plays(start, roll), key=lambda p: _play_order(p.steps))
    cascade = VARIANTS[start.variant].cascade and roll[0] == roll[1]
    if output_format == "json":
        click.echo(json.dumps({"position": str(start), "dice": list(roll),
                               "rules": {"variant": game_rules.variant, **game_rules.options()},
                               **({"steps": list(engine.steps(start, roll))} if cascade else {}),
                               "plays": [{"play": str(p), "position": str(p.position),
                                          **({"passes": list(p.passed)} if cascade else {})} for p in plays]},
                              ensure_ascii=False, indent=2))
        return
    click.echo(f"{start}  dice {roll[0]}-{roll[1]}  rules: {game_rules}")
    if cascade:
        click.echo(f"cascade: {sequence_text(engine.steps(start, roll))}, played in this order")
    if len(plays) == 1 and not plays[0].steps and not cascade:
        click.echo("no legal play: the roll is lost")
        return
    width = max(len(str(p)) for p in plays)
    for play in plays:
        passes = f"  passes {sequence_text(play.passed)}" if play.passed else ""
        click.echo(f"{str(play):<{width}}  {play.position}{passes}")
    click.echo(f"{len(plays)} legal play{'s' if len(plays) != 1 else ''}")


def _play_order(steps: tuple) -> tuple:
    return tuple((-s.src, -s.dst) for s in sorted(steps, key=lambda s: (-s.src, -s.dst)))


@cli.command(name="generate", short_help="Self-played games, legal by construction.")
@click.option("--variant", type=click.Choice(VARIANT_NAMES), default="long", show_default=True,
              help="Which game: long nardy, short nardy (backgammon) or crazy nardy (gulbara).")
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many games to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same games.")
@click.option("--bot", type=click.Choice(BOTS), default="greedy", show_default=True,
              help="How both sides play: random (uniformly among the legal plays) or greedy (a simple "
                   "evaluation: race, safety, points made).")
@click.option("--to", "output_format", type=click.Choice(exports.TARGETS), default="ntn",
              show_default=True, help="Notation to write.")
@rule_option
@output_options
@quiet_option
@usage_errors
def generate_command(variant: str, games: int, seed: int, bot: str, output_format: str,
                     rules: tuple[str, ...], output: str | None, force: bool, quiet: bool) -> None:
    """Self-played games, legal by construction, for samples and benchmarks."""
    game_rules = Rules.preset(variant).with_options(list(rules))
    played = progress.counting(generate(game_rules, games, seed, bot), games, "Playing", "game",
                               show=progress.wanted(quiet) and bool(output or not sys.stdout.isatty()))
    with atomic_output(output, force=force) as out:
        for warning in exports.writer(output_format)(played, out):
            click.echo(f"warning: {warning}", err=True)


def prepared_for_writing(game: CorpusGame, prepare: Callable[[GameRecord], Prepared]
                         ) -> tuple[str, list[str], Prepared]:
    """What ``convert`` needs of one game, worked out wherever the game is read: its input, the
    warnings for the places its record could not be read, and the game prepared for the writer."""
    warnings = [f"{game.source}:{error}: game {game.index} is converted as far as it could be read"
                for error in game.record.errors]
    if game.record.errors_not_kept:
        warnings.append(f"{game.source}: game {game.index}: and {game.record.errors_not_kept} more syntax errors, "
                        "not listed")
    return game.source, warnings, prepare(game.record)


def output_notation(output_format: str | None, output: str | None) -> str:
    """The notation ``convert`` writes: ``--to``, else the one ``-o``'s extension names; a warning
    when both are given and disagree."""
    implied = exports.by_extension(output) if output else None
    if output_format is None:
        if implied is None:
            raise click.UsageError("--to is needed: name the notation to write (" + ", ".join(exports.TARGETS) +
                                   ")" + (f", as {output}'s extension does not" if output else ""))
        return implied
    if implied is not None and implied != output_format:
        click.echo(f"warning: writing {output_format} (--to) to {output}, whose extension says {implied}", err=True)
    return output_format


@cli.command(short_help="Convert records into another notation.")
@input_options
@click.option("--to", "output_format", type=click.Choice(exports.TARGETS, case_sensitive=False),
              help="The notation to write (default: the one -o's extension names: .ntn, .mat, .sgf, .json, "
                   ".jsonl, .csv).")
@output_options
@allow_empty_option
@quiet_option
@parallel_options
@usage_errors
def convert(paths: tuple[str, ...], input_format: str | None, encoding: str | None, pattern: str | None,
            output_format: str | None, output: str | None, force: bool, allow_empty: bool, quiet: bool, jobs: int,
            dask: str | None) -> None:
    """Convert the games of every PATH into one output in another notation.

    Every game is carried over whole where the target can express it; what it
    cannot (comments in CSV, a set-up position in MAT...) is named in a warning.
    A game that could not be read whole (a turn left out, a missing ':' read
    over) is converted as far as it was read, with a warning naming the place.
    With --jobs or --dask the games are read and formatted (for CSV also
    replayed) in worker processes; the output is byte for byte that of --jobs 1.

    Exit status: 0 when every game was converted whole, 1 when a game could
    not be read whole, 2 when an input cannot be read or the command is misused.
    """
    unreadable = repaired = 0
    output_format = output_notation(output_format and output_format.lower(), output)

    def input_error(message: str) -> None:
        nonlocal unreadable
        unreadable += 1
        click.echo(f"error: {message}", err=True)

    target = exports.target(output_format)

    budget = InputErrorBudget()

    def prepared_games(bar: progress.Reading) -> Iterator[Any]:
        nonlocal repaired
        for source, warnings, game in map_games(paths, partial(prepared_for_writing, prepare=target.prepare),
                                                jobs=jobs or None, dask=dask, fmt=input_format,
                                                encoding=encoding, pattern=pattern, on_error=input_error,
                                                allow_empty=allow_empty):
            repaired += len(warnings)
            with bar.printing():
                for warning in warnings:
                    if budget.admit(source):
                        click.echo(f"warning: {warning}", err=True)
            bar.game()
            yield game
        for message in budget.messages():
            click.echo(f"warning: {message}", err=True)

    show = progress.wanted(quiet) and bool(output or not sys.stdout.isatty())
    with progress.reading(paths, pattern, "Converting", show=show) as bar, \
            atomic_output(output, force=force, inputs=paths) as out:
        warnings = target.write_prepared(prepared_games(bar), out)
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    sys.exit(EXIT_INPUT if unreadable else EXIT_FINDINGS if repaired else 0)


@cli.command(short_help="Report every illegal move, cube action or result.")
@input_options
@rule_option
@format_option("text", "json")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary (and no progress bar).")
@click.option("--strict", is_flag=True, help="Also report each tag that is not a standard tag of NTN (code tag).")
@click.option("--lang", type=click.Choice(["en", "ru"]), default="en", show_default=True,
              help="Language of the findings and the summary in text output (JSON stays English).")
@allow_empty_option
@parallel_options
@usage_errors
def validate(paths: tuple[str, ...], input_format: str | None, encoding: str | None, pattern: str | None,
             rules: tuple[str, ...], output_format: str, quiet: bool, strict: bool, lang: str, allow_empty: bool,
             jobs: int,
             dask: str | None) -> None:
    """Replay every game of every PATH and report each illegal move, cube action or result.

    Exit status: 0 when every game is legal, 1 when there is any finding, 2 when
    an input cannot be read or the command is misused.
    """
    check_overrides(rules)
    run = Certification()
    summary = run.summary
    findings: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []

    def input_error(message: str) -> None:
        summary.unreadable += 1
        click.echo(f"error: {message}", err=True)

    budget = InputErrorBudget()  # a file of nothing but mistakes lists its first ones

    def show(result: Validated, bar: progress.Reading) -> None:
        kept = [(line, finding) for line, finding in zip(result.lines, result.findings)
                if finding["code"] != "syntax" or budget.admit(finding["path"])]
        if output_format == "json":
            findings.extend(finding for _, finding in kept)
            notes.extend(result.notes)
        elif not quiet and (kept or result.note_lines):
            with bar.printing():
                for line in [line for line, _ in kept] + list(result.note_lines):
                    click.echo(russian.finding_line(line) if lang == "ru" else line)

    build = partial(with_tag_findings, build=validated) if strict else validated
    task = partial(replayed, build=build, overrides=rules)
    with progress.reading(paths, pattern, "Validating", show=progress.wanted(quiet)) as bar:
        for result in run.certified(map_games(paths, task, jobs=jobs or None, dask=dask, fmt=input_format,
                                              encoding=encoding, pattern=pattern, on_error=input_error,
                                              allow_empty=allow_empty)):
            bar.game()
            show(result, bar)
    if output_format == "json":
        not_listed = {"not_listed": budget.messages()} if budget.more else {}
        click.echo(json.dumps({**summary.as_dict(), "findings": findings, "notes": notes, **not_listed},
                              ensure_ascii=False, indent=2))
    else:
        if not quiet:
            for message in budget.messages():
                click.echo(russian.message(message) if lang == "ru" else message)
        click.echo(russian.summary(summary.text()) if lang == "ru" else summary.text())
    if not overrides_applied(rules, summary.rules):
        sys.exit(EXIT_INPUT)
    sys.exit(EXIT_INPUT if summary.unreadable else EXIT_FINDINGS if sum(summary.findings.values()) else 0)


def overrides_applied(overrides: tuple[str, ...], rule_sets: Iterable[str]) -> bool:
    """Whether each ``--rule`` fits one of the variants of the games judged (``rule_sets``: their
    rules as text); if not, a usage error on standard error lists what those variants take."""
    variants = sorted({text.split()[0] for text in rule_sets})
    try:
        check_overrides(overrides, variants or VARIANT_NAMES)
    except RulesError as error:
        click.echo(f"Error: --rule: {error}; it applies to none of the games read", err=True)
        return False
    return True
