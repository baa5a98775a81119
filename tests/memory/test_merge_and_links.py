"""合并 really merges (issue 15, item 10): the kept note holds the merged text, the other's
links and tags; the other is marked replaced by the merge with its history kept and
reachable from the kept note's history; the index follows.  And one pair of notes has one
link: a manual 关联 on a pair the model already linked upgrades that link."""

from __future__ import annotations

import sqlite3

import pytest

from desktop_app.core.errors import InvalidInputError
from desktop_app.memory import MemoryEngine


def _pair_rows(engine, a: str, b: str) -> list:
    return [link for link in engine.links_of(a) if link.dst == b]


def test_merge_writes_the_merged_text_with_history_and_reindexes(engine):
    case = engine.create_case("张三诉某电商")
    keep = engine.add_note("被告为某电商平台", case_id=case.id, tags=["被告"]).note
    other = engine.add_note("被告住所地在杭州市余杭区", case_id=case.id, tags=["管辖"]).note
    text = "被告为某电商平台，住所地在杭州市余杭区（可据此确定管辖）"

    merged = engine.merge_notes(keep.id, other.id, merged_text=text)

    assert merged.id == keep.id and merged.content == text
    assert set(merged.tags) == {"被告", "管辖"}
    history = engine.note_history(keep.id)
    last = history[-1]
    assert last.action == "merged" and last.reason.startswith("合并自")
    assert last.after["merged_from"] == [other.id]
    assert last.before["content"] == "被告为某电商平台"
    # the other is replaced by the merge, its own history kept and reachable from the kept one
    gone = engine.get_note(other.id)
    assert gone.status == "superseded" and gone.invalid_at is not None
    reached = engine.note_history(last.after["merged_from"][0])
    assert [h.action for h in reached] == ["created", "superseded"]
    assert reached[-1].after["merged_into"] == keep.id
    # re-embedded: the merged wording is found, and only the kept note answers
    hits = engine.search("可据此确定管辖", case_id=case.id, k=3)
    assert hits and hits[0].note.id == keep.id
    assert other.id not in {h.note.id for h in hits}


def test_merge_without_text_combines_both_and_old_call_still_works(engine):
    case = engine.create_case("c")
    keep = engine.add_note("原告于2024年3月15日购买笔记本电脑", case_id=case.id).note
    other = engine.add_note("电脑价格为8999元", case_id=case.id).note
    merged = engine.merge_notes(keep.id, other.id)
    assert merged.content == "原告于2024年3月15日购买笔记本电脑\n电脑价格为8999元"


def test_merge_moves_links_without_duplicates_or_self_links(engine):
    case = engine.create_case("c")
    keep = engine.add_note("原告购买的笔记本电脑屏幕出现花屏", case_id=case.id).note
    other = engine.add_note("电脑使用两周后屏幕闪烁", case_id=case.id).note
    shared = engine.add_note("检测报告认定为屏幕排线故障", case_id=case.id).note
    only_other = engine.add_note("《消费者权益保护法》第二十四条", case_id=case.id).note
    for a, b in ((keep, other), (keep, shared), (other, shared), (other, only_other)):
        engine.unlink_notes(a.id, b.id)  # start from exactly the links written below
    engine.link_notes(keep.id, other.id, kind="semantic", strength=0.7)
    engine.link_notes(keep.id, shared.id, kind="semantic", strength=0.6)
    engine.link_notes(other.id, shared.id, kind="manual", label="证明")
    engine.link_notes(other.id, only_other.id, kind="evolution", strength=0.9, label="适用")

    engine.merge_notes(keep.id, other.id, merged_text="原告的笔记本电脑使用两周后屏幕花屏、闪烁")

    by_dst: dict[str, list] = {}
    for link in engine.links_of(keep.id):
        by_dst.setdefault(link.dst, []).append(link)
    assert keep.id not in by_dst  # no self-link
    assert [link.kind for link in by_dst[shared.id]] == ["manual"]  # one link, the stronger kind
    assert by_dst[shared.id][0].label == "证明"
    assert [(link.kind, link.label) for link in by_dst[only_other.id]] == [("evolution", "适用")]
    assert [link.kind for link in by_dst[other.id]] == ["supersedes"]
    # the other note's links moved: its neighbours see the kept note, once
    assert [link.dst for link in engine.links_of(shared.id) if link.dst in (keep.id, other.id)] == [
        keep.id
    ]
    assert engine.links_of(other.id) == []


def test_merge_carries_an_open_conflict_to_the_kept_note(engine):
    case = engine.create_case("c")
    keep = engine.add_note("当事人称花屏是出厂缺陷", case_id=case.id).note
    other = engine.add_note("当事人陈述：屏幕故障系产品质量问题", case_id=case.id).note
    report = engine.add_note("检测报告显示系人为进水导致", case_id=case.id).note
    engine.link_notes(other.id, report.id, kind="conflict", reason="原因说法相反", label="矛盾")
    engine.merge_notes(keep.id, other.id)
    conflicts = engine.open_conflicts(case.id)
    assert [{c.first.id, c.second.id} for c in conflicts] == [{keep.id, report.id}]


