"""The conversation controller without Qt: titles, retry, the memory switch, and learning as
a queued job (the real engine; a scripted model)."""

from __future__ import annotations

import pytest
from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.chat.conversation import ConversationController, title_from
from desktop_app.llm.client import LLMClient


class ListLLM:
    """Streams the next scripted reply; records what it was sent."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.sent: list[list[dict]] = []

    def stream_chat(self, messages, cancel=None):
        self.sent.append(list(messages))
        yield self.replies.pop(0)


@pytest.fixture
def case(engine):
    case = engine.create_case("张三诉星辰科技")
    engine.add_note("委托人张三的月工资为25000元", case_id=case.id, category="事实")
    return case


def _controller(engine, llm, language="zh_CN"):
    return ConversationController(lambda: engine, lambda: llm, lambda: language)


def _first_turn(ctl, engine, case, text, memory=True):
    ctl.set_case(case.id)
    ctl.memory_enabled = memory
    conv = ctl.create_conversation(case.id, text, memory)
    ctl.open(conv)
    plan = ctl.plan_turn(text, retry=False)
    return plan, ctl.run_turn(plan)


def test_the_first_question_names_the_conversation_and_retry_does_not(engine, case):
    llm = ListLLM("第一版回答", "第二版回答")
    ctl = _controller(engine, llm)
    ctl.set_case(case.id)
    conv = engine.create_conversation(case.id)  # untitled, as the sidebar's "New chat" makes it
    ctl.open(conv)
    question = "张三的月工资是多少？请结合劳动合同法第八十二条说明二倍工资怎么算"
    plan = ctl.plan_turn(question, retry=False)
    assert plan.rename_to == title_from(question) and len(plan.rename_to) == 29  # 28 + "…"
    ctl.run_turn(plan)
    assert engine.get_conversation(conv.id).title == title_from(question)

    ctl.open(engine.get_conversation(conv.id))
    retry = ctl.plan_turn("", retry=True)
    assert retry.text == question and retry.rename_to is None
    outcome = ctl.run_turn(retry)
    assert outcome.reply == "第二版回答"
    stored = engine.list_messages(conv.id)
    assert [(m.role, m.content) for m in stored] == [("user", question), ("assistant", "第二版回答")]
    assert [m.content for m in ctl.shown_messages(stored)] == [question, "第二版回答"]


def test_retry_after_reopening_resends_the_last_question(engine, case):
    ctl = _controller(engine, ListLLM("答一", "答二"))
    _plan, _out = _first_turn(ctl, engine, case, "问题一")
    ctl.open(None)
    ctl.open(engine.list_conversations(case.id)[0])
    assert ctl.last_user_text == ""
    ctl.shown_messages(engine.list_messages(ctl.conversation.id))
    assert ctl.plan_turn("", retry=True).text == "问题一"
    assert ctl.plan_turn("   ", retry=False) is None  # nothing to send


def test_learning_is_a_queued_job_not_a_call_that_waits(engine, case):
    with FakeLLMServer() as srv:
        client = LLMClient(srv.config(), sleep=lambda s: None)
        engine.set_llm(client)
        ctl = _controller(engine, ListLLM("好的，已记录。"))
        _plan, outcome = _first_turn(ctl, engine, case, "张三要求公司支付加班费两万元")
        calls_before = len(srv.requests)
        jobs_before = engine.pending_jobs()

        key = ctl.queue_learning(outcome)

        assert key is not None
        assert engine.pending_jobs() == jobs_before + 1  # queued ...
        assert len(srv.requests) == calls_before  # ... and nothing asked the model yet
        ctl.expect_learning(key, "the reply widget")
        srv.push(
            Reply.json({"items": [{"content": "张三要求支付加班费两万元", "category": "诉求", "scope": "case"}]}),
            # the same job then decides the new note against the case's notes (one call)
            Reply.json({"decisions": [], "neighbour_updates": []}),
        )
        report = engine.run_pending_jobs(max_jobs=1)  # what the job runner does
        learned = ctl.learned(report)
        assert len(learned) == 1
        reply, notes = learned[0]
        assert reply == "the reply widget"
        assert [(n.content, n.case_id) for n in notes] == [("张三要求支付加班费两万元", case.id)]
        assert report.changes.touches_notes(case.id, include_global=False)
        assert ctl.learned(report) == []  # each reply hears once
        engine.set_llm(None)
        client.close()


def test_nothing_is_learned_with_memory_off_or_a_stopped_reply(engine, case):
    ctl = _controller(engine, ListLLM("保密回答"))
    _plan, outcome = _first_turn(ctl, engine, case, "这是保密谈话", memory=False)
    assert engine.get_conversation(ctl.conversation.id).memory_enabled is False
    before = engine.pending_jobs()
    assert ctl.queue_learning(outcome) is None
    assert engine.pending_jobs() == before


def test_the_memory_switch_and_the_stored_conversation(engine, case):
    ctl = _controller(engine, ListLLM())
    ctl.set_case(case.id)
    assert ctl.memory_switch_changes(False) is False  # nothing stored yet: no conversation
    conv = engine.create_conversation(case.id, "谈话")
    ctl.open(conv)
    assert ctl.memory_enabled is True
    assert ctl.memory_switch_changes(False) is True
    stored = ctl.store_memory_switch(conv.id, False)
    assert stored.memory_enabled is False
    assert ctl.open(stored) is False  # the same conversation: only refreshed
    assert ctl.set_case(None) is True and ctl.conversation is None


def test_the_memory_message_follows_the_ui_language(engine, case):
    for language, expected in (("zh_CN", "以下是与本案相关的长程记忆"), ("en", "Long-term memory")):
        llm = ListLLM("ok")
        ctl = _controller(engine, llm, language)
        _first_turn(ctl, engine, case, "张三的月工资是多少？")
        memory = llm.sent[0][1]
        assert memory["role"] == "system" and memory["content"].startswith(expected)
        assert "25000" in memory["content"]
