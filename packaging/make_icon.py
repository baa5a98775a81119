"""Render resources/icons/lexmem.svg (the UI's app icon) to lexmem.png (256 px, Linux and
the window icon) and lexmem.ico (16-256 px, Windows exe, installer, shortcuts).

Run once after the SVG changes; the outputs are committed so builds need neither Qt
rendering nor Pillow.  Qt renders the SVG; Pillow (if installed) packs the multi-size .ico,
else Qt's ICO writer is used (one size per file, still valid).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"
SIZES = [16, 24, 32, 48, 64, 128, 256]


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(ICONS / "lexmem.svg"))
    if not renderer.isValid():
        print("lexmem.svg does not render", file=sys.stderr)
        return 1

    def render(size: int) -> QImage:
        img = QImage(size, size, QImage.Format.Format_ARGB32)
        img.fill(Qt.GlobalColor.transparent)
        painter = QPainter(img)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        return img

    render(256).save(str(ICONS / "lexmem.png"), "PNG")
    try:
        from io import BytesIO

        from PIL import Image

        buf = QByteArray()
        dev = QBuffer(buf)
        dev.open(QIODevice.OpenModeFlag.WriteOnly)
        render(256).save(dev, "PNG")
        big = Image.open(BytesIO(bytes(buf.data())))
        big.save(ICONS / "lexmem.ico", format="ICO", sizes=[(s, s) for s in SIZES])
    except ImportError:
        render(256).save(str(ICONS / "lexmem.ico"), "ICO")
    print("wrote", ICONS / "lexmem.png", ICONS / "lexmem.ico")
    return 0


if __name__ == "__main__":
    sys.exit(main())
