"""A combo box that shortens its current text with "…" instead of cutting it off, and shows
the whole text as its tooltip (a long case name in the narrow sidebar)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter, QWidget


class ElidingComboBox(QComboBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentTextChanged.connect(self.setToolTip)

    def _label_width(self, opt: QStyleOptionComboBox) -> int:
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, self
        )
        icon = opt.iconSize.width() + 6 if not opt.currentIcon.isNull() else 0
        return max(0, field.width() - icon - 4)

    def display_text(self) -> str:
        """The current text as painted: whole if it fits, else shortened with "…"."""
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        return self.fontMetrics().elidedText(opt.currentText, Qt.TextElideMode.ElideRight, self._label_width(opt))

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        opt.currentText = self.fontMetrics().elidedText(
            opt.currentText, Qt.TextElideMode.ElideRight, self._label_width(opt)
        )
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)
