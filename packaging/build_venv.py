"""The venv a bundle is frozen from: the lock's runtime + package sets and LexMem, nothing else.

PyInstaller freezes whatever the analysed imports reach in the environment it runs in; in a
developer's venv with the test extra, pygments and ``_pytest`` leaked into the bundle through
optional imports.  This venv holds only ``packaging/lock/package.txt`` (runtime + PyInstaller),
installed in hash-checking mode, plus ``pip install --no-deps -e .``.  It is reused while the
lock files and pyproject.toml are unchanged, and rebuilt from scratch when they change.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK_DIR = ROOT / "packaging" / "lock"
VENV = ROOT / "build" / "venv-package"
STAMP = ".lexmem-lock-sha256"


def venv_python(venv: Path = VENV) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def fingerprint() -> str:
    h = hashlib.sha256()
    for path in (LOCK_DIR / "runtime.txt", LOCK_DIR / "package.txt", ROOT / "pyproject.toml"):
        h.update(path.read_bytes())
    return h.hexdigest()


def is_current(venv: Path = VENV) -> bool:
    stamp = venv / STAMP
    return (
        venv_python(venv).exists()
        and stamp.exists()
        and stamp.read_text(encoding="utf-8").strip() == fingerprint()
    )


def ensure(venv: Path = VENV, *, quiet: bool = True) -> Path:
    """Create (or reuse) the build venv; returns its python."""
    if is_current(venv):
        return venv_python(venv)
    if sys.version_info[:2] != (3, 11):
        raise SystemExit(
            f"build venv: the lock is for CPython 3.11, this is {sys.version.split()[0]}"
            " (run build.py with a Python 3.11)"
        )
    shutil.rmtree(venv, ignore_errors=True)
    print(f"build venv: creating {venv} from packaging/lock/package.txt", flush=True)
    # the base interpreter, not a venv's: `python -m venv` inside a venv works either way
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = str(venv_python(venv))
    q = ["-q"] if quiet else []
    pip = [py, "-m", "pip", "install", *q, "--disable-pip-version-check"]
    subprocess.run([*pip, "-r", str(LOCK_DIR / "package.txt")], check=True)
    subprocess.run([*pip, "--no-deps", "-e", str(ROOT)], check=True)
    (venv / STAMP).write_text(fingerprint() + "\n", encoding="utf-8")
    return venv_python(venv)


def inside(venv: Path = VENV) -> bool:
    return Path(sys.prefix).resolve() == venv.resolve()


if __name__ == "__main__":
    print(ensure(quiet=False))
