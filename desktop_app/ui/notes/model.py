"""The notes table model: pages of notes fetched lazily in workers, sorted by the engine.

Two modes: *list* (engine.list_notes with filters, ordering and paging through fetchMore)
and *search* (engine.find_notes: only the relevant notes, most relevant first, until the user
sorts them by a column).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont

from desktop_app.ui import i18n, texts
from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.icons import icon
from desktop_app.ui.theme import CATEGORY_COLORS, tokens

NOTE_ROLE = Qt.ItemDataRole.UserRole + 10
PAGE_SIZE = 200

COL_PIN, COL_CONTENT, COL_CATEGORY, COL_STATUS, COL_CREATED, COL_UPDATED, COL_EVENT, COL_SOURCE = (
    range(8)
)
_SORT_FIELDS = {
    COL_CONTENT: "content",
    COL_CATEGORY: "category",
    COL_STATUS: "status",
    COL_CREATED: "created_at",
    COL_UPDATED: "updated_at",
    COL_EVENT: "event_date",
}

_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True, slots=True)
class NotesQuery:
    case_id: str | None = None
    include_global: bool = False
    status: str | None = "active"  # None: every status
    category: str | None = None
    text: str = ""  # non-empty: ranked by engine.search
    conflicted: bool = False  # only the notes in an open conflict


class NotesTableModel(QAbstractTableModel):
    loadingChanged = Signal(bool)
    loaded = Signal()  # a (re)load's first rows arrived
    failed = Signal(object)

    def __init__(self, host: EngineHost, parent: Any = None) -> None:
        super().__init__(parent)
        self.host = host
        self.query = NotesQuery()
        self._notes: list[Any] = []
        self._total = 0
        self._generation = 0
        self._loading = False
        self._order_by = "created_at"
        self._descending = True
        self._sort_column = COL_CREATED
        #: ids of the shown scope's notes in an open conflict (a badge on their row)
        self.conflicted_ids: frozenset[str] = frozenset()
        #: search results still in the engine's relevance order (no column sort applied)
        self.by_relevance = False

    # -- loading ---------------------------------------------------------------------------
    def set_query(self, query: NotesQuery) -> None:
        self.query = query
        self.reload()

    def reload(self) -> None:
        self._generation += 1
        gen = self._generation
        q = self.query
        self.beginResetModel()
        self._notes = []
        self._total = 0
        self.by_relevance = bool(q.text.strip())
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, COL_CONTENT, COL_CONTENT)
        if q.case_id is None and not q.include_global:
            self.loaded.emit()
            return
        self._set_loading(True)
        order_by, desc = self._order_by, self._descending
        def conflicted(e: Any) -> frozenset[str]:
            return frozenset(
                n.id for n in e.list_notes(q.case_id, q.include_global, "active", conflicted=True)
            )

        if q.text.strip():
            def run(e: Any) -> tuple[list[Any], int, frozenset[str]]:
                hits = e.find_notes(
                    q.text, q.case_id, include_global=q.include_global,
                    status=q.status, category=q.category, limit=PAGE_SIZE,
                )
                notes = [h.note for h in hits]
                marked = conflicted(e)
                if q.conflicted:
                    notes = [n for n in notes if n.id in marked]
                return notes, len(notes), marked
        else:
            def run(e: Any) -> tuple[list[Any], int, frozenset[str]]:
                total = e.count_notes(q.case_id, q.include_global, q.status, q.category, q.conflicted)
                notes = e.list_notes(
                    q.case_id, q.include_global, q.status, q.category,
                    limit=PAGE_SIZE, offset=0, order_by=order_by, descending=desc,
                    conflicted=q.conflicted,
                )
                return notes, total, conflicted(e)

        self.host.call(run, lambda r: self._first_page(gen, r), lambda exc: self._failed(gen, exc), name="notes-page")

    def _first_page(self, gen: int, result: tuple[list[Any], int, frozenset[str]]) -> None:
        if gen != self._generation:
            return
        notes, total, self.conflicted_ids = result
        self._set_loading(False)
        if notes:
            self.beginInsertRows(QModelIndex(), 0, len(notes) - 1)
            self._notes = list(notes)
            self._total = max(total, len(notes))
            self.endInsertRows()
        self.loaded.emit()

    def _failed(self, gen: int, exc: BaseException) -> None:
        if gen == self._generation:
            self._set_loading(False)
            self.failed.emit(exc)

    def canFetchMore(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008 (Qt default)
        return not parent.isValid() and not self._loading and len(self._notes) < self._total

    def fetchMore(self, parent: _Index = QModelIndex()) -> None:  # noqa: B008 (Qt default)
        if not self.canFetchMore(parent):
            return
        gen, q, offset = self._generation, self.query, len(self._notes)
        order_by, desc = self._order_by, self._descending
        self._set_loading(True)
        self.host.call(
            lambda e: e.list_notes(
                q.case_id, q.include_global, q.status, q.category,
                limit=PAGE_SIZE, offset=offset, order_by=order_by, descending=desc,
                conflicted=q.conflicted,
            ),
            lambda notes: self._more(gen, notes),
            lambda exc: self._failed(gen, exc),
            name="notes-more",
        )

    def _more(self, gen: int, notes: list[Any]) -> None:
        if gen != self._generation:
            return
        self._set_loading(False)
        if not notes:
            self._total = len(self._notes)  # the count moved meanwhile: stop asking
            return
        first = len(self._notes)
        self.beginInsertRows(QModelIndex(), first, first + len(notes) - 1)
        self._notes.extend(notes)
        self.endInsertRows()

    def _set_loading(self, value: bool) -> None:
        if value != self._loading:
            self._loading = value
            self.loadingChanged.emit(value)

    @property
    def loading(self) -> bool:
        return self._loading

    @property
    def total(self) -> int:
        return self._total

    # -- access ----------------------------------------------------------------------------
    def note_at(self, row: int) -> Any:
        return self._notes[row] if 0 <= row < len(self._notes) else None

    def row_of(self, note_id: str) -> int:
        return next((i for i, n in enumerate(self._notes) if n.id == note_id), -1)

    def notes(self) -> list[Any]:
        return list(self._notes)

    def replace_note(self, note: Any) -> None:
        """An edited note: update its row in place (no reload, the selection stays)."""
        row = self.row_of(note.id)
        if row >= 0:
            self._notes[row] = note
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def remove_note(self, note_id: str) -> None:
        row = self.row_of(note_id)
        if row >= 0:
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._notes[row]
            self._total = max(0, self._total - 1)
            self.endRemoveRows()

    # -- Qt model API ----------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt default)
        return 0 if parent.isValid() else len(self._notes)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt default)
        return 0 if parent.isValid() else 8

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return {
                COL_PIN: "",
                COL_CONTENT: self.tr("Content · most relevant first") if self.by_relevance else self.tr("Content"),
                COL_CATEGORY: self.tr("Category"),
                COL_STATUS: self.tr("Status"),
                COL_CREATED: self.tr("Recorded"),
                COL_UPDATED: self.tr("Updated"),
                COL_EVENT: self.tr("Event date"),
                COL_SOURCE: self.tr("Source"),
            }[section]
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_EVENT:
            return self.tr("When the fact happened or takes effect (not when it was recorded)")
        if role == Qt.ItemDataRole.DecorationRole and section == COL_PIN:
            return icon("pin", "muted")
        if role == Qt.ItemDataRole.ToolTipRole and section == COL_PIN:
            return self.tr("Pinned")
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        note = self._notes[index.row()]
        col = index.column()
        if role == NOTE_ROLE:
            return note
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_CONTENT:
                first = note.content.replace("\n", " ")
                return first if len(first) <= 160 else first[:159] + "…"
            if col == COL_CATEGORY:
                return texts.category_label(note.category)
            if col == COL_STATUS:
                return texts.status_label(note.status)
            if col == COL_CREATED:
                return _fmt_date(note.created_at)
            if col == COL_UPDATED:
                return _fmt_date(note.updated_at)
            if col == COL_EVENT:
                return texts.event_date_text(getattr(note, "event_date", None))
            if col == COL_SOURCE:
                return texts.source_kind_label(getattr(note, "source_kind", None)) or texts.origin_label(
                    getattr(note, "origin", "manual")
                )
            return None
        if role == Qt.ItemDataRole.DecorationRole and col == COL_PIN and note.pinned:
            return icon("pin", "accent")
        if role == Qt.ItemDataRole.DecorationRole and col == COL_CONTENT and note.id in self.conflicted_ids:
            return icon("alert", "danger")
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_SOURCE:
            return texts.origin_label(getattr(note, "origin", "manual"))
        if role == Qt.ItemDataRole.ForegroundRole:
            if col == COL_CATEGORY:
                return QColor(CATEGORY_COLORS.get(note.category, tokens()["muted"]))
            if note.status != "active" or col in (COL_STATUS, COL_CREATED, COL_UPDATED, COL_SOURCE):
                return QColor(tokens()["muted"])
        if role == Qt.ItemDataRole.FontRole:
            if col == COL_CATEGORY:
                f = QFont()
                f.setBold(True)
                return f
            if note.status == "superseded" and col == COL_CONTENT:
                f = QFont()
                f.setStrikeOut(True)
                return f
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_CONTENT:
            if note.id in self.conflicted_ids:
                return self.tr("Open conflict: contradicts a memory from another source") + "\n" + note.content
            return note.content
        if role == Qt.ItemDataRole.AccessibleTextRole and col == COL_PIN:
            return self.tr("Pinned") if note.pinned else ""
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        desc = order == Qt.SortOrder.DescendingOrder
        if self.query.text.strip():
            # search results are few and already loaded: sort them here
            key = {
                COL_CONTENT: lambda n: n.content,
                COL_CATEGORY: lambda n: n.category,
                COL_STATUS: lambda n: n.status,
                COL_CREATED: lambda n: n.created_at,
                COL_UPDATED: lambda n: n.updated_at,
                COL_EVENT: lambda n: n.event_date or n.created_at.astimezone().date().isoformat(),
                COL_PIN: lambda n: n.pinned,
            }.get(column)
            if key is None:
                return
            self.layoutAboutToBeChanged.emit()
            self._notes.sort(key=key, reverse=desc)
            self.by_relevance = False
            if column in _SORT_FIELDS:  # the list keeps this order once the search is cleared
                self._order_by, self._descending, self._sort_column = _SORT_FIELDS[column], desc, column
            self.layoutChanged.emit()
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, COL_CONTENT, COL_CONTENT)
            return
        field = _SORT_FIELDS.get(column)
        if field is None or (field == self._order_by and desc == self._descending):
            return
        self._order_by, self._descending, self._sort_column = field, desc, column
        self.reload()


def _fmt_date(value: Any) -> str:
    if value is None:
        return ""
    try:
        local = value.astimezone() if value.tzinfo else value
    except (ValueError, OSError):
        local = value
    return local.strftime("%Y-%m-%d") if i18n.is_chinese() else local.strftime("%d %b %Y")
