"""Crisp line icons: SVGs tinted with the palette's colour at render time (light and dark)."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QByteArray, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QIconEngine, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from desktop_app.ui.resources import icon_path
from desktop_app.ui.theme import tokens

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


def _colour_now(color: QColor | str | None) -> str:
    """The colour an icon is drawn in at this moment: a theme token ("muted", "accent"…) and
    the default (the palette's text colour) are looked up at paint time, so the icon follows a
    theme change without being set again; anything else is a fixed colour."""
    if color is None:
        app = QApplication.instance()
        return app.palette().windowText().color().name() if app else "#333333"
    if isinstance(color, str) and color in tokens():
        return QColor(tokens()[color]).name()
    return QColor(color).name()


class _ThemedIconEngine(QIconEngine):
    """Renders the SVG in the current colour whenever Qt asks for a pixmap."""

    def __init__(self, name: str, color: QColor | str | None) -> None:
        super().__init__()
        self._name = name
        self._color = color

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        app = QApplication.instance()
        dpr = app.devicePixelRatio() if app else 1.0
        side = max(1, min(size.width(), size.height()))
        opacity = 0.35 if mode == QIcon.Mode.Disabled else 1.0
        return _pixmap(self._name, _colour_now(self._color), side, dpr, opacity)

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        px = self.pixmap(rect.size(), mode, state)
        painter.drawPixmap(rect, px)

    def clone(self) -> QIconEngine:
        return _ThemedIconEngine(self._name, self._color)


def icon(name: str, color: QColor | str | None = None) -> QIcon:
    """A QIcon for ``resources/icons/<name>.svg``: in the palette's text colour (default), a
    theme token such as "muted" (both follow theme changes live), or a fixed colour."""
    return QIcon(_ThemedIconEngine(name, color))


def pixmap(name: str, size: int = 16, color: QColor | str | None = None) -> QPixmap:
    return icon(name, color).pixmap(QSize(size, size))


def app_icon() -> QIcon:
    ic = QIcon()
    for s in (16, 24, 32, 48, 64, 128, 256):
        ic.addPixmap(_pixmap("lexmem", "#000000", s, 1.0))
    return ic
