"""What the reliability tests look with: a byte scan of every file in a folder (backups,
temporary copies, WAL, index versions and logs included), SQL on every SQLite file, and
a child process killed at a chosen point (crash_child.py)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("crash_child.py")


def files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _sql_holds(path: Path, needle: str) -> bool:
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
            cond = " OR ".join(f'instr(CAST("{c}" AS TEXT), ?) > 0' for c in cols)
            if (
                cols
                and conn.execute(
                    f'SELECT 1 FROM "{table}" WHERE {cond} LIMIT 1', [needle] * len(cols)
                ).fetchone()
            ):
                return True
    except sqlite3.Error:
        return False
    finally:
        conn.close()
    return False


def holders(folder: Path, needles: list[str]) -> list[str]:
    """``"needle in relative/path"`` for every file under ``folder`` holding a needle, in its
    bytes (UTF-8 or UTF-16) or, for a SQLite file, in a row."""
    found = []
    for path in files(folder):
        blob = path.read_bytes()
        is_db = blob.startswith(b"SQLite format 3\x00")
        for needle in needles:
            if (
                needle.encode("utf-8") in blob
                or needle.encode("utf-16-le") in blob
                or (is_db and _sql_holds(path, needle))
            ):
                found.append(f"{needle!r} in {path.relative_to(folder)}")
    return found


def run_child(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    """crash_child.py with this checkout's code on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, str(CHILD), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def killed(proc: subprocess.CompletedProcess) -> bool:
    return proc.returncode == -9
