"""One message in the chat: Markdown body, action buttons, memory chips; and the error card."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QGuiApplication, QResizeEvent, QTextDocument, QTextOption
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

from desktop_app.chat.citations import CitedPassage, cited_in
from desktop_app.ui import dialogs
from desktop_app.ui.chat.reasoning_box import ReasoningDisclosure
from desktop_app.ui.icons import icon
from desktop_app.ui.safe_text import open_link, plain_label, plain_tooltip
from desktop_app.ui.theme import tokens

#: a user message longer than this (characters or lines) shows its start and an "expand"
#: button instead of one screen-filling bubble
COLLAPSE_CHARS = 1200
COLLAPSE_LINES = 24
PREVIEW_CHARS = 400
PREVIEW_LINES = 8


class MarkdownView(QTextBrowser):
    """A QTextBrowser that grows to its content instead of scrolling.

    Its text is the model's (untrusted): Markdown without raw HTML, no resource loaded from
    anywhere (an image link to ``file:///…`` shows nothing), and a link never navigates the
    view — a click on a web address asks first, anything else (``file:``, ``javascript:``)
    does nothing."""

    #: Markdown as GitHub writes it, with raw HTML shown as text
    FEATURES = (
        QTextDocument.MarkdownFeature.MarkdownDialectGitHub
        | QTextDocument.MarkdownFeature.MarkdownNoHTML
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MessageBody")
        # never setSource(): a click on file:///etc/passwd once replaced the bubble with it
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._link_clicked)
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
        self.document().setMarkdown(text, self.FEATURES)
        self._fit()

    def loadResource(self, kind: int, name: QUrl) -> object:
        return None  # no image or style sheet is fetched for untrusted text

    def _link_clicked(self, url: QUrl) -> None:
        open_link(self, url, dialogs.confirm)

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
        super().__init__(icon(icon_name, "chip_text"), text, parent)
        self.setObjectName("Chip")
        self.setIconSize(QSize(13, 13))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)


class MessageWidget(QFrame):
    """A user or assistant message. Assistant messages carry Copy / Retry, memory chips, the
    model's thinking (collapsed) and, for a reply that did not complete, how it ended."""

    copyRequested = Signal()
    retryRequested = Signal()
    memoriesRequested = Signal(object)  # list of note ids
    #: a cited passage was clicked: (document id, passage id) for the viewer
    passageRequested = Signal(str, str)
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
        self.reasoning = ReasoningDisclosure()
        outer.addWidget(self.reasoning)
        self.body = MarkdownView()
        outer.addWidget(self.body)
        self.status = "complete"
        self._retry_allowed = False  # the last reply, while nothing streams
        self.expand_button = QPushButton()
        self.expand_button.setObjectName("LinkButton")
        self.expand_button.setFlat(True)
        self.expand_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.expand_button.clicked.connect(self._toggle_expanded)
        self.expand_button.hide()
        outer.addWidget(self.expand_button, 0, Qt.AlignmentFlag.AlignLeft)
        self._full_text = ""
        self.expanded = False

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
        #: Retry next to "Stopped" / "Cut off" / "Connection broke" (the last reply only)
        self.marker_retry = QPushButton(self.tr("Retry"))
        self.marker_retry.setObjectName("MarkerRetry")
        self.marker_retry.setFlat(True)
        self.marker_retry.setCursor(Qt.CursorShape.PointingHandCursor)
        self.marker_retry.clicked.connect(self.retryRequested)
        self.marker_retry.hide()
        self.footer.addWidget(self.memory_chip)
        self.footer.addWidget(self.learned_chip)
        self.footer.addWidget(self.status_label)
        self.footer.addWidget(self.marker_retry)
        self.footer.addStretch(1)
        self.copy_button = self._tool("copy", self.tr("Copy"))
        self.copy_button.clicked.connect(self._copy)
        self.retry_button = self._tool("retry", self.tr("Retry"))
        self.retry_button.clicked.connect(self.retryRequested)
        self.footer.addWidget(self.copy_button)
        self.footer.addWidget(self.retry_button)
        # the document passages the reply cites ("起诉状.pdf 第3页"), each opening the viewer
        self.citations = QWidget()
        self.citations_layout = QHBoxLayout(self.citations)
        self.citations_layout.setContentsMargins(0, 0, 0, 0)
        self.citations_layout.setSpacing(6)
        self.citations_label = QLabel()
        self.citations_label.setObjectName("Muted")
        self.citations_layout.addWidget(self.citations_label)
        self.citations_layout.addStretch(1)
        self.citations.hide()
        self.passage_chips: list[Chip] = []
        outer.addWidget(self.citations)
        outer.addLayout(self.footer)
        self.retry_button.setVisible(False)
        self.copy_button.setVisible(role == "assistant")
        self.set_text(text)

    def _tool(self, name: str, tip: str) -> QToolButton:
        b = QToolButton()
        b.setIcon(icon(name, "muted"))
        b.setIconSize(QSize(15, 15))
        b.setToolTip(tip)
        b.setAccessibleName(tip)
        return b

    def set_text(self, text: str) -> None:
        self._full_text = text
        if self.role == "user":
            self._show_user_text()
        else:
            self.body.set_markdown(text)

    def is_long(self) -> bool:
        return self.role == "user" and (
            len(self._full_text) > COLLAPSE_CHARS or self._full_text.count("\n") >= COLLAPSE_LINES
        )

    def _show_user_text(self) -> None:
        # the user's words are shown as typed, not interpreted as Markdown
        text = self._full_text
        long = self.is_long()
        if long and not self.expanded:
            lines = text.split("\n")[:PREVIEW_LINES]
            text = "\n".join(lines)[:PREVIEW_CHARS].rstrip() + " …"
        self.body.setPlainText(text)
        self.body._markdown = self._full_text
        self.body._fit()
        self.expand_button.setVisible(long)
        self.expand_button.setText(
            self.tr("Show less")
            if self.expanded
            else self.tr("Show all (%1 characters)").replace("%1", f"{len(self._full_text):,}")
        )

    def _toggle_expanded(self) -> None:
        self.expanded = not self.expanded
        self._show_user_text()

    def text(self) -> str:
        return self._full_text if self.role == "user" else self.body.markdown()

    def set_reasoning(self, text: str) -> None:
        """The model's thinking, shown collapsed under "Reasoning" (plain text)."""
        self.reasoning.set_text(text)

    def set_pending(self, pending: bool) -> None:
        self.status_label.setObjectName("Muted")
        self.status_label.setText(self.tr("Thinking…") if pending else "")
        self.status_label.setToolTip("")
        self.status_label.setVisible(pending)
        self.copy_button.setEnabled(not pending)

    def set_status(self, status: str) -> None:
        """How the reply ended: "complete" shows nothing; "stopped", "truncated" (the token
        budget cut it off) and "interrupted" (the connection broke) are marked, with Retry."""
        self.status = status
        marks = {
            "stopped": (self.tr("Stopped"), self.tr("You stopped this reply; what came is kept.")),
            "truncated": (
                self.tr("Cut off"),
                self.tr("The reply reached the model's length limit and was cut off."),
            ),
            "interrupted": (
                self.tr("Connection broke"),
                self.tr("The connection broke during this reply; what came is kept."),
            ),
        }
        text, tip = marks.get(status, ("", ""))
        self.status_label.setObjectName("ReplyStatus")
        self.status_label.style().unpolish(self.status_label)
        self.status_label.style().polish(self.status_label)
        self.status_label.setText(text)
        self.status_label.setToolTip(tip)
        self.status_label.setVisible(bool(text))
        self._update_marker_retry()

    def set_retry_visible(self, visible: bool) -> None:
        self._retry_allowed = visible and self.role == "assistant"
        self._update_marker_retry()

    def _update_marker_retry(self) -> None:
        # one Retry per bubble: the worded one beside the mark of a reply that did not complete
        incomplete = self.status != "complete"
        self.marker_retry.setVisible(self._retry_allowed and incomplete)
        self.retry_button.setVisible(self._retry_allowed and not incomplete)

    def set_injected(self, note_ids: Sequence[str]) -> None:
        self.injected_ids = list(note_ids)
        n = len(self.injected_ids)
        self.memory_chip.setText(self.tr("Used %n memories", "", n))
        self.memory_chip.setToolTip(self.tr("Memories recalled for this reply; click to see them"))
        self.memory_chip.setVisible(n > 0)

    def set_passages(self, passages: Sequence[CitedPassage]) -> None:
        """The document passages this reply was given: those its text cites, as chips that
        open the viewer; when it cites none, all of them as the sources it had."""
        for chip in self.passage_chips:
            self.citations_layout.removeWidget(chip)
            chip.deleteLater()
        self.passage_chips = []
        given = list(passages)
        cited = cited_in(self.text(), given)
        shown = cited or given
        self.citations_label.setText(self.tr("Cited:") if cited else self.tr("Sources given:"))
        for p in shown:
            chip = Chip("notes", p.citation)
            chip.setToolTip(plain_tooltip(" ".join(p.text.split())))
            chip.setAccessibleName(p.citation)
            chip.clicked.connect(
                lambda _=False, d=p.document_id, i=p.passage_id: self.passageRequested.emit(d, i)
            )
            self.citations_layout.insertWidget(self.citations_layout.count() - 1, chip)
            self.passage_chips.append(chip)
        self.citations.setVisible(bool(shown))

    def set_learned(self, notes: Sequence[object]) -> None:
        self.learned = list(notes)
        n = len(self.learned)
        self.learned_chip.setText(self.tr("Memory updated · %n", "", n))
        self.learned_chip.setToolTip(self.tr("What was learned from this turn; click to see it"))
        self.learned_chip.setVisible(n > 0)

    def _copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
        self.copy_button.setIcon(icon("check", "muted"))
        QTimer.singleShot(1200, lambda: self.copy_button.setIcon(icon("copy", "muted")))


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
        self.label = plain_label(text)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if details:
            self.label.setToolTip(plain_tooltip(details))
        lay.addWidget(self.label, 1)
        self.buttons: dict[str, QPushButton] = {}
        for key, label in actions:
            b = QPushButton(label)
            if key == actions[0][0]:
                b.setProperty("role", "primary")
            b.clicked.connect(lambda _=False, k=key: self.actionRequested.emit(k))
            lay.addWidget(b, 0, Qt.AlignmentFlag.AlignVCenter)
            self.buttons[key] = b
