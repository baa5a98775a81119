"""The graph's toolbar: search, category legend (doubling as the category filter), status and
link-kind filters, focus depth, size metric, fit, re-layout and export."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.memory.types import CATEGORIES, LINK_KINDS, NOTE_STATUSES
from desktop_app.ui import texts

from . import style
from .model import Filters


def _dot_icon(colour: QColor) -> QIcon:
    pm = QPixmap(12, 12)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(colour)
    p.drawEllipse(1, 1, 10, 10)
    p.end()
    return QIcon(pm)


class GraphControls(QWidget):
    filtersChanged = Signal()
    searchChanged = Signal(str)
    hopsChanged = Signal(int)
    sizeByChanged = Signal(str)
    groupByChanged = Signal(str)
    fitRequested = Signal()
    relayoutRequested = Signal()
    exportRequested = Signal(str)  # "png" or "svg"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("Search notes…"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.searchChanged)

        self.category_buttons: dict[str, QToolButton] = {}
        legend = QHBoxLayout()
        legend.setSpacing(2)
        for cat in CATEGORIES:
            b = QToolButton(self)
            b.setText(texts.category_label(cat))
            b.setIcon(_dot_icon(style.category_colour(cat)))
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            b.setCheckable(True)
            b.setChecked(True)
            b.setAutoRaise(True)
            b.setToolTip(self.tr("Show or hide this category"))
            b.toggled.connect(self.filtersChanged)
            self.category_buttons[cat] = b
            legend.addWidget(b)
        legend.addStretch(1)

        self.status_actions = self._menu_button(self.tr("Status"), NOTE_STATUSES, texts.status_label)
        self.kind_actions = self._menu_button(self.tr("Links"), LINK_KINDS, texts.link_kind_label)

        self.hops = QComboBox(self)
        self.hops.addItem(self.tr("Whole map"), 0)
        self.hops.addItem(self.tr("Focus: 1 hop"), 1)
        self.hops.addItem(self.tr("Focus: 2 hops"), 2)
        self.hops.setToolTip(self.tr("Show only the selected note's neighbourhood"))
        self.hops.currentIndexChanged.connect(
            lambda _i: self.hopsChanged.emit(int(self.hops.currentData()))
        )

        self.size_by = QComboBox(self)
        self.size_by.addItem(self.tr("Size: links"), "degree")
        self.size_by.addItem(self.tr("Size: retrievals"), "retrievals")
        self.size_by.currentIndexChanged.connect(
            lambda _i: self.sizeByChanged.emit(str(self.size_by.currentData()))
        )

        self.group_by = QComboBox(self)
        self.group_by.addItem(self.tr("Group: category"), "category")
        self.group_by.addItem(self.tr("Group: month"), "time")
        self.group_by.setToolTip(self.tr("How the notes without links are grouped"))
        self.group_by.currentIndexChanged.connect(
            lambda _i: self.groupByChanged.emit(str(self.group_by.currentData()))
        )

        fit = self._button(self.tr("Fit"), self.fitRequested.emit)
        relayout = self._button(self.tr("Re-layout"), self.relayoutRequested.emit)
        export = QToolButton(self)
        export.setText(self.tr("Export"))
        export.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(export)
        menu.addAction("PNG…", lambda: self.exportRequested.emit("png"))
        menu.addAction("SVG…", lambda: self.exportRequested.emit("svg"))
        export.setMenu(menu)

        row = QHBoxLayout()
        row.addWidget(self.search, 2)
        for w in (
            self._status_button,
            self._kind_button,
            self.hops,
            self.size_by,
            self.group_by,
            fit,
            relayout,
            export,
        ):
            row.addWidget(w)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 0)
        lay.setSpacing(2)
        lay.addLayout(row)
        lay.addLayout(legend)

    def _button(self, text: str, slot: object) -> QToolButton:
        b = QToolButton(self)
        b.setText(text)
        b.clicked.connect(slot)
        return b

    def _menu_button(
        self, text: str, values: tuple[str, ...], label: Callable[[str], str]
    ) -> dict[str, QAction]:
        b = QToolButton(self)
        b.setText(text)
        b.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(b)
        actions: dict[str, QAction] = {}
        for v in values:
            a = menu.addAction(label(v))
            a.setCheckable(True)
            a.setChecked(True)
            a.toggled.connect(self.filtersChanged)
            actions[v] = a
        b.setMenu(menu)
        if values == NOTE_STATUSES:
            self._status_button = b
        else:
            self._kind_button = b
        return actions

    def filters(self) -> Filters:
        return Filters(
            categories={c for c, b in self.category_buttons.items() if b.isChecked()},
            statuses={s for s, a in self.status_actions.items() if a.isChecked()},
            kinds={k for k, a in self.kind_actions.items() if a.isChecked()},
        )

    def set_filters(self, f: Filters) -> None:
        """Reflect filters set in code, without a storm of filtersChanged signals."""
        self.blockSignals(True)
        try:
            for c, b in self.category_buttons.items():
                b.setChecked(c in f.categories)
            for s, a in self.status_actions.items():
                a.setChecked(s in f.statuses)
            for k, a in self.kind_actions.items():
                a.setChecked(k in f.kinds)
        finally:
            self.blockSignals(False)
