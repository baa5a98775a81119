"""Export the map as PNG (sprites, like the screen) or SVG (real vector ellipses and lines)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtSvg import QSvgGenerator

from desktop_app.memory.types import CATEGORIES
from desktop_app.ui import texts

from . import style
from .render import Frame, Renderer

MAX_SIDE = 4000


def fitted_view(
    frame: Frame, width: int, height: int, margin: float = 40.0
) -> tuple[float, tuple[float, float]]:
    """Scale and offset that fit the visible nodes into a width × height picture."""
    sel = frame.node_visible if frame.node_visible.any() else np.ones(frame.model.n, bool)
    if not sel.any():
        return 1.0, (width / 2, height / 2)
    r = frame.model.radius[sel][:, None]
    lo = (frame.pos[sel] - r).min(0)
    hi = (frame.pos[sel] + r).max(0)
    span = np.maximum(hi - lo, 1.0)
    scale = float(min((width - 2 * margin) / span[0], (height - 2 * margin - 24) / span[1]))
    centre = (lo + hi) / 2
    return scale, (width / 2 - centre[0] * scale, (height + 24) / 2 - centre[1] * scale)


def picture_size(frame: Frame, target_scale: float = 1.0) -> tuple[int, int]:
    """A picture big enough to show the map at ``target_scale`` (labels readable), capped."""
    sel = frame.node_visible if frame.node_visible.any() else np.ones(max(frame.model.n, 1), bool)
    if frame.model.n == 0:
        return 800, 600
    span = np.ptp(frame.pos[sel], axis=0) + 2 * frame.model.radius.max() + 80
    w, h = span * target_scale
    k = min(1.0, MAX_SIDE / max(w, h))
    return max(400, int(w * k)), max(300, int(h * k) + 24)


def paint_legend(p: QPainter, width: float) -> None:
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    x = 10.0
    for cat in CATEGORIES:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(style.category_colour(cat))
        p.drawEllipse(QPointF(x + 5, 14), 5, 5)
        p.setPen(QPen(QColor("#333333")))
        text = texts.category_label(cat)
        p.drawText(QPointF(x + 14, 18), text)
        x += 24 + p.fontMetrics().horizontalAdvance(text)
        if x > width - 60:
            break


def export_image(frame: Frame, path: str | Path, renderer: Renderer | None = None) -> bool:
    """Write the whole (filtered) map to ``path``; the suffix picks PNG or SVG."""
    path = Path(path)
    r = renderer or Renderer()
    w, h = picture_size(frame)
    scale, offset = fitted_view(frame, w, h)
    if path.suffix.lower() == ".svg":
        gen = QSvgGenerator()
        gen.setFileName(str(path))
        gen.setSize(QSize(w, h))
        gen.setViewBox(QRectF(0, 0, w, h))
        gen.setTitle("LexMem graph")
        p = QPainter(gen)
        try:
            r.paint(p, frame, scale, offset, (w, h), vector=True)
            paint_legend(p, w)
        finally:
            p.end()
        return path.exists()
    img = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    p = QPainter(img)
    try:
        r.paint(p, frame, scale, offset, (w, h))
        paint_legend(p, w)
    finally:
        p.end()
    return img.save(str(path), "PNG")
