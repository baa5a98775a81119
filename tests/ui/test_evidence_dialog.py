"""The 证据目录 dialog: the case's evidence in a list the lawyer reorders (drag through the
model's moveRows, or Move up / Move down), the order kept for the case, and the Word file
written in that order (issue 17)."""

from __future__ import annotations

from docx import Document
from PySide6.QtCore import QModelIndex

from desktop_app.ui import dialogs
from desktop_app.ui.evidence import EvidenceDialog
from desktop_app.ui.evidence.dialog import default_file_name


def _names(dialog):
    return [e.name for e in dialog.model.entries()]


def _case(host):
    eng = host.engine
    case = eng.create_case("王五诉某公司")
    for text in ("购物小票，证明购买日期", "<b>聊天记录</b>截图", "检测报告"):
        eng.add_note(text, case.id, category="证据")
    eng.add_note("屏幕闪烁", case.id, category="事实")  # not evidence: not listed
    return case


def test_reorder_keeps_the_order_and_exports_it(qtbot, make_host, tmp_path, monkeypatch):
    host = make_host()
    case = _case(host)
    dialog = EvidenceDialog(host, case.id)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.model.rowCount() == 3, timeout=10_000)
    assert dialog.head.text() == "Evidence list · 王五诉某公司"
    assert _names(dialog) == ["购物小票", "<b>聊天记录</b>截图", "检测报告"]
    # note text is shown as written; its tooltip shows the tags, never renders them
    assert dialog.model.index(1).data().startswith("2. <b>聊天记录</b>截图")
    assert "&lt;b&gt;" in dialog.model.index(1).data(3)

    # a drag: QListView moves the row through moveRows (the last row to the top)
    assert dialog.model.moveRows(QModelIndex(), 2, 1, QModelIndex(), 0)
    # Move down on the (selected) first row
    dialog._select(0)
    dialog.down_button.click()
    assert _names(dialog) == ["购物小票", "检测报告", "<b>聊天记录</b>截图"]
    assert dialog.up_button.isEnabled()  # the moved row is second now
    wanted = dialog.model.note_ids()
    qtbot.waitUntil(
        lambda: [e.note.id for e in host.engine.evidence_list(case.id)] == wanted, timeout=10_000
    )

    # reopened: the order the lawyer left
    again = EvidenceDialog(host, case.id)
    qtbot.addWidget(again)
    qtbot.waitUntil(lambda: again.model.rowCount() == 3, timeout=10_000)
    assert again.model.note_ids() == wanted

    out = tmp_path / "list.docx"
    monkeypatch.setattr(dialogs, "save_file", lambda *a, **k: str(tmp_path / "list"))
    again.export_button.click()
    qtbot.waitUntil(lambda: "Exported 3" in again.status.text(), timeout=10_000)
    rows = [[c.text for c in r.cells] for r in Document(str(out)).tables[0].rows]
    assert rows[0] == ["No.", "Evidence", "Source", "Purpose of proof", "Pages"]
    assert [r[1] for r in rows[1:]] == ["购物小票", "检测报告", "<b>聊天记录</b>截图"]


def test_moves_at_the_ends_do_nothing_and_an_empty_case_says_so(qtbot, make_host):
    host = make_host()
    case = host.engine.create_case("空案")
    dialog = EvidenceDialog(host, case.id)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.empty.isVisible(), timeout=10_000)
    assert not dialog.export_button.isEnabled()
    assert dialog.model.move(0, -1) == 0
    assert not dialog.model.moveRows(QModelIndex(), 0, 1, QModelIndex(), 0)


def test_an_export_that_cannot_be_written_is_worded(qtbot, make_host, tmp_path, no_dialogs):
    host = make_host()
    case = _case(host)
    dialog = EvidenceDialog(host, case.id)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.model.rowCount() == 3, timeout=10_000)
    dialog.export_to(str(tmp_path / "no-such-folder" / "x.docx"))
    qtbot.waitUntil(lambda: bool(no_dialogs["errors"]), timeout=10_000)
    assert "the folder does not exist" in no_dialogs["errors"][0]
    assert "Errno" not in no_dialogs["errors"][0]


def test_default_file_name_is_safe():
    assert default_file_name('张三/李四: "买卖"') == "Evidence list-张三_李四_ _买卖_.docx"
