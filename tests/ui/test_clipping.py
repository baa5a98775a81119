"""Widgets show their whole text (issue 15, item 11): the memory search's placeholder was cut
off ("搜索记忆（按含义，不只是字…")."""

from __future__ import annotations

import pytest

from desktop_app.ui import i18n
from desktop_app.ui.notes.view import NotesView


@pytest.fixture
def zh():
    i18n.install("zh_CN")
    yield
    i18n.install("en")


@pytest.mark.parametrize("width", [1100, 1400])
def test_search_placeholder_is_not_clipped(qtbot, make_host, zh, width):
    host = make_host()
    view = NotesView(host)
    qtbot.addWidget(view)
    view.resize(width, 700)
    view.show()
    qtbot.waitExposed(view)
    search = view.search
    placeholder = search.placeholderText()
    assert "搜索记忆" in placeholder
    # the text area: the field minus its frame, the leading search icon and the clear button
    room = search.width() - 2 * 16 - 2 * 8
    assert search.fontMetrics().horizontalAdvance(placeholder) <= room


@pytest.mark.parametrize("look", ["light", "dark"])
def test_spin_box_step_arrows_are_drawn(qapp, look):
    """Settings › 记忆: the fields' padding squeezed the step buttons into a sliver with no arrows."""
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QDoubleSpinBox

    from desktop_app.ui import theme

    theme.apply(qapp, look)
    try:
        box = QDoubleSpinBox()
        box.setValue(0.3)
        box.resize(300, 34)
        box.show()
        qapp.processEvents()
        image = box.grab().toImage()
        field = QColor(theme.tokens()["base"])
        # the step buttons' column, away from the border: an arrow means pixels far from the field colour
        ink = [
            image.pixelColor(x, y)
            for x in range(image.width() - 16, image.width() - 4)
            for y in range(4, image.height() - 4)
        ]
        assert sum(abs(c.lightness() - field.lightness()) > 40 for c in ink) >= 6
        box.close()
    finally:
        theme.apply(qapp, "light")


def test_a_long_case_name_is_shortened_not_cut_and_shown_whole_on_hover(qtbot, make_host, zh):
    from desktop_app.ui.sidebar import Sidebar

    host = make_host()
    name = "张三诉某电商平台买卖合同纠纷（示例）"
    case = host.engine.create_case(name)
    bar = Sidebar(host)
    qtbot.addWidget(bar)
    bar.resize(255, 700)
    bar.show()
    bar.reload_cases(select=case.id)
    combo = bar.case_combo
    qtbot.waitUntil(lambda: combo.currentText() == name, timeout=10_000)
    shown = combo.display_text()
    assert shown.endswith("…") and shown[:-1] in name
    assert combo.toolTip() == name
