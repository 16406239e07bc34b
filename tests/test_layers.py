"""The layers of nardy_cli point down only (README, "Development"), and the commands that draw
nothing start without the heavy libraries.

Two checks of the same order: every module of a layer is imported in a fresh interpreter and
``sys.modules`` must hold nothing of a higher layer nor a library the layer may not use; and every
``import`` statement of the package's files, those inside functions and type-checking blocks too,
is read with ``ast`` and must point at its own layer or one below.
"""
from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import nardy_cli
from locations import SAMPLES

PACKAGE = Path(nardy_cli.__file__).parent
SAMPLE = str(SAMPLES / "long" / "kazan-cup-2026.ntn")

LAYERS = ("core", "record", "notations", "replay", "matches", "files", "run", "analysis", "reporting", "cli")
"""Lowest first: a module may import its own layer and the layers before it. (``files`` needs only
``record``, for its InputError; it stands above ``matches`` because nothing below reads inputs.)"""

HEAVY = frozenset({"pandas", "matplotlib", "pyarrow", "numpy"})
"""Only the reporting layer imports these; the CLI loads them through it, inside the commands that
tabulate or draw."""

LIBRARIES = {"run": "tqdm", "analysis": "platformdirs"}
"""The one library outside the standard library that a middle layer adds (the progress bar, the
cache folder of the bear-off table); the layers below use the standard library only."""


def layer_of(module: str) -> int:
    """The rank of ``module``'s layer in :data:`LAYERS` (-1 for the package itself, which only
    re-exports the API)."""
    parts = module.split(".")
    assert parts[0] == "nardy_cli", module
    return -1 if len(parts) == 1 else LAYERS.index(parts[1])


def allowed_libraries(rank: int) -> set[str]:
    """The libraries a layer below reporting may load: those its own and the lower layers add."""
    return {library for layer, library in LIBRARIES.items() if LAYERS.index(layer) <= rank}


def package_modules() -> list[str]:
    return sorted(name for _, name, _ in pkgutil.walk_packages([str(PACKAGE)], "nardy_cli."))


def test_every_module_is_in_a_layer():
    """A new module goes into one of the layers (a package of its own is a new layer, here)."""
    assert sorted({module.split(".")[1] for module in package_modules()}) == sorted(LAYERS)


# --- what each layer loads ------------------------------------------------------------------

