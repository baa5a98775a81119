"""The structured-output chain: json_schema → json_object → text, validation + one retry,
the remembered mode; plus the schema validator and JSON extraction."""

from __future__ import annotations

import json

import pytest
from fakes.llm_server import FakeLLMServer, Reply
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_app.core.errors import AuthenticationError, BadResponseError
from desktop_app.llm import (
    JsonModeCache,
    LLMClient,
    SchemaValidationError,
    TokenMeter,
    estimate_tokens,
    extract_json,
    schema_errors,
)

# The fake_llm / fake_deepseek fixtures (also registered by tests/conftest.py, if it lists them).
pytest_plugins = ["fakes.fixtures"]

SCHEMA = {
    "type": "object",
    "properties": {
        "keywords": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "category": {"type": "string", "enum": ["事实", "证据"]},
        "score": {"type": ["integer", "null"]},
    },
    "required": ["keywords", "category", "score"],
}
GOOD = {"keywords": ["笔记本电脑", "8999元"], "category": "事实", "score": 3}


def _client(srv: FakeLLMServer, cache: JsonModeCache | None = None, **kw) -> LLMClient:
    return LLMClient(
        srv.config(**kw),
        mode_cache=cache or JsonModeCache(),
        sleep=lambda s: None,
        meter=TokenMeter(),
    )


def _ask(client: LLMClient, **kw):
    return client.complete_json("提取关键词。", "张三购买了笔记本电脑", SCHEMA, "kw", **kw)


def test_json_schema_mode_first(fake_llm):
    fake_llm.push(Reply.json(GOOD))
    value, usage = _ask(_client(fake_llm))
    assert value == GOOD and usage.total_tokens > 0
    req = fake_llm.requests[0]
    assert req.response_format["type"] == "json_schema"
    assert req.response_format["json_schema"]["name"] == "kw"
    assert req.response_format["json_schema"]["schema"] == SCHEMA
    assert req.body["temperature"] == 0


def test_deepseek_refusal_falls_back_to_json_object_and_is_remembered(fake_deepseek):
    cache = JsonModeCache()
    client = _client(fake_deepseek, cache)
    fake_deepseek.push(Reply.json(GOOD))
    value, _ = _ask(client)
    assert value == GOOD
    first, second = fake_deepseek.requests
    assert first.response_format["type"] == "json_schema"  # refused with HTTP 400
    assert second.response_format == {"type": "json_object"}
    assert "JSON" in second.system and '"keywords"' in second.system  # schema in the prompt
    assert cache.get(fake_deepseek.base_url, "fake-chat") == "json_object"
    # The next call does not pay for the refusal again — not even from a new client.
    fake_deepseek.reset_counts()
    fake_deepseek.push(Reply.json(GOOD))
    assert _ask(_client(fake_deepseek, cache))[0] == GOOD
    assert [r.response_format for r in fake_deepseek.requests] == [{"type": "json_object"}]


def test_mode_is_remembered_per_model(fake_deepseek):
    cache = JsonModeCache()
    client = _client(fake_deepseek, cache)
    fake_deepseek.push(Reply.json(GOOD), Reply.json(GOOD))
    _ask(client, model="model-a")
    assert cache.get(fake_deepseek.base_url, "model-b") is None
    _ask(client, model="model-b")
    assert fake_deepseek.calls == 4  # each model paid for its own refusal once


def test_both_refused_falls_back_to_text_with_fenced_json():
    with FakeLLMServer(json_schema=False, json_object=False) as srv:
        cache = JsonModeCache()
        srv.push(
            Reply.text(
                "好的，结果如下：\n```json\n" + json.dumps(GOOD, ensure_ascii=False) + "\n```\n"
            )
        )
        assert _ask(_client(srv, cache))[0] == GOOD
        formats = [r.response_format for r in srv.requests]
        assert formats == [
            {"type": "json_schema", "json_schema": formats[0]["json_schema"]},
            {"type": "json_object"},
            None,
        ]
        assert "JSON" in srv.requests[2].system
        assert cache.get(srv.base_url, "fake-chat") == "text"
        srv.reset_counts()
        srv.push(Reply.text("<think>嗯</think>" + json.dumps(GOOD)))
        assert _ask(_client(srv, cache))[0] == GOOD
        assert srv.calls == 1


def test_hint_skips_json_schema(fake_deepseek):
    fake_deepseek.push(Reply.json(GOOD))
    _ask(_client(fake_deepseek, json_mode_hint="json_object"))
    assert fake_deepseek.calls == 1


def test_cached_mode_is_downgraded_again_if_refused_later(fake_llm):
    cache = JsonModeCache()
    fake_llm.push(Reply.json(GOOD))
    _ask(_client(fake_llm, cache))
    assert cache.get(fake_llm.base_url, "fake-chat") == "json_schema"
    fake_llm.json_schema = False  # the server behind the URL changed
    fake_llm.push(Reply.json(GOOD))
    assert _ask(_client(fake_llm, cache))[0] == GOOD
    assert cache.get(fake_llm.base_url, "fake-chat") == "json_object"


def test_invalid_answer_is_retried_once_with_the_error(fake_llm):
    bad = {"keywords": [], "category": "闲聊", "score": "high"}
    fake_llm.push(Reply.json(bad), Reply.json(GOOD))
    client = _client(fake_llm)
    value, usage = _ask(client, purpose="construct")
    assert value == GOOD
    retry = fake_llm.requests[1]
    assert retry.messages[-2]["role"] == "assistant"
    assert json.loads(retry.messages[-2]["content"]) == bad
    feedback = retry.messages[-1]["content"]
    assert "$.keywords" in feedback and "闲聊" in feedback and "$.score" in feedback
    assert client.meter.get("construct").calls == 2
    assert usage.total_tokens == fake_llm.stats()["total_tokens"]


