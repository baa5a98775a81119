"""The graph canvas: one widget that paints every node and link itself and turns the mouse
into zoom, pan, hover, click, double-click and node dragging."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from . import style
from .layout import GRID_CELL_H, GRID_HEADER
from .model import GraphModel
from .render import LAYOUT_K, Frame, Renderer, lod_for
from .spatial import SpatialGrid
from .text import tooltip_html

MIN_SCALE = 0.02
#: screen room a fitted view leaves for the titles: half a title's width beside the
#: outermost nodes, one line under the lowest
TITLE_HALF_WIDTH = 75.0
TITLE_LINE = 16.0
MAX_SCALE = 8.0
#: a press that moves less than this (pixels) is a click, not a drag
DRAG_SLOP = 4


class GraphCanvas(QWidget):
    nodeClicked = Signal(int)  # -1: the background was clicked
    nodeDoubleClicked = Signal(int)
    nodeHovered = Signal(int)  # -1: nothing under the cursor
    nodeDragged = Signal(int)  # a node was moved by hand (on release)
    viewChanged = Signal()  # zoom or pan by the user

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(200, 150)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)  # we fill every pixel
        self.renderer = Renderer()
        self.scale = 1.0
        self.offset = np.zeros(2)
        self.frame: Frame | None = None
        self._grid: SpatialGrid | None = None
        self._press: QPointF | None = None
        self._press_node = -1
        self._dragging = False
        self._last_mouse = QPointF()
        self.frames_painted = 0

    # -- data ---------------------------------------------------------------------------
    def set_frame(self, frame: Frame) -> None:
        self.frame = frame
        self._grid = None
        self.update()

    def set_positions(self, pos: np.ndarray) -> None:
        if self.frame is not None:
            self.frame.pos = pos
            self._grid = None
            self.update()

    @property
    def model(self) -> GraphModel | None:
        return self.frame.model if self.frame else None

    # -- coordinates --------------------------------------------------------------------
    def to_scene(self, pt: QPointF | QPoint) -> np.ndarray:
        return (np.array([pt.x(), pt.y()], np.float64) - self.offset) / self.scale

    def to_screen(self, xy: np.ndarray) -> QPointF:
        s = np.asarray(xy) * self.scale + self.offset
        return QPointF(float(s[0]), float(s[1]))

    def fit(self, mask: np.ndarray | None = None, margin: float = 30.0) -> None:
        """Zoom and centre so the given nodes (default: the visible ones) fill the view."""
        f = self.frame
        if f is None or f.model.n == 0:
            return
        sel = f.node_visible if mask is None else mask
        if not sel.any():
            sel = np.ones(f.model.n, bool)
        pts = f.pos[sel]
        r = f.model.radius[sel]
        lo = (pts - r[:, None]).min(0)
        hi = (pts + r[:, None]).max(0)
        lone = ~f.model.linked[sel]
        if lone.any():  # the heading band over each grid of unlinked notes
            lo[1] = min(lo[1], float(pts[lone, 1].min()) - GRID_HEADER * GRID_CELL_H * LAYOUT_K)
        span = np.maximum(hi - lo, 1.0)
        # the titles centred under the nodes reach past them sideways, and one line below
        w = max(self.width() - 2 * (margin + TITLE_HALF_WIDTH), 10)
        h = max(self.height() - 2 * margin - TITLE_LINE, 10)
        self.scale = float(np.clip(min(w / span[0], h / span[1]), MIN_SCALE, MAX_SCALE))
        centre = (lo + hi) / 2
        self.offset = (
            np.array([self.width() / 2, (self.height() - TITLE_LINE) / 2]) - centre * self.scale
        )
        self.update()

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        at = anchor if anchor is not None else QPointF(self.width() / 2, self.height() / 2)
        before = self.to_scene(at)
        self.scale = float(np.clip(self.scale * factor, MIN_SCALE, MAX_SCALE))
        self.offset = np.array([at.x(), at.y()]) - before * self.scale
        self.update()
        self.viewChanged.emit()

    @property
    def lod(self) -> str:
        return lod_for(self.scale)

    # -- hit testing --------------------------------------------------------------------
    def node_at(self, pt: QPointF | QPoint) -> int:
        f = self.frame
        if f is None or f.model.n == 0:
            return -1
        if self._grid is None:  # rebuilt lazily: positions change every frame while settling
            self._grid = SpatialGrid(f.pos, f.model.radius, f.node_visible)
        x, y = self.to_scene(pt)
        # tiny nodes far out stay clickable: a few pixels of slop in scene units
        return self._grid.query(float(x), float(y), slop=4.0 / self.scale)

    def invalidate_hits(self) -> None:
        self._grid = None

    # -- painting -------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            if self.frame is None:
                p.fillRect(self.rect(), self.palette().window())
                return
            self.renderer.look = style.look_for(self.palette().window().color())
            self.renderer.paint(
                p,
                self.frame,
                self.scale,
                (self.offset[0], self.offset[1]),
                (self.width(), self.height()),
            )
        finally:
            p.end()
        self.frames_painted += 1

    def resizeEvent(self, event: QResizeEvent) -> None:
        # keep the scene point at the centre where it was
        old = event.oldSize()
        if old.isValid() and old.width() > 0:
            self.offset += (
                np.array([event.size().width() - old.width(), event.size().height() - old.height()])
                / 2
            )
        super().resizeEvent(event)

    # -- mouse --------------------------------------------------------------------------
    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom_by(1.2**steps, event.position())
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position()
            self._last_mouse = event.position()
            self._press_node = self.node_at(event.position())
            self._dragging = False
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            if not self._dragging and (pos - self._press).manhattanLength() >= DRAG_SLOP:
                self._dragging = True
                QToolTip.hideText()
            if self._dragging:
                delta = pos - self._last_mouse
                self._last_mouse = pos
                if self._press_node >= 0 and self.frame is not None:
                    # drag a node (the frame owns a copy of the positions, so this is safe)
                    self.frame.pos[self._press_node] += (
                        np.array([delta.x(), delta.y()]) / self.scale
                    )
                    self._grid = None
                else:
                    self.offset += np.array([delta.x(), delta.y()])
                    self.viewChanged.emit()
                self.update()
            return
        self._hover(pos, event.globalPosition().toPoint())

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self._press is not None:
            if self._dragging and self._press_node >= 0:
                self.nodeDragged.emit(self._press_node)
            elif not self._dragging:
                self.nodeClicked.emit(self.node_at(event.position()))
            self._press = None
            self._dragging = False
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            i = self.node_at(event.position())
            if i >= 0:
                self.nodeDoubleClicked.emit(i)
        super().mouseDoubleClickEvent(event)

    def leaveEvent(self, event: object) -> None:
        self._set_hovered(-1)
        super().leaveEvent(event)

    def _hover(self, pos: QPointF, global_pos: QPoint) -> None:
        i = self.node_at(pos)
        if self._set_hovered(i) and i >= 0 and self.frame is not None:
            QToolTip.showText(global_pos, tooltip_html(self.frame.model.node(i)), self)
        elif i < 0:
            QToolTip.hideText()

    def _set_hovered(self, i: int) -> bool:
        f = self.frame
        if f is None or f.hovered == i:
            return False
        f.hovered = i
        self.nodeHovered.emit(i)
        self.update()
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(1.25)
        elif key == Qt.Key.Key_Minus:
            self.zoom_by(0.8)
        elif key in (Qt.Key.Key_F, Qt.Key.Key_0):
            self.fit()
            self.viewChanged.emit()
        else:
            super().keyPressEvent(event)
