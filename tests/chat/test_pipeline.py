"""The Qt-free chat pipeline against the real engine (and the scripted server for streaming)."""

from __future__ import annotations

import threading

import pytest
from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.chat import ChatPipeline, ProviderNotConfiguredError, describe_error
from desktop_app.chat.pipeline import collapse_retries
from desktop_app.core.errors import AuthenticationError, EndpointUnreachableError
from desktop_app.llm.client import LLMClient


class ListLLM:
    """Yields scripted deltas; records the messages it was sent."""

    def __init__(self, deltas: list[str]) -> None:
        self.deltas = deltas
        self.sent: list[list[dict]] = []

    def stream_chat(self, messages, cancel=None):
        self.sent.append(list(messages))
        for d in self.deltas:
            if cancel is not None and cancel.is_set():
                return
            yield d


@pytest.fixture
def case_and_conv(engine):
    case = engine.create_case("张三诉星辰科技")
    engine.add_note("委托人张三的月工资为25000元", case_id=case.id, category="事实")
    engine.add_note("仲裁开庭时间为2024年7月15日上午9:30", case_id=case.id, category="时间线")
    other = engine.create_case("另一案件")
    engine.add_note("另一案件的保密事实：月工资为9999元", case_id=other.id)
    conv = engine.create_conversation(case.id, "t")
    return case, conv


def test_memory_is_a_separate_system_message_and_the_turn_is_stored(engine, case_and_conv):
    case, conv = case_and_conv
    llm = ListLLM(["月工资", "是25000元。"])
    deltas: list[str] = []
    out = ChatPipeline(engine, llm).run_turn(conv.id, case.id, "张三的月工资是多少？", on_delta=deltas.append)
    assert out.reply == "月工资是25000元。" and deltas == ["月工资", "是25000元。"] and not out.cancelled
    sent = llm.sent[0]
    assert [m["role"] for m in sent[:2]] == ["system", "system"]
    assert "25000" in sent[1]["content"] and "9999" not in str(sent)  # never another case
    assert sent[-1] == {"role": "user", "content": "张三的月工资是多少？"}
    msgs = engine.list_messages(conv.id)
    assert [m.role for m in msgs] == ["user", "assistant"]
    assert set(msgs[1].injected_note_ids) == {n.id for n in out.prepared.injected}
    assert out.prepared.injected


def test_memory_off_reads_nothing_and_writes_nothing(engine, case_and_conv):
    case, conv = case_and_conv
    llm = ListLLM(["好的"])
    pipe = ChatPipeline(engine, llm)
    out = pipe.run_turn(conv.id, case.id, "张三的月工资是多少？", memory_enabled=False)
    assert [m["role"] for m in llm.sent[0]].count("system") == 1
    assert out.prepared.injected == []
    before = engine.pending_jobs()
    assert pipe.extract(out) == []
    assert engine.pending_jobs() == before


def test_history_and_retry(engine, case_and_conv):
    case, conv = case_and_conv
    pipe = ChatPipeline(engine, ListLLM(["第一次回答"]))
    pipe.run_turn(conv.id, case.id, "问题一")
    pipe.llm = ListLLM(["更好的回答"])
    out = pipe.run_turn(conv.id, case.id, "", retry=True)
    assert out.prepared.user_text == "问题一"
    sent = pipe.llm.sent[0]
    assert "第一次回答" not in str(sent)  # the retried reply is not sent back
    stored = engine.list_messages(conv.id)
    assert [(m.role, m.content) for m in stored] == [("user", "问题一"), ("assistant", "更好的回答")]
    assert collapse_retries(stored) == stored
    pipe.llm = ListLLM(["二"])
    pipe.run_turn(conv.id, case.id, "问题二")
    roles = [m["role"] for m in pipe.llm.sent[0] if m["role"] != "system"]
    assert roles == ["user", "assistant", "user"]


def test_stop_keeps_the_partial_reply(engine, case_and_conv):
    case, conv = case_and_conv
    cancel = threading.Event()

    def on_delta(d: str) -> None:
        cancel.set()  # the user pressed Stop after the first piece

    out = ChatPipeline(engine, ListLLM(["部分", "其余"])).run_turn(
        conv.id, case.id, "问", on_delta=on_delta, cancel=cancel
    )
    assert out.cancelled and out.reply == "部分"
    assert engine.list_messages(conv.id)[-1].content == "部分"


def test_no_provider_is_a_clear_error_and_the_question_is_kept(engine, case_and_conv):
    case, conv = case_and_conv
    with pytest.raises(ProviderNotConfiguredError):
        ChatPipeline(engine, None).run_turn(conv.id, case.id, "问")
    assert [m.role for m in engine.list_messages(conv.id)] == ["user"]


def test_problems_have_fix_actions():
    assert describe_error(ProviderNotConfiguredError()).actions == ("settings",)
    assert describe_error(AuthenticationError()).kind == "auth"
    assert "retry" in describe_error(EndpointUnreachableError()).actions
    assert describe_error(RuntimeError("x")).kind == "unexpected"


def test_streams_through_the_real_client(engine, case_and_conv):
    case, conv = case_and_conv
    with FakeLLMServer() as srv:
        srv.push(Reply.text("根据记忆，月工资为 **25000元**。"))
        client = LLMClient(srv.config())
        out = ChatPipeline(engine, client).run_turn(conv.id, case.id, "月工资？")
        client.close()
        assert out.reply == "根据记忆，月工资为 **25000元**。"
        req = srv.chat_requests[-1]
        assert req.stream and "25000" in req.system