def test_merge_of_a_group_in_one_call(engine):
    case = engine.create_case("c")
    a = engine.add_note("合同约定七日无理由退货", case_id=case.id).note
    b = engine.add_note("合同中有七天无理由退货条款", case_id=case.id).note
    c = engine.add_note("买卖合同规定7日内可无理由退货", case_id=case.id).note
    merged = engine.merge_group(a.id, [b.id, c.id], merged_text="买卖合同约定七日无理由退货")
    assert merged.content == "买卖合同约定七日无理由退货"
    assert {engine.get_note(i).status for i in (b.id, c.id)} == {"superseded"}
    assert engine.note_history(a.id)[-1].after["merged_from"] == [b.id, c.id]


def test_bad_merges_are_refused_and_change_nothing(engine):
    case, other_case = engine.create_case("c1"), engine.create_case("c2")
    a = engine.add_note("被告为某电商平台", case_id=case.id).note
    b = engine.add_note("被告住所地在杭州", case_id=case.id).note
    far = engine.add_note("另一案件的事实", case_id=other_case.id).note
    with pytest.raises(InvalidInputError):
        engine.merge_notes(a.id, b.id, merged_text="   ")
    with pytest.raises(InvalidInputError):
        engine.merge_notes(a.id, far.id)
    with pytest.raises(InvalidInputError):
        engine.merge_notes(a.id, a.id)
    assert engine.get_note(a.id).content == "被告为某电商平台"
    assert {engine.get_note(i).status for i in (a.id, b.id, far.id)} == {"active"}


def test_a_manual_link_upgrades_the_automatic_one(engine):
    case = engine.create_case("c")
    a = engine.add_note("原告购买的笔记本电脑屏幕出现花屏", case_id=case.id).note
    b = engine.add_note("检测报告认定为屏幕排线故障", case_id=case.id).note
    engine.unlink_notes(a.id, b.id)
    engine.link_notes(a.id, b.id, kind="semantic", strength=0.62)
    engine.link_notes(a.id, b.id, kind="manual", strength=1.0, reason="linked by hand")
    for x, y in ((a, b), (b, a)):
        rows = _pair_rows(engine, x.id, y.id)
        assert [(r.kind, r.strength) for r in rows] == [("manual", 1.0)]
    # the model finding the pair again later does not add a second row either
    engine.link_notes(a.id, b.id, kind="evolution", strength=0.9, label="证明")
    rows = _pair_rows(engine, a.id, b.id)
    assert [(r.kind, r.label) for r in rows] == [("manual", "证明")]
    # a pair the model marked as contradicting stays a conflict: a manual link adds nothing
    c = engine.add_note("当事人称花屏是出厂缺陷", case_id=case.id).note
    engine.unlink_notes(b.id, c.id)
    engine.link_notes(b.id, c.id, kind="conflict", label="矛盾")
    engine.link_notes(b.id, c.id, kind="manual")
    assert [r.kind for r in _pair_rows(engine, b.id, c.id)] == ["conflict"]


def test_existing_duplicate_links_are_folded_at_open(tmp_path, embedder):
    folder = tmp_path / "data"
    with MemoryEngine.open(folder, embedder=embedder) as eng:
        case = eng.create_case("c")
        a = eng.add_note("原告购买的笔记本电脑屏幕出现花屏", case_id=case.id).note
        b = eng.add_note("检测报告认定为屏幕排线故障", case_id=case.id).note
        c = eng.add_note("被告为某电商平台", case_id=case.id).note
        d = eng.add_note("被告住所地在杭州", case_id=case.id).note
    db = folder / "lexmem.sqlite3"
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("DELETE FROM links")
        # what the old code wrote: a manual link next to the model's, and a plain link next
        # to a conflict
        rows = [
            (a.id, b.id, "semantic", 0.6, "", "2024-01-01T00:00:00+00:00", None),
            (a.id, b.id, "manual", 1.0, "linked by hand", "2024-02-01T00:00:00+00:00", "证明"),
            (c.id, d.id, "semantic", 0.7, "", "2024-01-01T00:00:00+00:00", None),
            (c.id, d.id, "conflict", 1.0, "说法相反", "2024-01-02T00:00:00+00:00", "矛盾"),
        ]
        conn.executemany(
            "INSERT INTO links (src, dst, kind, strength, reason, created_at, label) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [r for row in rows for r in (row, (row[1], row[0], *row[2:]))],
        )
        conn.execute("DELETE FROM schema_migrations WHERE name = '0011_fold_duplicate_links'")
    conn.close()
    with MemoryEngine.open(folder, embedder=embedder) as eng:
        ab = _pair_rows(eng, a.id, b.id)
        assert [(r.kind, r.strength, r.label) for r in ab] == [("manual", 1.0, "证明")]
        assert ab[0].created_at.year == 2024 and ab[0].created_at.month == 1
        assert [r.kind for r in _pair_rows(eng, b.id, a.id)] == ["manual"]
        assert [r.kind for r in _pair_rows(eng, c.id, d.id)] == ["conflict"]
        assert [r.kind for r in _pair_rows(eng, d.id, c.id)] == ["conflict"]
