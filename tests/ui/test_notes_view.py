"""Notes view flows: lazy table, filters, search, detail edit + undo, expire, delete, merge,
link/unlink, timeline, import/export."""

from __future__ import annotations

import json

import pytest

from desktop_app.core.errors import NoteNotFoundError
from desktop_app.ui.notes import model as notes_model
from desktop_app.ui.notes import view as notes_view
from desktop_app.ui.notes.model import COL_CREATED, NotesQuery, NotesTableModel
from desktop_app.ui.notes.view import NotesView


@pytest.fixture
def loaded(qtbot, make_host):
    host = make_host()
    eng = host.engine
    case = eng.create_case("张三诉星辰科技")
    eng.add_notes(
        [
            {"content": "委托人张三的月工资为25000元", "case_id": case.id, "category": "事实"},
            {"content": "仲裁开庭时间为2024年7月15日上午9:30", "case_id": case.id, "category": "时间线",
             "created_at": "2024-07-15T09:30:00"},
            {"content": "企业微信聊天记录截图已经公证", "case_id": case.id, "category": "证据"},
            {"content": "《劳动合同法》第八十七条规定违法解除赔偿金为经济补偿的二倍", "case_id": case.id, "category": "法条"},
        ]
    )
    view = NotesView(host)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    view.set_case(case.id)
    qtbot.waitUntil(lambda: view.model.rowCount() == 4, timeout=5000)
    return host, view, case


def _row_of(view, text):
    return next(i for i, n in enumerate(view.model.notes()) if text in n.content)


def test_filters_search_and_sort(qtbot, loaded):
    _host, view, _case = loaded
    view.category.setCurrentIndex(view.category.findData("证据"))
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=5000)
    view.category.setCurrentIndex(0)
    qtbot.waitUntil(lambda: view.model.rowCount() == 4, timeout=5000)
    view.search.setText("开庭是哪天")  # through engine.search (meaning, not just words)
    qtbot.waitUntil(lambda: 0 < view.model.rowCount() < 4 or (view.model.rowCount() == 4 and not view.model.loading), timeout=5000)
    qtbot.waitUntil(lambda: view.model.rowCount() > 0 and "开庭" in view.model.note_at(0).content, timeout=5000)
    view.search.clear()
    qtbot.waitUntil(lambda: view.model.rowCount() == 4 and not view.model.loading, timeout=5000)
    view.table.sortByColumn(COL_CREATED, notes_model.Qt.SortOrder.AscendingOrder)
    qtbot.waitUntil(lambda: view.model.rowCount() == 4 and "开庭" in view.model.note_at(0).content, timeout=5000)


def test_lazy_paging(qtbot, make_host, monkeypatch):
    monkeypatch.setattr(notes_model, "PAGE_SIZE", 3)
    host = make_host()
    case = host.engine.create_case("c")
    host.engine.add_notes([{"content": f"第{i}条独立的事实记录", "case_id": case.id} for i in range(8)])
    model = NotesTableModel(host)
    model.set_query(NotesQuery(case_id=case.id))
    qtbot.waitUntil(lambda: model.rowCount() == 3, timeout=5000)
    assert model.total == 8 and model.canFetchMore()
    model.fetchMore()
    qtbot.waitUntil(lambda: model.rowCount() == 6, timeout=5000)
    model.fetchMore()
    qtbot.waitUntil(lambda: model.rowCount() == 8, timeout=5000)
    assert not model.canFetchMore()


def test_edit_undo_expire_delete(qtbot, loaded, no_dialogs):
    host, view, _case = loaded
    view._select_row(_row_of(view, "月工资"))
    qtbot.waitUntil(lambda: view.detail.note is not None and "月工资" in view.detail.note.content, timeout=5000)
    note_id = view.detail.note.id
    view.detail.content.setPlainText("委托人张三的月工资为26000元")
    view.detail.tags.setText("工资, 计算基数")
    view.detail.pinned.setChecked(True)
    view.detail.save_button.click()
    qtbot.waitUntil(lambda: host.engine.get_note(note_id).content.endswith("26000元"), timeout=5000)
    qtbot.waitUntil(lambda: view.detail.note.pinned and view.detail.undo_button.isEnabled(), timeout=5000)
    assert set(host.engine.get_note(note_id).tags) == {"工资", "计算基数"}
    assert view.detail.history.toPlainText().strip() != "—"
    view.detail.undo_button.click()
    qtbot.waitUntil(lambda: host.engine.get_note(note_id).content.endswith("25000元"), timeout=5000)

    view.detail.expire_button.click()
    qtbot.waitUntil(lambda: host.engine.get_note(note_id).status != "active", timeout=5000)
    qtbot.waitUntil(lambda: view.model.rowCount() == 3, timeout=5000)  # status filter: active

    view._select_row(0)
    qtbot.waitUntil(lambda: view.detail.note is not None and view.detail.note.id != note_id, timeout=5000)
    victim = view.detail.note.id
    view.detail.delete_button.click()
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=5000)
    with pytest.raises(NoteNotFoundError):
        host.engine.get_note(victim)


