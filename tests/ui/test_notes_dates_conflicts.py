"""The notes view, the detail pane, the add dialog, the timeline and the graph show event
dates, sources and conflicts (issue 12), and let the lawyer settle a conflict by hand."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from PySide6.QtWidgets import QScrollArea

from desktop_app.ui.notes.add_dialog import AddNoteDialog
from desktop_app.ui.notes.model import COL_EVENT, COL_SOURCE
from desktop_app.ui.notes.view import NotesView

CST = timezone(timedelta(hours=8))
TYPED = datetime(2026, 11, 20, 14, 0, tzinfo=CST)


@pytest.fixture
def disputed(qtbot, make_host):
    host = make_host()
    eng = host.engine
    case = eng.create_case("李四案")
    claim = eng.add_note(
        "被告李四称没有签收律师函", case_id=case.id, source_kind="对方主张", created_at=TYPED
    ).note
    receipt = eng.add_note(
        "快递签收单显示李四于2024年3月16日签收律师函", case_id=case.id, created_at=TYPED
    ).note
    hearing = eng.add_note(
        "2024年7月15日上午9:30在西湖区法院开庭", case_id=case.id, created_at=TYPED
    ).note
    eng.link_notes(claim.id, receipt.id, kind="conflict", reason="说法相反", label="矛盾")
    view = NotesView(host)
    qtbot.addWidget(view)
    view.resize(1200, 760)
    view.show()
    view.set_case(case.id)
    qtbot.waitUntil(lambda: view.model.rowCount() == 3, timeout=5000)
    return host, view, case, claim, receipt, hearing


def _row(view, note_id):
    return view.model.row_of(note_id)


def test_the_table_shows_event_date_source_and_the_conflict_badge(qtbot, disputed):
    _host, view, _case, claim, receipt, hearing = disputed
    model = view.model
    assert model.data(model.index(_row(view, hearing.id), COL_EVENT)) == "15 Jul 2024"
    assert model.data(model.index(_row(view, receipt.id), COL_SOURCE)) == "Shown by evidence"
    assert model.data(model.index(_row(view, claim.id), COL_SOURCE)) == "Opposing party's claim"
    assert model.conflicted_ids == {claim.id, receipt.id}
    assert model.data(model.index(_row(view, claim.id), 1), 1) is not None  # the alert icon
    assert model.data(model.index(_row(view, hearing.id), 1), 1) is None
    qtbot.waitUntil(lambda: view.conflict_count == 1, timeout=5000)
    assert "1" in view.conflicts.text()


def test_the_conflict_filter_and_settling_by_hand(qtbot, disputed):
    host, view, _case, claim, receipt, _hearing = disputed
    view.conflicts.setChecked(True)
    qtbot.waitUntil(lambda: view.model.rowCount() == 2 and not view.model.loading, timeout=5000)
    view.select_note(claim.id)
    qtbot.waitUntil(lambda: view.detail.conflict_box.isVisible(), timeout=5000)
    assert "签收单" in view.detail.conflict_list.item(0).text()
    assert "Shown by evidence" in view.detail.conflict_list.item(0).text()
    view.detail.keep_other_button.click()  # the receipt is right
    qtbot.waitUntil(lambda: host.engine.get_note(claim.id).status == "archived", timeout=5000)
    assert host.engine.get_note(receipt.id).status == "active"
    qtbot.waitUntil(lambda: view.conflict_count == 0, timeout=5000)
    qtbot.waitUntil(lambda: view.model.rowCount() == 0 and not view.model.loading, timeout=5000)


def test_the_conflict_choices_fit_the_pane_at_the_default_window_size(qtbot, disputed):
    """Seen in the real window (1215 px wide, the detail pane about 330 px): the three
    choices side by side made the detail pane scroll sideways."""
    _host, view, _case, claim, _receipt, _hearing = disputed
    view.resize(960, 700)
    view.splitter.setSizes([640, 320])  # the pane's width in that window
    view.select_note(claim.id)
    qtbot.waitUntil(lambda: view.detail.conflict_box.isVisible(), timeout=5000)
    qtbot.wait(100)  # the layout settles
    sideways = view.detail.findChild(QScrollArea).horizontalScrollBar()
    assert not sideways.isVisible()
    assert view.detail.keep_both_button.isVisible()
    # one conflict: the list is as tall as its row, not a 90 px band pushing the choices down
    qtbot.waitUntil(lambda: view.detail.conflict_list.height() < 90, timeout=2000)


def test_the_detail_pane_edits_the_event_date_and_the_source(qtbot, disputed, no_dialogs):
    host, view, _case, _claim, _receipt, hearing = disputed
    view.select_note(hearing.id)
    qtbot.waitUntil(lambda: view.detail.note is not None and view.detail.note.id == hearing.id,
                    timeout=5000)
    assert view.detail.event_date.text() == "2024-07-15"
    view.detail.event_date.setText("2024年7月16日")
    view.detail.source_kind.setCurrentIndex(view.detail.source_kind.findData("法院认定"))
    view.detail.save_button.click()
    qtbot.waitUntil(lambda: host.engine.get_note(hearing.id).event_date == "2024-07-16", timeout=5000)
    assert host.engine.get_note(hearing.id).source_kind == "法院认定"
    view.detail.event_date.setText("下周")  # not a date: a clear message, nothing changed
    view.detail.save_button.click()
    qtbot.waitUntil(lambda: bool(no_dialogs["errors"]), timeout=5000)
    assert "2024-07-15" in no_dialogs["errors"][-1]  # the message shows the form expected
    assert host.engine.get_note(hearing.id).event_date == "2024-07-16"


def test_the_timeline_files_a_hearing_under_its_day(qtbot, disputed):
    _host, view, _case, _claim, _receipt, _hearing = disputed
    view.timeline_mode.click()
    qtbot.waitUntil(lambda: "开庭" in view.timeline.toPlainText(), timeout=5000)
    text = view.timeline.toPlainText()
    # typed in November 2026, filed under the days of 2024 the facts happened
    assert text.index("2024") < text.index("签收律师函") < text.index("开庭")
    assert "2026" in text and text.index("2026") > text.index("开庭")  # the undated claim


def test_the_add_dialog_proposes_the_date_the_text_names(qtbot):
    dlg = AddNoteDialog(True)
    qtbot.addWidget(dlg)
    dlg.content.setPlainText("2024年7月15日上午9:30在西湖区法院开庭")
    assert dlg.event_date.text() == "2024-07-15"
    dlg.source_kind.setCurrentIndex(dlg.source_kind.findData("法院认定"))
    values = dlg.values()
    assert values["event_date"] == "2024-07-15" and values["source_kind"] == "法院认定"
    dlg.event_date.setText("2024-13-40")
    dlg.event_date.textEdited.emit("2024-13-40")
    assert not dlg.ok_button.isEnabled()  # an impossible date is refused before adding
    dlg.event_date.setText("2024-07")
    dlg.event_date.textEdited.emit("2024-07")
    assert dlg.ok_button.isEnabled() and dlg.values()["event_date"] == "2024-07"
    dlg.content.setPlainText("2024年8月2日质证")  # typed by hand: no longer proposed
    assert dlg.event_date.text() == "2024-07"


def test_the_graph_shows_link_types_and_conflicts(qtbot, disputed):
    from desktop_app.ui.graph import GraphView

    host, _view, case, claim, receipt, _hearing = disputed
    graph = host.engine.graph(case.id)
    view = GraphView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    positions = {n.id: (i * 80.0, 0.0) for i, n in enumerate(graph.nodes)}
    view.set_graph(graph, positions)
    view.show()
    model = view._model
    assert model.conflicted[model.index[claim.id]] and model.conflicted[model.index[receipt.id]]
    assert "矛盾" in model.edge_label
    # close in on the disputed pair: the relations are written on the links
    a, b = (view.canvas.to_screen(view.canvas.frame.pos[model.index[i]]) for i in (claim.id, receipt.id))
    apart = ((a.x() - b.x()) ** 2 + (a.y() - b.y()) ** 2) ** 0.5
    # a relation is written only on a link long enough to hold it (not over the notes' labels)
    view.canvas.zoom_by(max(1.0, 1.2 / view.canvas.scale, 200 / apart), (a + b) / 2)
    assert view.canvas.lod == "near"
    view.canvas.grab()  # paints a frame
    assert view.canvas.renderer.last_edge_labels_drawn >= 1
    view.select(claim.id)
    text = view.details.browser.toPlainText()
    # in the interface's language only (issue 15, item 3: it read "对方主张 … 有冲突 open conflict")
    assert "Opposing party's claim" in text and "Open conflict" in text and "对方主张" not in text
    assert np.count_nonzero(model.conflicted) == 2

