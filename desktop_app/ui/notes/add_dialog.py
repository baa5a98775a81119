"""Add a memory by hand: its text, and when the fact happened (proposed from the text,
"2024年7月15日…开庭" is filed under 2024-07-15, never under the day it was typed)."""

from __future__ import annotations

from datetime import date
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui import texts


class AddNoteDialog(QDialog):
    def __init__(self, has_case: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add memory"))
        self.resize(460, 320)
        lay = QVBoxLayout(self)
        self.content = QPlainTextEdit()
        self.content.setPlaceholderText(
            self.tr("One fact, understandable on its own, e.g. “The hearing is on 15 July 2024 at 9:30.”")
        )
        lay.addWidget(self.content, 1)
        form = QFormLayout()
        self.category = QComboBox()
        self.category.addItem(self.tr("Automatic"), None)
        for value, label in texts.categories():
            self.category.addItem(label, value)
        form.addRow(self.tr("Category"), self.category)
        self.event_date = QLineEdit()
        self.event_date.setPlaceholderText(self.tr("e.g. 2024-07-15 (when it happened)"))
        self.event_date.setToolTip(
            self.tr("When the fact happened or takes effect, not when it was recorded; "
                    "2024-07-15, 2024-07 or July 15, 2024")
        )
        self._date_typed = False  # the lawyer typed a date: the text no longer proposes one
        self.event_date.textEdited.connect(self._date_edited)
        form.addRow(self.tr("Event date"), self.event_date)
        self.source_kind = QComboBox()
        self.source_kind.addItem(self.tr("Automatic"), None)
        for value, label in texts.source_kinds():
            self.source_kind.addItem(label, value)
        self.source_kind.setToolTip(self.tr("Whose assertion this is"))
        form.addRow(self.tr("Source"), self.source_kind)
        self.tags = QLineEdit()
        self.tags.setPlaceholderText(self.tr("comma-separated"))
        form.addRow(self.tr("Tags"), self.tags)
        self.scope = QComboBox()
        if has_case:
            self.scope.addItem(self.tr("This case"), "case")
        self.scope.addItem(self.tr("Global (all cases)"), "global")
        form.addRow(self.tr("Scope"), self.scope)
        self.pinned = QCheckBox(self.tr("Always recall for this case"))
        form.addRow(self.tr("Pinned"), self.pinned)
        lay.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Add"))
        self.ok_button.setProperty("role", "primary")
        self.ok_button.setEnabled(False)
        self.content.textChanged.connect(self._content_changed)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def _content_changed(self) -> None:
        from desktop_app.memory.dates import event_date_of  # its patterns compile on first use

        text = self.content.toPlainText()
        if not self._date_typed:
            # the date the text names (relative ones from today), as a proposal
            self.event_date.setText(event_date_of(text, date.today()) or "")
        self._validate()

    def _date_edited(self, _text: str) -> None:
        self._date_typed = True
        self._validate()

    def _validate(self) -> None:
        from desktop_app.memory.dates import parse_event_date

        typed = self.event_date.text().strip()
        date_ok = not typed or parse_event_date(typed) is not None
        self.event_date.setStyleSheet("" if date_ok else "QLineEdit { border: 1px solid #dc2626; }")
        self.ok_button.setEnabled(bool(self.content.toPlainText().strip()) and date_ok)

    def values(self) -> dict[str, Any]:
        from desktop_app.memory.dates import parse_event_date

        tags = [t.strip() for t in self.tags.text().replace("，", ",").split(",") if t.strip()]
        return {
            "content": self.content.toPlainText().strip(),
            "category": self.category.currentData(),
            "tags": tags or None,
            "pinned": self.pinned.isChecked(),
            "global": self.scope.currentData() == "global",
            "event_date": parse_event_date(self.event_date.text().strip()),
            "source_kind": self.source_kind.currentData(),
        }
