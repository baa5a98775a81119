"""The look of the app's list tables (notes, documents): whole rows, read-only, no grid,
alternating rows, one line a row."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableView

ROW_HEIGHT = 32


def row_table(selection: QAbstractItemView.SelectionMode) -> QTableView:
    table = QTableView()
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(selection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setAlternatingRowColors(True)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
    table.horizontalHeader().setHighlightSections(False)
    return table
