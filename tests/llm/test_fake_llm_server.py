"""The fake server itself: wire format, recording and counting (benchmarks rely on them)."""

from __future__ import annotations

import http.client
import json

from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.llm.tokens import estimate_messages_tokens, estimate_tokens

# The fake_llm / fake_deepseek fixtures (also registered by tests/conftest.py, if it lists them).
pytest_plugins = ["fakes.fixtures"]


def _post(srv: FakeLLMServer, body: dict, headers: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    conn.request(
        "POST",
        "/v1/chat/completions",
        json.dumps(body),
        {"Content-Type": "application/json", **(headers or {})},
    )
    resp = conn.getresponse()
    return resp, resp.read()


def test_sse_format_with_usage_chunk(fake_llm):
    fake_llm.push(Reply.text("abcdef", chunks=["abc", "def"]))
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": "你好"}],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    resp, raw = _post(fake_llm, body)
    assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
    events = [line[6:] for line in raw.decode().split("\n\n") if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert [c["choices"][0]["delta"].get("content") for c in chunks[1:3]] == ["abc", "def"]
    assert chunks[3]["choices"][0]["finish_reason"] == "stop"
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["completion_tokens"] == 2
    assert all(c["usage"] is None for c in chunks[:-1])


def test_records_and_counts(fake_llm):
    messages = [{"role": "system", "content": "只输出JSON"}, {"role": "user", "content": "张三"}]
    fake_llm.push(Reply.text("好的"))
    resp, raw = _post(fake_llm, {"model": "m", "messages": messages}, {"Authorization": "Bearer k"})
    assert resp.status == 200
    data = json.loads(raw)
    assert data["choices"][0]["message"]["content"] == "好的"
    assert data["usage"]["prompt_tokens"] == estimate_messages_tokens(messages)
    rec = fake_llm.requests[-1]
    assert (
        rec.authorization == "Bearer k" and rec.messages == messages and rec.system == "只输出JSON"
    )
    assert fake_llm.stats() == {
        "calls": 1,
        "prompt_tokens": estimate_messages_tokens(messages),
        "completion_tokens": estimate_tokens("好的"),
        "total_tokens": estimate_messages_tokens(messages) + estimate_tokens("好的"),
    }


def test_responder_and_default():
    def responder(body):
        return {"echo": body["messages"][-1]["content"]} if body["model"] == "echo" else None

    with FakeLLMServer(responder=responder) as srv:
        _, raw = _post(srv, {"model": "echo", "messages": [{"role": "user", "content": "hi"}]})
        assert json.loads(json.loads(raw)["choices"][0]["message"]["content"]) == {"echo": "hi"}
        resp, raw = _post(srv, {"model": "other", "messages": []})
        assert resp.status == 500 and b"no scripted reply" in raw
        srv.default = Reply.text("fallback")
        _, raw = _post(srv, {"model": "other", "messages": []})
        assert json.loads(raw)["choices"][0]["message"]["content"] == "fallback"


def test_refusal_does_not_consume_the_queue():
    with FakeLLMServer(json_schema=False) as srv:
        srv.push(Reply.text("queued"))
        resp, raw = _post(
            srv, {"model": "m", "messages": [], "response_format": {"type": "json_schema"}}
        )
        assert resp.status == 400 and b"unavailable" in raw
        assert srv.pending == 1


def test_retry_after_header(fake_llm):
    fake_llm.push(Reply.fail(429, "slow", retry_after=7))
    resp, _ = _post(fake_llm, {"model": "m", "messages": []})
    assert resp.status == 429 and resp.getheader("Retry-After") == "7"


def test_reasoning_field_in_a_plain_answer(fake_llm):
    fake_llm.push(Reply.text("答案", reasoning="思考"))
    _, raw = _post(fake_llm, {"model": "m", "messages": []})
    message = json.loads(raw)["choices"][0]["message"]
    assert message == {"role": "assistant", "content": "答案", "reasoning_content": "思考"}


def test_needs_tokens_cuts_the_answer_unless_the_budget_is_big_enough(fake_llm):
    fake_llm.push(
        Reply.text("abcdefgh", needs_tokens=100), Reply.text("abcdefgh", needs_tokens=100)
    )
    _, raw = _post(fake_llm, {"model": "m", "messages": [], "max_tokens": 10})
    choice = json.loads(raw)["choices"][0]
    assert choice["message"]["content"] == "abcd" and choice["finish_reason"] == "length"
    _, raw = _post(fake_llm, {"model": "m", "messages": [], "max_completion_tokens": 100})
    choice = json.loads(raw)["choices"][0]
    assert choice["message"]["content"] == "abcdefgh" and choice["finish_reason"] == "stop"


def test_provider_refusal_bodies():
    with FakeLLMServer(fixed_temperature=True, rejects_max_tokens=True, max_tokens_limit=8) as srv:
        resp, raw = _post(srv, {"model": "m", "messages": [], "temperature": 0})
        assert resp.status == 400 and json.loads(raw)["error"]["param"] == "temperature"
        resp, raw = _post(srv, {"model": "m", "messages": [], "max_tokens": 5})
        assert json.loads(raw)["error"]["code"] == "unsupported_parameter"
        srv.rejects_max_tokens = False
        resp, raw = _post(srv, {"model": "m", "messages": [], "max_tokens": 9})
        assert b"valid range of max_tokens is [1, 8]" in raw
        assert srv.pending == 0


def test_a_client_that_goes_away_is_counted(fake_llm):
    fake_llm.push(Reply.text("late", delay=5))
    conn = http.client.HTTPConnection("127.0.0.1", fake_llm.port, timeout=5)
    conn.request("POST", "/v1/chat/completions", json.dumps({"model": "m", "messages": []}))
    conn.close()
    assert fake_llm.disconnected.wait(3) and fake_llm.disconnects == 1


def test_a_dropped_connection_has_no_answer(fake_llm):
    fake_llm.push(Reply.dropped())
    conn = http.client.HTTPConnection("127.0.0.1", fake_llm.port, timeout=5)
    conn.request("POST", "/v1/chat/completions", json.dumps({"model": "m", "messages": []}))
    try:
        conn.getresponse()
    except (http.client.RemoteDisconnected, ConnectionError):
        pass
    else:
        raise AssertionError("an answer came")


def test_the_careless_model_plays_its_quirks():
    import pytest
    from fakes.scripted_model import ScriptedModel

    body = {
        "messages": [
            {"role": "system", "content": "memory_decisions"},
            {
                "role": "user",
                "content": "已有记忆：\n[1] (事件 2024-03-01) 当事人同意调解\n\n新记忆：\n"
                "[新1] (事件 2024-03-05) 当事人不同意调解\n    相关：1",
            },
        ]
    }
    model = ScriptedModel(quirks={"noop", "string_numbers", "fenced", "think_field"})
    model.decide_rules.append(lambda note, shown: {"action": "SUPERSEDE", "target": 1})
    reply = model(body)
    assert reply.content.startswith("好的") and "```json" in reply.content
    assert '"action": "NOOP"' in reply.content and reply.reasoning
    model = ScriptedModel(quirks={"modify", "string_numbers"})
    model.decide_rules.append(lambda note, shown: {"action": "UPDATE", "target": 1})
    answer = json.loads(model(body).content)["decisions"][0]
    assert answer["action"] == "MODIFY" and answer["target"] == "1"
    with pytest.raises(ValueError):
        ScriptedModel(quirks={"telepathy"})
