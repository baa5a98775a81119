"""The house rule: nothing outside desktop_app/ui/ imports Qt."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "desktop_app"
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
