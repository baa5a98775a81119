"""A case's documents as a Qt table model: name, kind, pages, imported (local time), notes
derived, knowledge extraction.  Rows are the engine's Document values, read in a worker."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from desktop_app.core.clock import to_local
from desktop_app.ui.documents.wording import extraction_label, extraction_tip, kind_label
from desktop_app.ui.safe_text import plain_tooltip

Index = QModelIndex | QPersistentModelIndex
COL_NAME, COL_KIND, COL_PAGES, COL_IMPORTED, COL_NOTES, COL_EXTRACTION = range(6)
DOCUMENT_ID_ROLE = Qt.ItemDataRole.UserRole + 1


class DocumentsTableModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._docs: list[Any] = []

    def set_documents(self, docs: Sequence[Any]) -> None:
        self.beginResetModel()
        self._docs = list(docs)
        self.endResetModel()

    def document_at(self, row: int) -> Any | None:
        return self._docs[row] if 0 <= row < len(self._docs) else None

    def row_of(self, document_id: str) -> int:
        return next((i for i, d in enumerate(self._docs) if d.id == document_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._docs)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 6

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (
            QCoreApplication.translate("Documents", "Name"),
            QCoreApplication.translate("Documents", "Kind"),
            QCoreApplication.translate("Documents", "Pages"),
            QCoreApplication.translate("Documents", "Imported"),
            QCoreApplication.translate("Documents", "Notes derived"),
            QCoreApplication.translate("Documents", "Extraction"),
        )[section]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        doc = self.document_at(index.row()) if index.isValid() else None
        if doc is None:
            return None
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_NAME:
                return doc.name
            if col == COL_KIND:
                return kind_label(doc.kind, doc.ocr)
            if col == COL_PAGES:
                # a Word or text file has paragraphs, not pages
                return str(doc.pages) if doc.kind in ("pdf", "image") else "—"
            if col == COL_IMPORTED:
                return to_local(doc.imported_at).strftime("%Y-%m-%d %H:%M")
            if col == COL_NOTES:
                return str(doc.notes_derived)
            if col == COL_EXTRACTION:
                return extraction_label(doc.extraction)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_NAME:
                return plain_tooltip(doc.name)
            if col == COL_PAGES:
                return QCoreApplication.translate("Documents", "%1 passages").replace(
                    "%1", str(doc.passages)
                )
            if col == COL_EXTRACTION:
                return extraction_tip(doc.extraction)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_PAGES, COL_NOTES):
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == DOCUMENT_ID_ROLE:
            return doc.id
        return None
