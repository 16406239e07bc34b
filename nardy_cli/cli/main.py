"""The ``nardy`` command: one Click group, and every command added to it here, each a thin
layer over the library in a module of its own."""
from __future__ import annotations

import os
import sys
from contextlib import suppress
from typing import Any

import click

from nardy_cli.cli.analyse import analyse
from nardy_cli.cli.convert import convert
from nardy_cli.cli.find import find
from nardy_cli.cli.generate import generate_command
from nardy_cli.cli.moves import moves
from nardy_cli.cli.plot import plot
from nardy_cli.cli.rate import rate
from nardy_cli.cli.show import show
from nardy_cli.cli.stats import stats_command
from nardy_cli.cli.task import EXIT_INPUT
from nardy_cli.cli.validate import validate
from nardy_cli.files.output import Terminated


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


for command in (moves, generate_command, convert, validate, stats_command, plot, show, rate, find, analyse):
    cli.add_command(command)
