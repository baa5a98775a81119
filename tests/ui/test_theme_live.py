"""A theme change without restart keeps the icons visible (issue 15, item 5): icons were
rendered once in the old palette's colour, so in dark they all but vanished and back in light
they stayed pale; the graph's keyword chips were white on white in dark."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QToolButton

from desktop_app.ui import theme
from desktop_app.ui.graph.text import _tags
from desktop_app.ui.icons import icon


@pytest.fixture
def app_theme(qapp):
    yield lambda look: theme.apply(QApplication.instance(), look)
    theme.apply(QApplication.instance(), "light")


def _ink(widget) -> QColor:
    """The most opaque non-background colour drawn in the widget's icon."""
    image = widget.grab().toImage()
    bg = widget.palette().button().color().name()
    best = (0, QColor())
    for x in range(image.width()):
        for y in range(image.height()):
            c = image.pixelColor(x, y)
            if c.name() != bg and c.alpha() > best[0]:
                best = (c.alpha(), c)
    return best[1]


def _contrast(a: QColor, b: QColor) -> int:
    return abs(a.lightness() - b.lightness())


def test_icons_follow_the_palette_live(qtbot, app_theme):
    app_theme("light")
    plain, muted = QToolButton(), QToolButton()
    for b, ic in ((plain, icon("send")), (muted, icon("copy", "muted"))):
        b.setIcon(ic)
        b.setAutoRaise(True)
        qtbot.addWidget(b)
        b.resize(32, 32)
        b.show()
    light_ink = _ink(plain)
    assert light_ink.lightness() < 80  # dark strokes on a light window
    app_theme("dark")
    dark_bg = QColor(theme.tokens()["base"])
    dark_ink = _ink(plain)
    assert _contrast(dark_ink, dark_bg) > 120, (dark_ink.name(), dark_bg.name())
    assert _contrast(_ink(muted), dark_bg) > 60
    app_theme("light")
    assert _ink(plain).name() == light_ink.name()  # not left pale


def test_graph_keyword_chips_are_readable_in_dark(app_theme):
    app_theme("dark")
    html = _tags(["笔记本电脑"])
    assert "#EEF1F5" not in html
    chip, text = QColor(theme.tokens()["chip"]), QColor(theme.tokens()["chip_text"])
    assert theme.tokens()["chip"] in html and theme.tokens()["chip_text"] in html
    assert _contrast(chip, text) > 100
