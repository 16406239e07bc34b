"""The ``nardy`` command line: the only layer that imports Click."""
from nardy_cli.cli.main import cli

__all__ = ["cli"]
