"""Truncated and pathological answers (issue 13, items 5 and 6).

``finish_reason: "length"`` means the token budget cut the answer: a JSON step retries once
with a larger budget and otherwise fails with its own error (not "expected a JSON object");
a cut-off chat reply carries a marker. A deeply nested JSON answer is an unusable answer like
any other, never a raw ``RecursionError``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from fakes.llm_server import FakeLLMServer, Reply
from fakes.scripted_model import ScriptedModel

from desktop_app.core.errors import BadResponseError, TruncatedResponseError
from desktop_app.llm import JsonModeCache, LLMClient, TokenMeter
from desktop_app.memory.agentic import construct_note

pytest_plugins = ["fakes.fixtures"]

SCHEMA = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": {"type": "string"}}},
    "required": ["items"],
}
GOOD = {"items": [f"第{i}项事实：原告于2024年3月{i}日提交证据材料" for i in range(1, 30)]}
T = datetime(2024, 3, 16, 10, 30, tzinfo=timezone(timedelta(hours=8)))


def _client(srv: FakeLLMServer) -> LLMClient:
    return LLMClient(
        srv.config(), mode_cache=JsonModeCache(), meter=TokenMeter(), sleep=lambda s: 0
    )


def test_truncated_json_is_retried_once_with_a_larger_budget(fake_llm):
    whole = json.dumps(GOOD, ensure_ascii=False)
    fake_llm.push(Reply.truncated(whole), Reply.json(GOOD))
    value, _ = _client(fake_llm).complete_json("s", "u", SCHEMA, "extract", max_tokens=256)
    assert value == GOOD
    first, second = fake_llm.chat_requests
    assert first.body["max_tokens"] == 256
    assert second.body["max_tokens"] > 256
    # the retry is the same question again, not "your answer was invalid" feedback
    assert second.messages == first.messages


def test_truncated_twice_is_its_own_error(fake_llm):
    whole = json.dumps(GOOD, ensure_ascii=False)
    fake_llm.push(Reply.truncated(whole), Reply.truncated(whole))
    with pytest.raises(TruncatedResponseError) as info:
        _client(fake_llm).complete_json("s", "u", SCHEMA, "extract")
    assert isinstance(info.value, BadResponseError)  # the job queue retries it later
    assert "expected a JSON object" not in str(info.value) and "no JSON" not in str(info.value)
    assert "截断" in info.value.user_message and "cut off" in info.value.user_message
    assert fake_llm.calls == 2


def test_without_a_budget_the_retry_sets_one(fake_llm):
    whole = json.dumps(GOOD, ensure_ascii=False)
    fake_llm.push(Reply.truncated(whole), Reply.json(GOOD))
    _client(fake_llm).complete_json("s", "u", SCHEMA, "extract")
    first, second = fake_llm.chat_requests
    assert "max_tokens" not in first.body and second.body["max_tokens"] >= 4096


def test_a_model_whose_answers_need_a_bigger_budget_still_builds_notes():
    with FakeLLMServer(responder=ScriptedModel(quirks={"long_answers"})) as srv:
        c = construct_note(_client(srv), "被告于2024年4月1日书面拒绝退货", T)
        assert c.keywords and srv.calls == 2
        assert srv.chat_requests[1].body["max_tokens"] >= 4096


def test_a_cut_off_chat_reply_is_marked(fake_llm):
    fake_llm.push(Reply.text("根据《民法典》第五百七十七条，违约方应当", finish_reason="length"))
    stream = _client(fake_llm).stream_chat([{"role": "user", "content": "违约责任？"}])
    text = "".join(stream)
    assert text == "根据《民法典》第五百七十七条，违约方应当"
    assert stream.truncated
    result = stream.result()
    assert result.truncated and result.status == "truncated" and not result.stopped


def test_a_complete_chat_reply_is_not_marked(fake_llm):
    fake_llm.push(Reply.text("可以。"))
    stream = _client(fake_llm).stream_chat([{"role": "user", "content": "?"}])
    assert "".join(stream) == "可以。"
    assert not stream.truncated and stream.result().status == "complete"


def test_plain_chat_result_is_marked_too(fake_llm):
    fake_llm.push(Reply.text("违约方应当", finish_reason="length"))
    assert _client(fake_llm).chat([{"role": "user", "content": "?"}]).truncated


def test_deeply_nested_json_is_a_bad_response_not_a_recursion_error(fake_llm):
    deep = '{"items": ' + "[" * 100_000 + "]" * 100_000 + "}"
    fake_llm.push(Reply.text(deep), Reply.text(deep))
    with pytest.raises(BadResponseError) as info:
        _client(fake_llm).complete_json("s", "u", SCHEMA, "extract")
    assert "nested" in str(info.value)
    assert fake_llm.calls == 2


def test_deeply_nested_then_good_is_retried(fake_llm):
    deep = "[" * 50_000 + "]" * 50_000
    fake_llm.push(Reply.text(deep), Reply.json({"items": []}))
    assert _client(fake_llm).complete_json("s", "u", SCHEMA, "extract")[0] == {"items": []}
