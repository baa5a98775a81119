"""The periodic memory check-up: every so often (a timer on the UI thread that only starts a
worker), each open case whose check is due (engine.maintenance_due: enabled, and not run for
the period) is checked in the background.  Nothing in the memory changes: a proposal is
stored, and the status bar's quiet badge says how many items wait."""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from desktop_app.ui.engine_host import EngineHost

log = logging.getLogger(__name__)

#: how often to look whether a check is due (the period itself is a setting, in days)
POLL_MS = 60 * 60 * 1000
#: the first look, once the app has settled after start-up
FIRST_POLL_MS = 2 * 60 * 1000


def run_due_checks(engine: Any) -> int:
    """Check every open case that is due (worker thread); returns the items waiting."""
    for case in engine.list_cases():
        if engine.maintenance_due(case.id):
            engine.run_maintenance(case.id)
    return engine.maintenance_waiting()


class MaintenanceScheduler(QObject):
    #: how many check-up items wait for a decision (all cases)
    waitingChanged = Signal(int)

    def __init__(
        self,
        host: EngineHost,
        poll_ms: int = POLL_MS,
        first_poll_ms: int = FIRST_POLL_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.host = host
        self.waiting = 0
        self._timer = QTimer(self)
        self._timer.setInterval(poll_ms)
        self._timer.timeout.connect(self.check_now)
        self._first_poll_ms = first_poll_ms
        host.stateChanged.connect(self._state)
        host.operationDidExecute.connect(self._changed)
        if host.state == "ready":
            self._state("ready")

    def _state(self, state: str) -> None:
        if state == "ready":
            QTimer.singleShot(self._first_poll_ms, self.check_now)
            self._timer.start()
        else:
            self._timer.stop()

    def check_now(self) -> None:
        """Run the due checks in a worker (and refresh the badge)."""
        self.host.call(run_due_checks, self._set_waiting, self._failed, name="maintenance-due")

    def _changed(self, changes: Any, _origin: object) -> None:
        if getattr(changes, "maintenance", False):
            self.host.call(
                lambda e: e.maintenance_waiting(),
                self._set_waiting,
                self._failed,
                name="maintenance-count",
            )

    def _set_waiting(self, count: int) -> None:
        if count != self.waiting:
            self.waiting = count
            self.waitingChanged.emit(count)

    @staticmethod
    def _failed(exc: BaseException) -> None:
        log.warning("memory check-up: %s", exc)
