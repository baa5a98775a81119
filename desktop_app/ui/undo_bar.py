"""A short message after a destructive action, with the button that takes it back."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from desktop_app.ui.icons import icon

#: long enough to read the message and change one's mind, short enough not to linger
UNDO_SECONDS = 10


class UndoBar(QFrame):
    """One message at a time: a new one replaces the old (whose undo is then no longer
    offered), and it hides itself after ``UNDO_SECONDS``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("UndoBar")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(12, 6, 6, 6)
        lay.setSpacing(8)
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # it may quote a note
        self.label.setWordWrap(True)
        lay.addWidget(self.label, 1)
        self.undo_button = QPushButton(icon("undo"), self.tr("Undo"))
        self.undo_button.clicked.connect(self._undo)
        lay.addWidget(self.undo_button)
        self.close_button = QToolButton()
        self.close_button.setText("×")
        self.close_button.setToolTip(self.tr("Dismiss"))
        self.close_button.clicked.connect(self.dismiss)
        lay.addWidget(self.close_button)
        self._undo_action: Callable[[], None] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.dismiss)
        self.hide()

    def show_message(self, text: str, undo: Callable[[], None] | None = None) -> None:
        self.label.setText(text)
        self._undo_action = undo
        self.undo_button.setVisible(undo is not None)
        self.undo_button.setEnabled(True)
        self.show()
        self._timer.start(UNDO_SECONDS * 1000)

    def dismiss(self) -> None:
        self._timer.stop()
        self._undo_action = None
        self.hide()

    def _undo(self) -> None:
        action, self._undo_action = self._undo_action, None
        self.dismiss()
        if action is not None:
            action()
