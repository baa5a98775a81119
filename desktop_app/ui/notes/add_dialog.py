"""Add a memory by hand."""

from __future__ import annotations

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
            self.tr(
                "One fact, understandable on its own, e.g. “The hearing is on 15 July 2024 at 9:30.”"
            )
        )
        lay.addWidget(self.content, 1)
        form = QFormLayout()
        self.category = QComboBox()
        self.category.addItem(self.tr("Automatic"), None)
        for value, label in texts.categories():
            self.category.addItem(label, value)
        form.addRow(self.tr("Category"), self.category)
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
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Add"))
        self.ok_button.setProperty("role", "primary")
        self.ok_button.setEnabled(False)
        self.content.textChanged.connect(
            lambda: self.ok_button.setEnabled(bool(self.content.toPlainText().strip()))
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def values(self) -> dict[str, Any]:
        tags = [t.strip() for t in self.tags.text().replace("，", ",").split(",") if t.strip()]
        return {
            "content": self.content.toPlainText().strip(),
            "category": self.category.currentData(),
            "tags": tags or None,
            "pinned": self.pinned.isChecked(),
            "global": self.scope.currentData() == "global",
        }
