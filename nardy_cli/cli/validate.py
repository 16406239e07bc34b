"""``nardy validate``: every illegal move, cube action or result of a corpus."""
from __future__ import annotations

from functools import partial

import click

from nardy_cli.analysis.validate import Certification, Validated, validated, with_tag_findings
from nardy_cli.cli.options import (
    Corpus,
    allow_empty_option,
    format_option,
    input_options,
    lang_help,
    parallel_options,
    pass_corpus,
    quiet_help,
    rule_option,
    usage_errors,
)
from nardy_cli.cli.task import CorpusTask, echo_pieces
from nardy_cli.files.spool import JsonList, json_chunks
from nardy_cli.run import progress


@click.command(short_help="Report every illegal move, cube action or result.")
@input_options
@rule_option
@format_option("text", "json")
@quiet_help("Print only the summary (and no progress bar).")
@click.option("--strict", is_flag=True, help="Also report each tag that is not a standard tag of NTN (code tag).")
@lang_help("Language of the findings and the summary in text output (JSON stays English).")
@allow_empty_option
@parallel_options
@usage_errors
@pass_corpus
def validate(corpus: Corpus, output_format: str, strict: bool, lang: str) -> None:
    """Replay every game of every PATH and report each illegal move, cube action or result.

    Exit status: 0 when every game is legal, 1 when there is any finding, 2 when
    an input cannot be read or the command is misused.
    """
    if lang == "ru":
        from nardy_cli.reporting import russian  # the only command in Russian: its catalogue is large
    task = CorpusTask(corpus)
    run = Certification()
    summary = run.summary
    budget = task.budget
    findings, notes = JsonList(), JsonList()  # listed after the summary: spooled meanwhile, not kept in memory

    def show(result: Validated, bar: progress.Reading) -> None:
        kept = [(line, finding) for line, finding in zip(result.lines, result.findings)
                if finding["code"] != "syntax" or budget.admit(finding["path"])]
        if output_format == "json":
            findings.extend(finding for _, finding in kept)
            notes.extend(result.notes)
        elif not corpus.quiet and (kept or result.note_lines):
            with bar.printing():
                for line in [line for line, _ in kept] + list(result.note_lines):
                    click.echo(russian.finding_line(line) if lang == "ru" else line)

    build = partial(with_tag_findings, build=validated) if strict else validated
    with findings, notes:
        with task.reading("Validating") as bar:
            for result in run.certified(task.replayed(build, bar)):
                show(result, bar)
        summary.unreadable = task.errors
        if output_format == "json":
            not_listed = {"not_listed": budget.messages()} if budget.more else {}
            echo_pieces(json_chunks({**summary.as_dict(), "findings": findings, "notes": notes, **not_listed}))
    if output_format != "json":
        if not corpus.quiet:
            for message in budget.messages():
                click.echo(russian.message(message) if lang == "ru" else message)
        click.echo(russian.summary(summary.text()) if lang == "ru" else summary.text())
    task.check_rules_applied(summary.rules)
    task.exit(findings=bool(sum(summary.findings.values())))
