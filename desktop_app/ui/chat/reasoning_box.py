"""The model's thinking under a reply: a disclosure, collapsed by default, in plain text.

Reasoning models show their thinking before the answer (``<think>…</think>`` or a separate
field). It is the model's text, so never rendered as HTML or Markdown, and it is kept apart
from the answer the lawyer reads, copies and the memory learns from; it lives only as long as
the bubble (it is never stored).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget


class ReasoningDisclosure(QWidget):
    """A "Reasoning" toggle over the thinking text; hidden while there is no thinking."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ReasoningBox")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 2)
        lay.setSpacing(2)
        self.toggle = QToolButton()
        self.toggle.setObjectName("ReasoningToggle")
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setText(self.tr("Reasoning"))
        self.toggle.setToolTip(self.tr("The model's thinking before its answer (not saved)"))
        self.toggle.toggled.connect(self._toggled)
        lay.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.body = QLabel()
        self.body.setObjectName("ReasoningText")
        self.body.setTextFormat(Qt.TextFormat.PlainText)  # the model's text: never markup
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.body.hide()
        lay.addWidget(self.body)
        self.hide()

    def set_text(self, text: str) -> None:
        self.body.setText(text.strip())
        self.setVisible(bool(self.body.text()))

    def text(self) -> str:
        return self.body.text()

    def is_expanded(self) -> bool:
        return self.toggle.isChecked()

    def _toggled(self, open_: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if open_ else Qt.ArrowType.RightArrow)
        self.body.setVisible(open_)
