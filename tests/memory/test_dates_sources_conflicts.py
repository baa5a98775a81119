"""Issue 12, what a litigator needs: event dates apart from recording dates, the source of
each note, conflicts the lawyer settles, typed links, normalised search terms, and the
current value first — offline, and with the scripted model where the LLM decides."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from fakes.llm_server import FakeLLMServer
from fakes.scripted_model import ScriptedModel

from desktop_app.chat.memory_message import format_memories
from desktop_app.core.errors import InvalidInputError
from desktop_app.llm import JsonModeCache, LLMClient
from desktop_app.memory import MemoryEngine
from desktop_app.memory.dates import event_date_of, find_dates, parse_event_date
from desktop_app.memory.legal_terms import legal_terms

CST = timezone(timedelta(hours=8))


@pytest.fixture(autouse=True)
def beijing(monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _alias_of(shown: dict[int, str], text: str) -> int | None:
    return next((n for n, content in shown.items() if text in content), None)


@pytest.fixture
def model():
    return ScriptedModel()


@pytest.fixture
def smart(tmp_path, embedder, model):
    with FakeLLMServer(responder=model) as srv:
        llm = LLMClient(srv.config(), mode_cache=JsonModeCache(), sleep=lambda s: None)
        with MemoryEngine.open(tmp_path / "smart", embedder=embedder, llm=llm) as eng:
            yield eng


# -- dates by rules -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024年7月15日上午9:30开庭", "2024-07-15"),
        ("二〇二四年七月十五日开庭", "2024-07-15"),
        ("开庭定在2024-07-15", "2024-07-15"),
        ("2024/7/5提交证据", "2024-07-05"),
        ("2023年月薪8000元", "2023"),
        ("The hearing is on 15 July 2024", "2024-07-15"),
        ("Hearing: July 15, 2024", "2024-07-15"),
        ("依据第五百七十七条", None),
        ("实付8,999元", None),
        ("2024年2月30日", "2024-02"),  # no such day: the month it names
    ],
)
def test_absolute_dates(text, expected):
    assert event_date_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("用户昨天说不喜欢冗长回复", "2024-03-15"),
        ("上周五签收了律师函", "2024-03-08"),
        ("3天前付款", "2024-03-13"),
        ("下个月10号交付", "2024-04-10"),
        ("去年3月签约", "2023-03"),
        ("3月20日屏幕花屏", "2024-03-20"),
        ("The client called yesterday", "2024-03-15"),
        ("last Friday the goods arrived", "2024-03-15"),
        ("two days ago", "2024-03-14"),
    ],
)
def test_relative_dates_resolve_against_the_day_written(text, expected):
    assert event_date_of(text, date(2024, 3, 16)) == expected  # a Saturday
    assert find_dates(text, date(2024, 3, 16))[0].value == expected


def test_event_date_fields_accept_what_people_type():
    assert parse_event_date("2024-7-15") == "2024-07-15"
    assert parse_event_date("2024年7月") == "2024-07"
    assert parse_event_date("2024-07-15T09:30:00+08:00") == "2024-07-15"
    assert parse_event_date("下周") is None and parse_event_date("2024-13-01") is None


# -- event date, source and origin at add time, offline ------------------------------------


def test_a_hand_added_hearing_is_filed_under_its_day_not_the_day_it_was_typed(engine):
    case = engine.create_case("c")
    typed = datetime(2026, 11, 20, 14, 0, tzinfo=CST)
    engine.add_note("2024年5月1日原告提交证据清单", case_id=case.id, created_at=typed)
    hearing = engine.add_note(
        "2024年7月15日上午9:30在西湖区法院开庭", case_id=case.id, created_at=typed, source="manual"
    ).note
    engine.add_note("委托人张三的月工资为25000元", case_id=case.id, created_at=typed)
    assert hearing.event_date == "2024-07-15" and hearing.origin == "manual"
    assert hearing.created_at == typed  # the recording time stays what it was
    ordered = [n.content for n in engine.list_notes(case.id, order_by="event_date")]
    assert ordered == [
        "2024年5月1日原告提交证据清单",
        "2024年7月15日上午9:30在西湖区法院开庭",
        "委托人张三的月工资为25000元",  # no date named: the day it was recorded
    ]


def test_a_relative_date_is_resolved_in_the_users_zone(engine):
    note = engine.add_note(
        "用户昨天说不喜欢冗长回复", created_at=datetime(2024, 3, 15, 23, 30, tzinfo=UTC)
    ).note  # 07:30 on the 16th in Beijing
    assert note.event_date == "2024-03-15"
    # and when it is recalled a month later, "昨天" is not read as that day's yesterday
    text = format_memories([note], "zh_CN")
    assert "昨天（2024-03-15）" in text and "事件日期 2024-03-15" in text
    assert note.content == "用户昨天说不喜欢冗长回复"  # the stored text is the user's


def test_event_date_source_and_origin_given_by_the_caller(engine):
    case = engine.create_case("c")
    note = engine.add_note(
        "被告称已于当日发货",
        case_id=case.id,
        event_date="2024年3月18日",
        source_kind="对方主张",
        source="exhibit-7.pdf",
    ).note
    assert (note.event_date, note.source_kind, note.origin) == ("2024-03-18", "对方主张", "import")
    with pytest.raises(InvalidInputError):
        engine.add_note("某事", case_id=case.id, event_date="下周")
    with pytest.raises(InvalidInputError):
        engine.add_note("某事", case_id=case.id, source_kind="路人")
    edited = engine.update_note(note.id, event_date="2024-03-19", source_kind="证据显示")
    assert (edited.event_date, edited.source_kind) == ("2024-03-19", "证据显示")
    assert engine.undo_last_change(note.id).event_date == "2024-03-18"
    assert engine.update_note(note.id, event_date="").event_date is None


def test_the_source_is_guessed_from_the_wording(engine):
    case = engine.create_case("c")
    said = engine.add_note("原告张三称从未收到退款", case_id=case.id).note
    shown = engine.add_note("银行流水显示退款已于3月20日到账", case_id=case.id).note
    found = engine.add_note("法院认定被告构成违约", case_id=case.id).note
    assert (said.source_kind, shown.source_kind, found.source_kind) == (
        "当事人陈述",
        "证据显示",
        "法院认定",
    )


# -- normalised search terms ---------------------------------------------------------------


def test_amounts_articles_and_dates_are_found_however_written(engine):
    case = engine.create_case("c")
    refund = engine.add_note("被告应退还货款捌仟玖佰玖拾玖元", case_id=case.id).note
    statute = engine.add_note("依据《民法典》第五百七十七条主张违约责任", case_id=case.id).note
    hearing = engine.add_note("2024年7月15日上午开庭", case_id=case.id).note
    for n in range(8):  # other notes, so the terms must do the work
        engine.add_note(f"其他事实第{n}条记录，金额{100 + n}元", case_id=case.id)
    engine.optimize()  # as on idle: new rows join the full-text index
    assert refund.content == "被告应退还货款捌仟玖佰玖拾玖元"  # never rewritten
    assert "amt8999" in legal_terms("8,999元") and "art577" in legal_terms("第577条")
    for query, expected in (
        ("8,999元", refund.id),
        ("8999元", refund.id),
        ("第577条", statute.id),
        ("2024-07-15", hearing.id),
        ("2024年7月", hearing.id),
    ):
        hits = engine.search(query, case.id, k=3)
        assert hits[0].note.id == expected, query
        assert hits[0].parts.text_rank == 1, query


# -- current first, with no LLM ------------------------------------------------------------


def test_the_newer_value_ranks_first_offline(engine):
    case = engine.create_case("工资案")
    engine.add_note(
        "原告入职于2023年3月", case_id=case.id, created_at=datetime(2024, 1, 2, tzinfo=CST)
    )
    old = engine.add_note(
        "原告月薪8000元", case_id=case.id, created_at=datetime(2024, 1, 10, tzinfo=CST)
    )
    new = engine.add_note(
        "原告月薪调整为9500元", case_id=case.id, created_at=datetime(2024, 6, 1, tzinfo=CST)
    )
    # the engine linked them as one matter with different values
    assert old.note.id in new.linked
    assert any(link.kind == "duplicate" for link in engine.links_of(new.note.id))
    for query in ("原告月薪多少", "原告月薪8000元", "工资是多少"):
        order = [h.note.id for h in engine.search(query, case.id, k=5)]
        assert order.index(new.note.id) < order.index(old.note.id), query
    recalled = [n.id for n in engine.recall_for_chat("原告月薪8000元对吗", case.id).notes]
    assert new.note.id in recalled
    if old.note.id in recalled:
        assert recalled.index(new.note.id) < recalled.index(old.note.id)


def test_a_superseded_note_is_never_injected(engine):
    case = engine.create_case("c")
    agreed = engine.add_note("当事人同意调解", case_id=case.id).note
    refused = engine.add_note("当事人不同意调解", case_id=case.id).note
    engine.supersede_note(agreed.id, refused.id)
    recalled = engine.recall_for_chat("当事人同意调解吗", case.id).notes
    assert [n.id for n in recalled] == [refused.id]
    # a history search still finds the old fact by its words
    history = engine.search("当事人同意调解", case.id, k=5, include_inactive=True)
    assert agreed.id in {h.note.id for h in history}


# -- conflicts and typed links, with the scripted model ------------------------------------


def test_a_contradiction_between_sources_is_a_conflict_the_lawyer_settles(smart, model):
    case = smart.create_case("李四案")
    said = smart.add_note(
        "被告李四称没有签收律师函", case_id=case.id, source_kind="对方主张", wait=True
    ).note
    model.decide_rules.append(
        lambda note, shown: (
            {"action": "CONFLICT", "target": _alias_of(shown, "没有签收"), "reason": "说法相反"}
            if "签收单" in note
            else None
        )
    )
    shown = smart.add_note(
        "快递签收单显示李四于2024年3月16日签收律师函", case_id=case.id, wait=True
    )
    assert shown.action == "conflict" and shown.target_id == said.id
    assert shown.note.source_kind == "证据显示"
    assert {smart.get_note(said.id).status, shown.note.status} == {"active"}
    links = [link for link in smart.links_of(shown.note.id) if link.kind == "conflict"]
    assert links and links[0].type == "矛盾" and links[0].dst == said.id
    conflicts = smart.open_conflicts(case.id)
    assert len(conflicts) == 1
    assert {conflicts[0].first.id, conflicts[0].second.id} == {said.id, shown.note.id}
    assert smart.count_notes(case.id, conflicted=True) == 2
    graph = smart.graph(case.id)
    assert all(node.conflicted for node in graph.nodes)
    assert any(edge.kind == "conflict" and edge.label == "矛盾" for edge in graph.edges)
    # the lawyer keeps the exhibit: the party's claim is expired, kept in history
    smart.resolve_conflict(said.id, shown.note.id, keep=shown.note.id)
    assert smart.get_note(said.id).status == "archived"
    assert smart.open_conflicts(case.id) == [] and smart.count_notes(case.id, conflicted=True) == 0


def test_keeping_both_settles_the_conflict(smart, model):
    case = smart.create_case("c")
    a = smart.add_note("原告称合同约定交货期为3月1日", case_id=case.id).note
    b = smart.add_note("合同原件载明交货期为4月1日", case_id=case.id).note
    smart.link_notes(a.id, b.id, kind="conflict", reason="交货期说法不一", label="矛盾")
    assert len(smart.open_conflicts(case.id)) == 1
    smart.resolve_conflict(a.id, b.id, keep="both")
    assert smart.open_conflicts(case.id) == []
    assert smart.get_note(a.id).status == smart.get_note(b.id).status == "active"
    assert [h.action for h in smart.note_history(a.id)][-1] == "conflict resolved"
    with pytest.raises(InvalidInputError):
        smart.resolve_conflict(a.id, b.id, keep="both")  # nothing open any more


def test_a_replacement_between_different_sources_becomes_a_conflict(smart, model):
    case = smart.create_case("c")
    client = smart.add_note(
        "原告月薪8000元", case_id=case.id, source_kind="当事人陈述", wait=True
    ).note
    model.decide_rules.append(
        lambda note, shown: (
            {"action": "SUPERSEDE", "target": _alias_of(shown, "8000")}
            if "工资条" in note
            else None
        )
    )
    payslip = smart.add_note(
        "工资条显示原告月薪9500元", case_id=case.id, source_kind="证据显示", wait=True
    )
    assert payslip.action == "conflict"  # a dispute between sources: nothing expires
    assert smart.get_note(client.id).status == "active"


def test_links_carry_the_type_the_model_gives(smart, model):
    case = smart.create_case("c")
    fact = smart.add_note("原告购买的笔记本电脑屏幕花屏", case_id=case.id, wait=True).note
    model.evolve_answer = lambda note, shown: {
        "links": [{"target": _alias_of(shown, "屏幕花屏"), "type": "proves", "reason": "检测报告"}],
        "tags": None,
        "neighbour_updates": [],
    }
    report = smart.add_note("检测报告证明笔记本电脑屏幕存在质量问题", case_id=case.id, wait=True)
    typed = [link for link in smart.links_of(report.note.id) if link.dst == fact.id]
    assert any(link.kind == "evolution" and link.type == "证明" for link in typed)
    smart.set_link_type(report.note.id, fact.id, "补充")
    assert {link.type for link in smart.links_of(fact.id) if link.dst == report.note.id} == {"补充"}
    with pytest.raises(InvalidInputError):
        smart.set_link_type(report.note.id, fact.id, "随便")


def test_a_merge_that_drops_a_value_keeps_both_notes(smart, model):
    case = smart.create_case("c")
    first = smart.add_note("原告于2024年3月15日购买笔记本电脑", case_id=case.id, wait=True).note
    model.decide_rules.append(
        lambda note, shown: (
            {
                "action": "UPDATE",
                "target": _alias_of(shown, "购买笔记本电脑"),
                "merged_content": "原告购买了笔记本电脑",  # the careless merge loses both values
            }
            if "8999" in note
            else None
        )
    )
    second = smart.add_note("原告购买的笔记本电脑价格8999元", case_id=case.id, wait=True)
    assert second.action == "added"
    assert smart.get_note(first.id).content == "原告于2024年3月15日购买笔记本电脑"
    assert smart.get_note(second.note.id).content == "原告购买的笔记本电脑价格8999元"
    assert any(link.type == "补充" for link in smart.links_of(second.note.id))


def test_construction_sets_the_date_and_source_but_not_over_the_users_choice(smart, model):
    case = smart.create_case("c")
    chosen = smart.add_note(
        "开庭时间为2024年7月15日", case_id=case.id, event_date="2024-07-16", wait=True
    ).note
    assert chosen.event_date == "2024-07-16"  # the lawyer's correction stands
    assert chosen.context  # construction ran
    found = smart.add_note("2024年8月2日质证", case_id=case.id, wait=True).note
    assert found.event_date == "2024-08-02"
