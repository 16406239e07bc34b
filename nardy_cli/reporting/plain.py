"""Tables of plain Python values, printed as pandas prints a DataFrame, byte for byte, without
importing it: ``nardy stats`` prints a few dozen rows, and pandas alone takes half a second and
50 MiB to import. The DataFrames of :mod:`nardy_cli.reporting.stats` wrap the same tables.

What is reproduced (pandas 3): ``to_string(index=False, line_width=...)`` (:func:`text_table`),
``to_csv()`` (:func:`csv_table`), ``json.loads(to_json(orient="records"))`` (:meth:`Table.records`
with :func:`json_value`), ``to_html(index=False)`` of the objects (:func:`html_table`), and
:func:`markdown_table`. tests/test_plain.py compares each with pandas.
"""
from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from nardy_cli.files.spool import Spool

if TYPE_CHECKING:
    import pandas as pd

Item = TypeVar("Item")
TEXT_LINES = 1_000  # lines of a text table given at a time


class Table:
    """Named columns of equal length, with an index (the row labels, named ``index_name``) and the
    pandas dtype of each column (``int64``, ``float64``, ``bool``, or ``None`` for pandas to infer).

    ``total_first``: the first row is the total of the others (the row ``all`` of the dice and luck
    tables), known by its place, not its label, which a player may also have. A DataFrame keeps it
    in ``attrs["total_first"]``."""

    def __init__(self, index_name: str | None, index: Sequence[Any], *, total_first: bool = False) -> None:
        self.index_name = index_name
        self.index = list(index)
        self.columns: dict[str, list[Any]] = {}
        self.dtypes: dict[str, str | None] = {}
        self.total_first = total_first

    def add(self, name: str, values: Sequence[Any], dtype: str | None = None) -> None:
        """Add (or replace) the column ``name``; ``float64`` values are kept as floats."""
        self.columns[name] = [float(value) for value in values] if dtype == "float64" else list(values)
        self.dtypes[name] = dtype

    def __len__(self) -> int:
        return len(self.index)

    def take(self, positions: Sequence[int]) -> Table:
        """The rows at ``positions``, in that order."""
        table = Table(self.index_name, [self.index[position] for position in positions],
                      total_first=self.total_first and len(positions) > 0 and positions[0] == 0)
        for name, values in self.columns.items():
            table.add(name, [values[position] for position in positions], self.dtypes[name])
        return table

    @classmethod
    def joined(cls, parts: Iterable[Table]) -> Table:
        """The rows of ``parts`` (at least one, all with the same columns) as one table (its total, if
        any, the first part's)."""
        parts = iter(parts)
        table = next(parts)
        for part in parts:
            table.index += part.index
            for name, values in part.columns.items():
                table.columns[name] += values
        return table

    @property
    def index_label(self) -> str:
        """The index's column in :meth:`rows`: its name, or ``index`` as pandas' ``reset_index`` names it."""
        return "index" if self.index_name is None else self.index_name

    def rows(self) -> list[dict[str, Any]]:
        """Each row as a dict by column, the index first (under :attr:`index_label`)."""
        return self._dicts([self.index, *self.columns.values()])

    def as_lists(self) -> tuple[list[str], list[list[Any]]]:
        """The columns, the index's first (under :attr:`index_label`), and the rows as lists of values."""
        return [self.index_label, *self.columns], [list(row.values()) for row in self.rows()]

    def records(self) -> list[dict[str, Any]]:
        """``json.loads(frame.reset_index().to_json(orient="records"))`` of :meth:`frame`."""
        return self._dicts([_json_values(values) for values in (self.index, *self.columns.values())])

    def _dicts(self, values: list[list[Any]]) -> list[dict[str, Any]]:
        """The rows of ``values`` (the index's, then each column's) as dicts by column."""
        names = [self.index_label, *self.columns]
        return [dict(zip(names, row)) for row in zip(*values)]

    def frame(self) -> pd.DataFrame:
        """The table as a DataFrame indexed by its index."""
        import pandas as pd

        index = pd.Index(self.index, name=self.index_name)
        frame = pd.DataFrame({name: pd.Series(values, index=index, dtype=self.dtypes[name])
                              for name, values in self.columns.items()}, index=index)
        if self.total_first:
            frame.attrs["total_first"] = True
        return frame

    @classmethod
    def of_frame(cls, frame: pd.DataFrame) -> Table:
        """A DataFrame's values as plain Python values (its index kept as the index)."""
        name = frame.index.name
        table = cls(None if name is None else str(name), frame.index.tolist(),
                    total_first=bool(frame.attrs.get("total_first")))
        for name in frame.columns:
            column = frame[name]
            dtype = str(column.dtype)
            table.add(name, column.tolist(), dtype if dtype in ("int64", "float64", "bool") else None)
        return table


