"""The ``nardy`` command line: the only layer that imports Click."""
from nardy_cli.cli import analysis, players  # noqa: F401  (they add their commands to the group)
from nardy_cli.cli.main import cli

__all__ = ["cli"]
