"""Settle an open conflict from the check-up: the two notes side by side (who asserts each,
when, the text) and the lawyer's choice — this one holds, that one holds, or both.  Nothing
is chosen in advance: 确定 stays disabled until the lawyer picks."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui import texts
from desktop_app.ui.notes.merge_dialog import MergeNote, note_card
from desktop_app.ui.safe_text import plain_label

BOTH = "both"


class ConflictDialog(QDialog):
    def __init__(self, notes: list[MergeNote], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        if len(notes) != 2:
            raise ValueError("a conflict is between two notes")
        self.notes = list(notes)
        self.setWindowTitle(self.tr("Settle a conflict"))
        self.resize(860, 440)
        intro = plain_label(
            self.tr("These two memories contradict each other. Which one holds? The other is "
                    "expired and kept in history.")
        )  # fmt: skip
        intro.setWordWrap(True)
        self.choice = QButtonGroup(self)
        self.radios: list[QRadioButton] = []
        columns = QHBoxLayout()
        for index, note in enumerate(self.notes):
            columns.addWidget(self._column(index, note), 1)
        self.both = QRadioButton(self.tr("Both hold (they do not really contradict)"))
        self.choice.addButton(self.both, len(self.notes))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Settle"))
        self.ok_button.setEnabled(False)  # the lawyer must pick
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Skip"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.choice.idToggled.connect(lambda _i, on: on and self.ok_button.setEnabled(True))
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(columns, 1)
        layout.addWidget(self.both)
        layout.addWidget(self.buttons)

    def _column(self, index: int, note: MergeNote) -> QWidget:
        source = texts.source_kind_label(note.source_kind) or texts.origin_label(note.origin)
        radio = QRadioButton(self.tr("This one holds (%1)").replace("%1", source))
        self.choice.addButton(radio, index)
        self.radios.append(radio)
        box, _lay = note_card(note, radio)
        return box

    def keep(self) -> str | None:
        """The id of the note that holds, ``"both"``, or None when nothing is picked."""
        picked = self.choice.checkedId()
        if picked < 0:
            return None
        return BOTH if picked == len(self.notes) else self.notes[picked].id