def test_add_merge_link_unlink(qtbot, loaded, monkeypatch):
    host, view, _case = loaded

    class FakeDialog:
        def __init__(self, *a, **k):
            pass

        def values(self):
            return {"content": "对方愿意支付三个月工资调解", "category": "事实", "tags": ["调解"], "pinned": False, "global": False}

    monkeypatch.setattr(notes_view, "AddNoteDialog", FakeDialog)
    monkeypatch.setattr(notes_view, "_exec", lambda dlg: True)
    view.add_note()
    qtbot.waitUntil(lambda: view.model.rowCount() == 5, timeout=5000)
    qtbot.waitUntil(lambda: view.detail.note is not None and "调解" in view.detail.note.content, timeout=5000)

    a, b = _row_of(view, "月工资"), _row_of(view, "截图")
    sel = view.table.selectionModel()
    view._select_row(a)
    sel.select(view.model.index(b, 0), sel.SelectionFlag.Select | sel.SelectionFlag.Rows)
    assert view.link_button.isEnabled() and view.merge_button.isEnabled()
    first, second = view.selected_notes()
    view.link_selected()
    qtbot.waitUntil(lambda: any(link.kind == "manual" for link in host.engine.links_of(first.id)), timeout=5000)
    view.select_note(first.id)
    qtbot.waitUntil(lambda: view.detail.note is not None and view.detail.note.id == first.id
                    and any("manual" in view.detail.links.item(i).text() for i in range(view.detail.links.count())),
                    timeout=5000)
    item = next(view.detail.links.item(i) for i in range(view.detail.links.count())
                if "manual" in view.detail.links.item(i).text())
    view.detail.links.setCurrentItem(item)
    view.detail.unlink_button.click()
    qtbot.waitUntil(lambda: not any(link.kind == "manual" for link in host.engine.links_of(first.id)), timeout=5000)

    view._select_row(_row_of(view, first.content[:4]))
    sel.select(view.model.index(_row_of(view, second.content[:4]), 0), sel.SelectionFlag.Select | sel.SelectionFlag.Rows)
    view.merge_selected()
    qtbot.waitUntil(lambda: host.engine.get_note(second.id).status == "superseded", timeout=5000)


def test_timeline_and_import_export(qtbot, loaded, tmp_path):
    _host, view, _case = loaded
    view.timeline_mode.click()
    qtbot.waitUntil(lambda: "开庭" in view.timeline.toPlainText(), timeout=5000)
    text = view.timeline.toPlainText()
    assert "2024" in text
    view.table_mode.click()

    out = tmp_path / "notes.jsonl"
    view.export_to(str(out), "jsonl")
    qtbot.waitUntil(lambda: out.exists() and out.stat().st_size > 0, timeout=5000)
    md = tmp_path / "notes.md"
    view.export_to(str(md), "md")
    qtbot.waitUntil(lambda: md.exists() and "月工资" in md.read_text(encoding="utf-8"), timeout=5000)

    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"content": "证人李四愿意出庭作证", "category": "证据"}, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    view.import_from(str(inp))
    qtbot.waitUntil(lambda: view.model.rowCount() == 5, timeout=5000)


def test_a_link_row_names_its_relation_once(qtbot):
    # a model's link is 相关 by type and "related" by kind: the row read "相关 · 相关 · …"
    from datetime import UTC, datetime

    from desktop_app.memory.types import Link
    from desktop_app.ui.notes.detail import NoteDetail

    detail = NoteDetail()
    qtbot.addWidget(detail)
    now = datetime.now(UTC)
    detail.set_links(
        [
            Link("a", "b", "semantic", 0.8, "", now),
            Link("a", "c", "supersedes", 1.0, "", now),
            Link("a", "d", "manual", 1.0, "", now, label="证明"),
        ]
    )
    rows = [detail.links.item(i).text().split(" · ") for i in range(detail.links.count())]
    assert len(rows) == 3
    for parts in rows:
        assert len(parts) == len(set(parts)), parts
    assert len(rows[2]) == 3  # a typed manual link says both: 证明 · 手动 · …
