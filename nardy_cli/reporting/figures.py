"""Figures on matplotlib's Agg canvas: made, rendered and saved (matplotlib only, no pandas).

Figures are built with the object-oriented API, never through pyplot, so nothing
is left in global state. :func:`save_figure` writes PNG or SVG atomically;
:func:`figure_bytes` renders for embedding. The figure's title, in the chosen
language, is also stored as its label and written into the file's metadata.
"""
from __future__ import annotations

import io
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from nardy_cli.files.output import OutputError, atomic_output

FORMATS = ("png", "svg")
DPI = 110


def new_figure(title: str, size: tuple[float, float] = (8.0, 5.0)) -> Figure:
    """An empty figure on the Agg canvas with ``title`` as its heading and label."""
    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    figure.suptitle(title)
    figure.set_label(title)
    return figure


def figure_bytes(figure: Figure, fmt: str) -> bytes:
    """The figure rendered as ``png`` or ``svg``; SVG text stays text (searchable, selectable)."""
    buffer = io.BytesIO()
    metadata = {"Title": figure.get_label()}
    if fmt == "svg":
        metadata["Date"] = None
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "nardy"}):
        figure.savefig(buffer, format=fmt, dpi=DPI, metadata=metadata)
    return buffer.getvalue()


def save_figure(figure: Figure, path: str | Path, *, force: bool = False) -> None:
    """Write the figure to ``path`` (``.png`` or ``.svg``) atomically; an existing file only with ``force``."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise OutputError.at(path, "a picture is written as .png or .svg")
    data = figure_bytes(figure, fmt)
    with atomic_output(str(path), force=force) as handle:
        handle.flush()
        handle.buffer.write(data)
