"""nardy: replay, validate, analyse and convert records of long and short nardy."""

__version__ = "0.1.0"
