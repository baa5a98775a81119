"""The memory check-up: each kind of proposal is found, nothing changes until accepted,
accepted items leave history, dismissed ones stay dismissed until their notes change, and a
case's proposal never holds another case's note.  Real SQLite, LanceDB and embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from desktop_app.memory import maintenance
from desktop_app.memory.types import MemoryConfig

NOW = datetime(2026, 6, 1, 4, 0, tzinfo=UTC)
LONG_AGO = NOW - timedelta(days=200)
RECENT = NOW - timedelta(days=3)


def _kinds(proposal) -> dict[str, list[tuple[str, ...]]]:
    out: dict[str, list[tuple[str, ...]]] = {}
    for item in proposal.items:
        out.setdefault(item.kind, []).append(item.note_ids)
    return out


def _item(proposal, kind, note_id):
    return next(i for i in proposal.items if i.kind == kind and note_id in i.note_ids)


def test_stale_orphans_are_proposed_but_not_pinned_linked_recalled_or_new(engine):
    case = engine.create_case("劳动争议")
    add = lambda text, **kw: engine.add_note(text, case_id=case.id, **kw).note  # noqa: E731
    orphan = add("被告公司住所地在上海市浦东新区", created_at=LONG_AGO)
    pinned = add("原告要求支付加班费", created_at=LONG_AGO, pinned=True)
    preference = add("律师偏好简短的回复", created_at=LONG_AGO, category="偏好")
    linked_a = add("证人李四目睹了事故经过", created_at=LONG_AGO)
    linked_b = add("屏幕出现花屏", created_at=LONG_AGO)
    engine.link_notes(linked_a.id, linked_b.id)
    new = add("租赁合同约定提前一个月通知", created_at=RECENT)

    stale = {ids[0] for ids in _kinds(engine.run_maintenance(case.id, now=NOW)).get("stale", [])}

    assert orphan.id in stale
    assert not stale & {pinned.id, preference.id, linked_a.id, linked_b.id, new.id}


def test_a_recalled_note_is_not_stale(engine):
    case = engine.create_case("买卖合同")
    note = engine.add_note("被告公司住所地在上海市浦东新区", case_id=case.id, created_at=LONG_AGO)
    assert engine.recall_for_chat("被告公司的住所地在哪里", case.id).notes  # records the recall
    proposal = engine.run_maintenance(case.id, now=datetime.now(UTC) + timedelta(days=30))
    assert note.note.id not in {i for ids in _kinds(proposal).get("stale", []) for i in ids}


def test_near_duplicates_are_grouped_and_merged_with_history(engine):
    case = engine.create_case("保密协议")
    a = engine.add_note("原告于入职时签署了保密协议", case_id=case.id, created_at=RECENT).note
    b = engine.add_note("原告入职时签了保密协议", case_id=case.id, created_at=RECENT).note
    other = engine.add_note("被告拒绝退款", case_id=case.id, created_at=RECENT).note

    proposal = engine.run_maintenance(case.id, now=NOW)
    groups = _kinds(proposal).get("duplicate", [])
    assert [set(g) for g in groups] == [{a.id, b.id}]
    assert other.id not in groups[0]
    # a proposal only: nothing changed yet
    assert engine.get_note(a.id).status == engine.get_note(b.id).status == "active"

    item = _item(proposal, "duplicate", a.id)
    outcome = engine.accept_maintenance([item.id])
    assert outcome.applied == (item.id,)
    keep, merged = item.note_ids
    assert engine.get_note(merged).status == "superseded"
    assert engine.get_note(keep).status == "active"
    assert any(h.action == "superseded" for h in engine.note_history(merged))
    assert engine.maintenance_proposal(case.id).items == ()


def test_different_salaries_are_a_possible_update_not_a_duplicate(engine):
    case = engine.create_case("工资")
    older = engine.add_note("月薪8000元", case_id=case.id, created_at=NOW - timedelta(days=20))
    newer = engine.add_note("月薪9500元", case_id=case.id, created_at=NOW - timedelta(days=2))

    proposal = engine.run_maintenance(case.id, now=NOW)
    kinds = _kinds(proposal)
    assert "duplicate" not in kinds
    assert kinds["update"] == [(older.note.id, newer.note.id)]

    engine.accept_maintenance([_item(proposal, "update", older.note.id).id])
    assert engine.get_note(older.note.id).status == "superseded"
    assert engine.get_note(newer.note.id).status == "active"
    assert any(
        link.kind == "supersedes" and link.dst == older.note.id
        for link in engine.links_of(newer.note.id)
    )


def test_a_figure_less_note_never_joins_8000_and_9500_into_one_group():
    notes = [
        _fake_note(str(i), text) for i, text in enumerate(["月薪8000元", "月薪元", "月薪9500元"])
    ]
    vectors = np.ones((3, 4), np.float32) / 2.0  # all identical: similarity 1.0
    found = maintenance.duplicates_and_updates(notes, vectors, 0.91, 0.80)
    for c in found:
        if c.kind == "duplicate":
            assert not {"0", "2"} <= set(c.note_ids), c
    assert any(c.kind == "update" and set(c.note_ids) == {"0", "2"} for c in found)


def test_a_different_persons_salary_is_neither_duplicate_nor_update():
    texts = ["张三的劳动合同约定月薪8000元", "李四的劳动合同约定月薪9000元"]
    notes = [_fake_note(str(i), t) for i, t in enumerate(texts)]
    vectors = np.ones((2, 4), np.float32) / 2.0
    assert maintenance.duplicates_and_updates(notes, vectors, 0.91, 0.80) == []


def test_parallel_facts_about_other_people_are_not_duplicates():
    texts = [
        "证人李四目睹了事故经过",
        "证人王五目睹了事故经过",
        "原告于入职时签署了保密协议",
        "原告于离职时签署了离职协议",
    ]
    notes = [_fake_note(str(i), t) for i, t in enumerate(texts)]
    vectors = np.zeros((4, 4), np.float32)
    vectors[:2, 0] = 1.0  # each pair as similar as can be: only the wording can tell
    vectors[2:, 1] = 1.0
    assert maintenance.duplicates_and_updates(notes, vectors, 0.91, 0.80) == []
    assert not maintenance.swaps_only(
        maintenance.bare_wording("原告于入职时签署了保密协议"),
        maintenance.bare_wording("原告入职时签了保密协议"),
    )


def test_passed_hearings_and_deadlines_are_proposed_for_expiry(engine):
    case = engine.create_case("诉讼时效")
    written = NOW - timedelta(days=120)
    hearing = engine.add_note("开庭时间定于2026年3月5日", case_id=case.id, created_at=written)
    deadline = engine.add_note("举证期限截止到4月1日", case_id=case.id, created_at=written)
    future = engine.add_note("上诉期限届满日为2026年9月1日", case_id=case.id, created_at=written)
    held = engine.add_note("案件已于2026年3月5日开庭", case_id=case.id, created_at=written)
    plain = engine.add_note("合同于2024年1月1日签订", case_id=case.id, created_at=written)

    proposal = engine.run_maintenance(case.id, now=NOW)
    passed = {ids[0] for ids in _kinds(proposal).get("passed", [])}
    assert passed == {hearing.note.id, deadline.note.id}
    assert not passed & {future.note.id, held.note.id, plain.note.id}
    item = _item(proposal, "passed", deadline.note.id)
    assert item.event_date.isoformat() == "2026-04-01"  # the year the note was written in

    engine.accept_maintenance([item.id])
    expired = engine.get_note(deadline.note.id)
    assert expired.status == "archived" and expired.invalid_at is not None
    assert engine.note_history(deadline.note.id)[-1].action == "expired"


def test_accepted_stale_note_is_archived_with_history(engine):
    case = engine.create_case("归档")
    note = engine.add_note("被告公司住所地在上海市浦东新区", case_id=case.id, created_at=LONG_AGO)
    proposal = engine.run_maintenance(case.id, now=NOW)
    engine.accept_maintenance([_item(proposal, "stale", note.note.id).id])
    after = engine.get_note(note.note.id)
    assert after.status == "archived"
    assert engine.note_history(note.note.id)[-1].action == "archived"
    assert not engine.search("住所地", case.id)  # archived notes are not recalled


def test_dismissed_items_come_back_only_when_a_note_changes(engine):
    case = engine.create_case("驳回")
    note = engine.add_note("被告公司住所地在上海市浦东新区", case_id=case.id, created_at=LONG_AGO)
    proposal = engine.run_maintenance(case.id, now=NOW)
    item = _item(proposal, "stale", note.note.id)
    assert engine.maintenance_waiting(case.id) == 1

    assert engine.dismiss_maintenance([item.id]) == 1
    assert engine.maintenance_waiting(case.id) == 0
    assert engine.run_maintenance(case.id, now=NOW).items == ()

    engine.update_note(note.note.id, content="被告公司住所地在上海市浦东新区张江路")
    again = engine.run_maintenance(case.id, now=NOW)
    assert [i.note_ids for i in again.items] == [(note.note.id,)]
    assert engine.get_note(note.note.id).status == "active"  # still only a proposal


def test_an_item_whose_note_changed_after_the_proposal_is_skipped(engine):
    case = engine.create_case("变更")
    note = engine.add_note("被告公司住所地在上海市浦东新区", case_id=case.id, created_at=LONG_AGO)
    item = _item(engine.run_maintenance(case.id, now=NOW), "stale", note.note.id)
    engine.update_note(note.note.id, content="被告公司住所地在北京市")
    outcome = engine.accept_maintenance([item.id])
    assert outcome.applied == () and outcome.skipped == (item.id,)
    assert engine.get_note(note.note.id).status == "active"


def test_no_note_from_another_case_is_in_a_cases_proposal(engine):
    a, b = engine.create_case("甲案"), engine.create_case("乙案")
    texts = [
        "月薪8000元",
        "原告于入职时签署了保密协议",
        "开庭时间定于2026年3月5日",
        "被告住所地在北京",
    ]
    for text in texts:
        engine.add_note(text, case_id=a.id, created_at=LONG_AGO)
    for text in [*texts, "月薪9500元", "原告入职时签了保密协议"]:
        engine.add_note(text, case_id=b.id, created_at=LONG_AGO)
    engine.add_note("律师偏好简短的回复", created_at=LONG_AGO)  # a global note

    for case in (a, b):
        proposal = engine.run_maintenance(case.id, now=NOW)
        assert proposal.items
        for item in proposal.items:
            assert item.case_id == case.id
            assert {engine.get_note(i).case_id for i in item.note_ids} == {case.id}
    assert "duplicate" not in _kinds(engine.maintenance_proposal(a.id))


def test_maintenance_is_due_after_its_period_and_not_when_off(engine):
    case = engine.create_case("周期")
    assert engine.maintenance_due(case.id, now=NOW)
    engine.run_maintenance(case.id, now=NOW)
    assert not engine.maintenance_due(case.id, now=NOW + timedelta(days=6))
    assert engine.maintenance_due(case.id, now=NOW + timedelta(days=7))
    engine.set_config(MemoryConfig(maintenance_enabled=False))
    assert not engine.maintenance_due(case.id, now=NOW + timedelta(days=30))


# -- calibration: the similarity bands the thresholds were chosen on (maintenance.py) ----

RESTATED = [
    ("原告于入职时签署了保密协议", "原告入职时签了保密协议"),
    ("劳动合同约定试用期三个月", "劳动合同中约定的试用期为三个月"),
    ("租赁合同约定提前一个月通知解约", "租赁合同约定解约须提前一个月通知"),
    ("屏幕出现花屏", "电脑屏幕出现了花屏"),
]
DIFFERENT_FACTS = [
    ("原告要求支付经济补偿金", "原告要求支付赔偿金"),
    ("证人李四目睹了事故经过", "证人王五目睹了事故经过"),
    ("原告于入职时签署了保密协议", "原告于离职时签署了离职协议"),
    ("合同于2024年1月1日签订", "合同于2024年1月1日生效"),
]
SAME_THING_NEW_VALUE = [
    ("月薪8000元", "月薪9500元"),
    ("借款本金50000元", "借款本金80000元"),
    ("开庭时间定于2025年6月1日", "开庭时间定于2025年7月15日"),
]


def _sims(embedder, pairs):
    left = embedder.embed([a for a, _ in pairs])
    right = embedder.embed([b for _, b in pairs])
    return np.sum(left * right, axis=1)


def test_calibration_bands_of_the_check_up_thresholds(embedder):
    cfg = MemoryConfig()
    assert _sims(embedder, RESTATED).min() >= cfg.maintenance_duplicate_threshold
    assert _sims(embedder, DIFFERENT_FACTS).max() < cfg.maintenance_duplicate_threshold
    new_values = _sims(embedder, SAME_THING_NEW_VALUE)
    assert new_values.min() >= cfg.maintenance_update_threshold
    # similarity alone would call 8000/9500 a duplicate: the figures must decide
    assert new_values[0] >= 0.85
    assert maintenance.figures("月薪8000元") != maintenance.figures("月薪９５００元")


def _fake_note(note_id: str, content: str):
    from desktop_app.memory.types import Note

    return Note(
        id=note_id,
        case_id="c",
        content=content,
        category="事实",
        keywords=(),
        context="",
        tags=(),
        source=None,
        content_hash=note_id,
        created_at=NOW,
        updated_at=NOW,
        valid_from=NOW,
        invalid_at=None,
        status="active",
        pinned=False,
        retrieval_count=0,
        last_accessed=None,
        evolution_count=0,
    )


def _conflicting_pair(engine, case):
    claim = engine.add_note("当事人称花屏是出厂缺陷", case_id=case.id, created_at=RECENT).note
    report = engine.add_note("检测报告显示系人为进水导致", case_id=case.id, created_at=RECENT).note
    engine.link_notes(claim.id, report.id, kind="conflict", reason="原因说法相反", label="矛盾")
    return claim, report


def test_an_open_conflict_is_proposed_and_settled_only_by_the_lawyers_choice(engine):
    case = engine.create_case("买卖合同")
    claim, report = _conflicting_pair(engine, case)
    proposal = engine.run_maintenance(case.id, now=NOW)
    assert [set(ids) for ids in _kinds(proposal).get("conflict", [])] == [{claim.id, report.id}]
    item = _item(proposal, "conflict", claim.id)

    # accepting without a choice (an "accept all") settles nothing
    outcome = engine.accept_maintenance([item.id])
    assert outcome.applied == () and outcome.undecided == (item.id,)
    assert [c.first.id for c in engine.open_conflicts(case.id)] != []
    assert {engine.get_note(i).status for i in (claim.id, report.id)} == {"active"}
    assert item.id in {i.id for i in engine.maintenance_proposal(case.id).items}

    from desktop_app.memory import MaintenanceChoice

    outcome = engine.accept_maintenance([item.id], {item.id: MaintenanceChoice(report.id)})
    assert outcome.applied == (item.id,)
    assert engine.get_note(claim.id).status == "archived"
    assert engine.get_note(report.id).status == "active"
    assert engine.open_conflicts(case.id) == []
    assert any(h.action == "conflict resolved" for h in engine.note_history(report.id))
    assert "conflict" not in _kinds(engine.run_maintenance(case.id, now=NOW))


def test_a_dismissed_conflict_comes_back_only_when_a_note_changes(engine):
    case = engine.create_case("买卖合同")
    claim, _report = _conflicting_pair(engine, case)
    item = _item(engine.run_maintenance(case.id, now=NOW), "conflict", claim.id)
    assert engine.dismiss_maintenance([item.id]) == 1
    assert "conflict" not in _kinds(engine.run_maintenance(case.id, now=NOW))
    engine.update_note(claim.id, content="当事人坚称花屏是出厂缺陷，从未进水")
    assert "conflict" in _kinds(engine.run_maintenance(case.id, now=NOW))


def test_an_accepted_duplicate_merges_as_the_lawyer_chose(engine):
    from desktop_app.memory import MaintenanceChoice

    case = engine.create_case("保密协议")
    a = engine.add_note("原告于入职时签署了保密协议", case_id=case.id, created_at=RECENT).note
    b = engine.add_note("原告入职时签了保密协议", case_id=case.id, created_at=RECENT).note
    item = _item(engine.run_maintenance(case.id, now=NOW), "duplicate", a.id)
    keep = item.note_ids[1]  # not the proposed keeper
    text = "原告于入职当日签署了保密协议（劳动合同附件）"
    outcome = engine.accept_maintenance([item.id], {item.id: MaintenanceChoice(keep, text)})
    assert outcome.applied == (item.id,)
    gone = item.note_ids[0]
    assert engine.get_note(keep).content == text and engine.get_note(keep).status == "active"
    assert engine.get_note(gone).status == "superseded"
    assert engine.note_history(keep)[-1].after["merged_from"] == [gone]
    assert {a.id, b.id} == {keep, gone}
