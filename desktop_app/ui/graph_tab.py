"""The Graph tab: hosts ``desktop_app.ui.graph.GraphView`` (or a placeholder without it) and
feeds it from the engine in workers."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from desktop_app.core.errors import NotFoundError
from desktop_app.ui.engine_host import EngineHost

log = logging.getLogger(__name__)


class GraphTab(QWidget):
    openNoteRequested = Signal(str)

    def __init__(self, host: EngineHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.case_id: str | None = None
        self._dirty = True
        self._token = 0
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.view: Any = None
        self._placeholder = QLabel(self.tr("The memory graph will appear here."))
        self._placeholder.setObjectName("EmptyState")
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(self._placeholder)
        # The graph module imports the memory package (lancedb, openai: ~1 s). It is built
        # only once the engine is open — the worker has imported all that by then, so the
        # UI thread neither pays for it before the first paint nor waits on the import lock.
        host.stateChanged.connect(self._maybe_build)
        host.operationDidExecute.connect(self._operation_executed)
        self._maybe_build(host.state)

    def _maybe_build(self, state: str) -> None:
        if state != "ready":
            return
        if self.view is not None:  # reopened (a restore): the notes may all differ
            self._mark_dirty()
            return
        try:
            from desktop_app.ui.graph import GraphView
        except Exception as exc:  # the graph module is optional while it is being built
            log.info("graph view unavailable: %r", exc)
            return
        self.view = GraphView(self)
        self.layout().replaceWidget(self._placeholder, self.view)
        self._placeholder.hide()
        # the detail panel's note and history come from a worker, never the UI thread
        self.view.set_details_loader(self._load_details)
        self.view.noteActivated.connect(self.openNoteRequested)
        self.view.positionsChanged.connect(self._save_positions)
        self._dirty = True
        if self.isVisible():
            self.reload()

    def _load_details(self, note_id: str, deliver: Callable[[Any, Any], None]) -> None:
        def fetch(e: Any) -> tuple[Any, Any]:
            try:
                return e.get_note(note_id), e.note_history(note_id)
            except NotFoundError:  # deleted meanwhile: the node still shows what it has
                return None, []

        self.host.call(
            fetch,
            lambda r: deliver(*r),
            lambda exc: log.warning("note details: %r", exc),
            name="graph-note-details",
        )

    def set_case(self, case_id: str | None) -> None:
        self.case_id = case_id
        self._dirty = True
        if self.isVisible():
            self.reload()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._dirty:
            self.reload()

    def _operation_executed(self, changes: Any, _origin: object) -> None:
        # the graph shows the case's own notes and links (no global ones)
        if self.case_id is not None and changes.touches_notes(self.case_id, include_global=False):
            self._mark_dirty()

    def _mark_dirty(self) -> None:
        self._dirty = True
        if self.isVisible():
            self.reload()

    def reload(self) -> None:
        if self.view is None:
            return
        self._dirty = False
        case_id = self.case_id
        self._token += 1
        token = self._token
        if case_id is None:
            self.view.clear()
            return
        self.host.call(
            lambda e: (e.graph(case_id), e.graph_positions(case_id)),
            lambda r: self._show(token, *r),
            lambda exc: log.warning("graph load failed: %r", exc),
            name="graph",
        )

    def _show(self, token: int, graph: Any, positions: Any) -> None:
        if token == self._token and self.view is not None:
            self.view.set_graph(graph, positions)

    def _save_positions(self, positions: dict) -> None:
        case_id = self.case_id
        if case_id is not None and positions:
            self.host.call(
                lambda e: e.save_graph_positions(case_id, positions), name="graph-positions"
            )