def test_not_json_is_retried_then_bad_response_with_reason(fake_llm):
    fake_llm.push(Reply.text("抱歉，我无法回答。"), Reply.text("还是不行"))
    with pytest.raises(BadResponseError) as info:
        _ask(_client(fake_llm))
    assert "no JSON" in str(info.value)
    assert fake_llm.calls == 2


def test_schema_mismatch_twice_raises_with_the_reason(fake_llm):
    fake_llm.push(Reply.json({"keywords": ["a"]}), Reply.json({"keywords": ["a"]}))
    with pytest.raises(BadResponseError) as info:
        _ask(_client(fake_llm))
    assert "missing required property 'category'" in str(info.value)


def test_a_json_array_is_not_an_object(fake_llm):
    fake_llm.push(Reply.json([GOOD]), Reply.json(GOOD))
    assert _ask(_client(fake_llm))[0] == GOOD


def test_check_hook_failure_is_retried(fake_llm):
    def check(obj):
        if obj["score"] != 3:
            raise ValueError("score must be 3")

    fake_llm.push(Reply.json({**GOOD, "score": 9}), Reply.json(GOOD))
    assert _ask(_client(fake_llm), check=check)[0] == GOOD
    assert "score must be 3" in fake_llm.requests[1].messages[-1]["content"]


def test_auth_error_inside_the_chain_is_not_a_refusal(fake_llm):
    fake_llm.push(Reply.fail(401, "bad key"))
    with pytest.raises(AuthenticationError):
        _ask(_client(fake_llm))
    assert fake_llm.calls == 1


def test_context_length_400_is_not_taken_for_a_refusal(fake_llm):
    fake_llm.push(Reply.fail(400, "This model's maximum context length is 8192 tokens"))
    with pytest.raises(BadResponseError):
        _ask(_client(fake_llm))
    assert fake_llm.calls == 1


# -- validator and extraction ----------------------------------------------------------------


def test_validator_subset():
    assert schema_errors(GOOD, SCHEMA) == []
    assert schema_errors({**GOOD, "score": None}, SCHEMA) == []
    assert schema_errors({**GOOD, "score": True}, SCHEMA)  # bool is not an integer
    assert schema_errors({**GOOD, "score": 2.0}, SCHEMA) == []
    assert schema_errors({**GOOD, "extra": 1}, SCHEMA) == []  # extra keys tolerated
    errs = schema_errors({"keywords": [1], "category": "x"}, SCHEMA)
    assert any("$.keywords[0]" in e for e in errs)
    assert any("not one of" in e for e in errs)
    assert any("'score'" in e for e in errs)
    assert schema_errors(1.5, {"type": "number", "minimum": 2}) == ["$: 1.5 is below the minimum 2"]
    assert schema_errors(True, {"type": "boolean"}) == []
    assert schema_errors("", {"type": "string", "minLength": 1})
    assert schema_errors([1, 2, 3], {"type": "array", "maxItems": 2})
    with pytest.raises(ValueError):
        schema_errors(1, {"type": "decimal"})
    assert isinstance(SchemaValidationError(["a"]), ValueError)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        '  \n{"a": 1}\n',
        '```json\n{"a": 1}\n```',
        '```\n{"a": 1}\n```',
        '结果：{"a": 1}。以上。',
        '<think>{"a": 2} is wrong</think>{"a": 1}',
        'Here: {"a": 1} and {"b": 2}',
    ],
)
def test_extract_json(text):
    assert extract_json(text) == {"a": 1}


def test_extract_json_braces_inside_strings():
    assert extract_json('x {"a": "}{", "b": "\\"}"} y') == {"a": "}{", "b": '"}'}


@pytest.mark.parametrize("text", ["", "   ", "no json here", '{"a": 1', "<think>{}</think>"])
def test_extract_json_failures(text):
    with pytest.raises(ValueError):
        extract_json(text)


_JSON_LEAF = st.none() | st.booleans() | st.integers() | st.text(max_size=20)
_JSON = st.recursive(
    _JSON_LEAF,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(
    obj=st.dictionaries(st.text(max_size=8), _JSON, max_size=5),
    prefix=st.text(alphabet=st.characters(blacklist_characters="{}[]`<"), max_size=30),
    suffix=st.text(alphabet=st.characters(blacklist_characters="{}[]`<"), max_size=30),
    fenced=st.booleans(),
)
def test_extract_json_finds_any_object_in_prose(obj, prefix, suffix, fenced):
    body = json.dumps(obj, ensure_ascii=False)
    if fenced:
        body = f"\n```json\n{body}\n```\n"
    assert extract_json(prefix + body + suffix) == obj


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=60))
def test_estimate_tokens_is_bounded(text):
    n = estimate_tokens(text)
    assert 0 <= n <= len(text)
    assert (n == 0) == (text == "")


def test_a_quoted_answer_is_not_taken_for_the_json_it_quotes():
    # Hypothesis found it: '"{}"' is valid JSON (a string), and was returned as the string
    # "{}" instead of the object the model meant; a structured answer is an object or a list
    assert extract_json('"{}"') == {}
    assert extract_json('"见下" {"a": 1}') == {"a": 1}
    with pytest.raises(ValueError):  # InvalidAnswerError, a ValueError
        extract_json('"just a sentence"')
