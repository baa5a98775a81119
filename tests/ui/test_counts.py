"""Counts say what they count, and agree (issue 15, item 12): the status bar said 27 (the
whole library) while the list said 25 (this case), the export 25 (every state) while the list
showed 24 (in effect), and a new empty case showed 28."""

from __future__ import annotations

import re

import pytest

from desktop_app.core.resources import demo_path
from desktop_app.ui.main_window import TAB_NOTES, MainWindow


@pytest.fixture
def window(qtbot, make_host):
    host = make_host()
    results = host.engine.import_jsonl(demo_path())
    demo = next(r.note.case_id for r in results if r.note.case_id)
    other = host.engine.create_case("李四诉某公司")
    host.engine.add_note("李四的劳动合同于2023年到期", case_id=other.id)
    win = MainWindow(host)
    qtbot.addWidget(win)
    win.show()
    win.sidebar.reload_cases(select=demo)
    qtbot.waitUntil(lambda: win.sidebar.case_id == demo, timeout=15_000)
    return host, win, demo


def _status_numbers(win):
    m = re.fullmatch(r"This case: (\d+) memories · with global: (\d+)", win.status.notes_label.text())
    return (int(m.group(1)), int(m.group(2))) if m else None


def _list_total(qtbot, win, include_global):
    view = win.notes
    view.include_global.setChecked(include_global)
    qtbot.waitUntil(lambda: not view.model.loading and view.model.query.include_global == include_global, timeout=10_000)
    qtbot.waitUntil(lambda: view.model.rowCount() == view.model.total and view.model.total > 0, timeout=10_000)
    return view.model.total, view.count_label.text()


def test_status_bar_and_list_count_the_same_notes(qtbot, window):
    host, win, _demo = window
    qtbot.waitUntil(lambda: _status_numbers(win) is not None, timeout=15_000)
    own, with_global = _status_numbers(win)
    library = host.engine.stats().notes_active  # every case and the global notes
    assert own < with_global < library  # not the whole library
    total, label = _list_total(qtbot, win, False)
    assert total == own and label == f"{own} memories of this case"
    total, label = _list_total(qtbot, win, True)
    assert total == with_global and label == f"{with_global} memories of this case and global"


def test_a_new_empty_case_counts_nothing_of_its_own(qtbot, window, no_dialogs):
    _host, win, _demo = window
    qtbot.waitUntil(lambda: _status_numbers(win) is not None, timeout=15_000)
    _own, demo_with_global = _status_numbers(win)
    globals_ = demo_with_global - _own
    no_dialogs["text"] = "王五诉某物业"
    win.sidebar.new_case()
    qtbot.waitUntil(lambda: win.sidebar.case_combo.currentText() == "王五诉某物业", timeout=15_000)
    qtbot.waitUntil(lambda: _status_numbers(win) == (0, globals_), timeout=15_000)


def test_export_says_how_its_count_differs_from_the_list(qtbot, window, tmp_path):
    _host, win, _demo = window
    win.tabs.setCurrentIndex(TAB_NOTES)
    view = win.notes
    qtbot.waitUntil(lambda: view.model.total > 0 and not view.model.loading, timeout=10_000)
    victim = view.model.note_at(0)
    view.expire_note(victim.id)
    qtbot.waitUntil(lambda: view.undo_bar.isVisible(), timeout=10_000)
    listed = view.model.total
    messages = []
    view.statusMessage.connect(messages.append)
    view.export_to(str(tmp_path / "out.md"), "md")
    qtbot.waitUntil(lambda: bool(messages), timeout=10_000)
    assert messages[-1] == (
        f"Exported {listed + 1} memories of this case: {listed} in effect, 1 expired or replaced "
        "(global memories not included)."
    )
