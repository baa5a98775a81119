"""One read of the data folder's files after an open, in the background, so that the searches
that follow find them in the operating system's file cache.

Why: after a restart of the machine (the lawyer's morning) nothing of the folder is cached.
Every search then reads the SQLite rows of its ~100 candidates and the vectors its re-rank
needs at random places on disk, and keeps doing so for hundreds of searches.  At 50k notes
in one case (a 197 MB folder), with the file cache dropped before a new process opened it,
searches 2-6 took 49 ms and the p95 of 200 searches was 48 ms; with this read running beside
them, 26 and 33 ms (tests/benchmarks/bench_cold_start.py, README).

What it reads: the database file first (the ranking rows of every search), then the index's
files (vector and full-text indices first, then the data the re-rank reads), up to
``BUDGET_BYTES``.  Nothing is kept in this process: the bytes go through one reused buffer.
An index file is read under the index's file guard, so a removal of old versions waits for
that one file (on Windows an open file cannot be deleted) instead of failing.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from pathlib import Path

log = logging.getLogger(__name__)

#: read at most this much per open (the OS keeps what it has room for)
BUDGET_BYTES = 1 << 30
_CHUNK = 4 << 20

#: (file, what to hold while reading it)
Planned = tuple[Path, Callable[[], AbstractContextManager]]


def unguarded() -> AbstractContextManager:
    return contextlib.nullcontext()


class Prefetch:
    """One background pass over ``plan()``'s files; :meth:`stop` ends it within a chunk."""

    def __init__(self, plan: Callable[[], Iterable[Planned]], budget: int | None = None) -> None:
        self._plan = plan
        self._budget = BUDGET_BYTES if budget is None else budget
        self._stop = threading.Event()
        #: set when the pass has ended (read everything, hit the budget, or was stopped)
        self.done = threading.Event()
        self.bytes_read = 0
        self.files_read = 0
        self._thread: threading.Thread | None = None

    def start(self) -> Prefetch:
        if self._budget <= 0:
            self.done.set()
            return self
        self._thread = threading.Thread(target=self._run, name="lexmem-prefetch", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        buffer = bytearray(_CHUNK)
        try:
            for path, guard in self._plan():
                if self._stop.is_set() or self.bytes_read >= self._budget:
                    break
                with guard():
                    read = self._read(path, buffer)
                self.bytes_read += read
                self.files_read += int(read > 0)
        except Exception:  # a cache warm-up: never worth an error
            log.debug("prefetch ended early", exc_info=True)
        finally:
            self.done.set()

    def _read(self, path: Path, buffer: bytearray) -> int:
        read = 0
        try:
            with open(path, "rb", buffering=0) as f:
                while not self._stop.is_set() and self.bytes_read + read < self._budget:
                    n = f.readinto(buffer)
                    if not n:
                        break
                    read += n
        except OSError:  # removed meanwhile (old versions pruned), or not ours to read
            pass
        return read


def files_under(folder: Path) -> list[Path]:
    """The files of ``folder``, the indices' first (every search reads them), then the data,
    each group largest first."""
    try:
        files = [p for p in folder.rglob("*") if p.is_file()]
    except OSError:
        return []

    def order(path: Path) -> tuple[int, int]:
        try:
            size = path.stat().st_size
        except OSError:
            size = 0
        return (0 if "_indices" in path.parts else 1, -size)

    return sorted(files, key=order)
