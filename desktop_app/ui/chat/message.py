"""One message in the chat: Markdown body, action buttons, memory chips; and the error card."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QResizeEvent, QTextOption
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui.icons import icon
from desktop_app.ui.theme import tokens


class MarkdownView(QTextBrowser):
    """A QTextBrowser that grows to its content instead of scrolling."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MessageBody")
        self.setOpenExternalLinks(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.document().setDocumentMargin(2)
        self.document().setDefaultStyleSheet(
            f"a {{ color: {tokens()['link']}; }} code {{ background: {tokens()['hover']}; }}"
            f" pre {{ background: {tokens()['hover']}; }} table {{ border-collapse: collapse; }}"
            f" th, td {{ border: 1px solid {tokens()['border']}; padding: 3px 6px; }}"
        )
        self.document().contentsChanged.connect(self._fit)
        self._markdown = ""

    def set_markdown(self, text: str) -> None:
        self._markdown = text
        self.setMarkdown(text)
        self._fit()

    def markdown(self) -> str:
        return self._markdown

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        doc = self.document()
        doc.setTextWidth(self.viewport().width())
        height = int(doc.size().height()) + 4
        if height != self.height():
            self.setFixedHeight(max(height, 22))


class Chip(QPushButton):
    def __init__(self, icon_name: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(icon(icon_name, tokens()["chip_text"]), text, parent)
        self.setObjectName("Chip")
        self.setIconSize(QSize(13, 13))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)


class MessageWidget(QFrame):
    """A user or assistant message. Assistant messages carry Copy / Retry and memory chips."""

    copyRequested = Signal()
    retryRequested = Signal()
    memoriesRequested = Signal(object)  # list of note ids
    learnedRequested = Signal(object)  # list of notes learned after this turn

    def __init__(self, role: str, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.setObjectName("UserBubble" if role == "user" else "AssistantBubble")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.injected_ids: list[str] = []
        self.learned: list[object] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(14, 10, 14, 8)
        outer.setSpacing(4)
        who = QLabel(self.tr("You") if role == "user" else self.tr("LexMem"))
        who.setObjectName("MessageRole")
        outer.addWidget(who)
        self.body = MarkdownView()
        outer.addWidget(self.body)

        self.footer = QHBoxLayout()
        self.footer.setSpacing(6)
        self.memory_chip = Chip("memory", "")
        self.memory_chip.clicked.connect(
            lambda: self.memoriesRequested.emit(list(self.injected_ids))
        )
        self.memory_chip.hide()
        self.learned_chip = Chip("sparkles", "")
        self.learned_chip.clicked.connect(lambda: self.learnedRequested.emit(list(self.learned)))
        self.learned_chip.hide()
        self.status_label = QLabel()
        self.status_label.setObjectName("Muted")
        self.status_label.hide()
        self.footer.addWidget(self.memory_chip)
        self.footer.addWidget(self.learned_chip)
        self.footer.addWidget(self.status_label)
        self.footer.addStretch(1)
        self.copy_button = self._tool("copy", self.tr("Copy"))
        self.copy_button.clicked.connect(self._copy)
        self.retry_button = self._tool("retry", self.tr("Retry"))
        self.retry_button.clicked.connect(self.retryRequested)
        self.footer.addWidget(self.copy_button)
        self.footer.addWidget(self.retry_button)
        outer.addLayout(self.footer)
        self.retry_button.setVisible(False)
        self.copy_button.setVisible(role == "assistant")
        self.set_text(text)

    def _tool(self, name: str, tip: str) -> QToolButton:
        b = QToolButton()
        b.setIcon(icon(name, tokens()["muted"]))
        b.setIconSize(QSize(15, 15))
        b.setToolTip(tip)
        b.setAccessibleName(tip)
        return b

    def set_text(self, text: str) -> None:
        if self.role == "user":
            # the user's words are shown as typed, not interpreted as Markdown
            self.body.setPlainText(text)
            self.body._markdown = text
            self.body._fit()
        else:
            self.body.set_markdown(text)

    def text(self) -> str:
        return self.body.markdown()

    def set_pending(self, pending: bool) -> None:
        self.status_label.setText(self.tr("Thinking…") if pending else "")
        self.status_label.setVisible(pending)
        self.copy_button.setEnabled(not pending)

    def set_stopped(self) -> None:
        self.status_label.setText(self.tr("Stopped"))
        self.status_label.setVisible(True)

    def set_retry_visible(self, visible: bool) -> None:
        self.retry_button.setVisible(visible and self.role == "assistant")

    def set_injected(self, note_ids: Sequence[str]) -> None:
        self.injected_ids = list(note_ids)
        n = len(self.injected_ids)
        self.memory_chip.setText(self.tr("Used %n memories", "", n))
        self.memory_chip.setToolTip(self.tr("Memories recalled for this reply; click to see them"))
        self.memory_chip.setVisible(n > 0)

    def set_learned(self, notes: Sequence[object]) -> None:
        self.learned = list(notes)
        n = len(self.learned)
        self.learned_chip.setText(self.tr("Memory updated · %n", "", n))
        self.learned_chip.setToolTip(self.tr("What was learned from this turn; click to see it"))
        self.learned_chip.setVisible(n > 0)

    def _copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
        self.copy_button.setIcon(icon("check", tokens()["muted"]))
        QTimer.singleShot(1200, lambda: self.copy_button.setIcon(icon("copy", tokens()["muted"])))


class ErrorCard(QFrame):
    """An inline error in plain words with the buttons that fix it."""

    actionRequested = Signal(str)  # "settings" / "retry"

    def __init__(
        self,
        text: str,
        actions: Sequence[tuple[str, str]],
        details: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("ErrorCard")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(12, 10, 12, 10)
        lay.setSpacing(10)
        badge = QLabel()
        badge.setPixmap(icon("alert", tokens()["error_text"]).pixmap(18, 18))
        badge.setAlignment(Qt.AlignmentFlag.AlignTop)
        lay.addWidget(badge)
        self.label = QLabel(text)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if details:
            self.label.setToolTip(details)
        lay.addWidget(self.label, 1)
        self.buttons: dict[str, QPushButton] = {}
        for key, label in actions:
            b = QPushButton(label)
            if key == actions[0][0]:
                b.setProperty("role", "primary")
            b.clicked.connect(lambda _=False, k=key: self.actionRequested.emit(k))
            lay.addWidget(b, 0, Qt.AlignmentFlag.AlignVCenter)
            self.buttons[key] = b
