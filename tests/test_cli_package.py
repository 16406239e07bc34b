"""The command line's own pieces: the group and its commands, the Corpus options object and the
exit status every corpus command ends with (CorpusTask)."""
import click
import pytest

from nardy_cli.cli import cli
from nardy_cli.cli.options import Corpus, corpus_options, pass_corpus
from nardy_cli.cli.task import EXIT_FINDINGS, EXIT_INPUT, CorpusTask

SAMPLE = "sample_games/long/club-evening.ntn"


def test_the_group_holds_every_command():
    ctx = click.Context(cli)
    assert cli.list_commands(ctx) == ["analyse", "convert", "find", "generate", "moves", "plot", "rate", "show",
                                      "stats", "validate"]
    for name in cli.list_commands(ctx):  # each loaded from its module, under its own name
        command = cli.get_command(ctx, name)
        assert isinstance(command, click.Command) and command.name == name
    plot = cli.get_command(ctx, "plot")
    assert isinstance(plot, click.Group)
    assert sorted(plot.commands) == ["dice", "first-mover", "lengths", "outcomes", "race"]
    assert cli.get_command(ctx, "nosuch") is None


def test_pass_corpus_gathers_the_corpus_options_into_one_object():
    seen = []

    @click.command()
    @corpus_options
    @click.option("--top", type=int, default=3)
    @pass_corpus
    def command(corpus: Corpus, top: int) -> None:
        seen.append((corpus, top))

    command.main(["a.ntn", "b.mat", "--rule", "head=general", "-j", "2", "-q", "--top", "5"], standalone_mode=False)
    assert seen == [(Corpus(paths=("a.ntn", "b.mat"), rules=("head=general",), jobs=2, quiet=True), 5)]


def exit_status(task: CorpusTask, findings: bool) -> int | str | None:
    with pytest.raises(SystemExit) as ended:
        task.exit(findings=findings)
    return ended.value.code


def test_one_exit_status_for_every_corpus_command(capsys):
    task = CorpusTask(Corpus(paths=(SAMPLE,), jobs=1))
    games = list(task.map(lambda game: game.index))
    assert games == [1, 2] and task.errors == 0
    assert exit_status(task, findings=False) == 0 and exit_status(task, findings=True) == EXIT_FINDINGS

    task = CorpusTask(Corpus(paths=("no-such-file.ntn", SAMPLE), jobs=1))
    assert [game.index for game in task.games()] == [1, 2]  # the other inputs are still read
    assert task.errors == 1 and capsys.readouterr().err.startswith("error: no-such-file.ntn: ")
    assert exit_status(task, findings=False) == EXIT_INPUT == exit_status(task, findings=True)
