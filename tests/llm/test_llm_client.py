"""LLMClient against the scripted server through the real openai client: chat, streaming,
errors, retries, token accounting, models."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.core.errors import (
    AuthenticationError,
    BadResponseError,
    EndpointUnreachableError,
    LLMError,
    ModelNotFoundError,
    RateLimitedError,
)
from desktop_app.llm import (
    JsonModeCache,
    LLMClient,
    LLMConfig,
    TokenMeter,
    estimate_messages_tokens,
    estimate_tokens,
)

# The fake_llm / fake_deepseek fixtures (also registered by tests/conftest.py, if it lists them).
pytest_plugins = ["fakes.fixtures"]

MSG = [{"role": "user", "content": "你好，请介绍一下你自己"}]


class Sleeps(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def make(srv: FakeLLMServer, **kw) -> tuple[LLMClient, Sleeps]:
    sleeps = Sleeps()
    cfg = {k: kw.pop(k) for k in list(kw) if k in LLMConfig.__dataclass_fields__}
    client = LLMClient(srv.config(**cfg), sleep=sleeps, mode_cache=JsonModeCache(), **kw)
    return client, sleeps


def test_chat_returns_text_and_reported_usage(fake_llm):
    client, _ = make(fake_llm)
    fake_llm.push(Reply.text("我是律记。"))
    result = client.chat(MSG)
    assert result.text == "我是律记。"
    assert result.finish_reason == "stop"
    assert not result.usage.estimated
    assert result.usage.completion_tokens == estimate_tokens("我是律记。")
    req = fake_llm.requests[-1]
    assert req.model == "fake-chat" and req.messages == MSG
    assert req.authorization == "Bearer sk-test"


def test_usage_is_estimated_when_the_endpoint_sends_none(fake_llm):
    meter = TokenMeter()
    client, _ = make(fake_llm, meter=meter)
    fake_llm.push(Reply.text("好的，以后都用Markdown。", usage=False))
    result = client.chat(MSG, purpose="chat")
    assert result.usage.estimated
    assert result.usage.prompt_tokens == estimate_messages_tokens(MSG)
    assert result.usage.completion_tokens == estimate_tokens("好的，以后都用Markdown。")
    assert meter.get("chat").estimated_calls == 1


def test_estimate_tokens_cjk_one_each_other_four_chars():
    assert estimate_tokens("") == 0
    assert estimate_tokens("笔记本电脑") == 5
    assert estimate_tokens("abcdefgh") == 2
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("原告张三 paid 8999") == 4 + 3  # 4 CJK + " paid 8999" (10 chars)


def test_meter_totals_by_purpose(fake_llm):
    meter = TokenMeter()
    client, _ = make(fake_llm, meter=meter)
    fake_llm.push(Reply.text("a"), Reply.text("b"), Reply.json({"x": 1}))
    client.chat(MSG)
    client.chat(MSG)
    client.complete_json("s", "u", {"type": "object"}, "t", purpose="construct")
    totals = meter.totals()
    assert totals["chat"].calls == 2 and totals["construct"].calls == 1
    assert meter.calls == 3
    # The fake server counts prompts the same way the meter estimates them.
    assert meter.total_tokens == fake_llm.stats()["total_tokens"]


def test_chat_model_and_memory_model_are_distinct(fake_llm):
    client, _ = make(fake_llm, chat_model="big", memory_model="small")
    fake_llm.push(Reply.text("x"), Reply.json({}))
    client.chat(MSG)
    client.complete_json("s", "u", {"type": "object"}, "t")
    assert [r.model for r in fake_llm.chat_requests] == ["big", "small"]


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (
            Reply.fail(401, "Incorrect API key provided", code="invalid_api_key"),
            AuthenticationError,
        ),
        (Reply.fail(403, "forbidden", code="permission_denied"), AuthenticationError),
        (Reply.model_not_found("gpt-9"), ModelNotFoundError),
        (Reply.fail(404, "no route"), EndpointUnreachableError),
        (Reply.fail(400, "bad request: messages too long for context length"), BadResponseError),
        (Reply.malformed(), BadResponseError),
        (Reply.text("x", raw='{"object": "chat.completion", "choices": []}'), BadResponseError),
    ],
    ids=["401", "403", "404-model", "404-path", "400", "malformed", "no-choices"],
)
def test_status_codes_map_to_the_error_tree(fake_llm, reply, error):
    client, sleeps = make(fake_llm)
    fake_llm.push(reply)
    with pytest.raises(error) as info:
        client.chat(MSG)
    assert info.value.user_message  # something a lawyer can read
    assert fake_llm.calls == 1 and sleeps == []  # not retried


def test_wrong_key_is_rejected_by_a_keyed_server():
    with FakeLLMServer(api_key="sk-right") as srv:
        client, _ = make(srv, api_key="sk-wrong")
        with pytest.raises(AuthenticationError):
            client.chat(MSG)
        ok, _ = make(srv, api_key="sk-right")
        srv.push(Reply.text("hi"))
        assert ok.chat(MSG).text == "hi"


def test_unknown_model_is_model_not_found():
    with FakeLLMServer(known_models={"deepseek-chat"}) as srv:
        client, _ = make(srv, chat_model="deepseek-chta")
        with pytest.raises(ModelNotFoundError):
            client.chat(MSG)


def test_429_honours_retry_after_with_injected_sleep(fake_llm):
    client, sleeps = make(fake_llm, max_retries=2)
    fake_llm.push(Reply.fail(429, "slow down", code="rate_limit_exceeded", retry_after=3))
    fake_llm.push(Reply.text("ok now"))
    started = time.monotonic()
    assert client.chat(MSG).text == "ok now"
    assert sleeps == [3.0]
    assert time.monotonic() - started < 2  # the injected sleep did not really sleep
    assert fake_llm.calls == 2


def test_429_retry_after_beyond_the_cap_raises_at_once(fake_llm):
    client, sleeps = make(fake_llm, max_retry_after=10)
    fake_llm.push(Reply.fail(429, "slow down", retry_after=120))
    with pytest.raises(RateLimitedError) as info:
        client.chat(MSG)
    assert info.value.retry_after == 120
    assert sleeps == [] and fake_llm.calls == 1


def test_429_exhausts_retries_with_backoff(fake_llm):
    client, sleeps = make(fake_llm, max_retries=2)
    for _ in range(3):
        fake_llm.push(Reply.fail(429, "slow down"))
    with pytest.raises(RateLimitedError) as info:
        client.chat(MSG)
    assert info.value.retry_after is None
    assert len(sleeps) == 2 and sleeps[1] > 0 and fake_llm.calls == 3


def test_insufficient_quota_429_is_not_retried(fake_llm):
    client, sleeps = make(fake_llm)
    fake_llm.push(Reply.fail(429, "You exceeded your current quota", code="insufficient_quota"))
    with pytest.raises(RateLimitedError) as info:
        client.chat(MSG)
    assert "额度" in info.value.user_message
    assert sleeps == [] and fake_llm.calls == 1


def test_500_is_retried_then_succeeds(fake_llm):
    client, sleeps = make(fake_llm, max_retries=2)
    fake_llm.push(Reply.fail(500, "internal", type="server_error"), Reply.text("fine"))
    assert client.chat(MSG).text == "fine"
    assert len(sleeps) == 1 and fake_llm.calls == 2


def test_503_exhausted_is_bad_response(fake_llm):
    client, sleeps = make(fake_llm, max_retries=1)
    fake_llm.push(Reply.fail(503, "overloaded"), Reply.fail(503, "overloaded"))
    with pytest.raises(BadResponseError):
        client.chat(MSG)
    assert len(sleeps) == 1 and fake_llm.calls == 2


def test_timeout_is_endpoint_unreachable_and_not_retried(fake_llm):
    client, sleeps = make(fake_llm, timeout=0.3, max_retries=2)
    fake_llm.push(Reply.text("too late", delay=3))
    started = time.monotonic()
    with pytest.raises(EndpointUnreachableError) as info:
        client.chat(MSG)
    assert time.monotonic() - started < 2.5
    assert "超时" in info.value.user_message
    assert fake_llm.calls == 1 and sleeps == []


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_connection_refused_is_retried_then_unreachable():
    sleeps = Sleeps()
    cfg = LLMConfig(base_url=f"http://127.0.0.1:{_free_port()}/v1", api_key="k", chat_model="m")
    client = LLMClient(cfg, sleep=sleeps)
    with pytest.raises(EndpointUnreachableError):
        client.chat(MSG)
    assert len(sleeps) == cfg.max_retries


def test_no_base_url_is_a_clear_error():
    with pytest.raises(EndpointUnreachableError):
        LLMClient(LLMConfig(base_url="", api_key="k", chat_model="m"))


def test_key_never_in_repr(fake_llm):
    client, _ = make(fake_llm, api_key="sk-secret-123")
    assert "sk-secret-123" not in repr(client) and "sk-secret-123" not in repr(client.config)


def test_all_errors_are_llm_errors():
    for cls in (AuthenticationError, BadResponseError, EndpointUnreachableError):
        assert issubclass(cls, LLMError)


# -- streaming -----------------------------------------------------------------------------


def test_stream_yields_deltas_and_final_usage(fake_llm):
    meter = TokenMeter()
    client, _ = make(fake_llm, meter=meter)
    fake_llm.push(
        Reply.text(
            "根据《消费者权益保护法》第二十四条，",
            chunks=["根据", "《消费者权益保护法》", "第二十四条，"],
        )
    )
    stream = client.stream_chat(MSG)
    deltas = list(stream)
    assert deltas == ["根据", "《消费者权益保护法》", "第二十四条，"]
    assert stream.text == "根据《消费者权益保护法》第二十四条，"
    assert stream.finish_reason == "stop" and not stream.cancelled
    assert stream.usage is not None and not stream.usage.estimated
    assert stream.usage.completion_tokens == estimate_tokens(stream.text)
    req = fake_llm.requests[-1]
    assert req.stream and req.body["stream_options"] == {"include_usage": True}
    assert meter.get("chat").calls == 1


def test_stream_without_usage_chunk_is_estimated(fake_llm):
    client, _ = make(fake_llm)
    fake_llm.push(Reply.text("hello world", usage=False))
    stream = client.stream_chat(MSG)
    assert "".join(stream) == "hello world"
    assert stream.usage.estimated and stream.usage.completion_tokens == estimate_tokens(
        "hello world"
    )


def test_stream_cancel_event_stops_early(fake_llm):
    client, _ = make(fake_llm)
    fake_llm.push(Reply.text("x" * 400, chunk_delay=0.02))
    cancel = threading.Event()
    stream = client.stream_chat(MSG, cancel=cancel)
    got = []
    for delta in stream:
        got.append(delta)
        if len(got) == 2:
            cancel.set()
    assert len(got) == 2 and stream.cancelled
    assert stream.usage.estimated  # no final usage chunk: estimated from what arrived


def test_stream_cancel_from_another_thread_unblocks_a_slow_read(fake_llm):
    client, _ = make(fake_llm, timeout=10)
    fake_llm.push(Reply.text("abcdefgh" * 10, chunk_delay=5))
    stream = client.stream_chat(MSG)
    threading.Timer(0.3, stream.cancel).start()
    started = time.monotonic()
    assert list(stream) == []
    assert stream.cancelled and time.monotonic() - started < 4


def test_stream_cut_midway_is_bad_response(fake_llm):
    client, _ = make(fake_llm)
    fake_llm.push(Reply.text("abcdefghijklmnopqrstuvwx", cut_after=3))
    stream = client.stream_chat(MSG)
    got = []
    with pytest.raises(BadResponseError):
        for delta in stream:
            got.append(delta)
    assert "".join(got) == "abcdefghijkl" and stream.text == "abcdefghijkl"


def test_stream_errors_before_first_delta_are_mapped_and_retried(fake_llm):
    client, sleeps = make(fake_llm)
    fake_llm.push(Reply.fail(500, "boom"), Reply.text("after retry"))
    assert "".join(client.stream_chat(MSG)) == "after retry"
    assert len(sleeps) == 1
    fake_llm.push(Reply.fail(401, "bad key"))
    with pytest.raises(AuthenticationError):
        list(client.stream_chat(MSG))


def test_stream_timeout_is_unreachable(fake_llm):
    client, _ = make(fake_llm, timeout=0.3)
    fake_llm.push(Reply.text("late", delay=3))
    with pytest.raises(EndpointUnreachableError):
        list(client.stream_chat(MSG))


# -- models --------------------------------------------------------------------------------


def test_list_models(fake_llm):
    client, _ = make(fake_llm)
    fake_llm.models = ["deepseek-reasoner", "deepseek-chat"]
    assert client.list_models() == ["deepseek-chat", "deepseek-reasoner"]
    assert fake_llm.requests[-1].path == "/v1/models"
    assert fake_llm.requests[-1].authorization == "Bearer sk-test"


def test_list_models_errors_are_mapped(fake_llm):
    client, _ = make(fake_llm)
    fake_llm.models_reply = Reply.fail(401, "bad key")
    with pytest.raises(AuthenticationError):
        client.list_models()


def test_test_connection_falls_back_to_chat_without_models_route(fake_llm):
    client, _ = make(fake_llm)
    fake_llm.models_reply = Reply.fail(404, "no such route")
    fake_llm.push(Reply.text("pong"))
    assert client.test_connection() == []
    assert fake_llm.calls == 1


def test_stream_without_stream_options_support(fake_llm):
    client, _ = make(fake_llm)
    fake_llm.push(
        Reply.fail(400, "Unrecognized request argument supplied: stream_options"), Reply.text("hi")
    )
    stream = client.stream_chat(MSG)
    assert "".join(stream) == "hi" and stream.usage.estimated
    assert "stream_options" not in fake_llm.requests[-1].body


def test_config_for_preset():
    cfg = LLMConfig.for_preset("deepseek", api_key="k")
    assert cfg.base_url == "https://api.deepseek.com/v1" and cfg.chat_model == "deepseek-chat"
    assert cfg.json_mode_hint == "json_object"
    cfg = LLMConfig.for_preset("ollama", chat_model="qwen3:8b", timeout=30)
    assert cfg.effective_memory_model == "qwen3:8b" and cfg.api_key is None and cfg.timeout == 30
    assert LLMConfig.for_preset("custom", base_url="http://x/v1").base_url == "http://x/v1"


def test_a_connection_dropped_before_the_answer_is_retried(fake_llm):
    client, sleeps = make(fake_llm)
    fake_llm.push(Reply.dropped(), Reply.text("second try"))
    assert client.chat(MSG).text == "second try"
    assert len(sleeps) == 1 and fake_llm.calls == 2
