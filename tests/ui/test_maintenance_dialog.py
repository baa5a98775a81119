"""记忆体检 in the app: the dialog reviews a real engine's proposal per item and per kind,
accept and dismiss go through the engine in workers, the periodic check fills the quiet
status-bar badge, and the wording is Chinese when the UI is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from desktop_app.ui import i18n
from desktop_app.ui.maintenance import MaintenanceDialog, MaintenanceScheduler
from desktop_app.ui.maintenance.model import COL_KIND, COL_NOTES
from desktop_app.ui.status_bar import StatusBar

LONG_AGO = datetime.now(UTC) - timedelta(days=200)


@pytest.fixture
def checked_case(make_host):
    host = make_host()
    eng = host.engine
    case = eng.create_case("体检")
    eng.add_note("月薪8000元", case_id=case.id, created_at=LONG_AGO)
    eng.add_note("月薪9500元", case_id=case.id, created_at=LONG_AGO + timedelta(days=30))
    eng.add_note("被告公司住所地在上海市浦东新区", case_id=case.id, created_at=LONG_AGO)
    eng.add_note("<b>开庭</b>时间定于2025年6月1日", case_id=case.id, created_at=LONG_AGO)
    return host, case


def _kinds(dialog):
    return [dialog.model.row_at(r).kind for r in range(dialog.model.rowCount())]


def test_review_accept_one_item_and_dismiss_a_kind(qtbot, checked_case, no_dialogs):
    host, case = checked_case
    dialog = MaintenanceDialog(host, case.id)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: not dialog.busy, timeout=10_000)
    assert dialog.model.rowCount() == 0  # never checked: nothing proposed yet

    dialog.check_button.click()
    qtbot.waitUntil(lambda: not dialog.busy and dialog.model.rowCount() > 0, timeout=20_000)
    assert sorted(_kinds(dialog)) == ["passed", "stale", "update"]
    # untrusted note text is shown as plain text
    passed_row = _kinds(dialog).index("passed")
    shown = dialog.model.index(passed_row, COL_NOTES).data()
    assert "<b>开庭</b>" in shown
    tooltip = dialog.model.index(passed_row, COL_NOTES).data(3)  # ToolTipRole
    assert "<b>" not in tooltip and "&lt;b&gt;" in tooltip

    update_row = _kinds(dialog).index("update")
    older_id = next(
        i for i in host.engine.maintenance_proposal(case.id).items if i.kind == "update"
    ).note_ids[0]
    dialog.table.selectRow(update_row)
    dialog.accept_button.click()
    qtbot.waitUntil(lambda: not dialog.busy and "update" not in _kinds(dialog), timeout=20_000)
    assert host.engine.get_note(older_id).status == "superseded"

    dialog.kind_box.setCurrentIndex(dialog.kind_box.findData("stale"))
    dialog.dismiss_kind_button.click()
    qtbot.waitUntil(lambda: not dialog.busy and "stale" not in _kinds(dialog), timeout=20_000)
    assert _kinds(dialog) == ["passed"]
    # dismissed: not proposed again by the next check while the note is unchanged
    dialog.check_button.click()
    qtbot.waitUntil(lambda: not dialog.busy, timeout=20_000)
    assert _kinds(dialog) == ["passed"]


def test_declining_the_confirmation_changes_nothing(qtbot, checked_case, no_dialogs):
    host, case = checked_case
    host.engine.run_maintenance(case.id)
    dialog = MaintenanceDialog(host, case.id)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.busy and dialog.model.rowCount() == 3, timeout=10_000)
    no_dialogs["confirm"] = False
    dialog.kind_box.setCurrentIndex(dialog.kind_box.findData("passed"))
    dialog.accept_kind_button.click()
    assert not dialog.busy
    assert host.engine.maintenance_waiting(case.id) == 3


def test_periodic_check_fills_the_quiet_badge(qtbot, checked_case):
    host, case = checked_case
    status = StatusBar(host)
    qtbot.addWidget(status)
    status.show()
    assert not status.maintenance_badge.isVisible()
    scheduler = MaintenanceScheduler(host, poll_ms=3_600_000, first_poll_ms=0)
    scheduler.waitingChanged.connect(status.set_maintenance_waiting)
    qtbot.waitUntil(lambda: scheduler.waiting == 3, timeout=20_000)
    assert status.maintenance_badge.isVisible()
    assert "3" in status.maintenance_badge.text()
    # the check ran once: not due again within the period
    assert not host.engine.maintenance_due(case.id)

    ids = [i.id for i in host.engine.maintenance_proposal(case.id).items]
    host.call(lambda e: e.dismiss_maintenance(ids))
    qtbot.waitUntil(lambda: scheduler.waiting == 0, timeout=20_000)
    assert not status.maintenance_badge.isVisible()


def test_the_dialog_speaks_chinese(qtbot, checked_case):
    host, case = checked_case
    host.engine.run_maintenance(case.id)
    i18n.install("zh_CN")
    try:
        dialog = MaintenanceDialog(host, case.id)
        qtbot.addWidget(dialog)
        qtbot.waitUntil(lambda: not dialog.busy and dialog.model.rowCount() == 3, timeout=10_000)
        assert dialog.windowTitle() == "记忆体检"
        labels = {dialog.model.index(r, COL_KIND).data() for r in range(3)}
        assert labels == {"久未使用且无关联", "可能已更新", "日期已过"}
    finally:
        i18n.install("en")


@pytest.fixture
def conflict_and_duplicates(make_host):
    host = make_host()
    eng = host.engine
    case = eng.create_case("花屏")
    recent = datetime.now(UTC) - timedelta(days=2)
    claim = eng.add_note("当事人称花屏是出厂缺陷", case_id=case.id, created_at=recent).note
    report = eng.add_note("检测报告显示系人为进水导致", case_id=case.id, created_at=recent).note
    eng.link_notes(claim.id, report.id, kind="conflict", reason="原因说法相反", label="矛盾")
    a = eng.add_note("原告于入职时签署了保密协议", case_id=case.id, created_at=recent).note
    b = eng.add_note("原告入职时签了保密协议", case_id=case.id, created_at=recent).note
    eng.run_maintenance(case.id)
    return host, case, claim, report, a, b


def _open(qtbot, host, case, rows):
    dialog = MaintenanceDialog(host, case.id)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: not dialog.busy and dialog.model.rowCount() == rows, timeout=10_000)
    return dialog


def test_accept_all_conflicts_asks_the_lawyer_for_each_and_never_guesses(
    qtbot, conflict_and_duplicates, no_dialogs, monkeypatch
):
    from desktop_app.ui.maintenance import dialog as dialog_module
    from desktop_app.ui.maintenance.conflict_dialog import ConflictDialog

    host, case, claim, report, _a, _b = conflict_and_duplicates
    dialog = _open(qtbot, host, case, 2)
    assert sorted(_kinds(dialog)) == ["conflict", "duplicate"]
    shown: list[ConflictDialog] = []

    def cancel(dlg):
        shown.append(dlg)
        assert dlg.keep() is None and not dlg.ok_button.isEnabled()  # nothing pre-chosen
        texts = {w.toPlainText() for w in dlg.findChildren(dialog_module.QWidget) if hasattr(w, "toPlainText")}
        assert {claim.content, report.content} <= texts
        return False

    monkeypatch.setattr(dialog_module, "_exec", cancel)
    dialog.kind_box.setCurrentIndex(dialog.kind_box.findData("conflict"))
    dialog.accept_kind_button.click()
    qtbot.waitUntil(lambda: len(shown) == 1 and not dialog.busy, timeout=10_000)
    qtbot.wait(300)
    assert host.engine.open_conflicts(case.id) != []  # skipped: nothing settled
    assert {host.engine.get_note(i).status for i in (claim.id, report.id)} == {"active"}

    def pick_report(dlg):
        dlg.radios[[n.id for n in dlg.notes].index(report.id)].click()
        assert dlg.ok_button.isEnabled()
        return True

    monkeypatch.setattr(dialog_module, "_exec", pick_report)
    dialog.accept_kind_button.click()
    qtbot.waitUntil(lambda: not dialog.busy and "conflict" not in _kinds(dialog), timeout=20_000)
    assert host.engine.get_note(claim.id).status == "archived"
    assert host.engine.get_note(report.id).status == "active"
    assert host.engine.open_conflicts(case.id) == []


def test_an_accepted_duplicate_goes_through_the_merge_dialog(
    qtbot, conflict_and_duplicates, no_dialogs, monkeypatch
):
    from desktop_app.ui.maintenance import dialog as dialog_module
    from desktop_app.ui.notes.merge_dialog import MergeDialog

    host, case, _claim, _report, a, b = conflict_and_duplicates
    no_dialogs["confirm"] = False  # a merge is decided in its dialog, not by a yes/no
    dialog = _open(qtbot, host, case, 2)
    seen: list[MergeDialog] = []

    def merge(dlg):
        assert isinstance(dlg, MergeDialog)
        seen.append(dlg)
        dlg.radios[[n.id for n in dlg.notes].index(b.id)].click()
        dlg.merged.setPlainText("原告于入职当日签署了保密协议")
        return True

    monkeypatch.setattr(dialog_module, "_exec", merge)
    dialog.table.selectRow(_kinds(dialog).index("duplicate"))
    dialog.accept_button.click()
    qtbot.waitUntil(lambda: not dialog.busy and "duplicate" not in _kinds(dialog), timeout=20_000)
    assert len(seen) == 1 and {n.id for n in seen[0].notes} == {a.id, b.id}
    assert host.engine.get_note(b.id).content == "原告于入职当日签署了保密协议"
    assert host.engine.get_note(a.id).status == "superseded"
