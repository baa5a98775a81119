"""Main window flows: first run with the demo case, cases and conversations, shortcuts."""

from __future__ import annotations

from PySide6.QtCore import Qt

from desktop_app.memory.changes import Changes
from desktop_app.ui.main_window import TAB_GRAPH, TAB_NOTES, MainWindow


def _window(qtbot, host):
    win = MainWindow(host)
    qtbot.addWidget(win)
    win.show()
    return win


def test_first_run_offers_demo_and_explains_the_provider(qtbot, make_host):
    host = make_host(llm=None)
    win = _window(qtbot, host)
    host.operationDidExecute.emit(Changes(cases=True), None)
    qtbot.waitUntil(lambda: win.chat.banner.isVisible(), timeout=15_000)
    assert "demo" in win.chat.banner_label.text().lower()
    assert win.status.model_label.text() == "No model connected"

    win.load_demo()
    qtbot.waitUntil(lambda: win.sidebar.case_id is not None, timeout=20_000)
    assert win.sidebar.case_combo.currentText().startswith("张三")
    # the chat now explains how to connect a model, with the button that fixes it
    qtbot.waitUntil(lambda: "Settings" in win.chat.banner_label.text(), timeout=15_000)
    qtbot.waitUntil(
        lambda: host.last_stats is not None and host.last_stats.notes_total >= 18, timeout=15_000
    )
    qtbot.waitUntil(lambda: "memories" in win.status.notes_label.text(), timeout=15_000)


def test_cases_and_conversations(qtbot, make_host, no_dialogs):
    host = make_host()
    win = _window(qtbot, host)
    no_dialogs["text"] = "李四诉某公司"
    win.sidebar.new_case()
    qtbot.waitUntil(lambda: win.sidebar.case_combo.currentText() == "李四诉某公司", timeout=15_000)
    case_id = win.sidebar.case_id

    no_dialogs["text"] = "李四诉某公司（二审）"
    win.sidebar.rename_case()
    qtbot.waitUntil(
        lambda: win.sidebar.case_combo.currentText() == "李四诉某公司（二审）", timeout=15_000
    )

    win.sidebar.new_conversation()
    qtbot.waitUntil(lambda: win.sidebar.conv_model.rowCount() == 1, timeout=15_000)
    assert win.chat.conversation is not None
    no_dialogs["text"] = "证据讨论"
    win.sidebar.rename_conversation()
    qtbot.waitUntil(lambda: win.sidebar.conv_model.item(0).text() == "证据讨论", timeout=15_000)
    win.sidebar.new_conversation()
    qtbot.waitUntil(lambda: win.sidebar.conv_model.rowCount() == 2, timeout=15_000)
    win.sidebar.search.setText("证据")  # a title
    qtbot.waitUntil(lambda: win.sidebar.conv_proxy.rowCount() == 1, timeout=15_000)
    host.engine.add_message(
        next(c for c in host.engine.list_conversations(case_id) if c.title != "证据讨论").id,
        "user",
        "客服三次推诿，怎么办？",
    )
    win.sidebar.search.setText("推诿")  # only in a message, not in any title
    qtbot.waitUntil(
        lambda: (
            win.sidebar.conv_proxy.rowCount() == 1
            and win.sidebar.conv_model.item(0).text() != "证据讨论"
        ),
        timeout=15_000,
    )
    win.sidebar.search.clear()
    qtbot.waitUntil(lambda: win.sidebar.conv_proxy.rowCount() == 2, timeout=15_000)

    win.sidebar.delete_conversation()
    qtbot.waitUntil(lambda: win.sidebar.conv_model.rowCount() == 1, timeout=15_000)

    win.sidebar.archive_case()
    qtbot.waitUntil(lambda: win.sidebar.case_id is None, timeout=15_000)
    assert host.engine.get_case(case_id).archived


def test_shortcuts_switch_views(qtbot, make_host):
    host = make_host()
    win = _window(qtbot, host)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=3000)
    qtbot.keyClick(win, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert win.tabs.currentIndex() == TAB_NOTES
    qtbot.keyClick(win, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert win.tabs.currentIndex() == TAB_GRAPH
    win.focus_search()
