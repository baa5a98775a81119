"""Crisp line icons: SVGs tinted with the palette's colour at render time (light and dark)."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QByteArray, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from desktop_app.ui.resources import icon_path

_SIZES = (16, 20, 24, 32)


@lru_cache(maxsize=512)
def _pixmap(name: str, color: str, size: int, dpr: float, opacity: float = 1.0) -> QPixmap:
    try:
        svg = icon_path(name).read_text(encoding="utf-8")
    except OSError:
        return QPixmap()
    svg = svg.replace("currentColor", color)
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    px = QPixmap(int(size * dpr), int(size * dpr))
    px.fill(Qt.GlobalColor.transparent)
    painter = QPainter(px)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setOpacity(opacity)
    renderer.render(painter, QRectF(0, 0, size * dpr, size * dpr))
    painter.end()
    px.setDevicePixelRatio(dpr)
    return px


def icon(name: str, color: QColor | str | None = None) -> QIcon:
    """A QIcon for ``resources/icons/<name>.svg`` in the given (or the text) colour."""
    app = QApplication.instance()
    if color is None:
        color = app.palette().windowText().color() if app else QColor("#333")
    c = QColor(color)
    c_name = c.name()
    dpr = app.devicePixelRatio() if app else 1.0
    ic = QIcon()
    for s in _SIZES:
        ic.addPixmap(_pixmap(name, c_name, s, dpr), QIcon.Mode.Normal)
        ic.addPixmap(_pixmap(name, c_name, s, dpr, 0.35), QIcon.Mode.Disabled)
    return ic


def pixmap(name: str, size: int = 16, color: QColor | str | None = None) -> QPixmap:
    return icon(name, color).pixmap(QSize(size, size))


def app_icon() -> QIcon:
    ic = QIcon()
    for s in (16, 24, 32, 48, 64, 128, 256):
        ic.addPixmap(_pixmap("lexmem", "#000000", s, 1.0))
    return ic
