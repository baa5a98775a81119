"""Widgets show their whole text (issue 15, item 11): the memory search's placeholder was cut
off ("搜索记忆（按含义，不只是字…")."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt

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


def _toolbar_widgets(view):
    return [
        view.search, view.category, view.status, view.include_global, view.conflicts,
        view.table_mode, view.timeline_mode, view.more, view.merge_button, view.link_button,
        view.add_button,
    ]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("width", [880, 1000, 1240, 1400])
def test_the_notes_toolbar_never_draws_one_control_over_another(qtbot, make_host, language, width):
    """In English at the default window width the search field lay over the category
    filter: the row's controls needed more room than the pane had."""
    from desktop_app.ui.main_window import TAB_NOTES, MainWindow

    i18n.install(language)
    try:
        win = MainWindow(make_host())
        qtbot.addWidget(win)
        win.resize(width, 800)
        win.show()
        qtbot.waitExposed(win)
        win.tabs.setCurrentIndex(TAB_NOTES)
        view = win.notes
        qtbot.wait(50)
        rects = []
        for w in _toolbar_widgets(view):
            assert w.isVisible()
            # not squeezed below what it needs to show its text
            assert w.width() >= w.minimumSizeHint().width(), (type(w).__name__, w.width())
            rects.append((w, QRect(w.mapTo(view, QPoint(0, 0)), w.size())))
        for i, (a, ra) in enumerate(rects):
            assert view.rect().contains(ra), (type(a).__name__, ra)
            for b, rb in rects[i + 1 :]:
                assert not ra.intersects(rb), (type(a).__name__, ra, type(b).__name__, rb)
        # the placeholder shows whole (its short form where the field is narrow)
        text = view.search.placeholderText()
        assert view.search.fontMetrics().horizontalAdvance(text) <= view.search.width() - 48
        assert text.startswith("搜索记忆" if language == "zh_CN" else "Search memories")
    finally:
        i18n.install("en")


def test_a_long_link_row_wraps_inside_the_pane(qtbot, make_host, zh):
    from desktop_app.ui.notes.view import NotesView

    host = make_host()
    eng = host.engine
    case = eng.create_case("张三诉某电商平台")
    a = eng.add_note("被告在答辩状中称，电脑花屏系原告使用不当、自行拆机所致，并拒绝退货", case_id=case.id).note
    b = eng.add_note("品牌官方售后网点出具的检测报告：屏幕排线存在出厂缺陷，非人为损坏", case_id=case.id).note
    eng.link_notes(a.id, b.id, kind="manual", reason="linked by hand")
    view = NotesView(host)
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    view.set_case(case.id)
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=10_000)
    view.select_note(b.id)
    links = view.detail.links
    qtbot.waitUntil(lambda: links.count() == 1 and "被告" in links.item(0).text(), timeout=10_000)
    qtbot.wait(100)
    item = links.item(0)
    assert "被告" in item.text()
    rect = links.visualItemRect(item)
    viewport = links.viewport().width()
    assert links.horizontalScrollBar().maximum() == 0  # no sideways scrolling
    assert rect.right() <= viewport
    # the row is tall enough for its wrapped text (icon and padding aside)
    room = QRect(0, 0, viewport - links.iconSize().width() - 16, 10_000)
    needed = links.fontMetrics().boundingRect(room, Qt.TextFlag.TextWordWrap, item.text()).height()
    assert rect.height() >= needed
    assert "linked by hand" not in item.toolTip() and "被告" in item.toolTip()


def test_the_new_case_dialog_is_wide_enough_for_its_title(qapp, zh):
    from desktop_app.ui import dialogs

    dlg = dialogs.text_dialog(None, "新建案件", "案件名称：")
    dlg.show()  # its layout sizes it when shown (a 200 px wide dialog cut the title short)
    qapp.processEvents()
    title = dlg.fontMetrics().horizontalAdvance("新建案件")
    assert dlg.width() >= title + dialogs.TITLE_BAR_ROOM
    assert dlg.width() >= 380  # a long case name shows too
    dlg.close()