def record_table(records: Sequence[dict[str, Any]]) -> tuple[list[str], list[list[Any]]]:
    """The columns and rows of ``pd.DataFrame(records)`` (records with the same keys, in the same order)."""
    columns = list(records[0]) if records else []
    return columns, [[record.get(column) for column in columns] for record in records]


def in_parts(items: Iterable[Item], size: int | None) -> Iterator[list[Item]]:
    """``items`` in lists of ``size`` (None: all in one), made one at a time; at least one list,
    empty when there is no item."""
    items = iter(items)
    part = list(islice(items, size))
    yield part
    while len(part) == size:
        part = list(islice(items, size))
        if not part:
            return
        yield part


# --- the formats -------------------------------------------------------------------------------


_TEN_DIGITS = 10 ** 10
_EXACT_FLOATS = 2 ** 53  # every whole number up to it is a float


def json_value(value: Any) -> Any:
    """``value`` as pandas' ``to_json`` writes it, read back: floats rounded to 10 decimals as its
    encoder rounds them (half to even on the digits it computed), NaN and infinities null."""
    if not isinstance(value, float):
        return value
    if math.isnan(value) or math.isinf(value):
        return None
    negative = value < 0  # -0.0 is written 0.0
    magnitude = -value if negative else value
    if magnitude > 1e16 - 1 or (magnitude != 0.0 and magnitude < 1e-15):
        return float(f"{value:.10g}")
    whole = int(magnitude)
    scaled = (magnitude - whole) * 1e10
    fraction = int(scaled)
    rest = scaled - fraction
    if rest > 0.5 or (rest == 0.5 and (fraction == 0 or fraction & 1)):
        fraction += 1
    digits = whole * _TEN_DIGITS + fraction
    # rounded as float() rounds these digits: a quotient of whole numbers a float holds exactly is
    # (compiled code divides them as floats; Python divides any two ints so), and float() of the
    # digits themselves is for larger ones (a fraction rounded up to 10**10 carries into the whole)
    rounded = digits / _TEN_DIGITS if digits <= _EXACT_FLOATS else float(f"{digits}e-10")
    return -rounded if negative else rounded


def _json_values(values: list[Any]) -> list[Any]:
    """:func:`json_value` of each of ``values``: the values themselves when none is a float (a
    column of whole numbers or of text needs no conversion)."""
    if any(issubclass(kind, float) for kind in set(map(type, values))):
        return [json_value(value) for value in values]
    return values


def indexed_parts(rows: Iterable[dict[str, Any]], columns: Sequence[str], size: int | None) -> Iterator[Table]:
    """Rows of dicts as tables indexed by the first of ``columns``, in parts of ``size`` rows (see
    :func:`in_parts`)."""
    for part in in_parts(rows, size):
        table = Table(columns[0], [row[columns[0]] for row in part])
        for name in columns[1:]:
            table.add(name, [row[name] for row in part])
        yield table


