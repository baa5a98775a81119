"""The Notes tab: filters, table or timeline, detail panel; every engine call in a worker."""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui import dialogs, i18n, texts
from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.icons import icon
from desktop_app.ui.notes.add_dialog import AddNoteDialog
from desktop_app.ui.notes.detail import NoteDetail
from desktop_app.ui.notes.merge_dialog import MergeDialog, load_merge_notes
from desktop_app.ui.notes.model import (
    COL_CATEGORY,
    COL_CONTENT,
    COL_CREATED,
    COL_EVENT,
    COL_PIN,
    COL_SOURCE,
    COL_STATUS,
    COL_UPDATED,
    NotesQuery,
    NotesTableModel,
)
from desktop_app.ui.notes.timeline import TimelineView
from desktop_app.ui.tables import row_table
from desktop_app.ui.theme import tokens
from desktop_app.ui.undo_bar import UndoBar

log = logging.getLogger(__name__)

SEARCH_DEBOUNCE_MS = 300


class NotesView(QWidget):
    statusMessage = Signal(str)
    #: Import documents… (PDF, Word, images, text) for the case: the Documents tab does it
    importDocumentsRequested = Signal()
    #: open a document's page in the viewer: (document id, page)
    openDocumentRequested = Signal(str, int)

    def __init__(self, host: EngineHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.case_id: str | None = None
        self._selected_id: str | None = None
        self._pending_select: str | None = None
        self._detail_token = 0

        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 10, 0, 0)
        lay.setSpacing(8)

        # The toolbar: the search, then the filters, then the actions. Where one row has no
        # room for all three (English at the default width, any narrow window) the filters
        # move to a second row instead of being drawn over the search (_fit_toolbar).
        bar = QVBoxLayout()
        bar.setContentsMargins(0, 0, 16, 0)
        bar.setSpacing(6)
        self._bar_row = QHBoxLayout()
        self._bar_row.setSpacing(6)
        self._filter_row = QHBoxLayout()
        self._filter_row.setSpacing(6)
        bar.addLayout(self._bar_row)
        bar.addLayout(self._filter_row)
        self.filters_box = QWidget()
        filters = QHBoxLayout(self.filters_box)
        filters.setContentsMargins(0, 0, 0, 0)
        filters.setSpacing(6)
        self.actions_box = QWidget()
        actions = QHBoxLayout(self.actions_box)
        actions.setContentsMargins(0, 0, 0, 0)
        actions.setSpacing(6)
        self.search = QLineEdit()
        self._search_hint = self.tr("Search memories (meaning, not just words)")
        self._search_hint_short = self.tr("Search memories")
        self.search.setPlaceholderText(self._search_hint)
        self.search.setToolTip(self._search_hint)
        self.search.setClearButtonEnabled(True)
        self.search.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        self.search.setMinimumWidth(SEARCH_MIN_WIDTH)
        self.search.installEventFilter(self)  # resized: the placeholder that fits
        self._bar_row.addWidget(self.search, 2)
        self._bar_wide: bool | None = None
        self.category = QComboBox()
        self.category.addItem(self.tr("All categories"), None)
        for value, label in texts.categories():
            self.category.addItem(label, value)
        filters.addWidget(self.category)
        self.status = QComboBox()
        for value, label in (
            ("active", texts.status_label("active")),
            ("superseded", texts.status_label("superseded")),
            ("archived", texts.status_label("archived")),
            (None, self.tr("All statuses")),
        ):
            self.status.addItem(label, value)
        filters.addWidget(self.status)
        self.include_global = QCheckBox(self.tr("Global too"))
        self.include_global.setToolTip(self.tr("Also show global memories (preferences, reusable knowledge)"))
        filters.addWidget(self.include_global)
        # open conflicts: two memories from different sources that say opposite things;
        # the badge counts them, the toggle shows only them
        self.conflicts = QToolButton()
        self.conflicts.setCheckable(True)
        self.conflicts.setIcon(icon("alert"))
        self.conflicts.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.conflicts.setToolTip(self.tr("Show only the memories in an open conflict (to settle by hand)"))
        self.conflict_count = 0
        self._show_conflict_count(0)
        filters.addWidget(self.conflicts)

        self.table_mode = QToolButton()
        self.table_mode.setIcon(icon("table"))
        self.table_mode.setToolTip(self.tr("Table"))
        self.timeline_mode = QToolButton()
        self.timeline_mode.setIcon(icon("timeline"))
        self.timeline_mode.setToolTip(self.tr("Timeline"))
        self.mode_group = QButtonGroup(self)
        for i, b in enumerate((self.table_mode, self.timeline_mode)):
            b.setCheckable(True)
            self.mode_group.addButton(b, i)
            actions.addWidget(b)
        self.table_mode.setChecked(True)
        self.mode_group.idClicked.connect(self._set_mode)

        self.more = QToolButton()
        self.more.setIcon(icon("more"))
        self.more.setToolTip(self.tr("Import and export"))
        self.more.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self)
        self.act_import_documents = menu.addAction(
            icon("import"), self.tr("Import documents…"), self.importDocumentsRequested.emit
        )
        self.act_import = menu.addAction(
            icon("import"), self.tr("Import JSON Lines…"), self.import_jsonl
        )
        menu.addSeparator()
        self.act_export_jsonl = menu.addAction(
            icon("export"), self.tr("Export JSON Lines…"), self.export_jsonl
        )
        self.act_export_md = menu.addAction(
            icon("export"), self.tr("Export Markdown…"), self.export_markdown
        )
        menu.addSeparator()
        self.act_evidence = menu.addAction(
            icon("export"), self.tr("Evidence list (Word)…"), self.open_evidence_list
        )
        self.more.setMenu(menu)
        actions.addWidget(self.more)
        self.merge_button = QPushButton(icon("merge"), self.tr("Merge"))
        self.merge_button.setToolTip(self.tr("Merge the second selected memory into the first"))
        self.merge_button.clicked.connect(self.merge_selected)
        self.link_button = QPushButton(icon("link"), self.tr("Link"))
        self.link_button.setToolTip(self.tr("Link the two selected memories"))
        self.link_button.clicked.connect(self.link_selected)
        actions.addWidget(self.merge_button)
        actions.addWidget(self.link_button)
        self.add_button = QPushButton(icon("plus", "#ffffff"), self.tr("Add"))
        self.add_button.setProperty("role", "primary")
        self.add_button.setToolTip(self.tr("Add a memory by hand (Ctrl+Shift+M)"))
        self.add_button.clicked.connect(self.add_note)
        actions.addWidget(self.add_button)
        self._bar_row.addWidget(self.filters_box)
        self._bar_row.addWidget(self.actions_box)  # the search takes what is left
        self._filter_row.addStretch(1)
        lay.addLayout(bar)

        self.model = NotesTableModel(host, self)
        self.table = row_table(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(COL_CREATED, Qt.SortOrder.DescendingOrder)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(COL_PIN, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(COL_PIN, 30)
        header.setSectionResizeMode(COL_CONTENT, QHeaderView.ResizeMode.Stretch)
        for col, width in (
            (COL_CATEGORY, 76), (COL_STATUS, 76), (COL_CREATED, 96), (COL_UPDATED, 96),
            (COL_EVENT, 96), (COL_SOURCE, 96),
        ):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        # when a fact happened reads next to what it is; who says it after that
        header.moveSection(header.visualIndex(COL_EVENT), header.visualIndex(COL_CATEGORY) + 1)
        header.moveSection(header.visualIndex(COL_SOURCE), header.visualIndex(COL_EVENT) + 1)
        # the detail panel needs the room; these come back from the header's menu
        self.table.setColumnHidden(COL_UPDATED, True)
        self.table.setColumnHidden(COL_STATUS, True)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._table_menu)

        self.timeline = TimelineView()
        self.timeline.noteActivated.connect(self.select_note)

        self.stack = QStackedWidget()
        left = QWidget()
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 8, 8)
        self.stack.addWidget(self.table)
        self.stack.addWidget(self.timeline)
        left_lay.addWidget(self.stack, 1)
        self.no_match = QLabel()
        self.no_match.setObjectName("EmptyState")
        self.no_match.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.no_match.setWordWrap(True)
        self.no_match.setTextFormat(Qt.TextFormat.PlainText)  # it quotes what the user typed
        self.no_match.hide()
        left_lay.addWidget(self.no_match, 1)
        self.count_label = QLabel()
        self.count_label.setObjectName("Muted")
        left_lay.addWidget(self.count_label)
        self.undo_bar = UndoBar()
        left_lay.addWidget(self.undo_bar)

        self.detail = NoteDetail()
        self.detail.setMinimumWidth(300)
        self.splitter = QSplitter()
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([640, 360])
        self.splitter.setHandleWidth(1)
        lay.addWidget(self.splitter, 1)

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DEBOUNCE_MS)
        self._search_timer.timeout.connect(self.apply_filters)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        self.category.currentIndexChanged.connect(lambda _i: self.apply_filters())
        self.status.currentIndexChanged.connect(lambda _i: self.apply_filters())
        self.include_global.toggled.connect(lambda _b: self.apply_filters())
        self.conflicts.toggled.connect(lambda _b: self.apply_filters())
        self.model.loaded.connect(self._loaded)
        self.model.loadingChanged.connect(lambda _on: self._update_count())
        self.model.headerDataChanged.connect(lambda *_: self._show_sort_indicator())
        self.model.rowsInserted.connect(lambda *_: self._update_count())
        self.model.failed.connect(lambda exc: self._error(exc))

        self.detail.saveRequested.connect(self._save)
        self.detail.undoRequested.connect(lambda nid: self._edit(nid, lambda e: e.undo_last_change(nid)))
        self.detail.expireRequested.connect(self.expire_note)
        self.detail.restoreRequested.connect(lambda nid: self._edit(nid, lambda e: e.restore_note(nid)))
        self.detail.deleteRequested.connect(self.delete_note)
        self.detail.unlinkRequested.connect(self._unlink)
        self.detail.openNoteRequested.connect(self.select_note)
        self.detail.resolveConflictRequested.connect(self._resolve_conflict)
        self.detail.linkTypeRequested.connect(self._set_link_type)
        self.detail.openDocumentRequested.connect(self.openDocumentRequested)
        host.operationDidExecute.connect(self._operation_executed)
        host.stateChanged.connect(lambda state: state == "ready" and self.apply_filters())
        self._update_actions()

    # -- filters ---------------------------------------------------------------------------
    def set_case(self, case_id: str | None) -> None:
        self.case_id = case_id
        self._selected_id = None
        self.detail.show_note(None)
        self.apply_filters()

    def current_query(self) -> NotesQuery:
        return NotesQuery(
            case_id=self.case_id,
            include_global=self.include_global.isChecked(),
            status=self.status.currentData(),
            category=self.category.currentData(),
            text=self.search.text().strip(),
            conflicted=self.conflicts.isChecked(),
        )

    def apply_filters(self) -> None:
        self._search_timer.stop()
        self.model.set_query(self.current_query())
        if self.mode_group.checkedId() == 1:
            self._load_timeline()
        self._refresh_conflict_count()
        self._update_actions()

    def _refresh_conflict_count(self) -> None:
        q = self.current_query()
        if q.case_id is None and not q.include_global:
            self._show_conflict_count(0)
            return
        self.host.call(
            lambda e: len(e.open_conflicts(q.case_id, q.include_global)),
            lambda n: self._show_conflict_count(n) if q == self.current_query() else None,
            self._error,
            name="conflict-count",
        )

    def _show_conflict_count(self, count: int) -> None:
        """The badge: how many conflicts wait for the lawyer (red while any do)."""
        self.conflict_count = count
        self.conflicts.setText(self.tr("Conflicts %1").replace("%1", str(count)))
        danger = tokens()["danger"]
        self.conflicts.setIcon(icon("alert", danger if count else None))
        self.conflicts.setStyleSheet(f"QToolButton {{ color: {danger}; font-weight: 600; }}" if count else "")

    def focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    def _set_mode(self, mode: int) -> None:
        self.stack.setCurrentIndex(mode)
        if mode == 1:
            self._load_timeline()

    def _load_timeline(self) -> None:
        q = self.current_query()
        if q.case_id is None and not q.include_global:
            self.timeline.set_notes([])
            return
        if q.text:
            # a text filter: show the ranked hits in chronological order
            self.timeline.set_notes(self.model.notes(), self._selected_id, self.model.conflicted_ids)
            return
        def fetch(e: Any) -> tuple[list[Any], frozenset[str]]:
            notes = e.list_notes(q.case_id, q.include_global, q.status, q.category, order_by="event_date",
                                 conflicted=q.conflicted)
            marked = e.list_notes(q.case_id, q.include_global, "active", conflicted=True)
            return notes, frozenset(n.id for n in marked)

        self.host.call(
            fetch,
            lambda r: self.timeline.set_notes(r[0], self._selected_id, r[1]) if q == self.current_query() else None,
            self._error,
            name="timeline",
        )

    def _loaded(self) -> None:
        self._update_count()
        wanted = self._pending_select or self._selected_id
        self._pending_select = None
        if wanted:
            row = self.model.row_of(wanted)
            if row >= 0:
                self._select_row(row)
            elif wanted == self._selected_id:
                self._selected_id = None
                self.detail.show_note(None)
        if self.mode_group.checkedId() == 1 and self.search.text().strip():
            self.timeline.set_notes(self.model.notes(), self._selected_id, self.model.conflicted_ids)
        self._update_actions()

    def _show_sort_indicator(self) -> None:
        # search results come most relevant first: no column's arrow may claim otherwise
        self.table.horizontalHeader().setSortIndicatorShown(not self.model.by_relevance)

    def _update_count(self) -> None:
        shown, total = self.model.rowCount(), self.model.total
        query = self.model.query.text.strip()
        no_match = bool(query) and shown == 0 and not self.model.loading
        self.no_match.setText(
            self.tr("No match: no memory is about “%1”. Try other words, or clear the search.").replace("%1", query)
            if no_match
            else ""
        )
        self.no_match.setVisible(no_match)
        self.stack.setVisible(not no_match)
        if query and self.model.loading:
            self.count_label.setText(self.tr("Searching…"))
        elif query:
            self.count_label.setText(
                self.tr("No match") if no_match else self.tr("%n matching memories, most relevant first", "", shown)
            )
        elif shown < total:
            self.count_label.setText(self.tr("%1 of %2 memories (scroll for more)").replace("%1", str(shown)).replace("%2", str(total)))
        elif self.model.query.include_global:
            self.count_label.setText(self.tr("%n memories of this case and global", "", total))
        else:
            self.count_label.setText(self.tr("%n memories of this case", "", total))

    # -- toolbar fitting ---------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        self._fit_toolbar()
        super().resizeEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.search and event.type() == QEvent.Type.Resize:
            self._fit_placeholder()
        return super().eventFilter(watched, event)

    def _search_room(self, text: str) -> int:
        """The field width that shows ``text`` whole beside the search icon and the clear button."""
        return self.search.fontMetrics().horizontalAdvance(text) + SEARCH_CHROME

    def _fit_toolbar(self) -> None:
        """One row when the search (its whole placeholder), the filters and the actions fit
        side by side; else the filters on a second row."""
        margins = self.layout().contentsMargins()
        room = self.width() - margins.left() - margins.right() - 16  # the bar's right margin
        needed = (
            self._search_room(self._search_hint)
            + self.filters_box.minimumSizeHint().width()
            + self.actions_box.minimumSizeHint().width()
            + 3 * self._bar_row.spacing()
        )
        wide = room >= needed
        if wide == self._bar_wide:
            return
        self._bar_wide = wide
        if wide:
            self._filter_row.removeWidget(self.filters_box)
            self._bar_row.insertWidget(1, self.filters_box)
        else:
            self._bar_row.removeWidget(self.filters_box)
            self._filter_row.insertWidget(0, self.filters_box)

    def _fit_placeholder(self) -> None:
        """The whole hint where it fits, else its short form (the whole one in the tooltip)."""
        fits = self.search.width() >= self._search_room(self._search_hint)
        self.search.setPlaceholderText(self._search_hint if fits else self._search_hint_short)

    # -- selection and detail --------------------------------------------------------------
    def _select_row(self, row: int) -> None:
        index = self.model.index(row, COL_CONTENT)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.table.scrollTo(index)

    def selected_notes(self) -> list[Any]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [self.model.note_at(r) for r in rows if self.model.note_at(r) is not None]

    def select_note(self, note_id: str) -> None:
        """Select a note by id (from the chat chips, the timeline, a link)."""
        row = self.model.row_of(note_id)
        if row >= 0:
            self._select_row(row)
            return
        # not loaded (another page, filtered out): show it in the panel directly
        self._selected_id = note_id
        self._load_detail(note_id)

    def show_notes(self, note_ids: list[str]) -> None:
        if note_ids:
            self.select_note(note_ids[0])

    def _selection_changed(self, *_args: object) -> None:
        notes = self.selected_notes()
        self._update_actions()
        if not notes:
            return
        note = notes[0] if len(notes) == 1 else self.model.note_at(self.table.currentIndex().row()) or notes[0]
        if note.id != self._selected_id or self.detail.note is None:
            self._selected_id = note.id
            self._load_detail(note.id)

    def _load_detail(self, note_id: str) -> None:
        self._detail_token += 1
        token = self._detail_token

        def fetch(e: Any) -> tuple[Any, list[Any], list[Any], dict[str, Any], Any]:
            note = e.get_note(note_id)
            links = e.links_of(note_id)
            history = e.note_history(note_id)
            merged = [
                i
                for h in history
                for i in [*((h.after or {}).get("merged_from") or []), (h.after or {}).get("merged_into")]
                if i
            ]
            others = {n.id: n for n in e.notes_by_ids([*(link.dst for link in links), *merged])}
            return note, links, history, others, _drawn_from(e, note)

        self.host.call(
            fetch,
            lambda r: self._show_detail(token, *r),
            self._error,
            name="note-detail",
        )

    def _show_detail(
        self,
        token: int,
        note: Any,
        links: list[Any],
        history: list[Any],
        others: dict[str, Any],
        document: Any = None,
    ) -> None:
        if token == self._detail_token:
            self.detail.show_note(note, links, history, others, document)

    # -- editing ---------------------------------------------------------------------------
    def _save(self, note_id: str, changes: dict[str, Any]) -> None:
        self._edit(note_id, lambda e: e.update_note(note_id, actor="user", reason="edited by hand", **changes))

    def _edit(self, note_id: str, fn: Any) -> None:
        self.host.call(fn, self._note_left_or_changed, self._error, origin=self, name="edit-note")

    def expire_note(self, note_id: str) -> None:
        """Expire a note; say so, offer to take it back, and clear the panel if the note
        leaves the list (the status filter shows the active ones)."""

        def done(note: Any) -> None:
            self._note_left_or_changed(note)
            self.undo_bar.show_message(
                self.tr("Marked as expired: %1").replace("%1", _preview(note.content)),
                lambda: self._restore_expired(note.id),
            )

        self.host.call(
            lambda e: e.expire_note(note_id, reason="expired by hand"), done, self._error, origin=self, name="expire-note"
        )

    def _restore_expired(self, note_id: str) -> None:
        def done(note: Any) -> None:
            self._pending_select = note.id
            self.statusMessage.emit(self.tr("Restored."))
            self.apply_filters()

        self.host.call(lambda e: e.restore_note(note_id), done, self._error, origin=self, name="restore-note")

    def _note_left_or_changed(self, note: Any) -> None:
        wanted = self.status.currentData()
        if wanted is not None and note.status != wanted:
            self.model.remove_note(note.id)
            if self._selected_id == note.id:
                self._clear_detail()
            self._update_count()
            if self.mode_group.checkedId() == 1:
                self._load_timeline()
        else:
            self.model.replace_note(note)
            if self._selected_id == note.id:
                self._load_detail(note.id)

    def _clear_detail(self) -> None:
        self._selected_id = None
        self._detail_token += 1  # a detail still loading must not come back
        self.detail.show_note(None)

    def add_note(self) -> None:
        if self.host.engine is None:
            return
        dlg = AddNoteDialog(self.case_id is not None, self)
        if not _exec(dlg):
            return
        v = dlg.values()
        case_id = None if v["global"] else self.case_id
        self.add_note_values(v["content"], case_id, v["category"], v["tags"], v["pinned"],
                             event_date=v.get("event_date"), source_kind=v.get("source_kind"))

    def add_note_values(self, content: str, case_id: str | None, category: str | None = None,
                        tags: list[str] | None = None, pinned: bool = False, created_at: Any = None, *,
                        event_date: str | None = None, source_kind: str | None = None) -> None:
        def done(result: Any) -> None:
            self._pending_select = result.note.id
            self.statusMessage.emit(texts.add_result_message(result.action))
            self.apply_filters()

        self.host.call(
            lambda e: e.add_note(
                content, case_id=case_id, category=category, source="manual", pinned=pinned, tags=tags,
                created_at=created_at, event_date=event_date, source_kind=source_kind,
            ),
            done,
            self._error,
            origin=self,
            name="add-note",
        )

    def delete_note(self, note_id: str) -> None:
        note = self.detail.note if self.detail.note and self.detail.note.id == note_id else None
        preview = (note.content[:60] + "…") if note and len(note.content) > 60 else (note.content if note else "")
        if not dialogs.confirm(
            self,
            self.tr("Delete memory"),
            self.tr("Delete this memory for good? Its text, history and links are erased and cannot be restored.\n\n%1").replace("%1", preview),
            danger=True,
        ):
            return

        def done(report: Any) -> None:
            self.model.remove_note(note_id)
            if self._selected_id == note_id:
                self._clear_detail()
            self._update_count()
            if self.mode_group.checkedId() == 1:
                self._load_timeline()
            if note is not None:
                self.undo_bar.show_message(
                    self.tr("Deleted: %1").replace("%1", _preview(note.content)),
                    lambda: self._add_back(note),
                )
            if report is not None and report.still_holding and note is not None:
                self._offer_backup_purge(note.content, report.still_holding, bool(report.live_places))
            elif report is not None and report.live_places:
                self.statusMessage.emit(self._still_in_case_text())

        # true delete: the live data, what the model derived from it, the index, every
        # backup — complete only when no file of the data folder holds its text
        self.host.call(lambda e: e.forget_note(note_id), done, self._error, origin=self, name="delete-note")

    def _still_in_case_text(self) -> str:
        return self.tr(
            "The memory is deleted; its text still appears elsewhere in this case (for example in a chat message)."
        )

    def _add_back(self, note: Any) -> None:
        """Undo of a delete: the note is gone from every file, so it comes back as a new
        note with the same text, category, tags, pin and dates (its history and links are
        not kept anywhere to come back from)."""
        self.add_note_values(
            note.content, note.case_id, note.category, list(note.tags), bool(note.pinned),
            created_at=note.valid_from or note.created_at,
            event_date=getattr(note, "event_date", None), source_kind=getattr(note, "source_kind", None),
        )

    def _offer_backup_purge(self, text: str, holding: list[Any], live: bool = False) -> None:
        """Some backups still hold the text elsewhere (a chat message quoting it): say
        exactly which, and offer to purge it from them."""
        names = "\n".join(f"• {p.name}" for p in holding)
        question = self.tr(
            "The memory is deleted, but its text still appears in these backups (for example in a chat message):\n%1\n\nRemove the text from these backups too?"
        ).replace("%1", names)
        if live:
            question = f"{self._still_in_case_text()}\n\n{question}"
        if not dialogs.confirm(self, self.tr("Delete memory"), question, danger=True):
            return
        backups = self.host.backups

        def purged(report: Any) -> None:
            left = getattr(report, "still_holding", [])
            self.statusMessage.emit(
                self.tr("The text is gone from every backup.")
                if not left
                else self.tr("%1 backups still hold the text.").replace("%1", str(len(left)))
            )

        self.host.call(lambda _e: backups.purge_from_backups(text=text), purged, self._error, name="purge-backups")

    def merge_selected(self) -> None:
        """Show the two notes side by side; the lawyer picks the one to keep and the merged
        text, then the engine merges (one transaction)."""
        notes = self.selected_notes()
        if len(notes) != 2:
            return
        ids = [n.id for n in notes]
        self.host.call(
            lambda e: load_merge_notes(e, ids), self.ask_merge, self._error, name="merge-load"
        )

    def ask_merge(self, notes: list[Any]) -> None:
        """Open the merge dialog on notes read by :func:`load_merge_notes`; merge on OK."""
        if len(notes) < 2:
            return
        dlg = MergeDialog(notes, self)
        if not _exec(dlg):
            return
        keep, others, text = dlg.keep_id(), dlg.other_ids(), dlg.merged_text()
        self._pending_select = keep

        def done(_note: Any) -> None:
            self.statusMessage.emit(self.tr("Memories merged."))
            self.apply_filters()

        self.host.call(
            lambda e: e.merge_group(keep, others, merged_text=text),
            done, self._error, origin=self, name="merge-notes",
        )  # fmt: skip

    def link_selected(self) -> None:
        notes = self.selected_notes()
        if len(notes) != 2:
            return
        a, b = notes

        def done(_r: Any) -> None:
            self.statusMessage.emit(self.tr("Linked."))
            if self._selected_id in (a.id, b.id):
                self._load_detail(self._selected_id)

        self.host.call(
            lambda e: e.link_notes(a.id, b.id, kind="manual", strength=1.0, reason="linked by hand"),
            done,
            self._error,
            origin=self,
            name="link-notes",
        )

    def _resolve_conflict(self, note_id: str, other_id: str, keep: str) -> None:
        """The lawyer settles a conflict: keep one (the other is expired) or both."""
        def done(_notes: Any) -> None:
            self.statusMessage.emit(self.tr("Conflict settled."))
            self.apply_filters()
            if self._selected_id:
                self._load_detail(self._selected_id)

        self.host.call(lambda e: e.resolve_conflict(note_id, other_id, keep), done, self._error,
                       origin=self, name="resolve-conflict")

    def _set_link_type(self, src: str, dst: str, label: str) -> None:
        def done(_n: Any) -> None:
            if self._selected_id:
                self._load_detail(self._selected_id)

        self.host.call(lambda e: e.set_link_type(src, dst, label), done, self._error, origin=self, name="link-type")

    def _unlink(self, src: str, dst: str) -> None:
        def done(_r: Any) -> None:
            if self._selected_id:
                self._load_detail(self._selected_id)

        self.host.call(lambda e: e.unlink_notes(src, dst), done, self._error, origin=self, name="unlink-notes")

    def _operation_executed(self, changes: Any, origin: object) -> None:
        if origin is self:
            return  # our own edits already updated the table
        if changes.touches_notes(self.case_id):
            self.apply_filters()

    def _table_menu(self, pos: Any) -> None:
        if not self.table.indexAt(pos).isValid():
            return
        menu = QMenu(self)
        notes = self.selected_notes()
        if len(notes) == 2:
            menu.addAction(icon("merge"), self.tr("Merge"), self.merge_selected)
            menu.addAction(icon("link"), self.tr("Link"), self.link_selected)
        if len(notes) == 1:
            n = notes[0]
            if n.status == "active":
                menu.addAction(icon("expire"), self.tr("Expire"), lambda: self.expire_note(n.id))
            menu.addAction(icon("trash"), self.tr("Delete…"), lambda: self.delete_note(n.id))
        menu.exec(self.table.viewport().mapToGlobal(pos))

    def _header_menu(self, pos: Any) -> None:
        menu = QMenu(self)
        for col in (COL_CATEGORY, COL_EVENT, COL_SOURCE, COL_STATUS, COL_CREATED, COL_UPDATED):
            act = menu.addAction(self.model.headerData(col, Qt.Orientation.Horizontal))
            act.setCheckable(True)
            act.setChecked(not self.table.isColumnHidden(col))
            act.toggled.connect(lambda on, c=col: self.table.setColumnHidden(c, not on))
        menu.exec(self.table.horizontalHeader().mapToGlobal(pos))

    # -- import / export -------------------------------------------------------------------
    def import_jsonl(self) -> None:
        path = dialogs.open_file(self, self.tr("Import memories"), self.tr("JSON Lines (*.jsonl *.json);;All files (*)"))
        if path:
            self.import_from(path)

    def import_from(self, path: str) -> None:
        case_id = self.case_id

        def done(results: list[Any]) -> None:
            self.statusMessage.emit(self.tr("Imported %n memories.", "", len(results)))
            self.apply_filters()

        self.host.call(lambda e: e.import_jsonl(path, case_id=case_id), done, self._error, origin=self, name="import")

    def export_jsonl(self) -> None:
        path = dialogs.save_file(self, self.tr("Export memories"), "lexmem-notes.jsonl", self.tr("JSON Lines (*.jsonl)"))
        if path:
            self.export_to(path, "jsonl")

    def export_markdown(self) -> None:
        path = dialogs.save_file(self, self.tr("Export memories"), "lexmem-notes.md", self.tr("Markdown (*.md)"))
        if path:
            self.export_to(path, "md")

    def export_to(self, path: str, kind: str) -> None:
        case_id = self.case_id
        language = i18n.current()  # the file speaks the interface's language

        def export(e: Any) -> tuple[int, int]:
            n = e.export_jsonl(path, case_id) if kind == "jsonl" else e.export_markdown(path, case_id, language)
            return int(n or 0), e.count_notes(case_id, False, "active")

        def done(counts: tuple[int, int]) -> None:
            # the export keeps every state (a file of record); say how that differs from the list
            total, active = counts
            self.statusMessage.emit(
                self.tr("Exported %1 memories of this case: %2 in effect, %3 expired or replaced (global memories not included).")
                .replace("%1", str(total))
                .replace("%2", str(active))
                .replace("%3", str(total - active))
            )

        self.host.call(export, done, self._error, name="export")

    def open_evidence_list(self) -> None:
        """证据目录: arrange the case's evidence and export it as a Word document."""
        if self.case_id is None:
            return
        from desktop_app.ui.evidence import open_evidence_dialog

        self.evidence_dialog = open_evidence_dialog(self.host, self.case_id, self)

    # -- misc ------------------------------------------------------------------------------
    def _update_actions(self) -> None:
        ready = self.host.engine is not None or self.host.state == "loading"
        n = len(self.selected_notes())
        self.merge_button.setEnabled(n == 2)
        self.link_button.setEnabled(n == 2)
        self.add_button.setEnabled(ready)
        self.act_export_jsonl.setEnabled(self.case_id is not None)
        self.act_export_md.setEnabled(self.case_id is not None)
        self.act_evidence.setEnabled(self.case_id is not None)
        self.act_import_documents.setEnabled(self.case_id is not None)

    def _error(self, exc: BaseException) -> None:
        log.warning("notes: %r", exc)
        dialogs.error(self, self.tr("LexMem"), texts.error_text(exc))


#: the search field's width beyond its text: the leading icon, the clear button, the frame
SEARCH_CHROME = 56
SEARCH_MIN_WIDTH = 160


def _drawn_from(engine: Any, note: Any) -> tuple[str, str, str, int] | None:
    """(worker) (document id, name, kind, page) of the document a note was drawn from, while
    that document exists."""
    from desktop_app.memory import DocumentNotFoundError, parse_document_source

    where = parse_document_source(getattr(note, "source", None))
    if where is None:
        return None
    try:
        doc = engine.get_document(where[0])
    except DocumentNotFoundError:
        return None
    return doc.id, doc.name, doc.kind, where[1]


def _preview(text: str, limit: int = 40) -> str:
    line = text.replace("\n", " ")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _exec(dlg: Any) -> bool:
    """Run a dialog; a seam the tests replace."""
    return bool(dlg.exec())
