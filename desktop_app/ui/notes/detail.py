"""The note detail panel: edit content, category, tags, pinned; see keywords, context, links
and history; undo, expire, delete, unlink."""

from __future__ import annotations

import html
import json
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
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

from desktop_app.ui import texts
from desktop_app.ui.icons import icon
from desktop_app.ui.notes.model import _fmt_date
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

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DetailPanel")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.note: Any = None
        self._titles: dict[str, str] = {}

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
        self.undo_button.clicked.connect(
            lambda: self.note and self.undoRequested.emit(self.note.id)
        )
        row.addWidget(self.save_button)
        row.addWidget(self.undo_button)
        row.addStretch(1)
        lay.addLayout(row)

        self.info = QTextBrowser()
        self.info.setObjectName("MessageBody")
        self.info.setFrameShape(QFrame.Shape.NoFrame)
        self.info.setMaximumHeight(120)
        lay.addWidget(self._section(self.tr("Keywords and context")))
        lay.addWidget(self.info)

        lay.addWidget(self._section(self.tr("Links")))
        self.links = QListWidget()
        self.links.setMaximumHeight(130)
        self.links.itemDoubleClicked.connect(self._open_link)
        lay.addWidget(self.links)
        self.unlink_button = QPushButton(icon("unlink"), self.tr("Remove link"))
        self.unlink_button.clicked.connect(self._unlink)
        self.unlink_button.setEnabled(False)
        self.links.currentItemChanged.connect(
            lambda cur, _prev: self.unlink_button.setEnabled(cur is not None)
        )
        lay.addWidget(self.unlink_button, 0, Qt.AlignmentFlag.AlignLeft)

        lay.addWidget(self._section(self.tr("History")))
        self.history = QTextBrowser()
        self.history.setObjectName("MessageBody")
        self.history.setFrameShape(QFrame.Shape.NoFrame)
        self.history.setMinimumHeight(120)
        lay.addWidget(self.history)

        actions = QHBoxLayout()
        self.expire_button = QPushButton(icon("expire"), self.tr("Expire"))
        self.expire_button.setToolTip(self.tr("No longer true: kept in history, never recalled"))
        self.expire_button.clicked.connect(self._expire_or_restore)
        self.delete_button = QPushButton(icon("trash", tokens()["danger"]), self.tr("Delete"))
        self.delete_button.setProperty("role", "danger")
        self.delete_button.setToolTip(
            self.tr("Delete for good: the text is erased from every file")
        )
        self.delete_button.clicked.connect(
            lambda: self.note and self.deleteRequested.emit(self.note.id)
        )
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
        titles: dict[str, str] | None = None,
    ) -> None:
        self.note = note
        enabled = note is not None
        for w in (
            self.content,
            self.category,
            self.tags,
            self.pinned,
            self.save_button,
            self.undo_button,
            self.expire_button,
            self.delete_button,
            self.links,
        ):
            w.setEnabled(enabled)
        if note is None:
            self.heading.setText(self.tr("No memory selected"))
            self.meta.setText(self.tr("Select a memory in the list to see and edit it."))
            self.content.setPlainText("")
            self.tags.clear()
            self.info.clear()
            self.links.clear()
            self.history.clear()
            return
        self.heading.setText(texts.category_label(note.category) or self.tr("Memory"))
        self.heading.setStyleSheet(
            f"color: {CATEGORY_COLORS.get(note.category, tokens()['text'])};"
        )
        scope = self.tr("Global") if note.case_id is None else self.tr("This case")
        self.meta.setText(
            " · ".join(
                p
                for p in (
                    texts.status_label(note.status),
                    scope,
                    self.tr("created %1").replace("%1", _fmt_date(note.created_at)),
                    self.tr("recalled %n times", "", note.retrieval_count),
                )
                if p
            )
        )
        self.content.setPlainText(note.content)
        i = self.category.findData(note.category)
        self.category.setCurrentIndex(max(i, 0))
        self.tags.setText(", ".join(note.tags))
        self.pinned.setChecked(bool(note.pinned))
        self.expire_button.setText(
            self.tr("Restore") if note.status != "active" else self.tr("Expire")
        )
        kw = ", ".join(note.keywords) or "—"
        # translated outside the f-string: lupdate does not look inside f-string expressions
        kw_label = html.escape(self.tr("Keywords"))
        ctx_label = html.escape(self.tr("Context"))
        self.info.setHtml(
            f"<p><b>{kw_label}:</b> {html.escape(kw)}</p>"
            f"<p><b>{ctx_label}:</b> {html.escape(note.context or '—')}</p>"
        )
        self._titles = titles or {}
        self.set_links(links or [])
        self.set_history(history or [])

    def set_links(self, links: list[Any]) -> None:
        self.links.clear()
        for link in links:
            other = link.dst if self.note is None or link.src == self.note.id else link.src
            title = self._titles.get(other, other[:8])
            item = QListWidgetItem(icon("link"), f"{_kind_label(self, link.kind)} · {title}")
            item.setData(LINK_ROLE, (link.src, link.dst))
            item.setToolTip(link.reason or title)
            self.links.addItem(item)
        if not links:
            item = QListWidgetItem(self.tr("No links"))
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.links.addItem(item)

    def set_history(self, entries: list[Any]) -> None:
        t = tokens()
        rows = []
        for h in reversed(entries):
            change = _describe_change(h.before, h.after)
            rows.append(
                f"<p style='margin:4px 0'><span style='color:{t['muted']}'>{html.escape(_fmt_date(h.created_at))} · "
                f"{html.escape(_actor_label(self, h.actor))}</span> <b>{html.escape(h.action)}</b>"
                + (f"<br>{html.escape(h.reason)}" if h.reason else "")
                + (
                    f"<br><span style='color:{t['muted']}'>{html.escape(change)}</span>"
                    if change
                    else ""
                )
                + "</p>"
            )
        self.history.setHtml("".join(rows) or f"<p style='color:{t['muted']}'>—</p>")
        self.undo_button.setEnabled(self.note is not None and len(entries) > 1)

    # -- actions ---------------------------------------------------------------------------
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
        if changes:
            self.saveRequested.emit(self.note.id, changes)

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


def _kind_label(w: QWidget, kind: str) -> str:
    return {
        "semantic": QCoreApplication.translate("NoteDetail", "related"),
        "evolution": QCoreApplication.translate("NoteDetail", "evolved"),
        "supersedes": QCoreApplication.translate("NoteDetail", "supersedes"),
        "manual": QCoreApplication.translate("NoteDetail", "manual"),
        "duplicate": QCoreApplication.translate("NoteDetail", "possible duplicate"),
    }.get(kind, kind)


def _actor_label(w: QWidget, actor: str) -> str:
    return {
        "user": QCoreApplication.translate("NoteDetail", "you"),
        "construction": QCoreApplication.translate("NoteDetail", "note construction"),
        "evolution": QCoreApplication.translate("NoteDetail", "memory evolution"),
        "decision": QCoreApplication.translate("NoteDetail", "memory decision"),
        "import": QCoreApplication.translate("NoteDetail", "import"),
    }.get(actor, actor)


def _describe_change(before: dict | None, after: dict | None) -> str:
    if not before or not after:
        return ""
    parts = []
    for key in sorted(set(before) | set(after)):
        if key in ("updated_at", "content_hash", "evolution_count"):
            continue
        a, b = before.get(key), after.get(key)
        if a != b:

            def short(v: Any) -> str:
                s = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
                return s if len(s) <= 60 else s[:59] + "…"

            parts.append(f"{key}: {short(a)} → {short(b)}")
    return "; ".join(parts[:4])
