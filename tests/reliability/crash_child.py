"""A child process that SIGKILLs itself at a chosen point inside one engine operation.

    python crash_child.py forget  DATA NOTE_ID  N   # killed at the N-th open of a backup copy
    python crash_child.py deletedoc DATA DOC_ID NOTE_ID N # killed at the N-th open of a backup copy
    python crash_child.py merge   DATA KEEP OTHER K # killed right after the K-th commit (0: at the first BEGIN)
    python crash_child.py backup  DATA          -   # killed as the finished temp copy is renamed
    python crash_child.py backupearly DATA      -   # killed as soon as the temp copy exists
    python crash_child.py restore DATA          N   # killed at the N-th rename of a restore
    python crash_child.py sleep   DATA          -   # opens the engine and waits (a second writer)

The kill points are found through names every version of the engine has (``sqlite3.connect``,
``Store.write``, ``os.replace``), so the same child shows a defect on the unfixed code and its
absence on the fixed one.  Prints ``DONE`` if the operation finished before the kill point.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path


def _die() -> None:
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def _kill_at_backup_connect(n: int, *, after: bool = False) -> None:
    """Killed at the n-th connection to a temporary copy in the backups folder (``after``:
    once the connection has opened, i.e. created, the file)."""
    real = sqlite3.connect
    seen = [0]

    def connect(target, *args, **kwargs):  # type: ignore[no-untyped-def]
        hit = f"{os.sep}backups{os.sep}" in str(target) and ".tmp-" in str(target)
        if hit:
            seen[0] += 1
        if hit and seen[0] == n and not after:
            _die()
        conn = real(target, *args, **kwargs)
        if hit and seen[0] == n:
            _die()
        return conn

    sqlite3.connect = connect  # type: ignore[assignment]


def _kill_after_commit(k: int) -> None:
    from desktop_app.memory import store

    real = store.Store.write
    seen = [0]

    @contextmanager
    def write(self):  # type: ignore[no-untyped-def]
        if k == 0:
            _die()
        with real(self) as conn:
            yield conn
        seen[0] += 1
        if seen[0] == k:
            _die()

    store.Store.write = write  # type: ignore[method-assign]


def _kill_at_replace(n: int) -> None:
    real = os.replace
    seen = [0]

    def replace(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(src).name.startswith(".tmp-"):
            seen[0] += 1
            if seen[0] == n:
                _die()
        return real(src, dst, *args, **kwargs)

    os.replace = replace  # type: ignore[assignment]


def main(argv: list[str]) -> int:
    what, data = argv[0], Path(argv[1])
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.backups import BackupManager, list_backups, restore_database

    if what == "restore":
        _kill_at_replace(int(argv[2]))
        restore_database(data, list_backups(data)[-1].path)  # the oldest
        print("DONE", flush=True)
        return 0
    try:
        eng = MemoryEngine.open(data)
    except Exception as exc:  # the app holds the folder: a backup beside it, as the CLI does
        if type(exc).__name__ != "DataFolderLockedError" or not what.startswith("backup"):
            raise
        eng = MemoryEngine.open(data, read_only=True)
    if what == "sleep":
        print("READY", flush=True)
        sys.stdin.read()
        eng.close()
        return 0
    if what == "forget":
        _kill_at_backup_connect(int(argv[3]))
        BackupManager(eng).forget_note(argv[2])
    elif what == "deletedoc":
        _kill_at_backup_connect(int(argv[4]))
        eng.delete_document(argv[2], purge_note_ids=[argv[3]])
    elif what == "merge":
        _kill_after_commit(int(argv[4]))
        eng.merge_notes(argv[2], argv[3])
    elif what == "backup":
        _kill_at_replace(1)
        BackupManager(eng).snapshot("manual")
    elif what == "backupearly":  # as soon as the temporary copy exists
        _kill_at_backup_connect(1, after=True)
        BackupManager(eng).snapshot("manual")
    print("DONE", flush=True)
    eng.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
