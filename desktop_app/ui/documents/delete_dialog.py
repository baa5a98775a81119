"""Confirm deleting a document, and choose which of the notes drawn from it to forget too.

The notes are listed with a check box each, unchecked: forgetting is final, and a fact the
lawyer has checked may be worth keeping after its file goes.  Note text is shown as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui import texts
from desktop_app.ui.safe_text import plain_label


class DeleteDocumentDialog(QDialog):
    def __init__(self, document: Any, notes: Sequence[Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Delete document"))
        self.resize(600, 440 if notes else 200)
        lay = QVBoxLayout(self)
        question = plain_label(
            self.tr(
                "Delete %1 for good? Its copy in the data folder and its passages are erased, "
                "from every backup too."
            ).replace("%1", document.name)
        )
        question.setWordWrap(True)
        lay.addWidget(question)
        self.notes_list = QListWidget()
        if notes:
            lay.addWidget(
                QLabel(self.tr("Forget these memories drawn from it too (checked ones only):"))
            )
            for note in notes:
                item = QListWidgetItem(f"[{texts.category_label(note.category)}] {note.content}")
                item.setData(Qt.ItemDataRole.UserRole, note.id)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Unchecked)
                self.notes_list.addItem(item)
            self.notes_list.setWordWrap(True)
            lay.addWidget(self.notes_list, 1)
            row = QHBoxLayout()
            self.all_button = QPushButton(self.tr("Check all"))
            self.none_button = QPushButton(self.tr("Check none"))
            self.all_button.clicked.connect(lambda: self._check_all(True))
            self.none_button.clicked.connect(lambda: self._check_all(False))
            row.addWidget(self.all_button)
            row.addWidget(self.none_button)
            row.addStretch(1)
            lay.addLayout(row)
            kept = QLabel(self.tr("Unchecked memories stay; they no longer point to a page."))
            kept.setObjectName("Muted")
            lay.addWidget(kept)
        else:
            self.notes_list.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.delete_button = buttons.addButton(
            self.tr("Delete"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.delete_button.setProperty("role", "danger")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setDefault(True)
        lay.addWidget(buttons)

    def _check_all(self, on: bool) -> None:
        state = Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
        for i in range(self.notes_list.count()):
            self.notes_list.item(i).setCheckState(state)

    def checked_note_ids(self) -> list[str]:
        return [
            self.notes_list.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(self.notes_list.count())
            if self.notes_list.item(i).checkState() == Qt.CheckState.Checked
        ]
