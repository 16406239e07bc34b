"""A program's analysis of a record's decisions (:class:`~nardy_cli.record.Evaluation`) in the
two written forms that carry it: a JSON object (formats/json.md) and NTN's tagged comment
``{ [%analysis move played=-0.2678 best=-0.2116 luck=-0.0345 level=XGRoller++] }``
(formats/ntn.md). Numbers are written as Python writes floats, the shortest text that reads
back as the same number, so both forms round-trip exactly.
"""
from __future__ import annotations

import math
import re
from typing import Any

from nardy_cli.notations import ObjectFields
from nardy_cli.record import Evaluation

DECISIONS = ("move", "cube", "take")
NUMBERS = ("played", "best", "luck")
_JSON_FIELDS = ObjectFields.of("decision", "level", *NUMBERS)

_TAGGED_RE = re.compile(r"\[%analysis\s+(?P<decision>\w+)(?P<fields>(?:\s+\w+=(?:\"[^\"]*\"|[^\s\"\]]+))*)\s*\]")
_FIELD_RE = re.compile(r"(\w+)=(?:\"([^\"]*)\"|([^\s\"\]]+))")


class AnalysisError(ValueError):
    """An analysis written wrongly; the message says what was expected."""


def to_dict(evaluation: Evaluation) -> dict[str, Any]:
    """The JSON object of ``evaluation``: its decision, then only the fields it has."""
    data: dict[str, Any] = {"decision": evaluation.decision}
    if evaluation.level:
        data["level"] = evaluation.level
    for name in NUMBERS:
        if (value := getattr(evaluation, name)) is not None:
            data[name] = value
    return data


def from_dict(data: Any) -> Evaluation:
    """The evaluation a JSON object holds; :class:`AnalysisError` when it is malformed."""
    if not isinstance(data, dict):
        raise AnalysisError(f"an analysis must be an object, found {type(data).__name__}")
    unknown = _JSON_FIELDS.unknown(data, "analysis field")
    if unknown:
        raise AnalysisError(unknown)
    level = data.get("level", "")
    if not isinstance(level, str):
        raise AnalysisError('an analysis "level" must be a string')
    numbers = {}
    for name in NUMBERS:
        value = data.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                  or not math.isfinite(value)):
            raise AnalysisError(f'an analysis "{name}" must be a number, found {value!r}')
        numbers[name] = None if value is None else float(value)
    return _evaluation(data.get("decision"), level, numbers)


def _evaluation(decision: Any, level: str, numbers: dict[str, float | None]) -> Evaluation:
    if decision not in DECISIONS:
        raise AnalysisError(f"an analysis decision must be one of {', '.join(DECISIONS)}, found {decision!r}")
    return Evaluation(decision, level, numbers["played"], numbers["best"], numbers["luck"])


def to_text(evaluation: Evaluation) -> str:
    """NTN's tagged comment text of ``evaluation``, e.g. ``[%analysis cube played=0.97 best=1.0 level="4-ply"]``."""
    fields = [f"{name}={value!r}" for name in NUMBERS if (value := getattr(evaluation, name)) is not None]
    if evaluation.level:
        level = evaluation.level
        fields.append(f'level="{level}"' if re.search(r"[\s\]]", level) else f"level={level}")
    return f"[%analysis {' '.join([evaluation.decision, *fields])}]"


def is_tagged(text: str) -> bool:
    """Whether a comment's text is an analysis (well written or not)."""
    return text.lstrip().startswith("[%analysis")


def from_text(text: str) -> Evaluation:
    """The evaluation of a tagged comment (see :func:`to_text`); :class:`AnalysisError` when it is
    written wrongly."""
    match = _TAGGED_RE.fullmatch(text.strip())
    if not match:
        raise AnalysisError(f"expected an analysis like '[%analysis move played=-0.27 best=-0.21 luck=0.03 "
                            f"level=4-ply]', found {text.strip()!r}")
    level, numbers = "", dict.fromkeys(NUMBERS)
    for name, quoted, bare in _FIELD_RE.findall(match["fields"]):
        value = quoted if quoted or not bare else bare
        if name == "level":
            level = value
        elif name in NUMBERS:
            try:
                numbers[name] = float(value)
            except ValueError:
                raise AnalysisError(f"expected a number after {name}=, found {value!r}") from None
            if not math.isfinite(numbers[name] or 0.0):
                raise AnalysisError(f"expected a finite number after {name}=, found {value!r}")
        else:
            raise AnalysisError(f"unknown analysis field {name!r}: expected level, {', '.join(NUMBERS)}")
    return _evaluation(match["decision"], level, numbers)
