"""The side panel that shows the clicked note: keywords, tags, context, history."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from desktop_app.memory.types import GraphNode, HistoryEntry, Note

from .text import detail_html

log = logging.getLogger(__name__)

NoteProvider = Callable[[str], Note | None]
HistoryProvider = Callable[[str], Sequence[HistoryEntry]]
#: asynchronous alternative to the providers: ``loader(note_id, deliver)`` fetches off the UI
#: thread and later calls ``deliver(note, history)`` on it
Delivery = Callable[[Note | None, Sequence[HistoryEntry]], None]
DetailsLoader = Callable[[str, Delivery], None]


class DetailPanel(QWidget):
    editRequested = Signal(str)
    focusRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note_provider: NoteProvider | None = None
        self.history_provider: HistoryProvider | None = None
        self.details_loader: DetailsLoader | None = None
        self.browser = QTextBrowser(self)
        self.browser.setOpenLinks(False)
        self.edit_button = QPushButton(self.tr("Edit in Notes"), self)
        self.focus_button = QPushButton(self.tr("Focus"), self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.focus_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.browser)
        lay.addLayout(buttons)
        self._node_id = ""
        self.edit_button.clicked.connect(
            lambda: self._node_id and self.editRequested.emit(self._node_id)
        )
        self.focus_button.clicked.connect(
            lambda: self._node_id and self.focusRequested.emit(self._node_id)
        )
        self.show_node(None)

    @property
    def node_id(self) -> str:
        return self._node_id

    def show_node(self, node: GraphNode | None) -> None:
        """Show a node; the full note and its history come from the details loader (off the
        UI thread; the node shows at once, its details when they arrive) or from the
        synchronous providers."""
        self._node_id = node.id if node else ""
        self.edit_button.setEnabled(node is not None)
        self.focus_button.setEnabled(node is not None)
        if node is None:
            hint = self.tr("Click a note to see its details.")  # lupdate misses tr() in f-strings
            self.browser.setHtml(f"<p style='color:#888'>{hint}</p>")
            return
        if self.details_loader is not None:
            self.browser.setHtml(detail_html(node, None, ()))
            node_id = node.id

            def deliver(note: Note | None, history: Sequence[HistoryEntry]) -> None:
                if self._node_id == node_id:  # the user may have clicked on meanwhile
                    self.browser.setHtml(detail_html(node, note, history))

            self.details_loader(node_id, deliver)
            return
        note: Note | None = None
        history: Sequence[HistoryEntry] = ()
        try:
            if self.note_provider is not None:
                note = self.note_provider(node.id)
            if self.history_provider is not None:
                history = self.history_provider(node.id)
        except Exception:  # a vanished note must not break the map; show what we have
            log.warning("could not load details of note %s", node.id, exc_info=True)
        self.browser.setHtml(detail_html(node, note, history))
