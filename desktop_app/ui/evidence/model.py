"""The case's evidence as a Qt list model the lawyer reorders (drag, or up / down).

Rows are the engine's EvidenceEntry values, read in a worker; the model only holds them.
Each row shows its place, the evidence's name, and under it what it proves and where it
comes from.  Note text is shown as text (item views do not render HTML; tooltips go
through plain_tooltip)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from desktop_app.ui import i18n
from desktop_app.ui.safe_text import plain_tooltip

Index = QModelIndex | QPersistentModelIndex
NOTE_ID_ROLE = Qt.ItemDataRole.UserRole + 1


def source_of(entry: Any) -> str:
    """Where a piece of evidence comes from, as the Word list will say it (in the interface
    language), with the page of a document; "" when nothing says."""
    from desktop_app.memory.evidence_list import source_text  # loaded with the engine already

    source = source_text(entry, english=not i18n.is_chinese())
    if entry.document_name and entry.page is not None:
        return QCoreApplication.translate("Evidence", "%1, page %2").replace(
            "%1", entry.document_name
        ).replace("%2", str(entry.page))
    return source


class EvidenceListModel(QAbstractListModel):
    #: the order changed by the lawyer (a drag or a move): the dialog stores it
    orderChanged = Signal()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._entries: list[Any] = []

    def set_entries(self, entries: Sequence[Any]) -> None:
        self.beginResetModel()
        self._entries = list(entries)
        self.endResetModel()

    def entries(self) -> list[Any]:
        return list(self._entries)

    def note_ids(self) -> list[str]:
        return [e.note.id for e in self._entries]

    # -- reading -----------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._entries)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._entries):
            return None
        entry = self._entries[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            purpose = entry.purpose or QCoreApplication.translate(
                "Evidence", "(purpose not stated)"
            )
            source = source_of(entry)
            return f"{index.row() + 1}. {entry.name}\n{purpose}" + (f" · {source}" if source else "")
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(entry.note.content)
        if role == NOTE_ID_ROLE:
            return entry.note.id
        return None

    # -- reordering --------------------------------------------------------------------
    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled  # drops land between rows, never on one
        return (
            Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled
        )

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def moveRows(
        self,
        source_parent: Index,
        source_row: int,
        count: int,
        destination_parent: Index,
        destination_child: int,
    ) -> bool:
        """QListView's internal drag moves rows through this (no copy, no removal)."""
        if source_parent.isValid() or destination_parent.isValid() or count < 1:
            return False
        last = source_row + count - 1
        if source_row < 0 or last >= len(self._entries):
            return False
        destination_child = max(0, min(destination_child, len(self._entries)))
        if source_row <= destination_child <= last + 1:
            return False  # onto itself
        if not self.beginMoveRows(
            QModelIndex(), source_row, last, QModelIndex(), destination_child
        ):
            return False
        moving = self._entries[source_row : last + 1]
        del self._entries[source_row : last + 1]
        at = destination_child - count if destination_child > last else destination_child
        self._entries[at:at] = moving
        self.endMoveRows()
        # the numbers shown in front of the names moved too
        self.dataChanged.emit(self.index(0), self.index(len(self._entries) - 1))
        self.orderChanged.emit()
        return True

    def move(self, row: int, delta: int) -> int:
        """Move one row up (-1) or down (+1); returns its new row (unchanged at an end)."""
        target = row + delta
        if not (0 <= row < len(self._entries) and 0 <= target < len(self._entries)):
            return row
        destination = target + 1 if delta > 0 else target
        return target if self.moveRows(QModelIndex(), row, 1, QModelIndex(), destination) else row
