"""Batched painting of the whole graph with one QPainter.

Thousands of QGraphicsItems cost a Python object, a bounding rect and a paint call each;
here a frame is a few numpy passes and a handful of Qt calls: one ``drawLines`` per edge pen
straight from a numpy buffer, one ``drawPixmapFragments`` per node sprite (colour × size).
The same code paints the widget, exported PNGs and (with ``vector=True``) SVG.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shiboken6
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen

from desktop_app.memory.types import CATEGORIES, LINK_KINDS, NOTE_STATUSES
from desktop_app.ui.texts import category_label

from . import style
from .compat import guard_none_refcount
from .layout import GRID_CELL_H, GRID_HEADER, LayoutParams
from .model import GraphModel
from .text import link_type_text, month_heading, unlinked_heading

#: zoom (screen pixels per scene unit) below which labels and weak links are dropped
LOD_FAR = 0.35
#: zoom above which the short summary joins the category label
LOD_NEAR = 1.0
#: links weaker than this are "thin" and hidden when zoomed far out
THIN_LINK = 0.75
MAX_LABELS = 400

_SUPERSEDES = LINK_KINDS.index("supersedes")
_SUPERSEDED = NOTE_STATUSES.index("superseded")
_ARCHIVED = NOTE_STATUSES.index("archived")
_CATEGORY_TEXT = (*CATEGORIES, "?")
#: how far left of its grid's first column a heading starts (about half a title), pixels
HEADING_INDENT = 50.0
#: the layout's ideal link length (scene units): the grid headings sit a band above a grid
LAYOUT_K = LayoutParams().k


def lod_for(scale: float) -> str:
    return "far" if scale < LOD_FAR else ("mid" if scale < LOD_NEAR else "near")


@dataclass(slots=True)
class Frame:
    """Everything one paint needs; owned by the canvas, read-only here."""

    model: GraphModel
    pos: np.ndarray  # (n, 2) scene coordinates
    node_visible: np.ndarray  # (n,) bool
    edge_visible: np.ndarray  # (m,) bool
    dimmed: np.ndarray  # (n,) bool: drawn faint (outside the focus or the search)
    highlighted: np.ndarray  # (n,) bool: search matches
    selected: int = -1
    hovered: int = -1


def _draw_lines(p: QPainter, buf: np.ndarray) -> None:
    """drawLines over an (k, 4) float64 buffer without creating k QLineF objects: the
    binding's pointer overload reads the array in place (QLineF is four doubles)."""
    if len(buf):
        buf = np.ascontiguousarray(buf, dtype=np.float64)
        p.drawLines(shiboken6.wrapInstance(buf.ctypes.data, QLineF), len(buf))


def _palette_slots(model: GraphModel) -> np.ndarray:
    slots = model.category.copy()
    slots[model.status == _SUPERSEDED] = style.SUPERSEDED_SLOT
    slots[model.status == _ARCHIVED] = style.ARCHIVED_SLOT
    return slots


