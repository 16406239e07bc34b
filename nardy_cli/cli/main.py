"""The ``nardy`` command: one Click group, and every command of it, each a thin layer over the
library in a module of its own, named in :data:`COMMANDS`."""
from __future__ import annotations

import gc
import importlib
import os
import sys
from contextlib import suppress
from typing import Any

import click

from nardy_cli.cli.options import EXIT_INPUT
from nardy_cli.files.output import Terminated

COMMANDS = {
    "analyse": "nardy_cli.cli.analyse:analyse",
    "convert": "nardy_cli.cli.convert:convert",
    "find": "nardy_cli.cli.find:find",
    "generate": "nardy_cli.cli.generate:generate_command",
    "moves": "nardy_cli.cli.moves:moves",
    "plot": "nardy_cli.cli.plot:plot",
    "rate": "nardy_cli.cli.rate:rate",
    "show": "nardy_cli.cli.show:show",
    "stats": "nardy_cli.cli.stats:stats_command",
    "validate": "nardy_cli.cli.validate:validate",
}
"""Every command, by name: the module and attribute of its Click command. A command's module is
imported only when that command runs (or ``nardy --help`` lists it): start-up is most of the time
of a small run, and all the commands together import most of the library."""


class _Guarded(click.Group):
    """A group whose commands never end in a traceback, unless ``--debug`` asks for one, and
    whose commands are loaded from :data:`COMMANDS` when asked for (Click's lazy group)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return super().get_command(ctx, cmd_name)
        module, _, name = COMMANDS[cmd_name].partition(":")
        command: click.Command = getattr(importlib.import_module(module), name)
        return command

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
    if not gc.get_freeze_count():  # once a process (tests invoke the command many times in one)
        # The modules loaded by now live as long as the process: the cycle collector need not look
        # at them again. A replay makes and frees a great many small acyclic objects, which reference
        # counting frees: a young collection after every 20,000 of them, not 700, costs 3 % less time.
        gc.freeze()
        gc.set_threshold(GC_YOUNG_THRESHOLD)


GC_YOUNG_THRESHOLD = 20_000
"""Allocations of container objects between young collections of the command's process (Python's default is 700)."""
