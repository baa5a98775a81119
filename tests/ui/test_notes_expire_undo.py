"""Expire and delete explain themselves and can be taken back (issue 15, item 7): the
button said 设为失效, the filter 已归档 and the export "archived"; the note vanished with no
message and no undo, and the detail pane kept a stale heading and a dead 恢复 button."""

from __future__ import annotations

import pytest

from desktop_app.core.errors import NoteNotFoundError
from desktop_app.ui import i18n
from desktop_app.ui.notes.view import NotesView


@pytest.fixture
def view_of(qtbot, make_host):
    def make(language: str = "en"):
        host = make_host()
        eng = host.engine
        case = eng.create_case("张三诉某电商平台")
        eng.add_notes(
            [
                {"content": "2024年3月15日原告购买笔记本电脑，实付8999元", "case_id": case.id, "category": "时间线"},
                {"content": "屏幕在签收后第12天出现花屏", "case_id": case.id, "category": "事实"},
                {"content": "客服三次推诿，拒绝退货", "case_id": case.id, "category": "证据"},
            ]
        )
        i18n.install(language)
        view = NotesView(host)
        qtbot.addWidget(view)
        view.resize(1100, 700)
        view.show()
        view.set_case(case.id)
        qtbot.waitUntil(lambda: view.model.rowCount() == 3, timeout=5000)
        return host, view, case

    yield make
    i18n.install("en")


def _select(qtbot, view, text):
    row = next(i for i, n in enumerate(view.model.notes()) if text in n.content)
    view._select_row(row)
    qtbot.waitUntil(lambda: view.detail.note is not None and text in view.detail.note.content, timeout=5000)
    return view.detail.note.id


def test_one_word_for_the_expired_state(qtbot, view_of):
    _host, view, _case = view_of("zh_CN")
    filter_label = view.status.itemText(view.status.findData("archived"))
    _select(qtbot, view, "花屏")
    assert view.detail.expire_button.text() == "设为失效"
    assert filter_label == "已失效"


def test_expire_says_so_resets_the_panel_and_can_be_undone(qtbot, view_of):
    host, view, _case = view_of()
    note_id = _select(qtbot, view, "花屏")
    view.detail.expire_button.click()
    qtbot.waitUntil(lambda: view.undo_bar.isVisible(), timeout=5000)
    assert host.engine.get_note(note_id).status == "archived"
    assert "expired" in view.undo_bar.label.text() and "花屏" in view.undo_bar.label.text()
    assert view.model.row_of(note_id) == -1 and view.model.rowCount() == 2
    # the panel no longer shows the note it cannot act on
    assert view.detail.note is None
    assert view.detail.heading.text() == "No memory selected"
    assert view.detail.heading.styleSheet() == ""  # not the expired note's category colour
    assert not view.detail.expire_button.isEnabled()
    qtbot.wait(300)  # a detail load still in flight must not bring the stale note back
    assert view.detail.note is None
    view.undo_bar.undo_button.click()
    qtbot.waitUntil(lambda: host.engine.get_note(note_id).status == "active", timeout=5000)
    qtbot.waitUntil(lambda: view.model.row_of(note_id) >= 0, timeout=5000)
    assert not view.undo_bar.isVisible()


def test_restore_from_the_expired_filter_resets_the_panel(qtbot, view_of):
    host, view, _case = view_of()
    note_id = _select(qtbot, view, "花屏")
    view.expire_note(note_id)
    qtbot.waitUntil(lambda: view.undo_bar.isVisible(), timeout=5000)
    assert host.engine.get_note(note_id).status == "archived"
    view.status.setCurrentIndex(view.status.findData("archived"))
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=5000)
    _select(qtbot, view, "花屏")
    assert view.detail.expire_button.text() == "Restore"
    view.detail.expire_button.click()
    qtbot.waitUntil(lambda: host.engine.get_note(note_id).status == "active", timeout=5000)
    qtbot.waitUntil(lambda: view.model.rowCount() == 0, timeout=5000)
    qtbot.wait(300)
    assert view.detail.note is None and not view.detail.expire_button.isEnabled()


def test_delete_says_so_and_undo_brings_the_text_back(qtbot, view_of, no_dialogs):
    host, view, case = view_of()
    note_id = _select(qtbot, view, "客服")
    view.detail.delete_button.click()
    qtbot.waitUntil(lambda: view.undo_bar.isVisible(), timeout=5000)
    with pytest.raises(NoteNotFoundError):
        host.engine.get_note(note_id)  # deleted for good at once, as the dialog said
    assert "Deleted" in view.undo_bar.label.text() and "客服" in view.undo_bar.label.text()
    assert view.detail.note is None
    view.undo_bar.undo_button.click()
    qtbot.waitUntil(lambda: view.model.rowCount() == 3, timeout=5000)
    back = [n for n in host.engine.list_notes(case.id) if "客服" in n.content]
    assert len(back) == 1 and back[0].category == "证据" and back[0].id != note_id


def test_markdown_export_uses_the_same_word(engine, tmp_path):
    case = engine.create_case("c")
    note = engine.add_note("旧的说法：开庭在七月", case_id=case.id).note
    engine.expire_note(note.id)
    out = tmp_path / "notes.md"
    engine.export_markdown(out, case.id)
    text = out.read_text(encoding="utf-8")
    assert "已失效" in text and "archived" not in text
