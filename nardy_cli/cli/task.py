"""Running a command over its inputs: :class:`CorpusTask` for a whole corpus, with the one
exit-status convention, and :func:`load_game` for one game of a file."""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, NoReturn, TypeVar

import click

from nardy_cli.cli.options import EXIT_FINDINGS, EXIT_INPUT, Corpus
from nardy_cli.core.rules import RulesError, check_overrides
from nardy_cli.core.variants import NAMES as VARIANT_NAMES
from nardy_cli.record import InputErrorBudget
from nardy_cli.replay import GameReplay, replay
from nardy_cli.run import progress
from nardy_cli.run.corpus import CorpusGame, iter_games
from nardy_cli.run.parallel import ClusterError, in_process, map_games, replayed

if TYPE_CHECKING:
    from nardy_cli.analysis.aggregates import Aggregates, RowSink

R = TypeVar("R")

# Games a work unit when turn rows are written: a unit's rows (about 100 a game) wait in memory
# until the parent writes them, up to two units a worker.
TABLE_CHUNK_GAMES = 25


def echo_pieces(pieces: Iterable[str]) -> None:
    """Print a text made in pieces (each written as it comes), then a line end."""
    for piece in pieces:
        click.echo(piece, nl=False)
    click.echo()


class CorpusTask:
    """One command's run over the corpus of ``corpus``: its ``--rule`` overrides checked first,
    each input that cannot be read reported on standard error (``error: ...``) and counted while
    the others are still read, and the exit status of every such command (:meth:`exit`)."""

    def __init__(self, corpus: Corpus) -> None:
        check_overrides(corpus.rules)
        self.corpus = corpus
        self.errors = 0
        self.budget = InputErrorBudget()  # a file of nothing but mistakes lists its first ones

    def error(self, message: str) -> None:
        """Report what could not be done (an input unread, a match not analysed); the run goes on."""
        self.errors += 1
        click.echo(f"error: {message}", err=True)

    def reading(self, label: str, show: bool | None = None) -> AbstractContextManager[progress.Reading]:
        """A progress bar of the inputs read (by default on a terminal unless ``--quiet``)."""
        shown = progress.wanted(self.corpus.quiet) if show is None else show
        return progress.reading(self.corpus.paths, self.corpus.pattern, label, show=shown)

    def games(self) -> Iterator[CorpusGame]:
        """Every game of the inputs, read here, in corpus order."""
        corpus = self.corpus
        return iter_games(corpus.paths, fmt=corpus.input_format, encoding=corpus.encoding, pattern=corpus.pattern,
                          on_error=self.error, allow_empty=corpus.allow_empty)

    def map(self, task: Callable[[CorpusGame], R], bar: progress.Reading | None = None,
            chunk_games: int | None = None) -> Iterator[R]:
        """``task(game)`` for every game, in corpus order, on ``--jobs`` processes or ``--dask``
        (see :func:`~nardy_cli.run.parallel.map_games`), each counted on ``bar``. A ``--dask`` that
        cannot be used is a usage error, as :func:`~nardy_cli.cli.options.usage_errors` makes the others
        (caught here, where the module that raises it is loaded)."""
        corpus = self.corpus
        chunks = {} if chunk_games is None else {"chunk_games": chunk_games}
        try:
            for result in map_games(corpus.paths, task, jobs=corpus.jobs or None, dask=corpus.dask,
                                    fmt=corpus.input_format, encoding=corpus.encoding, pattern=corpus.pattern,
                                    on_error=self.error, allow_empty=corpus.allow_empty, **chunks):
                if bar is not None:
                    bar.game()
                yield result
        except ClusterError as error:
            raise click.UsageError(str(error)) from None

    def replayed(self, build: Callable[[CorpusGame, GameReplay], R], bar: progress.Reading | None = None,
                 chunk_games: int | None = None) -> Iterator[R]:
        """``build(game, replay)`` for every game replayed under the ``--rule`` overrides, as :meth:`map`."""
        return self.map(partial(replayed, build=build, overrides=self.corpus.rules), bar, chunk_games)

    def check_rules_applied(self, rule_sets: Iterable[str]) -> None:
        """End with status 2 unless each ``--rule`` fits one of the variants of the games read
        (``rule_sets``: their rules as text); the usage error lists what those variants take."""
        variants = sorted({text.split()[0] for text in rule_sets} & set(VARIANT_NAMES))  # not a game not judged
        try:
            check_overrides(self.corpus.rules, variants or VARIANT_NAMES)
        except RulesError as error:
            click.echo(f"Error: --rule: {error}; it applies to none of the games read", err=True)
            sys.exit(EXIT_INPUT)

    def exit(self, findings: bool = False) -> NoReturn:
        """End the command: status 2 when something could not be read or done, else 1 when there
        are ``findings`` (what they are is the command's: illegal games, games converted in part,
        no turn found), else 0."""
        sys.exit(EXIT_INPUT if self.errors else EXIT_FINDINGS if findings else 0)


