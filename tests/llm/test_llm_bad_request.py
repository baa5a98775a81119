"""HTTP 400 causes told apart from the error body (issue 13, item 3).

OpenAI o-series and gpt-5 refuse ``temperature=0`` with HTTP 400 ("Unsupported value:
'temperature' does not support 0 with this model. Only the default (1) value is supported.");
DeepSeek refuses ``json_schema`` with HTTP 400 too. Only the second means "try the next
structured-output mode"; the first means "drop the parameter and remember that for this
endpoint and model"; any other 400 is an error at once (no walk through the modes).
"""

from __future__ import annotations

import pytest
from fakes.llm_server import (
    DEEPSEEK_REFUSAL,
    LMSTUDIO_JSON_OBJECT_REFUSAL,
    OPENAI_MAX_TOKENS_REFUSAL,
    FakeLLMServer,
    Reply,
    deepseek_max_tokens_refusal,
    openai_temperature_refusal,
)

from desktop_app.core.errors import BadResponseError, RequestRejectedError
from desktop_app.llm import JsonModeCache, LLMClient
from desktop_app.llm.failures import classify_bad_request

pytest_plugins = ["fakes.fixtures"]

SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}
MSG = [{"role": "user", "content": "hi"}]


def _client(srv: FakeLLMServer, cache: JsonModeCache | None = None, **kw) -> LLMClient:
    return LLMClient(srv.config(**kw), mode_cache=cache or JsonModeCache(), sleep=lambda s: 0)


def _ask(client: LLMClient, **kw):
    return client.complete_json("你是助手。", "回答", SCHEMA, "probe", **kw)


def test_gpt5_like_endpoint_memory_step_goes_from_3_requests_to_1():
    with FakeLLMServer(fixed_temperature=True) as srv:
        cache = JsonModeCache()
        srv.push(Reply.json({"answer": "一"}))
        assert _ask(_client(srv, cache))[0] == {"answer": "一"}
        first = srv.chat_requests
        # learning costs one refused request, in the same (strongest) mode
        assert len(first) == 2
        assert [r.response_format["type"] for r in first] == ["json_schema", "json_schema"]
        assert first[0].body["temperature"] == 0 and "temperature" not in first[1].body
        # after the first learn: one request per memory step, still json_schema
        srv.reset_counts()
        srv.push(Reply.json({"answer": "二"}))
        assert _ask(_client(srv, cache))[0] == {"answer": "二"}
        assert srv.calls == 1
        assert "temperature" not in srv.chat_requests[0].body
        assert srv.chat_requests[0].response_format["type"] == "json_schema"
        assert cache.get(srv.base_url, "fake-chat") == "json_schema"


def test_temperature_is_dropped_for_chat_and_stream_too():
    with FakeLLMServer(fixed_temperature=True) as srv:
        cache = JsonModeCache()
        client = _client(srv, cache)
        srv.push(Reply.text("好"), Reply.text("流"))
        assert client.chat(MSG, temperature=0.2).text == "好"
        assert "".join(client.stream_chat(MSG, temperature=0.2)) == "流"
        bodies = [r.body for r in srv.chat_requests]
        assert [("temperature" in b) for b in bodies] == [True, False, False]


def test_other_400_is_an_error_at_once_not_a_walk_through_the_modes(fake_llm):
    fake_llm.push(
        Reply.fail(
            400, "Invalid 'messages[1].content': string too long.", code="string_above_max_length"
        )
    )
    with pytest.raises(RequestRejectedError) as info:
        _ask(_client(fake_llm))
    assert isinstance(info.value, BadResponseError)
    assert fake_llm.calls == 1
    assert "拒绝" in info.value.user_message and "rejected" in info.value.user_message


def test_max_tokens_is_renamed_for_o_series():
    with FakeLLMServer(rejects_max_tokens=True) as srv:
        cache = JsonModeCache()
        srv.push(Reply.json({"answer": "a"}), Reply.json({"answer": "b"}))
        assert _ask(_client(srv, cache), max_tokens=500)[0] == {"answer": "a"}
        assert [sorted(k for k in r.body if "tokens" in k) for r in srv.chat_requests] == [
            ["max_tokens"],
            ["max_completion_tokens"],
        ]
        assert srv.chat_requests[1].body["max_completion_tokens"] == 500
        srv.reset_counts()
        _ask(_client(srv, cache), max_tokens=500)
        assert srv.calls == 1 and "max_completion_tokens" in srv.chat_requests[0].body


def test_deepseek_output_limit_is_learnt_and_respected():
    with FakeLLMServer(max_tokens_limit=8192) as srv:
        cache = JsonModeCache()
        srv.push(Reply.json({"answer": "a"}), Reply.json({"answer": "b"}))
        _ask(_client(srv, cache), max_tokens=20000)
        assert [r.body["max_tokens"] for r in srv.chat_requests] == [20000, 8192]
        srv.reset_counts()
        _ask(_client(srv, cache), max_tokens=20000)
        assert [r.body["max_tokens"] for r in srv.chat_requests] == [8192]


@pytest.mark.parametrize(
    ("body", "kind", "param"),
    [
        (DEEPSEEK_REFUSAL, "format", None),
        (LMSTUDIO_JSON_OBJECT_REFUSAL, "format", None),
        (
            "Failed to deserialize the JSON body into the target type: response_format: "
            "response_format.type `json_schema` is unavailable now at line 1 column 1193",
            "format",
            None,
        ),
        (
            {
                "error": {
                    "message": "Invalid parameter: 'response_format' of type 'json_schema' is "
                    "not supported with this model.",
                    "type": "invalid_request_error",
                    "param": "response_format",
                    "code": None,
                }
            },
            "format",
            None,
        ),
        (openai_temperature_refusal(0), "parameter", "temperature"),
        (OPENAI_MAX_TOKENS_REFUSAL, "parameter", "max_tokens"),
        (deepseek_max_tokens_refusal(8192), "parameter", "max_tokens"),
        (
            {"error": {"message": "Unrecognized request argument supplied: stream_options"}},
            "parameter",
            "stream_options",
        ),
        (
            {
                "error": {
                    "message": "This model's maximum context length is 65536 tokens. However, "
                    "you requested 70000 tokens (66000 in the messages, 4000 in the completion).",
                    "type": "invalid_request_error",
                    "param": None,
                    "code": "invalid_request_error",
                }
            },
            "context",
            None,
        ),
        ({"error": {"message": "Invalid 'messages[1].content': string too long."}}, "other", None),
    ],
    ids=[
        "deepseek-format",
        "lmstudio-json-object",
        "deepseek-422-text",
        "openai-old-model-format",
        "openai-temperature",
        "openai-max-tokens",
        "deepseek-max-tokens-range",
        "stream-options",
        "context-length",
        "other",
    ],
)
def test_classify_bad_request(body, kind, param):
    sent = {"model", "messages", "temperature", "max_tokens", "response_format", "stream_options"}
    cause = classify_bad_request(400, body, sent)
    assert cause.kind == kind
    assert cause.param == param


def test_classify_reads_the_limit_and_the_new_name():
    sent = {"max_tokens"}
    assert classify_bad_request(400, deepseek_max_tokens_refusal(8192), sent).limit == 8192
    assert (
        classify_bad_request(400, OPENAI_MAX_TOKENS_REFUSAL, sent).rename == "max_completion_tokens"
    )


def test_a_parameter_we_did_not_send_is_not_dropped():
    cause = classify_bad_request(400, openai_temperature_refusal(0), {"model", "messages"})
    assert cause.kind == "other"
