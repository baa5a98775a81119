"""The one background-operation helper of the UI (in the spirit of Anki's CollectionOp).

``run_op(fn, on_success=..., on_failure=..., on_progress=...)`` runs ``fn`` on a
QThreadPool thread and delivers its result, its exception or its progress reports back on
the UI thread through queued signals. Workers never touch widgets: ``fn`` gets plain data
in and returns plain data out; only the callbacks (run on the UI thread) update the UI.

An :class:`Op` can be cancelled: its ``cancel`` event is set (cooperative functions such as
a streamed chat reply poll it) and its callbacks are dropped, so a late result can never
land in a view that has moved on (another case, another conversation, a closed window).
"""

from __future__ import annotations

import inspect
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

log = logging.getLogger(__name__)

_live: set[Op] = set()  # keeps relays alive until their result is delivered
#: relays whose result was delivered, with the time; freed later ON THE UI THREAD.  A relay
#: is a QObject living on the UI thread; if its last reference went away in a worker (the
#: finished runnable, a garbage-collected op<->relay cycle) Qt would destroy it from the
#: wrong thread while an event for it may still be queued: a crash in the event loop.
_retired: list[tuple[float, _Relay]] = []
RETIRE_AFTER_S = 2.0


def _pool() -> QThreadPool:
    pool = QThreadPool.globalInstance()
    # 2 cores are shared: a few threads are enough (one streaming reply, one engine call,
    # one extraction) and keep the UI thread's share of the CPU.
    if pool.maxThreadCount() > 4:
        pool.setMaxThreadCount(4)
    return pool


class _Relay(QObject):
    """Lives on the UI thread; its signals are emitted from the worker and queued to it."""

    succeeded = Signal(object)
    failed = Signal(object)
    progressed = Signal(object)

    def __init__(self, op: Op) -> None:
        super().__init__()
        self._op: Op | None = op
        self.succeeded.connect(self._on_success)
        self.failed.connect(self._on_failure)
        self.progressed.connect(self._on_progress)

    @Slot(object)
    def _on_success(self, result: object) -> None:
        if self._op is not None:
            self._op._deliver("success", result)

    @Slot(object)
    def _on_failure(self, exc: object) -> None:
        if self._op is not None:
            self._op._deliver("failure", exc)

    @Slot(object)
    def _on_progress(self, value: object) -> None:
        if self._op is not None:
            self._op._deliver("progress", value)


class _Runnable(QRunnable):
    def __init__(self, op: Op, fn: Callable[..., Any], kwargs: dict[str, Any]) -> None:
        super().__init__()
        self._op = op
        self._fn = fn
        self._kwargs = kwargs
        self.setAutoDelete(True)

    def run(self) -> None:  # worker thread: no widgets here
        relay = self._op._relay
        started = time.perf_counter()
        try:
            result = self._fn(**self._kwargs)
        except BaseException as exc:  # delivered to the UI thread, never lost
            log.debug("op %s failed: %r", self._op.name, exc, exc_info=True)
            relay.failed.emit(exc)
        else:
            relay.succeeded.emit(result)
        finally:
            log.debug("op %s took %.0f ms", self._op.name, 1000 * (time.perf_counter() - started))


class Op:
    """A handle on one background operation."""

    def __init__(
        self,
        name: str,
        on_success: Callable[[Any], None] | None,
        on_failure: Callable[[BaseException], None] | None,
        on_progress: Callable[[Any], None] | None,
        on_finally: Callable[[], None] | None,
    ) -> None:
        self.name = name
        self.cancel_event = threading.Event()
        self.done = False
        self._callbacks = {"success": on_success, "failure": on_failure, "progress": on_progress}
        self._on_finally = on_finally
        self._relay = _Relay(self)

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def cancel(self) -> None:
        """Ask the function to stop and drop its success/progress callbacks.

        ``on_finally`` still runs, so a view can reset its busy state.
        """
        self.cancel_event.set()
        self._callbacks["success"] = None
        self._callbacks["progress"] = None
        self._callbacks["failure"] = None

    def report(self, value: Any) -> None:
        """Called from the worker thread to send a progress value to the UI thread."""
        relay = self._relay
        if relay is not None and not self.cancel_event.is_set() and not self.done:
            relay.progressed.emit(value)

    def _deliver(self, kind: str, value: Any) -> None:
        if kind == "progress":
            cb = self._callbacks["progress"]
            if cb is not None and not self.done:
                cb(value)
            return
        self.done = True
        cb = self._callbacks[kind]
        try:
            if cb is not None:
                cb(value)
            elif kind == "failure" and not self.cancelled:
                # nobody asked for failures: never swallow them silently
                log.error("background op %s failed", self.name, exc_info=value)
                _report_unhandled(value)
        finally:
            _live.discard(self)
            _retired.append((time.monotonic(), self._relay))
            if self._on_finally is not None:
                self._on_finally()


def _free_retired() -> None:
    """Drop relays retired long enough ago that their worker has surely let go of them;
    the op<->relay cycle is cut here so they are freed now, on this (the UI) thread, not
    by a garbage collection that may run in a worker."""
    now = time.monotonic()
    keep = []
    for retired_at, relay in _retired:
        if now - retired_at < RETIRE_AFTER_S:
            keep.append((retired_at, relay))
            continue
        op = relay._op
        relay._op = None
        if op is not None:
            op._relay = None
    _retired[:] = keep


def _report_unhandled(exc: BaseException) -> None:
    from desktop_app.ui import excepthook

    excepthook.show_exception(type(exc), exc, exc.__traceback__)


def run_op(
    fn: Callable[..., Any],
    *,
    on_success: Callable[[Any], None] | None = None,
    on_failure: Callable[[BaseException], None] | None = None,
    on_progress: Callable[[Any], None] | None = None,
    on_finally: Callable[[], None] | None = None,
    name: str = "",
    pool: QThreadPool | None = None,
) -> Op:
    """Run ``fn`` off the UI thread.

    ``fn`` may declare keyword parameters ``report`` (a callable sending progress values to
    ``on_progress`` on the UI thread) and ``cancel`` (a :class:`threading.Event`).
    """
    _free_retired()
    op = Op(name or getattr(fn, "__name__", "op"), on_success, on_failure, on_progress, on_finally)
    kwargs: dict[str, Any] = {}
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}
    if "report" in params:
        kwargs["report"] = op.report
    if "cancel" in params:
        kwargs["cancel"] = op.cancel_event
    _live.add(op)
    (pool or _pool()).start(_Runnable(op, fn, kwargs))
    return op


def wait_all(timeout_ms: int = 10_000) -> bool:
    """Block until every pooled operation has finished (shutdown and tests)."""
    return _pool().waitForDone(timeout_ms)