class Renderer:
    def __init__(self) -> None:
        guard_none_refcount()  # exports and benchmarks paint without a GraphView
        self.sprites = style.SpriteCache()
        self.font = QFont()
        self.font.setPointSizeF(8.0)
        self._fm = QFontMetricsF(self.font)
        self.heading_font = QFont()
        self.heading_font.setPointSizeF(9.0)
        self.heading_font.setBold(True)
        self.last_headings_drawn = 0
        self._slots_for: tuple[int, np.ndarray] | None = None
        # stats of the last frame, for tests and the benchmark
        self.look = style.LIGHT_LOOK  # the canvas sets the theme's look before painting
        self.last_lod = "mid"
        self.last_edges_drawn = 0
        self.last_labels_drawn = 0
        self.last_edge_labels_drawn = 0

    def slots(self, model: GraphModel) -> np.ndarray:
        if self._slots_for is None or self._slots_for[0] != id(model):
            self._slots_for = (id(model), _palette_slots(model))
        return self._slots_for[1]

    def paint(
        self,
        p: QPainter,
        f: Frame,
        scale: float,
        offset: tuple[float, float],
        size: tuple[float, float],
        *,
        vector: bool = False,
    ) -> None:
        w, h = size
        p.fillRect(QRectF(0, 0, w, h), self.look.background)
        lod = self.last_lod = lod_for(scale)
        m = f.model
        if m.n == 0:
            return
        scr = f.pos * scale + offset  # screen coordinates of every node
        rad = m.radius * scale
        self._paint_edges(p, f, scr, rad, lod)
        on_screen = (
            f.node_visible
            & (scr[:, 0] > -rad - 2)
            & (scr[:, 0] < w + rad + 2)
            & (scr[:, 1] > -rad - 2)
            & (scr[:, 1] < h + rad + 2)
        )
        self._paint_halos(p, f, scr, rad, on_screen, vector)
        if vector:
            self._paint_nodes_vector(p, f, scr, rad, on_screen)
        else:
            self._paint_nodes(p, f, scr, rad, on_screen)
        self._paint_marks(p, f, scr, rad)
        self._paint_labels(p, f, scr, rad, on_screen, lod)
        self._paint_group_headings(p, f, scr, on_screen, scale)
        if lod == "near":  # last: short tags on top of the notes' labels, always readable
            self._paint_edge_labels(p, f, scr, rad, size)

    # -- edges ------------------------------------------------------------------------
    def _paint_edges(
        self, p: QPainter, f: Frame, scr: np.ndarray, rad: np.ndarray, lod: str
    ) -> None:
        m = f.model
        vis = f.edge_visible.copy()
        if lod == "far":  # thin links drop out; the structure is carried by strong ones
            vis &= (m.strength >= THIN_LINK) | (m.kind != 0)
        idx = np.flatnonzero(vis)
        self.last_edges_drawn = len(idx)
        if len(idx) == 0:
            return
        # antialiasing doubles the cost of lines; far out nobody can tell the difference
        p.setRenderHint(QPainter.RenderHint.Antialiasing, lod != "far")
        a, b = m.edges[idx, 0], m.edges[idx, 1]
        lines = np.concatenate([scr[a], scr[b]], axis=1)
        dim = f.dimmed[a] | f.dimmed[b]
        strong = m.strength[idx] >= 0.85
        kind = m.kind[idx]
        # dimmed lines first so the emphasised ones are drawn on top
        for d in (True, False):
            for k in range(len(LINK_KINDS)):
                for s in (False, True):
                    sel = (dim == d) & (kind == k) & (strong == s)
                    if sel.any():
                        width = 0.0 if lod == "far" else (1.6 if s else 1.0)
                        p.setPen(style.edge_pen(k, width, d))
                        _draw_lines(p, lines[sel])
        arrows = kind == _SUPERSEDES
        if arrows.any() and lod != "far":
            p.setPen(style.edge_pen(_SUPERSEDES, 1.2, False))
            _draw_lines(p, self._arrow_heads(lines[arrows], rad[b[arrows]]))

    def _paint_edge_labels(
        self, p: QPainter, f: Frame, scr: np.ndarray, rad: np.ndarray, size: tuple[float, float]
    ) -> None:
        """The relation a lawyer reads on a link (证明 / 适用 / 矛盾 / 补充 / 取代), at its
        middle when zoomed in and the link is long enough to hold it; plain 相关 only on the
        links of the selected or hovered note (on every link it would bury the others)."""
        self.last_edge_labels_drawn = 0
        m = f.model
        if not len(m.edges):
            return
        focus = {i for i in (f.selected, f.hovered) if 0 <= i < m.n}
        w, h = size
        p.setFont(self.font)
        drawn = 0
        for e in np.flatnonzero(f.edge_visible):
            a, b = m.edges[e]
            label = m.edge_label[e]
            if label == "相关" and not ({int(a), int(b)} & focus):
                continue
            x, y = (scr[a] + scr[b]) / 2
            if not (0 <= x <= w and 0 <= y <= h):
                continue
            text = link_type_text(label)
            tw = self._fm.horizontalAdvance(text)
            if float(np.hypot(*(scr[a] - scr[b]))) < tw + rad[a] + rad[b] + 12:
                continue  # too short: the label would sit on the notes' own labels
            box = QRectF(x - tw / 2 - 4, y - self._fm.height() / 2 - 1, tw + 8, self._fm.height() + 2)
            colour = style.CONFLICT_COLOUR if label == "矛盾" else self.look.label
            p.setPen(QPen(colour, 1.0))
            p.setBrush(QBrush(self.look.background))
            p.drawRoundedRect(box, 4, 4)
            p.drawText(QPointF(box.left() + 4, box.top() + 1 + self._fm.ascent()), text)
            drawn += 1
            if drawn >= MAX_LABELS:
                break
        self.last_edge_labels_drawn = drawn

    @staticmethod
    def _arrow_heads(lines: np.ndarray, r_dst: np.ndarray) -> np.ndarray:
        """Two short strokes per link, at the rim of the destination (the replaced note)."""
        d = lines[:, 2:] - lines[:, :2]
        length = np.maximum(np.sqrt((d * d).sum(1)), 1e-9)
        u = d / length[:, None]
        tip = lines[:, 2:] - u * r_dst[:, None]
        size = 7.0
        perp = np.stack([-u[:, 1], u[:, 0]], 1)
        back = tip - u * size
        w1 = back + perp * size * 0.5
        w2 = back - perp * size * 0.5
        keep = length > r_dst + size
        return np.concatenate(
            [np.concatenate([tip, w1], 1)[keep], np.concatenate([tip, w2], 1)[keep]]
        )

    # -- nodes ------------------------------------------------------------------------
    def _paint_halos(
        self, p: QPainter, f: Frame, scr: np.ndarray, rad: np.ndarray, on: np.ndarray, vector: bool
    ) -> None:
        idx = np.flatnonzero(f.highlighted & on)
        if len(idx) == 0:
            return
        if vector or len(idx) < 64:
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(style.HIGHLIGHT_COLOUR)
            for i in idx:
                r = max(rad[i], 1.5) + 4.0
                p.drawEllipse(QPointF(*scr[i]), r, r)
            return
        self._blit(p, scr[idx], np.maximum(2 * rad[idx], 3) + 8, None, np.ones(len(idx)))

    def _paint_nodes(
        self, p: QPainter, f: Frame, scr: np.ndarray, rad: np.ndarray, on: np.ndarray
    ) -> None:
        idx = np.flatnonzero(on)
        slots = self.slots(f.model)[idx]
        opacity = np.where(f.dimmed[idx], 0.22, 1.0)
        self._blit(p, scr[idx], np.maximum(2 * rad[idx], 3), slots, opacity)

    def _blit(
        self,
        p: QPainter,
        xy: np.ndarray,
        diam: np.ndarray,
        slots: np.ndarray | None,
        opacity: np.ndarray,
    ) -> None:
        """One drawPixmapFragments per (colour, pixel size) group, from a numpy array laid
        out like QPainter::PixmapFragment (ten doubles)."""
        if len(xy) == 0:  # nothing on screen (zoomed in on empty space)
            return
        d = np.minimum(np.rint(diam), 160).astype(np.int64)
        s = np.zeros_like(d) if slots is None else slots
        key = s * 1024 + d
        order = np.argsort(key, kind="stable")
        key = key[order]
        frags = np.zeros((len(order), 10), np.float64)
        frags[:, 0:2] = xy[order]  # the fragment's centre
        frags[:, 4] = d[order] + 2  # sprite size incl. its 1 px margin
        frags[:, 5] = frags[:, 4]
        frags[:, 6:8] = 1.0
        frags[:, 9] = opacity[order]
        cuts = np.flatnonzero(np.diff(key)) + 1
        starts = np.concatenate([[0], cuts])
        ends = np.concatenate([cuts, [len(key)]])
        base = frags.ctypes.data
        stride = frags.strides[0]
        for a, b in zip(starts, ends, strict=True):
            k = int(key[a])
            slot, dia = divmod(k, 1024)
            pm = self.sprites.halo(dia) if slots is None else self.sprites.disc(slot, dia)
            first = shiboken6.wrapInstance(base + int(a) * stride, QPainter.PixmapFragment)
            p.drawPixmapFragments(first, int(b - a), pm)

    def _paint_nodes_vector(
        self, p: QPainter, f: Frame, scr: np.ndarray, rad: np.ndarray, on: np.ndarray
    ) -> None:
        """Real ellipses, for SVG export (sprites would be embedded as bitmaps)."""
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        slots = self.slots(f.model)
        for i in np.flatnonzero(on):
            fill = QColor(style.PALETTE[slots[i]])
            if f.dimmed[i]:
                fill.setAlphaF(0.22)
            p.setPen(QPen(fill.darker(135), 1.0))
            p.setBrush(QBrush(fill))
            r = max(rad[i], 1.5)
            p.drawEllipse(QPointF(*scr[i]), r, r)

    def _paint_marks(self, p: QPainter, f: Frame, scr: np.ndarray, rad: np.ndarray) -> None:
        """Rings for the selected and the hovered node (only ever two), and a red ring for
        each note in an open conflict (the lawyer has to settle it)."""
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(style.CONFLICT_COLOUR, 2.0))
        for i in np.flatnonzero(f.model.conflicted & f.node_visible):
            r = max(rad[i], 1.5) + 1.5
            p.drawEllipse(QPointF(*scr[i]), r, r)
        for i, colour, width in (
            (f.hovered, self.look.hover, 1.5),
            (f.selected, self.look.selection, 2.5),
        ):
            if 0 <= i < f.model.n and f.node_visible[i]:
                p.setPen(QPen(colour, width))
                r = max(rad[i], 1.5) + 3.0
                p.drawEllipse(QPointF(*scr[i]), r, r)

    # -- labels -----------------------------------------------------------------------
    def _paint_group_headings(
        self, p: QPainter, f: Frame, scr: np.ndarray, on: np.ndarray, scale: float
    ) -> None:
        """A heading over each group's grid of unlinked notes ("事实 · 未关联（5）",
        "2024-03 · 未关联（2）")."""
        self.last_headings_drawn = 0
        m = f.model
        lone = on & ~m.linked
        if not lone.any():
            return
        p.setFont(self.heading_font)
        gap = GRID_HEADER * GRID_CELL_H * LAYOUT_K * scale * 0.55
        for group in np.unique(m.group[lone]):
            members = np.flatnonzero(lone & (m.group == group))
            # aligned with the left edge of the titles centred under the grid's first column
            x = float(scr[members, 0].min()) - HEADING_INDENT
            y = float(scr[members, 1].min() - gap)
            if m.group_by == "category":
                cat = _CATEGORY_TEXT[group]
                name = category_label(cat) if group < len(CATEGORIES) else "?"
                p.setPen(style.category_colour(cat))
            else:
                name = month_heading(m.group_names[group])
                p.setPen(self.look.label)
            text = unlinked_heading(name, len(members))
            p.drawText(QPointF(x, y), text)
            self.last_headings_drawn += 1

    def _paint_labels(
        self, p: QPainter, f: Frame, scr: np.ndarray, rad: np.ndarray, on: np.ndarray, lod: str
    ) -> None:
        self.last_labels_drawn = 0
        m = f.model
        idx = np.flatnonzero(on)
        if lod == "far":
            # only the selected/hovered node keeps its label when zoomed far out
            idx = np.array([i for i in (f.selected, f.hovered) if 0 <= i < m.n and on[i]], np.int64)
        if len(idx) == 0:
            return
        # the biggest (most linked) nodes get their labels first
        idx = idx[np.argsort(-m.radius[idx], kind="stable")[:MAX_LABELS]]
        first = [i for i in (f.selected, f.hovered) if 0 <= i < m.n and on[i]]
        idx = np.concatenate([np.array(first, np.int64), idx[~np.isin(idx, first)]])
        p.setFont(self.font)
        fm = self._fm
        asc = fm.ascent()
        line = fm.height()
        taken: set[tuple[int, int]] = set()  # coarse cells already holding a label
        drawn = 0
        for i in idx:
            node = m.graph.nodes[i]
            # what the note says, not its category (the colour and the grid heading say
            # that); the tooltip holds the whole text
            text = node.title or node.label
            tw = fm.horizontalAdvance(text)
            x, y = scr[i]
            top = y + rad[i] + 3
            # greedy de-cluttering: biggest nodes first, a label that would overlap one
            # already drawn is skipped (the selected/hovered one always shows)
            row = int(top // line)
            cols = range(int((x - tw / 2) // 24), int((x + tw / 2) // 24) + 1)
            cells = [(c, r) for c in cols for r in (row, row + 1)]
            if i not in (f.selected, f.hovered) and any(c in taken for c in cells):
                continue
            taken.update(cells)
            p.setPen(self.look.dim_label if f.dimmed[i] else self.look.label)
            p.drawText(QPointF(x - tw / 2, top + asc), text)
            drawn += 1
        self.last_labels_drawn = drawn
