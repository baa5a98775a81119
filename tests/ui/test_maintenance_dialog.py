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
