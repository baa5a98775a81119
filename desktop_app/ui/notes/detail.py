"""The note detail panel: edit content, category, event date, source, tags, pinned; see
keywords, context, links (with their type) and history; settle an open conflict; undo,
expire, delete, unlink."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui import history_text, texts
from desktop_app.ui.documents.wording import citation_text
from desktop_app.ui.icons import icon
from desktop_app.ui.notes.model import _fmt_date
from desktop_app.ui.safe_text import plain_tooltip
from desktop_app.ui.theme import CATEGORY_COLORS, tokens

LINK_ROLE = Qt.ItemDataRole.UserRole + 20


class NoteDetail(QFrame):
    saveRequested = Signal(str, dict)  # note id, changed fields
    undoRequested = Signal(str)
    expireRequested = Signal(str)
    restoreRequested = Signal(str)
    deleteRequested = Signal(str)
    unlinkRequested = Signal(str, str)  # src, dst
    openNoteRequested = Signal(str)
    #: "From 起诉状.pdf p. 3" was clicked: (document id, page)
    openDocumentRequested = Signal(str, int)
    resolveConflictRequested = Signal(str, str, str)  # note, other note, keep ("both" or an id)
    linkTypeRequested = Signal(str, str, str)  # src, dst, type (证明 / 适用 / …)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DetailPanel")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.note: Any = None
        self._others: dict[str, Any] = {}

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget()
        body.setObjectName("DetailBody")
        scroll.setWidget(body)
        outer.addWidget(scroll)
        lay = QVBoxLayout(body)
        lay.setContentsMargins(14, 12, 14, 12)
        lay.setSpacing(8)

        self.heading = QLabel(self.tr("Memory"))
        self.heading.setObjectName("AppTitle")
        lay.addWidget(self.heading)
        self.meta = QLabel()
        self.meta.setObjectName("Muted")
        self.meta.setWordWrap(True)
        lay.addWidget(self.meta)

        self.content = QPlainTextEdit()
        self.content.setPlaceholderText(self.tr("What should LexMem remember?"))
        self.content.setMinimumHeight(90)
        self.content.setMaximumHeight(160)
        lay.addWidget(self.content)

        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.category = QComboBox()
        for value, label in texts.categories():
            self.category.addItem(label, value)
        form.addRow(self.tr("Category"), self.category)
        self.event_date = QLineEdit()
        self.event_date.setPlaceholderText(self.tr("e.g. 2024-07-15 (when it happened)"))
        self.event_date.setToolTip(
            self.tr("When the fact happened or takes effect, not when it was recorded; "
                    "2024-07-15, 2024-07 or July 15, 2024")
        )
        form.addRow(self.tr("Event date"), self.event_date)
        self.source_kind = QComboBox()
        self.source_kind.addItem(self.tr("Unknown"), "")
        for value, label in texts.source_kinds():
            self.source_kind.addItem(label, value)
        self.source_kind.setToolTip(self.tr("Whose assertion this is"))
        form.addRow(self.tr("Source"), self.source_kind)
        # a note drawn from an imported document: where, and a click opens the page
        self.from_document = QPushButton()
        self.from_document.setObjectName("LinkButton")
        self.from_document.setFlat(True)
        self.from_document.setCursor(Qt.CursorShape.PointingHandCursor)
        self.from_document.setToolTip(self.tr("Open the page this memory was drawn from"))
        self.from_document.clicked.connect(self._open_document)
        self.from_document.hide()
        self._document: tuple[str, int] | None = None
        form.addRow("", self.from_document)
        self.tags = QLineEdit()
        self.tags.setPlaceholderText(self.tr("comma-separated"))
        form.addRow(self.tr("Tags"), self.tags)
        self.pinned = QCheckBox(self.tr("Always recall for this case"))
        form.addRow(self.tr("Pinned"), self.pinned)
        lay.addLayout(form)

        row = QHBoxLayout()
        self.save_button = QPushButton(icon("check", "#ffffff"), self.tr("Save"))
        self.save_button.setProperty("role", "primary")
        self.save_button.clicked.connect(self._save)
        self.undo_button = QPushButton(icon("undo"), self.tr("Undo last change"))
        self.undo_button.clicked.connect(lambda: self.note and self.undoRequested.emit(self.note.id))
        row.addWidget(self.save_button)
        row.addWidget(self.undo_button)
        row.addStretch(1)
        lay.addLayout(row)

        # an open conflict: two memories from different sources that say opposite things
        self.conflict_box = QFrame()
        self.conflict_box.setObjectName("ConflictBox")
        self.conflict_box.setStyleSheet(
            f"#ConflictBox {{ border: 1px solid {tokens()['error_border']}; "
            f"background: {tokens()['error_bg']}; border-radius: 6px; }}"
        )
        box = QVBoxLayout(self.conflict_box)
        box.setContentsMargins(10, 8, 10, 8)
        self.conflict_title = QLabel()
        self.conflict_title.setStyleSheet(f"color: {tokens()['error_text']}; font-weight: 600;")
        self.conflict_title.setWordWrap(True)
        box.addWidget(self.conflict_title)
        self.conflict_list = QListWidget()
        self.conflict_list.setWordWrap(True)
        self.conflict_list.itemDoubleClicked.connect(
            lambda item: self.openNoteRequested.emit(item.data(LINK_ROLE))
        )
        box.addWidget(self.conflict_list)
        # two rows: three buttons side by side are wider than the pane at the default
        # window size (a horizontal scroll bar appeared)
        resolve = QGridLayout()
        self.keep_this_button = QPushButton(self.tr("Keep this one"))
        self.keep_this_button.setToolTip(self.tr("This memory is right: the other is expired (kept in history)"))
        self.keep_other_button = QPushButton(self.tr("Keep the other"))
        self.keep_other_button.setToolTip(self.tr("The other memory is right: this one is expired (kept in history)"))
        self.keep_both_button = QPushButton(self.tr("Keep both"))
        self.keep_both_button.setToolTip(self.tr("Both stay: the conflict is marked as settled"))
        for button, keep, row, column, span in (
            (self.keep_this_button, "this", 0, 0, 1),
            (self.keep_other_button, "other", 0, 1, 1),
            (self.keep_both_button, "both", 1, 0, 2),
        ):
            button.clicked.connect(lambda _c=False, k=keep: self._resolve(k))
            resolve.addWidget(button, row, column, 1, span)
        box.addLayout(resolve)
        lay.addWidget(self.conflict_box)
        self.conflict_box.hide()

        self.info = QTextBrowser()
        self.info.setObjectName("MessageBody")
        self.info.setFrameShape(QFrame.Shape.NoFrame)
        self.info.setMaximumHeight(120)
        lay.addWidget(self._section(self.tr("Keywords and context")))
        lay.addWidget(self.info)

        lay.addWidget(self._section(self.tr("Links")))
        self.links = QListWidget()
        self.links.setMaximumHeight(130)
        # a long row wraps inside the pane (it was cut off, with a sideways scroll bar)
        self.links.setWordWrap(True)
        self.links.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.links.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.links.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.links.itemDoubleClicked.connect(self._open_link)
        lay.addWidget(self.links)
        self.unlink_button = QPushButton(icon("unlink"), self.tr("Remove link"))
        self.unlink_button.clicked.connect(self._unlink)
        self.unlink_button.setEnabled(False)
        self.link_type = QComboBox()
        self.link_type.setToolTip(self.tr("What the link means: proves, applies to, contradicts, adds to, replaces, related"))
        for value, label in texts.link_types():
            self.link_type.addItem(label, value)
        self.link_type.setEnabled(False)
        self.link_type.activated.connect(lambda _i: self._change_link_type())
        self.links.currentItemChanged.connect(lambda cur, _prev: self._link_selected(cur))
        link_row = QHBoxLayout()
        link_row.addWidget(self.unlink_button)
        link_row.addWidget(QLabel(self.tr("Type")))
        link_row.addWidget(self.link_type)
        link_row.addStretch(1)
        lay.addLayout(link_row)

        lay.addWidget(self._section(self.tr("History")))
        self.history = QTextBrowser()
        self.history.setObjectName("MessageBody")
        self.history.setFrameShape(QFrame.Shape.NoFrame)
        self.history.setMinimumHeight(120)
        # a merge names the notes it merged: a click opens one (never a file or a web page)
        self.history.setOpenLinks(False)
        self.history.setOpenExternalLinks(False)
        self.history.anchorClicked.connect(self._history_link)
        lay.addWidget(self.history)

        actions = QHBoxLayout()
        self.expire_button = QPushButton(icon("expire"), self.tr("Expire"))
        self.expire_button.setToolTip(self.tr("No longer true: kept in history, never recalled"))
        self.expire_button.clicked.connect(self._expire_or_restore)
        self.delete_button = QPushButton(icon("trash", "danger"), self.tr("Delete"))
        self.delete_button.setProperty("role", "danger")
        self.delete_button.setToolTip(self.tr("Delete for good: the text is erased from every file"))
        self.delete_button.clicked.connect(lambda: self.note and self.deleteRequested.emit(self.note.id))
        actions.addWidget(self.expire_button)
        actions.addStretch(1)
        actions.addWidget(self.delete_button)
        lay.addLayout(actions)
        lay.addStretch(1)
        self.show_note(None)

    def _section(self, text: str) -> QLabel:
        label = QLabel(text.upper() if text.isascii() else text)
        label.setObjectName("SidebarTitle")
        return label

    # -- showing ---------------------------------------------------------------------------
    def show_note(
        self,
        note: Any,
        links: list[Any] | None = None,
        history: list[Any] | None = None,
        others: dict[str, Any] | None = None,
        document: tuple[str, str, str, int] | None = None,
    ) -> None:
        """Show a note; ``others``: the linked notes by id (their text, source and status);
        ``document``: (id, name, kind, page) of the document it was drawn from, if any."""
        self.note = note
        self._show_document(document if note is not None else None)
        enabled = note is not None
        for w in (self.content, self.category, self.tags, self.pinned, self.save_button, self.undo_button,
                  self.expire_button, self.delete_button, self.links, self.event_date, self.source_kind):
            w.setEnabled(enabled)
        if note is None:
            self.heading.setText(self.tr("No memory selected"))
            self.heading.setStyleSheet("")  # not the last note's category colour
            self.expire_button.setText(self.tr("Expire"))
            self.meta.setText(self.tr("Select a memory in the list to see and edit it."))
            self.content.setPlainText("")
            self.tags.clear()
            self.event_date.clear()
            self.source_kind.setCurrentIndex(0)
            self.info.clear()
            self.links.clear()
            self.history.clear()
            self.conflict_box.hide()
            return
        self.heading.setText(texts.category_label(note.category) or self.tr("Memory"))
        self.heading.setStyleSheet(f"color: {CATEGORY_COLORS.get(note.category, tokens()['text'])};")
        scope = self.tr("Global") if note.case_id is None else self.tr("This case")
        self.meta.setText(
            " · ".join(
                p for p in (
                    texts.status_label(note.status),
                    scope,
                    texts.origin_label(getattr(note, "origin", "manual")),
                    self.tr("recorded %1").replace("%1", _fmt_date(note.created_at)),
                    self.tr("recalled %n times", "", note.retrieval_count),
                ) if p
            )
        )
        self.content.setPlainText(note.content)
        i = self.category.findData(note.category)
        self.category.setCurrentIndex(max(i, 0))
        self.tags.setText(", ".join(note.tags))
        self.event_date.setText(getattr(note, "event_date", None) or "")
        self.source_kind.setCurrentIndex(max(self.source_kind.findData(getattr(note, "source_kind", None) or ""), 0))
        self.pinned.setChecked(bool(note.pinned))
        self.expire_button.setText(self.tr("Restore") if note.status != "active" else self.tr("Expire"))
        kw = ", ".join(note.keywords) or "—"
        # translated outside the f-string: lupdate does not look inside f-string expressions
        kw_label = html.escape(self.tr("Keywords"))
        ctx_label = html.escape(self.tr("Context"))
        self.info.setHtml(
            f"<p><b>{kw_label}:</b> {html.escape(kw)}</p>"
            f"<p><b>{ctx_label}:</b> {html.escape(note.context or '—')}</p>"
        )
        self._others = others or {}
        self.set_links(links or [])
        self.set_history(history or [])
        self._show_conflicts(links or [])

    def _title(self, note_id: str) -> str:
        other = self._others.get(note_id)
        if other is None:  # not loaded (yet): never its id, which means nothing to a reader
            return self.tr("another memory")
        return other.content if len(other.content) <= 40 else other.content[:39] + "…"

    def set_links(self, links: list[Any]) -> None:
        self.links.clear()
        for link in links:
            other = link.dst if self.note is None or link.src == self.note.id else link.src
            title = self._title(other)
            kind_type = getattr(link, "type", None) or "相关"
            relation, origin = texts.link_type_label(kind_type), texts.link_kind_label(link.kind)
            # a model's 相关 link is "related" by kind too: say it once
            said = relation if origin == relation else f"{relation} · {origin}"
            text = f"{said} · {title}"
            item = QListWidgetItem(icon("alert" if link.kind == "conflict" else "link"), text)
            item.setData(LINK_ROLE, (link.src, link.dst, kind_type))
            # the whole linked text, and why they are linked (not the app's bookkeeping)
            whole = getattr(self._others.get(other), "content", title)
            why = history_text.reason_text(link.reason)
            item.setToolTip(plain_tooltip(f"{whole}\n{why}" if why else whole))
            self.links.addItem(item)
        if not links:
            item = QListWidgetItem(self.tr("No links"))
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.links.addItem(item)

    def _show_conflicts(self, links: list[Any]) -> None:
        """The notes this one contradicts (an open conflict), with what each one's source is."""
        self.conflict_list.clear()
        open_ = [
            link for link in links
            if link.kind == "conflict" and getattr(link, "resolved_at", None) is None
            and self.note is not None and self.note.status == "active"
            and getattr(self._others.get(link.dst), "status", "") == "active"
        ]
        for link in open_:
            other = self._others[link.dst]
            source = texts.source_kind_label(other.source_kind) or texts.origin_label(other.origin)
            item = QListWidgetItem(icon("alert", tokens()["danger"]), f"[{source}] {other.content}")
            item.setData(LINK_ROLE, other.id)
            item.setToolTip(plain_tooltip(history_text.reason_text(link.reason) or other.content))
            self.conflict_list.addItem(item)
        if open_:
            mine = texts.source_kind_label(self.note.source_kind) or texts.origin_label(self.note.origin)
            self.conflict_title.setText(
                self.tr("Open conflict: this memory (%1) contradicts:").replace("%1", mine)
            )
            self.conflict_list.setCurrentRow(0)
        self.conflict_box.setVisible(bool(open_))
        if open_:  # once laid out at the pane's width: the wrapped rows' height is known
            QTimer.singleShot(0, self._fit_conflict_list)

    def _fit_conflict_list(self) -> None:
        """As tall as its rows (at most 90 px): an empty band under one conflict pushed
        the choices below the fold."""
        rows = sum(
            self.conflict_list.sizeHintForRow(i) for i in range(self.conflict_list.count())
        )
        frame = 2 * self.conflict_list.frameWidth() + 12  # the hint runs a few px short of a wrapped row
        self.conflict_list.setFixedHeight(max(36, min(90, rows + frame)))

    def set_history(self, entries: list[Any]) -> None:
        t = tokens()
        rows = []
        for h in reversed(entries):
            title, lines = history_text.describe(h)
            merged = self._merge_partners(h.after)
            rows.append(
                f"<p style='margin:4px 0'><span style='color:{t['muted']}'>{html.escape(_fmt_date(h.created_at))}</span> "
                f"<b>{html.escape(title)}</b>"
                + "".join(f"<br><span style='color:{t['muted']}'>{html.escape(line)}</span>" for line in lines)
                + merged
                + "</p>"
            )
        self.history.setHtml("".join(rows) or f"<p style='color:{t['muted']}'>—</p>")
        self.undo_button.setEnabled(self.note is not None and len(entries) > 1)

    def _merge_partners(self, after: dict | None) -> str:
        """The notes a merge took in (or the note it went into), as links that open them."""
        if not after:
            return ""
        ids = list(after.get("merged_from") or [])
        into = after.get("merged_into")
        if not ids and not into:
            return ""
        label = self.tr("Merged from:") if ids else self.tr("Merged into:")
        anchors = [
            f"<a href='note:{html.escape(i, quote=True)}'>{html.escape(self._title(i))}</a>"
            for i in (ids or [into])
        ]
        return f"<br>{html.escape(label)} " + "; ".join(anchors)

    def _history_link(self, url: Any) -> None:
        target = url.toString()
        if target.startswith("note:"):
            self.openNoteRequested.emit(target[len("note:"):])

    # -- actions ---------------------------------------------------------------------------
    def _show_document(self, document: tuple[str, str, str, int] | None) -> None:
        if document is None:
            self._document = None
            self.from_document.hide()
            return
        doc_id, name, kind, page = document
        self._document = (doc_id, page)
        self.from_document.setText(
            self.tr("From %1").replace("%1", citation_text(name, kind, page))
        )
        self.from_document.show()

    def _open_document(self) -> None:
        if self._document is not None:
            self.openDocumentRequested.emit(*self._document)

    def _save(self) -> None:
        if self.note is None:
            return
        changes: dict[str, Any] = {}
        content = self.content.toPlainText().strip()
        if content and content != self.note.content:
            changes["content"] = content
        category = self.category.currentData()
        if category != self.note.category:
            changes["category"] = category
        tags = tuple(t.strip() for t in self.tags.text().replace("，", ",").split(",") if t.strip())
        if tags != tuple(self.note.tags):
            changes["tags"] = list(tags)
        if self.pinned.isChecked() != bool(self.note.pinned):
            changes["pinned"] = self.pinned.isChecked()
        event_date = self.event_date.text().strip()
        if event_date != (getattr(self.note, "event_date", None) or ""):
            changes["event_date"] = event_date  # "" clears it; a bad date gets a clear message
        source_kind = self.source_kind.currentData() or ""
        if source_kind != (getattr(self.note, "source_kind", None) or ""):
            changes["source_kind"] = source_kind
        if changes:
            self.saveRequested.emit(self.note.id, changes)

    def _resolve(self, keep: str) -> None:
        item = self.conflict_list.currentItem()
        if self.note is None or item is None:
            return
        other = item.data(LINK_ROLE)
        choice = {"this": self.note.id, "other": other, "both": "both"}[keep]
        self.resolveConflictRequested.emit(self.note.id, other, choice)

    def _link_selected(self, item: QListWidgetItem | None) -> None:
        data = item.data(LINK_ROLE) if item is not None else None
        self.unlink_button.setEnabled(bool(data))
        self.link_type.setEnabled(bool(data))
        if data:
            self.link_type.setCurrentIndex(max(self.link_type.findData(data[2]), 0))

    def _change_link_type(self) -> None:
        item = self.links.currentItem()
        data = item.data(LINK_ROLE) if item is not None else None
        if data and self.link_type.currentData() != data[2]:
            self.linkTypeRequested.emit(data[0], data[1], self.link_type.currentData())

    def _expire_or_restore(self) -> None:
        if self.note is None:
            return
        if self.note.status == "active":
            self.expireRequested.emit(self.note.id)
        else:
            self.restoreRequested.emit(self.note.id)

    def _unlink(self) -> None:
        item = self.links.currentItem()
        pair = item.data(LINK_ROLE) if item else None
        if pair:
            self.unlinkRequested.emit(pair[0], pair[1])

    def _open_link(self, item: QListWidgetItem) -> None:
        pair = item.data(LINK_ROLE)
        if pair and self.note is not None:
            self.openNoteRequested.emit(pair[1] if pair[0] == self.note.id else pair[0])
