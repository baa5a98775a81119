"""Keeping the LanceDB index fast between writes, in one background thread.

Why: rows written since the last index update are searched *flat* by LanceDB's full-text
search (~15 µs a row on these machines: after a bulk import of 10k notes a search took 110 ms
instead of 20), and each write leaves a small fragment and a version behind.  Updating the
indices (LanceDB's ``optimize``: compaction, index update, pruning) costs O(rows) — 0.2 s at
10k notes, ~2 s at 50k — so it must not run on the add path.  This thread runs it as soon as
a write leaves enough unindexed rows (``NoteIndex.upkeep_due``), coalescing writes that arrive
meanwhile, and on idle; it also builds the approximate vector index of large scopes.

Idle means no write for ``IDLE_SECONDS``, judged before each step: a round that started idle
once took every batch of an import landing meanwhile for idle too, and ran an O(rows)
optimize after each one (72 of them in a 50k-note import, about two seconds each).  Idle, the
last few rows are folded in (searches gain from it).  The other idle steps (rebuilding the
vector index in one segment, removing old versions, warming) also wait until no search
started for ``SEARCH_QUIET_SECONDS``: they take seconds of CPU or lock the files, and made the
searches of a lawyer looking through a just-imported 50k-note case 40-90 ms instead of ~25.
Reading a large scope's text into memory does not wait for that quiet: it runs in chunks of
about a millisecond *between* searches (each chunk waits until no search runs, see
``NoteIndex._large_pause``), so a lawyer searching one after another gets the scope from
memory after their first few searches instead of never (a reopened 50k-note case in
bench_perf's phase, searched query after query: kept from the 17th-18th query on).  What a
write makes due (a batch past the budget) is done at once whatever runs.

What it runs is decided and done by the index (``upkeep_due`` / ``run_upkeep``); this class
only owns the thread: wake-ups, idle ticks, waiting until idle, stopping.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Protocol

log = logging.getLogger(__name__)

#: a write that leaves too little for an upkeep of its own is folded in after this much quiet
IDLE_SECONDS = 5.0
#: ... and its heavy steps wait until no search started for this long
SEARCH_QUIET_SECONDS = 1.0
#: after a failed upkeep (a commit conflict with a concurrent edit, a full disk), wait this long
RETRY_SECONDS = 2.0


class Upkeepable(Protocol):
    def upkeep_due(self, idle: bool, quiet: bool | None = None) -> str | None: ...

    def run_upkeep(self, task: str) -> None: ...


class IndexUpkeep:
    def __init__(self, index: Upkeepable, idle_seconds: float = IDLE_SECONDS) -> None:
        self._index = index
        self._idle_seconds = idle_seconds
        self._cond = threading.Condition()
        self._requested = False
        self._flush = False
        self._busy = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._last_write = float("-inf")  # time.monotonic() of the latest write
        self._last_search = float("-inf")  # ... and of the latest search's start

    def request(self, flush: bool = False) -> None:
        """Something was written: look at the index now (starts the thread on first use).
        ``flush``: fold in even what is below the budget, as on idle."""
        with self._cond:
            if self._stopping:
                return
            self._requested = True
            self._flush = self._flush or flush
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="lexmem-index-upkeep", daemon=True
                )
                self._thread.start()
            self._cond.notify_all()

    def wrote(self) -> None:
        """A write landed (due or not): the idle round waits for the quiet after it."""
        self._last_write = time.monotonic()

    def searched(self) -> None:
        """A search started: the heavy idle steps wait for a pause in the searching."""
        self._last_search = time.monotonic()

    def _idle_at(self) -> float:
        return self._last_write + self._idle_seconds

    def _quiet_at(self) -> float:
        return max(self._idle_at(), self._last_search + SEARCH_QUIET_SECONDS)

    def _next_wake(self) -> float:
        """Seconds to wait for a request before looking again: until idle, then until
        quiet, then an idle tick."""
        now = time.monotonic()
        for at in (self._idle_at(), self._quiet_at()):
            if now < at:
                return max(0.05, at - now)
        return self._idle_seconds

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until no requested upkeep is pending or running; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._requested and not self._busy, timeout)

    @property
    def stopping(self) -> bool:
        """stop() was called: a long step should give up at its next chance."""
        return self._stopping

    @property
    def busy(self) -> bool:
        with self._cond:
            return self._requested or self._busy

    def stop(self) -> None:
        """Let the running step finish, then end the thread (no new step starts)."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._requested or self._stopping, self._next_wake())
                if self._stopping:
                    self._requested = False
                    self._cond.notify_all()
                    return
                flush = self._flush
                self._requested = self._flush = False
                self._busy = True
            failed = False
            try:
                while not self._stopping:
                    now = time.monotonic()
                    task = self._index.upkeep_due(
                        flush or now >= self._idle_at(), flush or now >= self._quiet_at()
                    )
                    if task is None:
                        break
                    self._index.run_upkeep(task)
            except Exception:  # never kill the thread: the next write or idle tick retries
                log.warning("index upkeep failed; it is retried", exc_info=True)
                failed = True
            with self._cond:
                self._busy = False
                self._cond.notify_all()
            if failed:
                with self._cond:
                    self._cond.wait_for(lambda: self._stopping, RETRY_SECONDS)
