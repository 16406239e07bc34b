"""Which modules the compiled build compiles (setup.py's COMPILED list) and whether they run compiled."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

from locations import ROOT


def compiled_sources() -> list[Path]:
    """The sources setup.py compiles (its COMPILED list, read rather than imported: importing
    setup.py would run the build)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listed = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                  and any(isinstance(target, ast.Name) and target.id == "COMPILED" for target in node.targets))
    return [ROOT / path for path in ast.literal_eval(listed)]


def module_name(source: Path) -> str:
    return ".".join(source.relative_to(ROOT).with_suffix("").parts)


def is_compiled(module: str) -> bool:
    return not (importlib.import_module(module).__file__ or "").endswith(".py")
