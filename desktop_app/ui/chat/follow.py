"""Keeps the chat at the newest message while the reader is there, and offers a way back
when they have scrolled up to read something older."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QPushButton, QScrollArea

# within this many pixels of the end counts as "at the bottom": a wheel notch short of the
# end must not stop the following
BOTTOM_SLACK = 24


class StreamFollower(QObject):
    """Follows the end of ``scroll`` as content grows, unless the user scrolled away from it.

    Growth (a new message, a streamed chunk, a bubble re-wrapping) changes the scroll bar's
    range; while following, every range change moves to the new end. Any scroll the user makes
    decides whether they are still at the end. Away from it, a "jump to latest" button floats
    over the bottom of the view.
    """

    def __init__(self, scroll: QScrollArea) -> None:
        super().__init__(scroll)
        self.scroll = scroll
        self.following = True
        self._moving = False  # our own setValue, not the user's
        self.jump_button = QPushButton(scroll)
        self.jump_button.setObjectName("JumpToLatest")
        self.jump_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.jump_button.clicked.connect(self.jump_to_latest)
        self.jump_button.hide()
        self.retranslate()
        bar = scroll.verticalScrollBar()
        bar.rangeChanged.connect(self._range_changed)
        bar.valueChanged.connect(self._value_changed)
        scroll.installEventFilter(self)

    def retranslate(self) -> None:
        self.jump_button.setText("↓ " + self.tr("Jump to latest"))
        self.jump_button.adjustSize()
        self._place_button()

    def at_bottom(self) -> bool:
        bar = self.scroll.verticalScrollBar()
        return bar.value() >= bar.maximum() - BOTTOM_SLACK

    def jump_to_latest(self) -> None:
        """Go to the newest message and follow again (also used when the user sends)."""
        self.following = True
        self._move_to_end()
        self._update_button()

    def _move_to_end(self) -> None:
        bar = self.scroll.verticalScrollBar()
        self._moving = True
        try:
            bar.setValue(bar.maximum())
        finally:
            self._moving = False

    def _range_changed(self, _minimum: int, _maximum: int) -> None:
        if self.following:
            self._move_to_end()
        self._update_button()

    def _value_changed(self, _value: int) -> None:
        if self._moving:
            return
        self.following = self.at_bottom()
        self._update_button()

    def _update_button(self) -> None:
        show = not self.following and not self.at_bottom()
        if show:
            self._place_button()
            self.jump_button.raise_()
        self.jump_button.setVisible(show)

    def _place_button(self) -> None:
        b, area = self.jump_button, self.scroll
        b.adjustSize()
        b.move((area.width() - b.width()) // 2, area.height() - b.height() - 12)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.scroll and event.type() == QEvent.Type.Resize:
            self._place_button()
        return False
