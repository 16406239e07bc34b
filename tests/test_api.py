"""The public API: every name ``nardy_cli`` exports exists, is documented, and is what type
checkers are told it is."""
from __future__ import annotations

import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import nardy_cli


@pytest.mark.parametrize("name", nardy_cli.__all__)
def test_every_exported_name_exists_and_is_documented(name):
    value = getattr(nardy_cli, name)
    assert re.search(rf"``{name}[`(.]", nardy_cli.__doc__ or ""), f"nardy_cli's docstring does not describe {name}"
    if inspect.isclass(value):
        assert source_docstring(value), f"{name} has no docstring of its own"
    elif inspect.isfunction(value) or inspect.ismodule(value):
        assert value.__doc__ and not value.__doc__.startswith(f"{name}("), f"{name} has no docstring of its own"


def source_docstring(cls: type) -> str | None:
    """The docstring a class is written with: read from its source, as the compiled build keeps
    no class docstrings (see setup.py)."""
    path = Path(sys.modules[cls.__module__].__file__ or "")
    if path.suffix != ".py":  # a compiled module: its source is beside it
        path = path.parent / f"{cls.__module__.rpartition('.')[2]}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    node = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == cls.__name__)
    return ast.get_docstring(node)


def test_the_type_checkers_names_are_the_exported_ones():
    tree = ast.parse(Path(nardy_cli.__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    imported = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.module is not None  # absolute imports: sys.modules has them
        for alias in node.names:
            imported[alias.name] = f"{node.module}.{alias.name}" if alias.name == "notations" else node.module
    assert sorted(imported) == sorted(nardy_cli.__all__)
    for name, module in imported.items():
        value = getattr(nardy_cli, name)
        assert value is (sys.modules[module] if inspect.ismodule(value) else getattr(sys.modules[module], name))


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError, match="no attribute 'engine_v2'"):
        nardy_cli.engine_v2  # noqa: B018


def test_importing_the_package_loads_nothing_else():
    script = "import sys, nardy_cli; print(sorted(m for m in sys.modules if m.startswith('nardy_cli')))"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "['nardy_cli']"


def test_star_import_gives_the_api():
    namespace: dict[str, object] = {}
    exec("from nardy_cli import *", namespace)
    assert set(nardy_cli.__all__) <= set(namespace)


def readme_library_examples() -> list[str]:
    """The Python blocks of README's "Library" section."""
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Library\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


@pytest.mark.parametrize("example", readme_library_examples())
def test_the_readme_library_examples_run(example, monkeypatch, capsys):
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    exec(compile(example, "README.md", "exec"), {})
    assert capsys.readouterr().out
