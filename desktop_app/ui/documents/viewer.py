"""The passage viewer: a document's page with the cited passage highlighted.

PDF and image pages are shown as the engine renders them, with the passage's boxes painted
over the picture (QPainter on a copy of the pixmap).  Word and text documents have no pages
to show: their passages are shown as plain text (never HTML from the file), the cited one
highlighted with a character format and scrolled into view.  Loading runs in a worker; the
dialog only receives plain values (bytes, numbers, strings)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QImage,
    QPainter,
    QPen,
    QPixmap,
    QResizeEvent,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui import texts
from desktop_app.ui.documents.wording import citation_text
from desktop_app.ui.safe_text import plain_label

log = logging.getLogger(__name__)

#: the page is rendered this wide (device pixels), enough to read a court document
RENDER_WIDTH_PX = 1100
HIGHLIGHT_FILL = QColor(255, 214, 0, 90)
HIGHLIGHT_EDGE = QColor(230, 126, 34)
TEXT_HIGHLIGHT = QColor(255, 214, 0, 140)

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class PageView:
    """What the viewer shows, read in a worker."""

    document: Any
    page: int
    #: the page (pdf / image) with the passage's boxes painted, decoded and painted in the
    #: worker (QImage, unlike QPixmap, may be made off the UI thread); None for docx / text
    image: QImage | None
    #: the page's width in the units of the passages' boxes (None: unknown)
    page_width: float | None
    passages: tuple[Any, ...]
    #: the passage to highlight (None: just the page)
    passage: Any | None


def load_page(
    engine: Any, document_id: str, passage_id: str | None, page: int | None, width_px: int
) -> PageView:
    """(worker thread) Everything the viewer needs for one page."""
    doc = engine.get_document(document_id)
    passage = engine.get_passage(passage_id) if passage_id else None
    if page is None:
        page = passage.page if passage is not None else 1
    if doc.kind not in ("pdf", "image"):
        return PageView(doc, page, None, None, tuple(engine.passages_of(document_id)), passage)
    png = engine.render_page(document_id, page, width_px)
    if png is None:  # the stored copy is missing (an older backup restored): its text
        return PageView(doc, page, None, None, tuple(engine.passages_of(document_id)), passage)
    width = _page_width(engine, doc, page)
    boxes = tuple(passage.boxes or ()) if passage is not None and passage.page == page else ()
    image = highlighted(png, boxes, width) if png else QImage()
    return PageView(doc, page, image, width, tuple(engine.passages_of(document_id, page)), passage)


def _page_width(engine: Any, doc: Any, page: int) -> float | None:
    size = engine.page_size(doc.id, page)
    return float(size[0]) if size else None


def highlighted(png: bytes, boxes: Sequence[Box], page_width: float | None) -> QImage:
    """The page picture with ``boxes`` (in page units, from the top-left) painted over it."""
    image = QImage.fromData(png, "PNG").convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    if not boxes or not page_width or image.isNull():
        return image
    scale = image.width() / page_width
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(HIGHLIGHT_EDGE, 2))
    painter.setBrush(HIGHLIGHT_FILL)
    for left, top, right, bottom in boxes:
        rect = QRectF(left * scale, top * scale, (right - left) * scale, (bottom - top) * scale)
        painter.drawRoundedRect(rect.adjusted(-3, -2, 3, 2), 3, 3)
    painter.end()
    return image


class PassageViewer(QDialog):
    def __init__(
        self,
        host: Any,
        document_id: str,
        passage_id: str | None = None,
        parent: QWidget | None = None,
        *,
        page: int | None = None,
    ) -> None:
        """On ``passage_id`` (highlighted), else on ``page`` (a Word or text document marks
        that paragraph's passages), else on the first page."""
        super().__init__(parent)
        self.host = host
        self.document_id = document_id
        self.passage_id = passage_id
        self.view: PageView | None = None
        self._page: QPixmap | None = None  # the rendered page with its highlight, full size
        self._token = 0
        self.setWindowTitle(self.tr("Document"))
        self.resize(860, 760)

        lay = QVBoxLayout(self)
        self.title = plain_label()
        self.title.setObjectName("AppTitle")
        lay.addWidget(self.title)
        self.passage_label = plain_label()
        self.passage_label.setObjectName("Muted")
        self.passage_label.setWordWrap(True)
        self.passage_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.passage_label)

        self.stack = QStackedWidget()
        self.page_label = QLabel()
        self.page_label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.page_label)
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.stack.addWidget(self.scroll)
        self.stack.addWidget(self.text)
        lay.addWidget(self.stack, 1)

        row = QHBoxLayout()
        self.prev_button = QPushButton(self.tr("Previous page"))
        self.next_button = QPushButton(self.tr("Next page"))
        self.page_info = QLabel()
        self.page_info.setObjectName("Muted")
        self.prev_button.clicked.connect(lambda: self.go(-1))
        self.next_button.clicked.connect(lambda: self.go(1))
        close = QPushButton(self.tr("Close"))
        close.clicked.connect(self.reject)
        row.addWidget(self.prev_button)
        row.addWidget(self.page_info)
        row.addWidget(self.next_button)
        row.addStretch(1)
        row.addWidget(close)
        lay.addLayout(row)
        self.prev_button.setEnabled(False)
        self.next_button.setEnabled(False)
        self._mark_page = passage_id is None and page is not None
        self.load(page)

    @property
    def loaded(self) -> bool:
        return self.view is not None

    def load(self, page: int | None) -> None:
        self._token += 1
        token, doc_id, passage_id = self._token, self.document_id, self.passage_id
        width = int(RENDER_WIDTH_PX * max(1.0, self.devicePixelRatioF()))
        self.host.call(
            lambda e: load_page(e, doc_id, passage_id, page, width),
            lambda view: self._show(token, view),
            self._failed,
            name="view-page",
        )

    def go(self, delta: int) -> None:
        if self.view is None:
            return
        target = self.view.page + delta
        if 1 <= target <= self.view.document.pages:
            self.load(target)

    def _show(self, token: int, view: PageView) -> None:
        if token != self._token:
            return
        self.view = view
        doc = view.document
        self.setWindowTitle(doc.name)
        self.title.setText(doc.name)
        passage = (
            view.passage if view.passage is not None and view.passage.page == view.page else None
        )
        if passage is not None:
            self.passage_label.setText(
                citation_text(doc.name, doc.kind, passage.page)
                + " · "
                + " ".join(passage.text.split())
            )
        else:
            self.passage_label.setText("")
        self.passage_label.setVisible(passage is not None)
        if view.image is not None:
            self._show_page(view, passage)
        else:
            self._show_text(view, passage)

    def _show_page(self, view: PageView, passage: Any | None) -> None:
        boxes = tuple(passage.boxes or ()) if passage is not None else ()
        self._page = QPixmap.fromImage(view.image) if view.image is not None else None
        self.stack.setCurrentWidget(self.scroll)
        pixmap = self._fit_page()
        pages = view.document.pages
        self.page_info.setText(
            self.tr("Page %1 of %2").replace("%1", str(view.page)).replace("%2", str(pages))
        )
        self.prev_button.setEnabled(view.page > 1)
        self.next_button.setEnabled(view.page < pages)
        if boxes and view.page_width and pixmap is not None:
            ratio = pixmap.width() / pixmap.devicePixelRatio() / view.page_width
            top = min(b[1] for b in boxes) * ratio
            self.scroll.verticalScrollBar().setValue(max(0, int(top) - 80))
        else:
            self.scroll.verticalScrollBar().setValue(0)

    def _fit_page(self) -> QPixmap | None:
        """The page shown as wide as the view (never wider: no sideways scrolling)."""
        if self._page is None or self._page.isNull():
            return None
        dpr = max(1.0, self.devicePixelRatioF())
        width = max(200, self.scroll.viewport().width() - 4)
        pixmap = self._page
        if abs(pixmap.width() - width * dpr) > 1:
            pixmap = pixmap.scaledToWidth(int(width * dpr), Qt.TransformationMode.SmoothTransformation)
        pixmap.setDevicePixelRatio(dpr)
        self.page_label.setPixmap(pixmap)
        return pixmap

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.view is not None and self.view.image is not None:
            self._fit_page()

    def _show_text(self, view: PageView, passage: Any | None) -> None:
        """Word / text: every passage as plain text, the cited one highlighted."""
        self.text.setPlainText("")
        cursor = QTextCursor(self.text.document())
        plain = QTextCharFormat()
        marked = QTextCharFormat()
        marked.setBackground(TEXT_HIGHLIGHT)
        start_of_mark = -1
        for i, p in enumerate(view.passages):
            if i:
                cursor.insertText("\n\n", plain)
            is_it = (passage is not None and p.id == passage.id) or (
                self._mark_page and p.page == view.page
            )
            if is_it and start_of_mark < 0:
                start_of_mark = cursor.position()
            cursor.insertText(p.text, marked if is_it else plain)  # insertText: never HTML
        self.stack.setCurrentWidget(self.text)
        self.page_info.hide()
        self.prev_button.hide()
        self.next_button.hide()
        if start_of_mark >= 0:
            at = QTextCursor(self.text.document())
            at.setPosition(start_of_mark)
            self.text.setTextCursor(at)
            self.text.centerCursor()

    def marked_text(self) -> str:
        """The text shown highlighted (for the tests and for copying)."""
        doc = self.text.document()
        block = doc.begin()
        out = []
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                if fragment.charFormat().background().color() == TEXT_HIGHLIGHT:
                    out.append(fragment.text())
                it += 1
            block = block.next()
        return "".join(out)

    def _failed(self, exc: BaseException) -> None:
        log.warning("viewer: %s", type(exc).__name__)
        message = getattr(exc, "user_message", None)
        self.title.setText(
            texts.in_ui_language(message)
            if message
            else self.tr("The document could not be shown.")
        )