def read_statistics(corpus: Corpus, sinks: Sequence[RowSink] = (), with_turns: bool | None = None,
                    groupings: Iterable[str] | None = None, standings: bool = True,
                    dice: bool = True) -> tuple[Aggregates, CorpusTask]:
    """The statistics of every game of ``corpus`` summed (see :func:`~nardy_cli.analysis.aggregates.summed`)
    in ``groupings`` (default: all), and their ``standings`` and ``dice`` unless told not, with its rows handed
    to ``sinks`` (with turn rows unless ``with_turns`` is False), and the task that read them, to end
    with. How many games have a finding is said on standard error."""
    from nardy_cli.analysis import bearoff  # the commands that sum statistics only
    from nardy_cli.analysis.aggregates import GROUPINGS, game_stats, summed
    from nardy_cli.reporting.tables import TableSink, ready_rows

    task = CorpusTask(corpus)
    bearoff.table()  # computed or read once, before the worker processes start
    with_turns = bool(sinks) if with_turns is None else with_turns
    formats = tuple(sink.fmt for sink in sinks if isinstance(sink, TableSink))
    # the workers make the turn rows ready to write; without workers the tables do, a batch at a time
    ready = with_turns and len(formats) == len(sinks) and not in_process(corpus.jobs, corpus.dask)
    build = partial(game_stats, with_turns=with_turns, make_ready=partial(ready_rows, formats) if ready else None)
    with task.reading("Replaying games") as bar:
        per_game = task.replayed(build, bar, chunk_games=TABLE_CHUNK_GAMES if sinks else None)
        aggregates, games, illegal = summed(per_game, sinks, legal_only=corpus.legal_only,
                                            groupings=GROUPINGS if groupings is None else groupings,
                                            standings=standings, dice=dice)
    if illegal:
        how = "left out (--legal-only)" if corpus.legal_only else "counted (--legal-only leaves them out)"
        click.echo(f"{illegal} of {games} games have a finding: {how}", err=True)
    if not aggregates.games:
        raise click.UsageError("no games found in the inputs")
    task.check_rules_applied(aggregates.rule_sets)
    return aggregates, task


def load_game(path: str, number: int, rules: tuple[str, ...]) -> tuple[CorpusGame, GameReplay]:
    """Game ``number`` (1-based, in reading order) of ``path``, replayed."""
    check_overrides(rules)
    errors: list[str] = []
    game = next(islice(iter_games([path], on_error=errors.append), number - 1, None), None)
    if errors:
        raise click.UsageError(errors[0])
    if game is None:
        raise click.UsageError(f"{path} has fewer than {number} games")
    if game.source != path:  # a directory or an archive: say which file the game is in
        click.echo(f"game {number} of {path}: game {game.index} of {game.source}", err=True)
    return game, replay(game.record, rules)
