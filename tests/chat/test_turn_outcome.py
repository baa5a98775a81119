"""A chat turn as the reply really came (issue 13, issue 15 item 8), through the real client
against the scripted server: the answer without the model's thinking is what is stored and
learnt from; a stopped, cut-off or broken reply is kept and marked so; a broken connection is
told apart from an unusable answer."""

from __future__ import annotations

import threading

import pytest
from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.chat import ChatPipeline, describe_error
from desktop_app.chat.conversation import ConversationController
from desktop_app.core.errors import (
    ConnectionLostError,
    EndpointUnreachableError,
    ProxyConfigError,
    RateLimitedError,
    RequestRejectedError,
    TruncatedResponseError,
)
from desktop_app.llm.client import LLMClient

LAW = "根据《消费者权益保护法》第五十五条，经营者提供商品有欺诈行为的"


@pytest.fixture
def server():
    with FakeLLMServer() as srv:
        yield srv


@pytest.fixture
def client(server):
    c = LLMClient(server.config(), sleep=lambda s: None)
    yield c
    c.close()


@pytest.fixture
def conv(engine):
    case = engine.create_case("张三诉星辰科技")
    return case, engine.create_conversation(case.id, "t")


def _record_ingest(monkeypatch, engine) -> list[tuple]:
    calls: list[tuple] = []
    monkeypatch.setattr(engine, "ingest_turn", lambda *a, **k: calls.append((a, k)) or [])
    return calls


def test_thinking_before_a_lone_closing_tag_is_neither_stored_nor_learnt(
    engine, conv, server, client, monkeypatch
):
    case, c = conv
    # the chat template opened the block: only "</think>" comes, after the thinking
    server.push(
        Reply.text("", chunks=["好的，用户", "想知道时效。\n", "</think>\n\n", "诉讼时效为三年。"])
    )
    shown: list[str] = []
    pipe = ChatPipeline(engine, client)
    out = pipe.run_turn(c.id, case.id, "诉讼时效多久？", on_delta=shown.append)
    assert "用户想知道" in "".join(shown)  # it was shown as answer before the tag told otherwise
    assert out.reply == "诉讼时效为三年。"
    assert (
        out.reasoning == "好的，用户想知道时效。"
    )  # for the UI's collapsed block, this session only
    assert engine.list_messages(c.id)[-1].content == "诉讼时效为三年。"
    calls = _record_ingest(monkeypatch, engine)
    pipe.extract(out)
    ConversationController(lambda: engine, lambda: client, lambda: "zh_CN").queue_learning(out)
    assert len(calls) == 2
    assert all("用户想知道" not in str(call) and "诉讼时效为三年。" in str(call) for call in calls)


def test_reasoning_field_is_not_stored(engine, conv, server, client):
    case, c = conv
    server.push(Reply.text("可以主张三倍赔偿。", reasoning="先确认是否构成欺诈。"))
    out = ChatPipeline(engine, client).run_turn(c.id, case.id, "能主张三倍赔偿吗？")
    assert out.reply == "可以主张三倍赔偿。" and out.reasoning == "先确认是否构成欺诈。"
    assert out.status == "complete"
    stored = engine.list_messages(c.id)[-1]
    assert stored.content == "可以主张三倍赔偿。" and stored.status == "complete"


def test_a_stopped_reply_is_kept_marked_and_not_learnt(engine, conv, server, client, monkeypatch):
    case, c = conv
    server.push(Reply.text("甲" * 200, chunks=["甲" * 4] * 50, chunk_delay=0.05))
    cancel = threading.Event()
    out = ChatPipeline(engine, client).run_turn(
        c.id, case.id, "请详细说明", on_delta=lambda d: cancel.set(), cancel=cancel
    )
    assert out.status == "stopped" and out.cancelled and 0 < len(out.reply) < 200
    stored = engine.list_messages(c.id)[-1]
    assert (stored.content, stored.status) == (out.reply, "stopped")
    calls = _record_ingest(monkeypatch, engine)
    assert ChatPipeline(engine, client).extract(out) == [] and calls == []


