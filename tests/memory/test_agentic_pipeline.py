"""The agentic pipeline inside the engine: jobs, decisions, evolution, extraction.

The scripted server plays the model.  It cannot understand text, so ``ScriptedModel``
answers by rules written for each test — on the *prompts the engine really sends*, parsed
the way a model would read them (the numbered neighbour list, the new note).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fakes.llm_server import FakeLLMServer
from fakes.scripted_model import ScriptedModel

from desktop_app.llm import JsonModeCache, LLMClient, TokenMeter
from desktop_app.memory import MemoryEngine

SEED = "我是原告张三，2024年3月15日购买了8999元的笔记本电脑，屏幕花屏，联系客服三次被推诿"


def _alias_of(shown: dict[int, str], text: str) -> int | None:
    return next((n for n, content in shown.items() if text in content), None)


@pytest.fixture
def model():
    return ScriptedModel()


@pytest.fixture
def server(model):
    with FakeLLMServer(responder=model) as srv:
        yield srv


@pytest.fixture
def llm(server):
    return LLMClient(
        server.config(), mode_cache=JsonModeCache(), meter=TokenMeter(), sleep=lambda s: None
    )


@pytest.fixture
def agentic_engine(tmp_path, embedder, llm):
    eng = MemoryEngine.open(tmp_path / "data", embedder=embedder, llm=llm)
    yield eng
    eng.close()


def test_add_runs_construction_and_records_history(agentic_engine, model):
    case = agentic_engine.create_case("c")
    result = agentic_engine.add_note("用户不喜欢冗长回复", case_id=case.id, wait=True)
    note = result.note
    assert result.action == "added"
    assert note.context.startswith("否定")  # the negation survived construction
    assert agentic_engine.note_history(note.id)[-1].actor == "construction"
    assert agentic_engine.pending_jobs() == 0
    assert "note_construction" in model.asked


def test_supersede_keeps_the_old_fact_in_history(agentic_engine, model):
    case = agentic_engine.create_case("c")
    model.decide_rules.append(
        lambda note, shown: (
            {"action": "SUPERSEDE", "target": _alias_of(shown, "城市乙出差")}
            if "回到城市甲" in note and _alias_of(shown, "城市乙出差")
            else None
        )
    )
    old = agentic_engine.add_note("用户在城市乙出差", case_id=case.id, wait=True).note
    result = agentic_engine.add_note("用户回到城市甲", case_id=case.id, wait=True)
    assert result.action == "superseded" and result.target_id == old.id
    stale = agentic_engine.get_note(old.id)
    assert stale.status == "superseded" and stale.invalid_at is not None
    assert any(
        link.kind == "supersedes" and link.dst == old.id
        for link in agentic_engine.links_of(result.note.id)
    )
    hits = agentic_engine.search("用户现在在哪个城市", case_id=case.id, k=5)
    assert old.id not in {h.note.id for h in hits}
    assert agentic_engine.recall_for_chat("用户在哪个城市", case.id).notes[0].id == result.note.id


def test_contradiction_is_superseded_not_merged(agentic_engine, model):
    case = agentic_engine.create_case("c")
    model.decide_rules.append(
        lambda note, shown: (
            {"action": "SUPERSEDE", "target": _alias_of(shown, "当事人同意调解")}
            if note == "当事人不同意调解" and _alias_of(shown, "当事人同意调解")
            else None
        )
    )
    agreed = agentic_engine.add_note("当事人同意调解", case_id=case.id, wait=True).note
    refused = agentic_engine.add_note("当事人不同意调解", case_id=case.id, wait=True)
    assert refused.action == "superseded"
    assert refused.note.content == "当事人不同意调解"  # not merged into one note
    assert agentic_engine.get_note(agreed.id).content == "当事人同意调解"
    assert agentic_engine.get_note(agreed.id).status == "superseded"


def test_update_merges_into_the_target_and_keeps_its_date(agentic_engine, model):
    case = agentic_engine.create_case("c")
    model.decide_rules.append(
        lambda note, shown: (
            {
                "action": "UPDATE",
                "target": _alias_of(shown, "笔记本电脑"),
                "merged_content": "原告于2024年3月15日购买笔记本电脑，价格8999元",
            }
            if "价格8999元" in note and _alias_of(shown, "笔记本电脑")
            else None
        )
    )
    first = agentic_engine.add_note(
        "原告于2024年3月15日购买笔记本电脑",
        case_id=case.id,
        created_at=datetime(2024, 3, 15, tzinfo=UTC),
        wait=True,
    ).note
    result = agentic_engine.add_note("原告购买的笔记本电脑价格8999元", case_id=case.id, wait=True)
    assert result.action == "updated" and result.note.id == first.id
    assert result.note.content == "原告于2024年3月15日购买笔记本电脑，价格8999元"
    assert result.note.created_at == first.created_at
    assert agentic_engine.count_notes(case.id) == 1  # the newer wording was folded in
    assert [h.actor for h in agentic_engine.note_history(first.id)][-1] == "decision"


def test_alias_outside_the_list_is_rejected_and_the_job_kept(agentic_engine, model):
    case = agentic_engine.create_case("c")
    agentic_engine.add_note("被告为某电商平台", case_id=case.id, wait=True)
    model.decide_rules.append(lambda note, shown: {"action": "SUPERSEDE", "target": 42})
    result = agentic_engine.add_note("被告是一家网店", case_id=case.id, wait=True)
    assert result.action == "added"  # stored offline; nothing guessed
    counts = agentic_engine.job_counts()
    assert counts.pending == 1  # deferred with the reason, to be retried
    notes = agentic_engine.list_notes(case.id)
    assert all(n.status == "active" for n in notes)


def test_evolution_updates_neighbours_and_reembeds_them(agentic_engine, model):
    case = agentic_engine.create_case("c")
    target = agentic_engine.add_note("原告三次联系客服均被推诿", case_id=case.id, wait=True).note

    def evolve(prompt: str, shown: dict[int, str]) -> dict:
        alias = _alias_of(shown, "客服均被推诿")
        return {
            "links": [{"target": alias, "reason": "同一售后过程"}],
            "tags": ["售后"],
            "neighbour_updates": [
                {"target": alias, "context": "售后拒绝履行三包义务的经过", "tags": ["三包义务"]}
            ],
        }

    model.evolve_answer = evolve
    new = agentic_engine.add_note("客服建议原告自行联系品牌售后", case_id=case.id, wait=True).note
    changed = agentic_engine.get_note(target.id)
    assert changed.tags == ("三包义务",) and changed.context == "售后拒绝履行三包义务的经过"
    assert changed.evolution_count == 1
    assert agentic_engine.note_history(target.id)[-1].actor == "evolution"
    assert any(
        link.kind == "evolution" and link.dst == target.id
        for link in agentic_engine.links_of(new.id)
    )
    # the neighbour is found at once by the tag it just gained
    hits = agentic_engine.search("三包义务", case_id=case.id, k=1)
    assert hits[0].note.id == target.id


def test_ingest_turn_extracts_separate_items_and_scopes(agentic_engine, model):
    case = agentic_engine.create_case("张三诉电商")
    model.extract_items = [
        {
            "content": "原告张三于2024年3月15日购买笔记本电脑，价格8999元",
            "category": "时间线",
            "scope": "case",
        },
        {"content": "笔记本电脑屏幕出现花屏", "category": "事实", "scope": "case"},
        {"content": "原告三次联系客服均被推诿", "category": "事实", "scope": "case"},
        {"content": "以后所有文档都用Markdown格式", "category": "偏好", "scope": "case"},
    ]
    conv = agentic_engine.create_conversation(case.id, "首次咨询")
    results = agentic_engine.ingest_turn(
        SEED + "。以后所有文档都用Markdown格式",
        "好的，我记下了。",
        case_id=case.id,
        conversation_id=conv.id,
        wait=True,
    )
    assert [r.action for r in results] == ["added"] * 4
    by_content = {r.note.content: r.note for r in results}
    assert by_content["以后所有文档都用Markdown格式"].case_id is None  # preferences are global
    assert by_content["笔记本电脑屏幕出现花屏"].case_id == case.id
    assert all(r.note.source == f"chat:{conv.id}" for r in results)
    assert agentic_engine.pending_jobs() == 0


def test_small_talk_yields_nothing(agentic_engine, model):
    model.extract_items = []
    assert agentic_engine.ingest_turn("你好呀", "你好！有什么可以帮你？", wait=True) == []
    assert agentic_engine.count_notes(None) == 0


def test_jobs_survive_an_outage_and_a_restart(tmp_path, embedder, model):
    data = tmp_path / "data"
    with FakeLLMServer(responder=model) as srv:
        dead_port_config = srv.config()
    # the endpoint is gone: notes are stored at once, the agentic work waits
    offline = LLMClient(dead_port_config, mode_cache=JsonModeCache(), sleep=lambda s: None)
    with MemoryEngine.open(data, embedder=embedder, llm=offline) as eng:
        case = eng.create_case("c")
        stored = eng.add_note("被告客服三次推诿", case_id=case.id, wait=True)
        assert stored.action == "added"
        eng.ingest_turn("原告已经保存了聊天记录", "好的", case_id=case.id)
        report = eng.run_pending_jobs()
        assert report.done == 0 and report.deferred == 1 and report.last_problem
        assert eng.pending_jobs() == 2
    # restart with a reachable endpoint: the same jobs complete
    model.extract_items = [
        {"content": "原告保存了与客服的聊天记录", "category": "证据", "scope": "case"}
    ]
    with FakeLLMServer(responder=model) as srv:
        online = LLMClient(srv.config(), mode_cache=JsonModeCache(), sleep=lambda s: None)
        with MemoryEngine.open(data, embedder=embedder, llm=online) as eng:
            assert eng.pending_jobs() == 2
            eng.retry_jobs_now()
            eng.run_pending_jobs()
            assert eng.pending_jobs() == 0
            assert eng.job_counts().failed == 0
            case_id = eng.list_cases()[0].id
            assert eng.get_note(stored.note.id).context  # upgraded by construction
            contents = {n.content for n in eng.list_notes(case_id)}
            assert "原告保存了与客服的聊天记录" in contents


def test_offline_engine_queues_nothing_it_cannot_run(engine):
    case = engine.create_case("c")
    engine.add_note("一条离线记录", case_id=case.id)
    assert engine.pending_jobs() == 0
    assert engine.ingest_turn("用户说了一件事", "助理回答", case_id=case.id) == []
    assert engine.pending_jobs() == 1  # the turn waits for an LLM; nothing is lost
    assert engine.run_pending_jobs().done == 0
