"""Colours, pens and node sprites of the graph view (one place to restyle it)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap

from desktop_app.memory.types import CATEGORIES, LINK_KINDS

#: one colour per category, in CATEGORIES order, then "other"; chosen to stay apart for
#: the common colour-vision deficiencies (Tableau 10 hues)
CATEGORY_COLOURS: tuple[str, ...] = (
    "#4C78A8",
    "#F58518",
    "#54A24B",
    "#E45756",
    "#72B7B2",
    "#B279A2",
    "#9D9D9D",
)
SUPERSEDED_COLOUR = "#C4C4C4"
ARCHIVED_COLOUR = "#E2E2E2"
#: palette index of a node: categories first, then superseded, then archived
PALETTE: tuple[str, ...] = (*CATEGORY_COLOURS, SUPERSEDED_COLOUR, ARCHIVED_COLOUR)
SUPERSEDED_SLOT = len(CATEGORY_COLOURS)
ARCHIVED_SLOT = SUPERSEDED_SLOT + 1

HIGHLIGHT_COLOUR = QColor("#FFC629")


class Look:
    """The canvas colours that depend on the light or dark theme (node and edge colours
    read well on both)."""

    def __init__(self, dark: bool) -> None:
        self.dark = dark
        self.background = QColor("#1E2126" if dark else "#FBFBFA")
        self.label = QColor("#D7DAE0" if dark else "#333333")
        self.dim_label = QColor("#5C626B" if dark else "#B0B0B0")
        self.selection = QColor("#F2F4F7" if dark else "#1A1A1A")
        self.hover = QColor("#A8AFBA" if dark else "#555555")


LIGHT_LOOK, DARK_LOOK = Look(False), Look(True)


def look_for(background: QColor) -> Look:
    """The look matching a widget's palette (its window colour decides light or dark)."""
    return DARK_LOOK if background.lightness() < 128 else LIGHT_LOOK


#: per link kind: colour, dash pattern (None = solid); colours are opaque and light so
#: thousands of overlapping lines need no alpha blending (much faster on the raster engine)
EDGE_STYLES: dict[str, tuple[str, list[float] | None]] = {
    "semantic": ("#A9B4C2", None),
    "evolution": ("#6F8FC9", [5.0, 3.0]),
    "supersedes": ("#C97070", [3.0, 3.0]),
    "manual": ("#707070", None),
    "duplicate": ("#D5A048", [1.0, 3.0]),
    "conflict": ("#D0342C", [6.0, 2.0, 1.0, 2.0]),
}
#: the ring around a note in an open conflict (the lawyer has to settle it)
CONFLICT_COLOUR = QColor("#D0342C")
DIM_EDGE_COLOUR = "#E6E8EB"
assert tuple(EDGE_STYLES) == LINK_KINDS, "one style per link kind"


def category_colour(category: str) -> QColor:
    try:
        return QColor(CATEGORY_COLOURS[CATEGORIES.index(category)])
    except ValueError:
        return QColor(CATEGORY_COLOURS[-1])


def edge_pen(kind_index: int, width: float, dim: bool) -> QPen:
    colour, dashes = EDGE_STYLES[LINK_KINDS[kind_index]]
    pen = QPen(QColor(DIM_EDGE_COLOUR if dim else colour))
    pen.setWidthF(width)
    pen.setCosmetic(True)  # widths in screen pixels whatever the zoom
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    if dashes:
        pen.setDashPattern(dashes)
    return pen


class SpriteCache:
    """Pre-rendered antialiased discs, one per (colour, diameter): blitting a sprite is far
    cheaper than rasterising thousands of ellipses per frame."""

    def __init__(self, limit: int = 512) -> None:
        self._cache: dict[tuple[int, int, str], QPixmap] = {}
        self._limit = limit

    def disc(self, slot: int, diameter: int) -> QPixmap:
        return self._get(slot, diameter, "disc")

    def halo(self, diameter: int) -> QPixmap:
        return self._get(-1, diameter, "halo")

    def _get(self, slot: int, diameter: int, shape: str) -> QPixmap:
        key = (slot, diameter, shape)
        pm = self._cache.get(key)
        if pm is None:
            if len(self._cache) >= self._limit:
                self._cache.clear()
            pm = self._cache[key] = self._render(slot, diameter, shape)
        return pm

    @staticmethod
    def _render(slot: int, diameter: int, shape: str) -> QPixmap:
        pm = QPixmap(diameter + 2, diameter + 2)
        pm.fill(Qt.GlobalColor.transparent)
        p = QPainter(pm)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(1, 1, diameter, diameter)
        if shape == "halo":
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(HIGHLIGHT_COLOUR)
            p.drawEllipse(rect)
        else:
            fill = QColor(PALETTE[slot])
            if diameter >= 6:  # a darker rim separates touching nodes; invisible when tiny
                p.setPen(QPen(fill.darker(135), 1.0))
                rect.adjust(0.5, 0.5, -0.5, -0.5)
            else:
                p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(fill)
            p.drawEllipse(rect)
        p.end()
        return pm
