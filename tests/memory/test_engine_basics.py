"""Engine foundations: persistence, idempotent adds, cases, editing, history, graph."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from desktop_app.core.errors import CaseNotFoundError, InvalidInputError, NoteNotFoundError
from desktop_app.memory import MemoryEngine


def test_persistence_across_reopen(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("张三诉某电商平台")
        note = eng.add_note("原告张三于2024年3月15日购买笔记本电脑", case_id=case.id).note
        eng.add_note("以后所有文档都用Markdown格式")
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert [c.name for c in eng.list_cases()] == ["张三诉某电商平台"]
        again = eng.get_note(note.id)
        assert again.content == note.content
        assert again.case_id == case.id
        assert eng.stats().notes_total == 2
        hits = eng.search("张三什么时候买的电脑", case_id=case.id, k=3)
        assert hits[0].note.id == note.id


def test_adds_are_idempotent(engine):
    case = engine.create_case("c")
    first = engine.add_note("被告客服三次推诿，拒绝维修", case_id=case.id)
    again = engine.add_note("  被告客服三次推诿，拒绝维修。 ", case_id=case.id)
    assert first.action == "added"
    assert again.action == "unchanged"
    assert again.note.id == first.note.id
    assert engine.count_notes(case.id) == 1
    # the same text in another scope is another note
    other = engine.add_note("被告客服三次推诿，拒绝维修", case_id=None)
    assert other.action == "added"
    # inside one batch, a repeated item is stored once
    results = engine.add_notes(
        [{"content": "屏幕花屏", "case_id": case.id}, {"content": "屏幕花屏！", "case_id": case.id}]
    )
    assert [r.action for r in results] == ["added", "unchanged"]
    assert results[0].note.id == results[1].note.id


def test_near_duplicates_are_kept_and_flagged(engine):
    case = engine.create_case("c")
    a = engine.add_note("月薪8000元", case_id=case.id)
    b = engine.add_note("月薪9500元", case_id=case.id)
    assert a.action == b.action == "added"
    assert a.note.id != b.note.id
    kinds = {(link.dst, link.kind) for link in engine.links_of(b.note.id)}
    assert (a.note.id, "duplicate") in kinds
    # stored both ways
    assert any(link.dst == b.note.id for link in engine.links_of(a.note.id))


def test_offline_construction_categories(engine):
    case = engine.create_case("c")
    expected = {
        "依据《消费者权益保护法》第二十四条，经营者应当承担退货责任": "法条",
        "原告提交了购物发票和与客服的聊天记录截图": "证据",
        "要求被告退还货款8999元并赔偿损失": "诉求",
        "以后所有文档都用Markdown格式": "偏好",
        "2024年3月20日笔记本屏幕出现花屏": "时间线",
        "客服三次推诿": "事实",
    }
    for text, category in expected.items():
        note = engine.add_note(text, case_id=case.id).note
        assert note.category == category, text
        assert note.keywords, text
    explicit = engine.add_note("一条普通的记录", case_id=case.id, category="证据").note
    assert explicit.category == "证据"


def test_bad_input_is_refused_with_a_message(engine):
    with pytest.raises(InvalidInputError) as err:
        engine.add_note("   ")
    assert "空" in err.value.user_message
    with pytest.raises(InvalidInputError) as err:
        engine.add_note("字" * 20_001)
    assert "太长" in err.value.user_message
    with pytest.raises(InvalidInputError):
        engine.add_note("x", category="不存在的类别")
    with pytest.raises(CaseNotFoundError):
        engine.add_note("x", case_id="0" * 32)
    with pytest.raises(NoteNotFoundError):
        engine.get_note("missing")
    # a failing batch writes nothing
    with pytest.raises(InvalidInputError):
        engine.add_notes([{"content": "好的一条"}, {"content": ""}])
    assert engine.count_notes(None) == 0


def test_cases_create_rename_archive(engine):
    case = engine.create_case("初稿")
    engine.rename_case(case.id, "张三诉某电商平台买卖合同纠纷")
    assert engine.get_case(case.id).name == "张三诉某电商平台买卖合同纠纷"
    engine.archive_case(case.id)
    assert engine.list_cases() == []
    assert [c.id for c in engine.list_cases(include_archived=True)] == [case.id]
    with pytest.raises(InvalidInputError):
        engine.create_case("  ")


def test_update_reembeds_and_keeps_history(engine):
    case = engine.create_case("c")
    note = engine.add_note("当事人同意调解", case_id=case.id).note
    engine.add_note("被告是某电商平台", case_id=case.id)
    updated = engine.update_note(note.id, content="原告坚持诉讼，要求三倍赔偿", tags=["惩罚性赔偿"])
    assert updated.content == "原告坚持诉讼，要求三倍赔偿"
    hits = engine.search("惩罚性赔偿", case_id=case.id, k=1)
    assert hits[0].note.id == note.id  # found by the new text and tag at once
    history = engine.note_history(note.id)
    assert [h.action for h in history] == ["created", "updated"]
    assert history[1].before["content"] == "当事人同意调解"
    assert history[1].actor == "user"
    restored = engine.undo_last_change(note.id)
    assert restored.content == "当事人同意调解"
    assert engine.search("当事人同意调解", case_id=case.id, k=1)[0].note.id == note.id


def test_expire_pin_supersede_and_search_visibility(engine):
    case = engine.create_case("c")
    old = engine.add_note("用户在城市乙出差", case_id=case.id).note
    new = engine.add_note("用户回到城市甲", case_id=case.id).note
    engine.supersede_note(old.id, new.id, reason="回来了")
    old_now = engine.get_note(old.id)
    assert old_now.status == "superseded" and old_now.invalid_at is not None
    assert all(h.note.id != old.id for h in engine.search("城市乙出差", case_id=case.id, k=5))
    with_history = engine.search("城市乙出差", case_id=case.id, k=5, include_inactive=True)
    assert with_history[0].note.id == old.id
    assert any(link.kind == "supersedes" and link.dst == old.id for link in engine.links_of(new.id))

    pinned = engine.add_note("本案管辖法院为杭州互联网法院", case_id=case.id).note
    engine.pin_note(pinned.id)
    hits = engine.search("城市甲", case_id=case.id, k=1)
    assert pinned.id in {h.note.id for h in hits}
    assert next(h for h in hits if h.note.id == pinned.id).parts.pinned

    engine.expire_note(new.id)
    assert engine.get_note(new.id).status == "archived"
    assert all(h.note.id != new.id for h in engine.search("城市甲", case_id=case.id, k=5))


def test_links_graph_and_positions(engine):
    case = engine.create_case("c")
    a = engine.add_note("原告购买了笔记本电脑", case_id=case.id).note
    b = engine.add_note("笔记本电脑屏幕花屏", case_id=case.id).note
    engine.link_notes(a.id, b.id, reason="同一台电脑")
    graph = engine.graph(case.id)
    assert {n.id for n in graph.nodes} == {a.id, b.id}
    manual = [e for e in graph.edges if e.kind == "manual"]
    assert len(manual) == 1  # one edge per pair, though the link is stored both ways
    assert all(n.degree >= 1 for n in graph.nodes)
    engine.save_graph_positions(case.id, {a.id: (1.0, 2.0), b.id: (3.0, 4.0), "nope": (0, 0)})
    assert engine.graph_positions(case.id) == {a.id: (1.0, 2.0), b.id: (3.0, 4.0)}
    assert engine.unlink_notes(a.id, b.id, "manual") == 2
    other = engine.create_case("d")
    c = engine.add_note("另一个案件的事实", case_id=other.id).note
    with pytest.raises(InvalidInputError):
        engine.link_notes(a.id, c.id)


def test_merge_notes(engine):
    case = engine.create_case("c")
    a = engine.add_note("被告为某电商平台", case_id=case.id, tags=["被告"]).note
    b = engine.add_note("被告的住所地在杭州", case_id=case.id, tags=["管辖"]).note
    merged = engine.merge_notes(a.id, b.id)
    assert "杭州" in merged.content and set(merged.tags) == {"被告", "管辖"}
    assert engine.get_note(b.id).status == "superseded"


def test_conversations_and_messages(engine):
    case = engine.create_case("c")
    conv = engine.create_conversation(case.id, "首次咨询")
    engine.add_message(conv.id, "user", "我想起诉电商平台")
    engine.add_message(conv.id, "assistant", "好的，请提供购买凭证。", injected_note_ids=["n1"])
    messages = engine.list_messages(conv.id)
    assert [m.role for m in messages] == ["user", "assistant"]
    assert messages[1].injected_note_ids == ("n1",)
    assert [c.id for c in engine.list_conversations(case.id, query="购买凭证")] == [conv.id]
    assert engine.list_conversations(case.id, query="%_") == []
    engine.set_conversation_memory(conv.id, False)
    assert engine.get_conversation(conv.id).memory_enabled is False
    engine.delete_conversation(conv.id)
    assert engine.list_conversations(case.id) == []


def test_created_at_is_kept(engine):
    when = datetime(2024, 3, 15, 10, 0, tzinfo=UTC)
    note = engine.add_note("购买笔记本电脑", created_at=when, source="msg-1").note
    assert note.created_at == when and note.source == "msg-1"


def test_created_history_row_keeps_no_second_copy_of_the_note(engine):
    import sqlite3

    case = engine.create_case("c")
    note = engine.add_note("原告于2024年3月1日签收货物", case_id=case.id).note
    db = sqlite3.connect(engine.data_dir / "lexmem.sqlite3")
    try:
        stored = db.execute(
            "SELECT action, after FROM note_history WHERE note_id = ?", (note.id,)
        ).fetchall()
    finally:
        db.close()
    assert stored == [("created", None)]  # the note row is the only copy of its text
    # read back, the created row still shows the note as it was created ...
    assert engine.note_history(note.id)[0].after["content"] == "原告于2024年3月1日签收货物"
    engine.update_note(note.id, content="原告于2024年3月2日签收货物")
    history = engine.note_history(note.id)
    # ... also after a later change: then it is that change's "before"
    assert [h.action for h in history] == ["created", "updated"]
    assert history[0].after["content"] == "原告于2024年3月1日签收货物"
    assert history[1].after["content"] == "原告于2024年3月2日签收货物"


def test_what_lives_as_long_as_the_app_is_frozen_out_of_the_collectors_walks_once(
    tmp_path, embedder
):
    """A full collection walked every module and table object (~120 ms; a search beside it
    took as long): the first open freezes them.  Later opens do not, so what a closed engine
    leaves behind stays collectable."""
    import gc

    from desktop_app.memory import MemoryEngine

    with MemoryEngine.open(tmp_path / "one", embedder=embedder):
        frozen = gc.get_freeze_count()
    assert frozen > 10_000
    left_behind = [[n] for n in range(1000)]  # tracked objects alive at the next open
    with MemoryEngine.open(tmp_path / "two", embedder=embedder):
        assert gc.get_freeze_count() <= frozen  # frozen objects that died left it
    assert left_behind
