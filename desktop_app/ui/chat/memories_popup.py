"""A small window listing notes (the memories a reply used, or what a turn taught)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout, QWidget

from desktop_app.ui import texts
from desktop_app.ui.theme import CATEGORY_COLORS, tokens


class MemoriesPopup(QDialog):
    openInNotes = Signal(object)  # list of note ids

    def __init__(
        self, title: str, notes: Sequence[Any], missing: int = 0, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(520, 380)
        self._ids = [n.id for n in notes]
        lay = QVBoxLayout(self)
        head = QLabel(title)
        head.setObjectName("AppTitle")
        lay.addWidget(head)
        self.view = QTextBrowser()
        self.view.setOpenLinks(False)
        self.view.setHtml(self._html(notes, missing))
        lay.addWidget(self.view, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.open_button = buttons.addButton(
            self.tr("Show in Notes"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.open_button.setEnabled(bool(self._ids))
        self.open_button.clicked.connect(self._open)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def _html(self, notes: Sequence[Any], missing: int) -> str:
        t = tokens()
        rows = []
        for n in notes:
            color = CATEGORY_COLORS.get(n.category, t["muted"])
            status = (
                "" if n.status == "active" else f" · {html.escape(texts.status_label(n.status))}"
            )
            rows.append(
                f"<p style='margin:6px 0'><span style='color:{color};font-weight:600'>"
                f"{html.escape(texts.category_label(n.category))}</span>"
                f"<span style='color:{t['muted']}'>{status}</span><br>{html.escape(n.content)}</p>"
            )
        if missing:
            rows.append(
                f"<p style='color:{t['muted']}'>"
                + html.escape(self.tr("%n memories have since been deleted.", "", missing))
                + "</p>"
            )
        if not rows:
            rows.append(
                f"<p style='color:{t['muted']}'>"
                + html.escape(self.tr("Nothing to show."))
                + "</p>"
            )
        return "".join(rows)

    def _open(self) -> None:
        self.openInNotes.emit(list(self._ids))
        self.accept()
