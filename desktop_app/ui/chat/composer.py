"""The message input: Enter sends, Shift+Enter inserts a new line; Send turns into Stop."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from desktop_app.ui.icons import icon
from desktop_app.ui.theme import tokens


class _Input(QPlainTextEdit):
    submit = Signal()
    escape = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            # Esc stops a streaming reply even when the window-level shortcut is not active
            self.escape.emit()
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            mods = event.modifiers()
            # Shift+Enter: new line; an input method composing text keeps its Enter
            if not (mods & Qt.KeyboardModifier.ShiftModifier):
                event.accept()
                self.submit.emit()
                return
        super().keyPressEvent(event)


class Composer(QFrame):
    sendRequested = Signal(str)
    stopRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Composer")
        self._streaming = False
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 8, 6)
        lay.setSpacing(6)
        self.input = _Input()
        self.input.setPlaceholderText(
            self.tr("Ask about this case… (Enter to send, Shift+Enter for a new line)")
        )
        self.input.setTabChangesFocus(True)
        self.input.setFixedHeight(64)
        self.input.submit.connect(self._submit)
        self.input.escape.connect(lambda: self._streaming and self.stopRequested.emit())
        self.input.textChanged.connect(self._update_button)
        lay.addWidget(self.input, 1)
        col = QVBoxLayout()
        col.addStretch(1)
        self.button = QToolButton()
        self.button.setIconSize(QSize(18, 18))
        self.button.setFixedSize(34, 34)
        self.button.clicked.connect(self._clicked)
        col.addWidget(self.button)
        lay.addLayout(col)
        self._update_button()

    def text(self) -> str:
        return self.input.toPlainText()

    def set_text(self, text: str) -> None:
        self.input.setPlainText(text)

    def set_streaming(self, streaming: bool) -> None:
        self._streaming = streaming
        self._update_button()

    def _update_button(self) -> None:
        t = tokens()
        if self._streaming:
            self.button.setIcon(icon("stop", "#ffffff"))
            self.button.setToolTip(self.tr("Stop (Esc)"))
            self.button.setEnabled(True)
            bg = t["danger"]
        else:
            self.button.setIcon(icon("send", "#ffffff"))
            self.button.setToolTip(self.tr("Send (Enter)"))
            self.button.setEnabled(bool(self.text().strip()))
            bg = t["accent"] if self.button.isEnabled() else t["border"]
        self.button.setStyleSheet(f"QToolButton {{ background: {bg}; border-radius: 17px; }}")

    def _clicked(self) -> None:
        if self._streaming:
            self.stopRequested.emit()
        else:
            self._submit()

    def _submit(self) -> None:
        if self._streaming:
            return
        text = self.text().strip()
        if text:
            self.sendRequested.emit(text)
