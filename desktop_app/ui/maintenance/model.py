"""The check-up proposal as a Qt table model: one row per proposed item."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, Qt

COL_KIND, COL_NOTES, COL_DETAIL = range(3)
#: how many characters of each note a row shows (the full text is in its tooltip)
PREVIEW_CHARS = 60


@dataclass(frozen=True, slots=True)
class MaintenanceRow:
    """One proposed item with the texts of its notes (read in the worker, never here)."""

    item_id: str
    kind: str
    contents: tuple[str, ...]
    score: float | None
    event_date: str | None
    note_ids: tuple[str, ...] = ()


def kind_label(kind: str) -> str:
    return {
        "stale": QCoreApplication.translate("Maintenance", "Stale, linked to nothing"),
        "duplicate": QCoreApplication.translate("Maintenance", "Near-duplicates"),
        "update": QCoreApplication.translate("Maintenance", "Possible update"),
        "passed": QCoreApplication.translate("Maintenance", "Date has passed"),
        "conflict": QCoreApplication.translate("Maintenance", "Open conflict"),
    }.get(kind, kind)


def action_label(kind: str) -> str:
    """What accepting an item of this kind does."""
    return {
        "stale": QCoreApplication.translate("Maintenance", "archive"),
        "duplicate": QCoreApplication.translate(
            "Maintenance", "merge: you see both and the merged text"
        ),
        "update": QCoreApplication.translate("Maintenance", "the newer replaces the older"),
        "passed": QCoreApplication.translate("Maintenance", "expire"),
        "conflict": QCoreApplication.translate(
            "Maintenance", "you choose which one holds; the other is expired"
        ),
    }.get(kind, "")


def _detail(row: MaintenanceRow) -> str:
    parts = [action_label(row.kind)]
    if row.score is not None:
        parts.append(
            QCoreApplication.translate("Maintenance", "similarity %1").replace(
                "%1", f"{row.score:.2f}"
            )
        )
    if row.event_date:
        parts.append(row.event_date)
    return " · ".join(p for p in parts if p)


class MaintenanceTableModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[MaintenanceRow] = []

    def set_rows(self, rows: list[MaintenanceRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row_at(self, row: int) -> MaintenanceRow:
        return self._rows[row]

    def rows(self) -> list[MaintenanceRow]:
        return list(self._rows)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 3

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (
            QCoreApplication.translate("Maintenance", "Proposal"),
            QCoreApplication.translate("Maintenance", "Memories"),
            QCoreApplication.translate("Maintenance", "If accepted"),
        )[section]

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        col = index.column()
        # note text is untrusted: plain text only (DisplayRole/ToolTipRole of a plain string
        # never render HTML in a QTableView; the tooltip escapes it explicitly)
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_KIND:
                return kind_label(row.kind)
            if col == COL_NOTES:
                return "\n".join(_preview(c) for c in row.contents)
            return _detail(row)
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_NOTES:
            return "<p style='white-space:pre-wrap'>" + _escape("\n".join(row.contents)) + "</p>"
        return None


def _preview(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW_CHARS else flat[: PREVIEW_CHARS - 1] + "…"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
