"""Runs the numpy layout on a pool thread and streams intermediate positions back.

The worker only sees arrays (never widgets); the UI thread receives positions through the
shared :func:`desktop_app.ui.workers.run_op` relay, so the map animates as it settles.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, Signal

from desktop_app.ui.workers import Op, run_op

from .layout import LayoutParams, LayoutStep, run_layout

#: at most this often (seconds) an intermediate frame is sent: ~25 fps of animation without
#: flooding the UI thread's event queue
FRAME_INTERVAL = 0.04


def _layout_job(
    n: int,
    edges: np.ndarray,
    strengths: np.ndarray,
    known: np.ndarray | None,
    params: LayoutParams,
    report: Callable[[LayoutStep], None],
    cancel: threading.Event,
    groups: np.ndarray | None = None,
    order: np.ndarray | None = None,
) -> LayoutStep | None:
    last = time.perf_counter()
    for step in run_layout(n, edges, strengths, known, params, groups, order):
        if cancel.is_set():
            return None
        if step.done:
            return step
        now = time.perf_counter()
        if now - last >= FRAME_INTERVAL:
            report(step)
            last = now
    return None


class LayoutRunner(QObject):
    """One layout at a time; starting a new one cancels the old one."""

    progressed = Signal(object)  # np.ndarray (n, 2)
    finished = Signal(object)  # np.ndarray (n, 2)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._op: Op | None = None
        self.last_duration = 0.0

    @property
    def running(self) -> bool:
        return self._op is not None and not self._op.done

    def start(
        self,
        n: int,
        edges: np.ndarray,
        strengths: np.ndarray,
        known: np.ndarray | None,
        params: LayoutParams,
        groups: np.ndarray | None = None,
        order: np.ndarray | None = None,
    ) -> None:
        """Lay out in a pool thread; ``groups``/``order``: unlinked notes in a grid per
        group (see layout.arrange_unlinked)."""
        self.cancel()
        started = time.perf_counter()

        def done(step: LayoutStep | None) -> None:
            self.last_duration = time.perf_counter() - started
            if step is not None:
                self.finished.emit(step.positions)

        def job(report: Callable[[LayoutStep], None], cancel: threading.Event) -> LayoutStep | None:
            return _layout_job(
                n, edges.copy(), strengths.copy(), known, params, report, cancel, groups, order
            )

        self._op = run_op(
            job,
            on_success=done,
            on_progress=lambda step: self.progressed.emit(step.positions),
            name="graph-layout",
        )

    def cancel(self) -> None:
        if self._op is not None and not self._op.done:
            self._op.cancel()
        self._op = None
