"""The merge dialog (issue 15, item 10): both notes side by side, the lawyer picks the one to
keep and edits the merged text; the notes view merges what the dialog says."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel, QPlainTextEdit

from desktop_app.ui.notes import view as notes_view
from desktop_app.ui.notes.merge_dialog import MergeDialog, load_merge_notes
from desktop_app.ui.notes.view import NotesView


@pytest.fixture
def pair(make_host):
    host = make_host()
    eng = host.engine
    case = eng.create_case("张三诉某电商")
    keep = eng.add_note("被告为某电商平台", case_id=case.id, category="事实").note
    other = eng.add_note(
        "检测报告显示<b>屏幕</b>排线故障", case_id=case.id, category="证据", event_date="2024-04-02"
    ).note
    law = eng.add_note("《消费者权益保护法》第二十四条", case_id=case.id, category="法条").note
    eng.unlink_notes(other.id, law.id)
    eng.link_notes(other.id, law.id, kind="manual", label="适用")
    return host, case, keep, other, law


def _texts(dlg) -> list[str]:
    return [w.toPlainText() for w in dlg.findChildren(QPlainTextEdit) if w.isReadOnly()]


def _labels(dlg) -> str:
    return "\n".join(w.text() for w in dlg.findChildren(QLabel))


def test_dialog_shows_both_notes_and_prefills_the_merged_text(qtbot, pair):
    host, _case, keep, other, _law = pair
    notes = load_merge_notes(host.engine, [keep.id, other.id])
    dlg = MergeDialog(notes)
    qtbot.addWidget(dlg)
    dlg.show()
    assert _texts(dlg) == [keep.content, other.content]
    labels = _labels(dlg)
    assert "证据" in labels or "Evidence" in labels
    assert "2024" in labels  # the other's event date
    assert "第二十四条" in labels  # the other's link, with the linked note's text
    # untrusted text stays plain text
    assert all(w.textFormat().name == "PlainText" for w in dlg.findChildren(QLabel))
    assert dlg.keep_id() == keep.id and dlg.other_ids() == [other.id]
    assert dlg.merged_text() == f"{keep.content}\n{other.content}"

    dlg.radios[1].click()  # keep the other: the proposal follows
    assert dlg.keep_id() == other.id
    assert dlg.merged_text() == f"{other.content}\n{keep.content}"

    dlg.merged.setPlainText("被告某电商平台出售的电脑经检测为屏幕排线故障")
    dlg.radios[0].click()  # the lawyer's own text is not overwritten
    assert dlg.merged_text() == "被告某电商平台出售的电脑经检测为屏幕排线故障"
    dlg.merged.setPlainText("   ")
    assert not dlg.merge_button.isEnabled()


def test_the_notes_view_merges_what_the_dialog_says(qtbot, pair, monkeypatch):
    host, case, keep, other, law = pair
    view = NotesView(host)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    view.set_case(case.id)
    qtbot.waitUntil(lambda: view.model.rowCount() == 3, timeout=5000)
    shown: list[MergeDialog] = []

    def choose(dlg):
        if not isinstance(dlg, MergeDialog):
            return True
        shown.append(dlg)
        dlg.radios[[n.id for n in dlg.notes].index(other.id)].click()  # keep the evidence note
        dlg.merged.setPlainText("被告某电商平台出售的电脑经检测为屏幕排线故障")
        return True

    monkeypatch.setattr(notes_view, "_exec", choose)
    rows = [i for i, n in enumerate(view.model.notes()) if n.id in (keep.id, other.id)]
    sel = view.table.selectionModel()
    view._select_row(rows[0])
    sel.select(view.model.index(rows[1], 0), sel.SelectionFlag.Select | sel.SelectionFlag.Rows)
    view.merge_selected()
    qtbot.waitUntil(lambda: host.engine.get_note(keep.id).status == "superseded", timeout=8000)
    assert len(shown) == 1 and sorted(_texts(shown[0])) == sorted([keep.content, other.content])
    merged = host.engine.get_note(other.id)
    assert merged.status == "active"
    assert merged.content == "被告某电商平台出售的电脑经检测为屏幕排线故障"
    assert host.engine.note_history(other.id)[-1].after["merged_from"] == [keep.id]
    # the kept note keeps its own link
    assert [link.dst for link in host.engine.links_of(other.id) if link.dst == law.id] == [law.id]


def test_cancel_merges_nothing(qtbot, pair, monkeypatch):
    host, _case, keep, other, _law = pair
    view = NotesView(host)
    qtbot.addWidget(view)
    calls: list[str] = []
    monkeypatch.setattr(notes_view, "_exec", lambda dlg: calls.append("shown") or False)
    view.ask_merge(load_merge_notes(host.engine, [keep.id, other.id]))
    assert calls == ["shown"]
    qtbot.wait(200)
    assert {host.engine.get_note(i).status for i in (keep.id, other.id)} == {"active"}


def test_the_kept_notes_history_reaches_the_merged_one(qtbot, pair):
    host, case, keep, other, _law = pair
    host.engine.merge_notes(keep.id, other.id)
    view = NotesView(host)
    qtbot.addWidget(view)
    view.show()
    view.set_case(case.id)
    view.select_note(keep.id)
    qtbot.waitUntil(lambda: view.detail.note is not None and view.detail.note.id == keep.id, timeout=5000)
    page = view.detail.history.toHtml()
    assert f"note:{other.id}" in page and "merged_from" not in view.detail.history.toPlainText()
    # the merged note's text is shown escaped, never as markup
    assert "<b>屏幕</b>" not in page and "&lt;b&gt;屏幕" in page
    from PySide6.QtCore import QUrl

    view.detail.history.anchorClicked.emit(QUrl(f"note:{other.id}"))
    qtbot.waitUntil(lambda: view.detail.note is not None and view.detail.note.id == other.id, timeout=5000)
    assert f"note:{keep.id}" in view.detail.history.toHtml()  # and back: merged into
