"""The status bar: model, note count, pending memory jobs, online/offline, engine state."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QStatusBar, QWidget

from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.icons import icon
from desktop_app.ui.theme import tokens


class StatusBar(QStatusBar):
    #: the check-up badge was clicked
    maintenanceClicked = Signal()

    def __init__(self, host: EngineHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.case_id: str | None = None
        self._count_token = 0
        self.setSizeGripEnabled(False)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)  # indeterminate: the engine is loading
        self.busy.setFixedWidth(90)
        self.busy.setFixedHeight(10)
        self.busy.setTextVisible(False)
        self.state_label = QLabel()
        self.conn_icon = QLabel()
        self.model_label = QLabel()
        self.notes_label = QLabel()
        self.jobs_label = QLabel()
        # a quiet badge: flat, shown only while check-up proposals wait for a decision
        self.maintenance_badge = QPushButton()
        self.maintenance_badge.setFlat(True)
        self.maintenance_badge.clicked.connect(self.maintenanceClicked)
        self.maintenance_badge.hide()
        self.addPermanentWidget(self.maintenance_badge)
        self.addWidget(self.busy)
        self.addWidget(self.state_label)
        for w in (self.notes_label, self.jobs_label, self.model_label, self.conn_icon):
            self.addPermanentWidget(w)
        host.stateChanged.connect(self._state)
        host.statsChanged.connect(self._stats)
        host.connectivityChanged.connect(lambda _c: self._connectivity())
        host.llmChanged.connect(self._connectivity)
        self._state(host.state)
        self._connectivity()
        self.notes_label.setText("")
        self.jobs_label.hide()

    def _state(self, state: str) -> None:
        loading = state in ("idle", "loading")
        self.busy.setVisible(loading)
        if loading:
            self.state_label.setText(self.tr("Loading the memory library…"))
        elif state == "failed":
            self.state_label.setText(self.tr("Memory library unavailable"))
        else:
            self.state_label.setText("")

    def set_case(self, case_id: str | None) -> None:
        self.case_id = case_id
        self._count_case()

    def _count_case(self) -> None:
        """The case's own memories and with the global ones: the two numbers the notes list
        shows (its "Global too" switch off and on), never the whole library's."""
        case_id = self.case_id
        self._count_token += 1
        token = self._count_token
        if case_id is None:
            self.notes_label.setText("")
            return

        def count(e: Any) -> tuple[int, int]:
            return e.count_notes(case_id, False, "active"), e.count_notes(case_id, True, "active")

        def show(counts: tuple[int, int]) -> None:
            if token != self._count_token:
                return
            own, with_global = counts
            self.notes_label.setText(
                self.tr("This case: %1 memories · with global: %2")
                .replace("%1", str(own))
                .replace("%2", str(with_global))
            )
            self.notes_label.setToolTip(
                self.tr("Memories in effect (not expired or replaced): %1 in this case, %2 with the global ones (preferences, reusable knowledge).")
                .replace("%1", str(own))
                .replace("%2", str(with_global))
            )

        self.host.call(count, show, name="case-counts")

    def _stats(self, stats: Any) -> None:
        self._count_case()
        pending = int(stats.pending_jobs)
        self.jobs_label.setText(self.tr("%n memory jobs pending", "", pending))
        self.jobs_label.setToolTip(
            self.tr("Memory work waiting for the model (runs when it is reachable)")
        )
        self.jobs_label.setVisible(pending > 0)

    def _connectivity(self) -> None:
        s = self.host.settings
        c = self.host.connectivity
        if c == "none":
            self.model_label.setText(self.tr("No model connected"))
        else:
            self.model_label.setText(s.chat_model)
        t = tokens()
        if c == "misconfigured":
            from desktop_app.ui import texts

            error = self.host.llm_error
            why = texts.in_ui_language(error.user_message) if error is not None else ""
            self.model_label.setText(self.tr("Model setup needs attention"))
            self.conn_icon.setPixmap(icon("offline", t["danger"]).pixmap(14, 14))
            self.conn_icon.setToolTip(
                self.tr("The model connection cannot work as set up: %1").replace("%1", why)
            )
        elif c in ("none", "offline"):
            self.conn_icon.setPixmap(icon("offline", t["danger"] if c == "offline" else t["muted"]).pixmap(14, 14))
            self.conn_icon.setToolTip(
                self.tr("Offline: the model endpoint is not reachable; memory work is queued")
                if c == "offline"
                else self.tr("Offline: no model connected; notes and graph still work")
            )
        else:
            self.conn_icon.setPixmap(
                icon("online", t["muted"] if c == "unknown" else "#16a34a").pixmap(14, 14)
            )
            self.conn_icon.setToolTip(
                self.tr("Online") if c == "online" else self.tr("Model configured")
            )
        self.conn_icon.setAccessibleName(self.conn_icon.toolTip())

    def set_maintenance_waiting(self, count: int) -> None:
        self.maintenance_badge.setText(self.tr("Check-up: %n to review", "", count))
        self.maintenance_badge.setToolTip(
            self.tr("The memory check-up proposes clean-ups; nothing changes until you accept")
        )
        self.maintenance_badge.setVisible(count > 0)
