"""Moving the write-ahead log into the database file off the writer's thread.

SQLite's automatic checkpoint runs inside the COMMIT that crosses its threshold, on the
writer's thread: a bulk import paid it batch after batch (50k notes into one case: 8.9 s in
COMMIT; 1.35 s with the checkpoints on this thread. At 10k: 0.74 and 0.13 s).  Here a
thread with its own connection runs a PASSIVE checkpoint after commits instead; it never
blocks the writer or a reader (SQLite's WAL design), and what reaches the disk, and when it
is synced, is what the automatic checkpoint did (``synchronous = NORMAL``: the log is synced
before it is copied, the file after).  The writer keeps a raised automatic threshold as a
backstop, so the log stays bounded should this thread fall behind or fail.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

#: the writer's own automatic checkpoint, in pages (~40 MB at 4 KB): reached only when the
#: background checkpoints fall behind
BACKSTOP_PAGES = 10_000
#: a checkpoint once commits have changed this many rows (a batch of 500 notes changes
#: thousands) or after this many commits: a chat message or an edit alone does not cost
#: two fsyncs
WAKE_AFTER_ROWS = 500
WAKE_AFTER_COMMITS = 64


class WalCheckpointer:
    """One per writable store.  :meth:`committed` after each commit (under the store's write
    lock); :attr:`lock` is held while a checkpoint runs (the store takes it for its own
    TRUNCATE, which must not meet this one half-way); :meth:`stop` before the store closes."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._connect = connect
        self._due = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.lock = threading.Lock()
        # the writer's counts at the last wake
        self._changes_at_wake = 0
        self._commits = 0
        #: checkpoints run (tests and profiling read it)
        self.runs = 0

    def committed(self, total_changes: int) -> None:
        """A commit happened (``total_changes``: the writer connection's count of rows
        changed): checkpoint once enough has been written since the last one."""
        self._commits += 1
        if (
            total_changes - self._changes_at_wake < WAKE_AFTER_ROWS
            and self._commits < WAKE_AFTER_COMMITS
        ):
            return
        self._changes_at_wake, self._commits = total_changes, 0
        self.wake()

    def wake(self) -> None:
        """Checkpoint soon (several wakes before it runs make one)."""
        with self._start_lock:
            if self._stopping:
                return
            if self._thread is None:  # started on the first write: a store only read has none
                self._thread = threading.Thread(
                    target=self._run, name="lexmem-checkpoint", daemon=True
                )
                self._thread.start()
        self._due.set()

    def stop(self) -> None:
        """Finish a checkpoint under way, close the connection (a file held open cannot be
        replaced on Windows) and end the thread."""
        with self._start_lock:
            self._stopping = True
            thread = self._thread
        self._due.set()
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        conn: sqlite3.Connection | None = None
        try:
            while True:
                self._due.wait()
                self._due.clear()
                if self._stopping:
                    return
                with self.lock:
                    try:
                        if conn is None:
                            conn = self._connect()
                        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    except sqlite3.Error as exc:
                        # the writer's automatic checkpoint still bounds the log
                        log.warning("background checkpoint failed: %s", type(exc).__name__)
                    self.runs += 1
        finally:
            if conn is not None:
                conn.close()