def is_missing(value: Any) -> bool:
    """None or NaN: a gap pandas writes empty, or null."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def csv_text(rows: Iterable[Sequence[Any]]) -> str:
    """``rows`` as lines of a CSV table, each ended by ``\\n``."""
    text = io.StringIO(newline="")
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue()


def csv_table(table: Table, header: bool = True) -> str:
    """``frame.to_csv(header=header)`` of :meth:`Table.frame`, without the final line end: the
    index first, floats as ``repr`` writes them, missing values empty."""
    names = ["" if table.index_name is None else table.index_name, *table.columns]
    rows = (["" if is_missing(value) else value for value in row.values()] for row in table.rows())
    return csv_text([names, *rows] if header else rows).rstrip("\n")


def csv_table_pieces(parts: Iterable[Table]) -> Iterator[str]:
    """:func:`csv_table` of the rows of ``parts`` as one table, in pieces, a part at a time (the
    parts have the same columns; only the first may have no row, as :func:`in_parts` gives them)."""
    for number, part in enumerate(parts):
        yield ("\n" if number else "") + csv_table(part, header=number == 0)


def markdown_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], header: bool = True) -> str:
    """A GitHub-flavoured Markdown table (missing values empty); without ``header``, its rows only."""
    def cell(value: Any) -> str:
        return ("" if is_missing(value) else str(value)).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in columns) + " |", "|" + "---|" * len(columns)] if header else []
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


# --- text, as DataFrame.to_string(index=False) -------------------------------------------------


def _escaped(value: Any) -> str:
    return str(value).replace("\t", r"\t").replace("\r", r"\r").replace("\n", r"\n")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object_cells(values: list[Any]) -> list[str]:
    """An ``object`` or ``str`` column's cells as pandas prints them: floats with six decimals,
    zeros trimmed, and a sign's space; anything else as ``str`` makes it, tabs and line ends escaped."""
    def cell(value: Any) -> str:
        if value is None:
            return "None"
        if isinstance(value, float):
            if math.isnan(value):
                return "NaN"
            text = f"{value: .6f}".rstrip("0")
            return text + "0" if text.endswith(".") else text
        return _escaped(value)

    kinds = set(map(type, values))
    if kinds == {int}:
        return list(map(str, values))
    if kinds == {str}:  # (cells made text already) as they are, unless one holds a tab or a line end
        joined = "".join(values)
        if "\t" not in joined and "\r" not in joined and "\n" not in joined:
            return list(values)
    return [cell(value) for value in values]


def _text_cells(values: list[Any]) -> tuple[list[str], bool]:
    """A column's cells as pandas prints them, and whether pandas takes the column for numbers
    (its header then gets a leading space): ``int64`` and ``bool`` columns, not ``object`` ones."""
    if values and all(_is_int(value) for value in values):
        return [f"{value:d}" for value in values], True
    if values and all(isinstance(value, bool) for value in values):
        return [str(value) for value in values], True
    return _object_cells(values), False


def _filled(values: list[Any], gap: str = "") -> list[Any]:
    """A column as ``DataFrame(rows).astype(object).fillna(gap)`` leaves it: whole numbers made
    floats in a column pandas reads as ``float64`` (numbers with a float or a gap), gaps ``gap``."""
    present = [value for value in values if not is_missing(value)]
    floats = (not all(_is_int(value) for value in values)
              and all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in present))
    return [gap if is_missing(value) else float(value) if floats else value for value in values]


def _blocks(widths: list[int], line_width: int) -> list[int]:
    """Where pandas ends each block of columns that fits in ``line_width`` (its ``_binify``)."""
    ends, current = [], 0
    for position, width in enumerate(widths):
        current += width + 1
        room = 1 if position == len(widths) - 1 else 2  # room for the continuation marker
        if current + room > line_width and position > 0:
            ends.append(position)
            current = width + 1
    return ends + [len(widths)]


def _empty(columns: Sequence[str]) -> str:
    return f"Empty DataFrame\nColumns: [{', '.join(map(str, columns))}]\nIndex: []"


def _headers(columns: Sequence[str], numeric: list[bool]) -> list[str]:
    """The columns' headers as pandas prints them: a column taken for numbers gets a leading space."""
    labels = [" " + _escaped(column) for column in columns]
    indent = min(len(label) - len(label.lstrip()) for label in labels)
    return [(" " if number else "") + label[indent:] for label, number in zip(labels, numeric)]


def _laid_out(headers: list[str], widths: list[int], rows: Callable[[], Iterable[Sequence[str]]],
              line_width: int | None) -> Iterator[str]:
    """The text of a table, in pieces: its columns right-justified to ``widths`` (each at least its
    header's and its widest cell's), one space apart, and with ``line_width`` wrapped into blocks of
    columns as pandas wraps them; ``rows()`` gives the rows' cells again for each block."""
    ends = [len(widths)] if line_width is None else _blocks(widths, line_width)
    start = 0
    for number, end in enumerate(ends):
        marked = len(ends) > 1  # a block's last column, after a space: " \\" on its header line if more follow
        marks = (" \\", "  ") if number < len(ends) - 1 else (" ", " ")

        def line(cells: Sequence[str], mark: str, start: int = start, end: int = end, marked: bool = marked) -> str:
            parts = [cell.rjust(width) for cell, width in zip(cells[start:end], widths[start:end])]
            return " ".join(parts) + (" " + mark if marked else "")

        yield ("\n\n" if number else "") + line(headers, marks[0])
        pieces: list[str] = []
        for cells in rows():
            pieces.append(line(cells, marks[1]))
            if len(pieces) == TEXT_LINES:
                yield "\n" + "\n".join(pieces)
                pieces = []
        if pieces:
            yield "\n" + "\n".join(pieces)
        start = end