def test_a_cut_off_reply_is_marked_and_the_mark_survives_a_restart(tmp_path, embedder, server):
    from desktop_app.memory import MemoryEngine

    engine = MemoryEngine.open(tmp_path / "data", embedder=embedder)
    case = engine.create_case("案")
    c = engine.create_conversation(case.id, "t")
    server.push(Reply.truncated("第一，公司未出具书面通知；第二，员工手册未经民主程序制定。"))
    client = LLMClient(server.config(), sleep=lambda s: None)
    out = ChatPipeline(engine, client).run_turn(c.id, case.id, "胜算如何？")
    client.close()
    assert out.status == "truncated" and out.truncated and not out.cancelled
    assert engine.list_messages(c.id)[-1].status == "truncated"
    engine.close()
    engine = MemoryEngine.open(tmp_path / "data", embedder=embedder)
    try:
        last = engine.list_messages(c.id)[-1]
        assert last.role == "assistant" and last.status == "truncated"
        assert last.content == out.reply
    finally:
        engine.close()


def test_a_connection_dropped_mid_stream_keeps_the_partial_answer(engine, conv, server, client):
    case, c = conv
    server.push(Reply.text(LAW, cut_after=3))
    out = ChatPipeline(engine, client).run_turn(c.id, case.id, "赔偿标准？")
    assert out.status == "interrupted" and out.reply == LAW[:12]
    assert isinstance(out.error, ConnectionLostError)
    stored = engine.list_messages(c.id)[-1]
    assert (stored.content, stored.status) == (LAW[:12], "interrupted")
    problem = describe_error(out.error)
    assert problem.kind == "connection_lost" and problem.actions == ("retry",)
    assert "连接" in problem.user_message and "无法理解" not in problem.user_message


def test_a_connection_dropped_before_any_text_is_an_error_and_the_question_stays(
    engine, conv, server, client
):
    case, c = conv
    server.push(Reply.text(LAW, cut_after=0))
    with pytest.raises(EndpointUnreachableError):
        ChatPipeline(engine, client).run_turn(c.id, case.id, "赔偿标准？")
    assert [m.role for m in engine.list_messages(c.id)] == ["user"]


def test_stop_before_the_request_sends_nothing(engine, conv, server, client):
    case, c = conv
    cancel = threading.Event()
    out = ChatPipeline(engine, client).run_turn(
        c.id, case.id, "问", on_prepared=lambda p: cancel.set(), cancel=cancel
    )
    assert out.status == "stopped" and out.reply == ""
    assert server.chat_requests == []
    stored = engine.list_messages(c.id)
    assert [(m.role, m.status) for m in stored] == [("user", "complete"), ("assistant", "stopped")]


def test_problems_keep_the_specific_cause_and_its_fix():
    proxy = describe_error(ProxyConfigError("x", user_message="代理地址没填。 / No proxy address."))
    assert proxy.kind == "proxy" and proxy.actions == ("settings",)
    assert proxy.user_message.startswith("代理地址没填")
    cut = describe_error(TruncatedResponseError("length"))
    assert cut.kind == "truncated" and cut.actions == ("retry",)
    rejected = describe_error(RequestRejectedError("HTTP 400"))
    assert rejected.kind == "rejected" and "settings" in rejected.actions
    # a message that names the very cause is marked so (the UI must not replace it)
    assert proxy.specific and not cut.specific
    quota = describe_error(
        RateLimitedError("429", user_message="模型服务额度已用完。 / Quota used up.")
    )
    assert quota.kind == "rate_limited" and quota.specific


def test_a_prompt_too_long_suggests_a_new_conversation(engine, conv, server, client):
    case, c = conv
    server.push(
        Reply.fail(
            400,
            "This model's maximum context length is 8192 tokens. However, your messages "
            "resulted in 9000 tokens. Please reduce the length of the messages.",
            code="context_length_exceeded",
        )
    )
    with pytest.raises(RequestRejectedError) as info:
        ChatPipeline(engine, client).run_turn(c.id, case.id, "很长的问题")
    problem = describe_error(info.value)
    assert problem.kind == "context_too_long" and problem.actions == ("new_chat",)
