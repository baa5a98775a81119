"""The house rules, checked: nothing outside desktop_app/ui/ imports Qt; the layers
(entry points > ui > chat > memory > llm > core) never import upward; no import circles.

The layers and circles are import-linter contracts (.importlinter at the repository root);
the tests below run them, and prove they catch a planted violation."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "desktop_app"
CONTRACTS = ROOT / ".importlinter"
QT_ROOTS = {"PySide6", "shiboken6", "PyQt5", "PyQt6", "pytestqt"}
# Entry points that only dispatch to the UI lazily (inside a function) are still checked:
# a module-level Qt import anywhere outside ui/ is a failure; a lazy one is allowed only here.
LAZY_ALLOWED = {PACKAGE / "__main__.py"}


def _qt_imports(path: Path, *, module_level_only: bool) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    nodes = tree.body if module_level_only else list(ast.walk(tree))
    found = []
    for node in nodes:
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        else:
            continue
        found += [n for n in names if n.split(".")[0] in QT_ROOTS]
    return found


def test_no_qt_outside_ui():
    offenders = {}
    for path in PACKAGE.rglob("*.py"):
        if (PACKAGE / "ui") in path.parents:
            continue
        hits = _qt_imports(path, module_level_only=path in LAZY_ALLOWED)
        if hits:
            offenders[str(path.relative_to(PACKAGE))] = hits
    assert offenders == {}, f"Qt imported outside desktop_app/ui/: {offenders}"


def test_engine_import_does_not_load_qt():
    import subprocess
    import sys

    code = (
        "import sys, desktop_app.memory, desktop_app.core.errors;"
        "bad=[m for m in sys.modules if m.split('.')[0] in ('PySide6','shiboken6')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """Run import-linter's contracts (.importlinter) on the package found under ``root``."""
    code = (
        "import sys; from importlinter.cli import lint_imports; "
        f"sys.exit(lint_imports(config_filename={str(CONTRACTS)!r}, no_cache=True, "
        "no_logo=True))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "", "PYTHONIOENCODING": "utf-8"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_layers_and_no_circles():
    proc = _lint_imports(ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 kept, 0 broken" in proc.stdout


# Each plant adds one import to a copy of the package; the contract named must catch it.
PLANTS = {
    "upward: memory imports ui": (
        "memory/scope.py",
        "from desktop_app.ui import workers  # noqa",
        ["nothing imports upward BROKEN", "desktop_app.memory.scope -> desktop_app.ui.workers"],
    ),
    "upward, lazily: core imports memory inside a function": (
        "core/paths.py",
        "def _planted():\n    from desktop_app.memory import engine  # noqa\n",
        ["nothing imports upward BROKEN", "desktop_app.core.paths -> desktop_app.memory.engine"],
    ),
    "circle inside one layer: chat.prompts <-> chat.pipeline": (
        "chat/prompts.py",
        "import desktop_app.chat.pipeline  # noqa",
        [
            "No import circles between the modules of any package BROKEN",
            "No cycles are allowed in desktop_app.chat.",
            ".prompts -> .pipeline",
        ],
    ),
}


@pytest.mark.parametrize("plant", list(PLANTS))
def test_the_contracts_catch_a_planted_violation(tmp_path, plant):
    relative, line, expected = PLANTS[plant]
    copy = tmp_path / "desktop_app"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / relative
    target.write_text(target.read_text(encoding="utf-8") + "\n" + line + "\n", encoding="utf-8")
    proc = _lint_imports(tmp_path)
    assert proc.returncode != 0, proc.stdout
    for text in expected:
        assert text in proc.stdout, proc.stdout