def text_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], line_width: int | None = None, *,
               objects: bool = False) -> str:
    """``pd.DataFrame(rows, columns=columns).to_string(index=False, line_width=line_width)``: every
    column and header right-justified, one space apart, and with ``line_width`` the columns wrapped
    into blocks that fit, each but the last marked `` \\``. With ``objects``, of the DataFrame
    ``.astype(object).fillna("")``: missing values empty, no column taken for numbers."""
    if not objects:
        return "".join(text_table_pieces(columns, [rows], line_width))
    if not rows or not columns:
        return _empty(columns)
    cells = [_object_cells(_filled([row[number] for row in rows])) for number in range(len(columns))]
    headers = _headers(columns, [False] * len(columns))
    widths = [max(len(header), *map(len, column)) for header, column in zip(headers, cells)]
    return "".join(_laid_out(headers, widths, lambda: zip(*cells), line_width))


def text_table_pieces(columns: Sequence[str], parts: Iterable[Sequence[Sequence[Any]]],
                      line_width: int | None = None) -> Iterator[str]:
    """:func:`text_table` of the rows of ``parts``, in pieces, read once: the cells are spooled
    (see :class:`~nardy_cli.files.spool.Spool`) while the columns' widths are found, so that memory
    holds a part, not the table."""
    widths, integers, booleans = [0] * len(columns), [True] * len(columns), [True] * len(columns)
    spool: Spool[list[str]] = Spool()
    with spool as kept:
        for rows in parts:
            values = list(zip(*rows))  # the part's columns (a cell's text does not depend on its column's type)
            cells = [_object_cells(list(column)) for column in values]
            for number, (column, texts) in enumerate(zip(values, cells)):
                widths[number] = max(widths[number], *map(len, texts))
                integers[number] = integers[number] and all(map(_is_int, column))
                booleans[number] = booleans[number] and all(isinstance(value, bool) for value in column)
            kept.extend(map(list, zip(*cells)))
        if not len(kept) or not columns:
            yield _empty(columns)
            return
        headers = _headers(columns, [whole or truth for whole, truth in zip(integers, booleans)])
        widths = [max(len(header), width) for header, width in zip(headers, widths)]
        yield from _laid_out(headers, widths, lambda: kept, line_width)


# --- HTML, as DataFrame.astype(object).fillna("—").to_html(index=False) -----------------------

HTML_GAP = "—"  # what a report's table shows for a missing value


def _html_cell(kind: str, text: str) -> str:
    """A cell as ``to_html`` writes it: ``&``, ``<`` and ``>`` escaped, the spaces at its ends
    dropped, two spaces in a row made non-breaking."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").strip()
    return f"      <{kind}>{text.replace('  ', '&nbsp;&nbsp;')}</{kind}>"


def html_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], css_class: str = "") -> str:
    """``pd.DataFrame(rows, columns=columns).astype(object).fillna("—").to_html(index=False,
    classes=css_class or None)``, but for the inline style of its header row (the page's style
    sheet aligns the headers as their columns)."""
    return "".join(html_table_pieces([(columns, rows)], css_class))


def html_table_pieces(parts: Iterable[tuple[Sequence[str], Sequence[Sequence[Any]]]],
                      css_class: str = "") -> Iterator[str]:
    """:func:`html_table` of the rows of ``parts`` (each its columns and rows: all with the first
    part's columns, or without a row) as one table, in pieces, a part at a time; each part's
    columns are typed on their own, as a DataFrame of the part would have them."""
    for number, (columns, rows) in enumerate(parts):
        if number == 0:
            classes = " ".join(["dataframe", *css_class.split()])
            yield "\n".join([f'<table class="{classes}">', "  <thead>", "    <tr>",
                             *(_html_cell("th", _escaped(column)) for column in columns),
                             "    </tr>", "  </thead>", "  <tbody>", ""])
        cells = [_object_cells(_filled([row[position] for row in rows], HTML_GAP)) for position in range(len(columns))]
        yield "".join("    <tr>\n" + "".join(_html_cell("td", cell) + "\n" for cell in row) + "    </tr>\n"
                      for row in zip(*cells))
    yield "  </tbody>\n</table>"