_LOADED = """
import json, sys
before = set(sys.modules)
import importlib
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def loaded_by(modules: list[str]) -> list[str]:
    """The modules a fresh interpreter holds after importing ``modules`` (beyond its own start)."""
    run = subprocess.run([sys.executable, "-c", _LOADED, *modules], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def libraries(loaded: list[str]) -> set[str]:
    """The top-level packages among ``loaded`` outside the standard library and nardy_cli
    (private ones, such as C extensions' helpers, aside; ``nardy_cli__mypyc`` is the compiled
    build's own runtime, see setup.py)."""
    tops = {module.split(".")[0] for module in loaded}
    ours = {"nardy_cli", "nardy_cli__mypyc"}
    return {top for top in tops - set(sys.stdlib_module_names) - ours if not top.startswith("_")}


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_loads_only_its_own_and_lower_layers(layer):
    rank = LAYERS.index(layer)
    modules = [module for module in package_modules() if module.split(".")[1] == layer]
    loaded = loaded_by(modules)
    above = sorted(module for module in loaded if module.startswith("nardy_cli.") and layer_of(module) > rank)
    assert not above, f"importing the {layer} layer loads higher layers: {above}"
    found = libraries(loaded)
    if layer == "cli":
        return
    assert "click" not in found, f"only the CLI imports Click; the {layer} layer loads it"
    if layer == "reporting":
        return
    assert not found & HEAVY, f"only the reporting layer imports {sorted(HEAVY)}; the {layer} layer loads {found}"
    allowed = allowed_libraries(rank)
    assert found <= allowed, f"the {layer} layer loads {sorted(found - allowed)} beyond {sorted(allowed)}"


# --- what each file imports ------------------------------------------------------------------


def _type_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements inside ``if TYPE_CHECKING:`` blocks (they never run)."""
    guarded: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            guarded.update(inner for statement in node.body for inner in ast.walk(statement))
    return guarded


def imports(path: Path, module: str) -> list[tuple[str, str, int, bool]]:
    """Every import of a file: (imported module, name imported from it or "", line, type-only).
    ``from package import name`` imports module ``package.name`` when there is one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    guarded = _type_only(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, "", node.lineno, node in guarded) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                target = f"{base}.{alias.name}"
                is_module = (PACKAGE.parent / Path(*target.split("."))).with_suffix(".py").exists() or \
                    (PACKAGE.parent / Path(*target.split("."))).is_dir()
                found.append((target, "", node.lineno, node in guarded) if is_module
                             else (base, alias.name, node.lineno, node in guarded))
    return found


def static_imports() -> list[tuple[str, str, str, str, int, bool]]:
    """(importing module, its file, imported module, name, line, type-only) for every import of the package."""
    rows = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        rows += [(module, str(path.relative_to(PACKAGE.parent)), *row) for row in imports(path, module)]
    return rows


def test_every_arrow_points_down():
    wrong = []
    for module, path, target, name, line, _ in static_imports():
        if module == "nardy_cli" or not target.startswith("nardy_cli"):
            continue  # the package's own __init__ re-exports the API from every layer
        if target == "nardy_cli":
            if name != "__version__":
                wrong.append(f"{path}:{line}: imports {name} from the package: import it from its module")
            continue
        if layer_of(target) > layer_of(module):
            wrong.append(f"{path}:{line}: the {LAYERS[layer_of(module)]} layer imports {target}")
    assert not wrong, "imports pointing up:\n" + "\n".join(wrong)


def test_libraries_are_imported_by_their_layers_only():
    wrong = []
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for module, path, target, _, line, type_only in static_imports():
        top = target.split(".")[0]
        if top == "nardy_cli" or top in stdlib or type_only:
            continue  # an import for the type checker never runs
        rank = layer_of(module)
        layer = LAYERS[rank] if rank >= 0 else "package"
        if top == "click" and layer != "cli":
            wrong.append(f"{path}:{line}: only the CLI imports click")
        elif top in HEAVY and layer != "reporting":
            wrong.append(f"{path}:{line}: only the reporting layer imports {top}")
        elif rank < LAYERS.index("reporting") and top not in allowed_libraries(rank):
            wrong.append(f"{path}:{line}: the {layer} layer imports {top}, not among {sorted(allowed_libraries(rank))}")
    assert not wrong, "\n".join(wrong)


# --- the commands that draw nothing --------------------------------------------------------

_COMMAND = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["nardy", *sys.argv[1:]]
from nardy_cli.cli import cli
cli()
"""


def loaded_by_command(*args: str) -> set[str]:
    """The modules loaded by a ``nardy`` command run in a fresh interpreter."""
    run = subprocess.run([sys.executable, "-c", _COMMAND, *args], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert run.returncode in (0, 1), run.stderr  # 1: the sample corpus has illegal moves
    return set(json.loads(run.stderr.splitlines()[-1]))


def command_modules(*args: str) -> set[str]:
    """The top-level packages loaded by a ``nardy`` command run in a fresh interpreter."""
    return {module.split(".")[0] for module in loaded_by_command(*args)}


@pytest.mark.parametrize("args", [
    ("moves", "long", "66"),
    ("show", SAMPLE, "--game", "2", "--turn", "10"),
    ("show", "--position", "long w 24x14,18 24x15 b", "--dice", "63"),
    ("validate", SAMPLE),
    ("validate", SAMPLE, "--format", "json"),
    ("convert", SAMPLE, "--to", "sgf"),
    ("convert", SAMPLE, "--to", "csv"),
    ("generate", "--games", "2"),
    ("find", SAMPLE, "--position", "long"),
    ("rate", SAMPLE, "--format", "csv", "-q"),
], ids=" ".join)
def test_a_command_that_draws_nothing_loads_no_heavy_library(args):
    """A text ``nardy show`` starts as fast as ``nardy moves``: pandas, matplotlib and pyarrow
    take a second and 100 MB to import."""
    assert not command_modules(*args) & {"pandas", "matplotlib", "pyarrow"}


def test_a_board_picture_loads_matplotlib_but_not_pandas(tmp_path):
    loaded = command_modules("show", SAMPLE, "--game", "2", "-o", str(tmp_path / "board.png"))
    assert "matplotlib" in loaded and not loaded & {"pandas", "pyarrow"}


@pytest.mark.parametrize("args", [("stats", SAMPLE, "--quiet", "--out"), ("plot", "race", SAMPLE, "-o")], ids=" ".join)
def test_a_report_or_a_chart_loads_matplotlib_but_not_pandas(args, tmp_path):
    """Their tables are written by nardy_cli.reporting.plain: pandas would add a fifth to the
    memory of a report over a server's players."""
    loaded = command_modules(*args, str(tmp_path / "out.png"))
    assert "matplotlib" in loaded and not loaded & {"pandas", "pyarrow"}


# --- what a small command leaves unloaded ---------------------------------------------------

ON_DEMAND = frozenset({
    "tqdm",  # a progress bar, on a terminal only
    "multiprocessing", "concurrent.futures",  # a pool, for more than one work unit
    "tempfile",  # an output file
    "nardy_cli.reporting.russian",  # --lang ru
    "nardy_cli.analysis.aggregates",  # the statistics of stats, plot and rate
    "nardy_cli.notations.gnubg_ids",  # a Position ID or XGID
})
"""What the small commands below load only when an option or their input asks for it: each takes
milliseconds to import, and start-up is most of a small run."""


@pytest.mark.parametrize("args", [
    ("moves", "long", "66"),
    ("show", SAMPLE, "--game", "2", "--turn", "10"),
    ("validate", SAMPLE),
    ("validate", SAMPLE, "--format", "json", "--jobs", "2"),
    ("convert", SAMPLE, "--to", "sgf"),
], ids=" ".join)
def test_a_small_command_loads_its_own_module_and_nothing_on_demand(args):
    loaded = loaded_by_command(*args)
    shared = {"nardy_cli.cli.main", "nardy_cli.cli.options", "nardy_cli.cli.task"}
    assert {module for module in loaded if module.startswith("nardy_cli.cli.")} - shared == {f"nardy_cli.cli.{args[0]}"}
    assert not loaded & ON_DEMAND


def test_what_is_loaded_on_demand_is_loaded_when_asked(tmp_path):
    assert "nardy_cli.reporting.russian" in loaded_by_command("validate", SAMPLE, "--lang", "ru")
    assert "nardy_cli.notations.gnubg_ids" in loaded_by_command("moves", "4HPwATDgc/ABMA", "52")
    assert "tempfile" in loaded_by_command("convert", SAMPLE, "--to", "sgf", "-o", str(tmp_path / "out.sgf"))
    loaded = loaded_by_command("validate", str(SAMPLES), "--jobs", "2")  # small files, in batches, and large ones
    assert {"multiprocessing", "concurrent.futures"} <= loaded
