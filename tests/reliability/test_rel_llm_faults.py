"""The LLM fault matrix, through the scripted server and the real openai client.

Each fault must map to the right error class with a message a lawyer understands (Chinese,
then English), and — through the engine — lose nothing: the note stays, its memory job stays
pending (not failed), and the job completes once the endpoint recovers.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from fakes.llm_server import FakeLLMServer, Reply
from fakes.scripted_model import ScriptedModel

from desktop_app.core.errors import (
    AuthenticationError,
    BadResponseError,
    EndpointUnreachableError,
    LLMError,
    ModelNotFoundError,
    RateLimitedError,
)
from desktop_app.llm import JsonModeCache, LLMClient, TokenMeter
from desktop_app.llm.client import LLMConfig
from desktop_app.memory import MemoryEngine

SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}
RIGHT_KEY = "sk-right-key-0123456789"


def _bilingual(message: str) -> bool:
    return bool(re.search(r"[\u4e00-\u9fff]", message)) and bool(re.search(r"[A-Za-z]{3}", message))


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now: connection refused
    return port


@dataclass
class Fault:
    """How to provoke one fault on a started server; returns the client config to use."""

    name: str
    error: type[LLMError]
    setup: Callable[[FakeLLMServer], LLMConfig]
    calls: int  # requests the client makes before giving up (retries included)
    message: str = ""  # a fragment the user message must contain
    sleeps: tuple[float, ...] | None = None  # the waits between retries, when known


def _push(*replies: Reply) -> Callable[[FakeLLMServer], LLMConfig]:
    def setup(srv: FakeLLMServer) -> LLMConfig:
        srv.push(*replies)
        return srv.config(api_key=RIGHT_KEY, timeout=5.0)

    return setup


def _timeout(srv: FakeLLMServer) -> LLMConfig:
    srv.push(Reply.json({"answer": "late"}, delay=3.0))
    return srv.config(api_key=RIGHT_KEY, timeout=0.4)


def _refused(srv: FakeLLMServer) -> LLMConfig:
    return LLMConfig(
        base_url=f"http://127.0.0.1:{_closed_port()}/v1",
        api_key=RIGHT_KEY,
        chat_model="fake-chat",
        timeout=2.0,
    )


def _wrong_key(srv: FakeLLMServer) -> LLMConfig:
    srv.api_key = RIGHT_KEY
    return srv.config(api_key="sk-wrong-key-0123456789")


def _unknown_model(srv: FakeLLMServer) -> LLMConfig:
    srv.known_models = {"fake-chat"}
    return srv.config(api_key=RIGHT_KEY, chat_model="no-such-model")


FAULTS = [
    Fault("timeout", EndpointUnreachableError, _timeout, 1, "超时"),
    Fault("connection refused", EndpointUnreachableError, _refused, 0, "无法连接"),
    Fault("401", AuthenticationError, _wrong_key, 1, "API 密钥"),
    Fault(
        "403",
        AuthenticationError,
        _push(Reply.fail(403, "forbidden", code="forbidden")),
        1,
        "API 密钥",
    ),
    Fault("unknown model", ModelNotFoundError, _unknown_model, 1, "模型不存在"),
    Fault(
        "429 Retry-After",
        RateLimitedError,
        _push(*[Reply.fail(429, "slow down", code="rate_limit", retry_after=2)] * 3),
        3,
        "频繁",
        sleeps=(2.0, 2.0),
    ),
    Fault(
        "500",
        BadResponseError,
        _push(*[Reply.fail(500, "boom", type="server_error")] * 3),
        3,
        "无法理解",
    ),
    Fault("malformed JSON body", BadResponseError, _push(Reply.malformed()), 1, "无法理解"),
    Fault(
        "invalid JSON answer (twice)",
        BadResponseError,
        _push(Reply.text("好的，我来回答：answer 是 yes"), Reply.text("{not json")),
        2,
        "无法理解",
    ),
]


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as srv:
        yield srv


def _client(config: LLMConfig, sleeps: list[float]) -> LLMClient:
    return LLMClient(config, mode_cache=JsonModeCache(), meter=TokenMeter(), sleep=sleeps.append)


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_fault_maps_to_the_right_error_and_message(server, fault):
    sleeps: list[float] = []
    client = _client(fault.setup(server), sleeps)
    with pytest.raises(LLMError) as err:
        client.complete_json("你是助手。", "回答", SCHEMA, "probe")
    assert type(err.value) is fault.error, err.value
    assert _bilingual(err.value.user_message), err.value.user_message
    assert fault.message in err.value.user_message
    if fault.name != "connection refused":
        assert server.calls == fault.calls
        assert server.pending == 0  # every scripted failure was consumed: no extra calls
    if fault.sleeps is not None:
        assert tuple(sleeps) == fault.sleeps  # Retry-After honoured, not the backoff
    if isinstance(err.value, RateLimitedError):
        assert err.value.retry_after == 2.0
    # the key never leaks into what the user (or the log) sees
    assert RIGHT_KEY not in str(err.value) and RIGHT_KEY not in err.value.user_message


def test_connection_refused_is_retried_then_reported(server):
    sleeps: list[float] = []
    client = _client(_refused(server), sleeps)
    with pytest.raises(EndpointUnreachableError):
        client.chat([{"role": "user", "content": "hi"}])
    assert len(sleeps) == client.config.max_retries  # transient: retried with backoff


def test_a_long_retry_after_is_not_slept_inside_the_call(server):
    server.push(Reply.fail(429, "slow down", retry_after=600))
    sleeps: list[float] = []
    client = _client(server.config(), sleeps)
    with pytest.raises(RateLimitedError) as err:
        client.chat([{"role": "user", "content": "hi"}])
    assert err.value.retry_after == 600 and sleeps == []  # the job queue comes back later


@pytest.mark.parametrize("status", [429, 500, 502, 503])
def test_transient_failures_then_success(server, status):
    server.push(
        Reply.fail(status, "busy", retry_after=1 if status == 429 else None),
        Reply.json({"answer": "ok"}),
    )
    sleeps: list[float] = []
    value, _usage = _client(server.config(), sleeps).complete_json(
        "你是助手。", "回答", SCHEMA, "probe"
    )
    assert value == {"answer": "ok"} and len(sleeps) == 1


def test_stream_cut_midway_keeps_the_partial_text(server):
    server.push(
        Reply.text("根据《消费者权益保护法》第五十五条，经营者提供商品有欺诈行为的", cut_after=3)
    )
    stream = _client(server.config(), []).stream_chat([{"role": "user", "content": "赔偿标准？"}])
    got: list[str] = []
    with pytest.raises(BadResponseError) as err:
        for delta in stream:
            got.append(delta)
    assert "".join(got) == stream.text and 0 < len(stream.text) < 30
    assert _bilingual(err.value.user_message)


def test_json_schema_refused_falls_back_and_remembers(fake_deepseek):
    fake_deepseek.push(Reply.json({"answer": "是"}), Reply.json({"answer": "否"}))
    client = _client(fake_deepseek.config(), [])
    assert client.complete_json("你是助手。", "回答", SCHEMA, "probe")[0] == {"answer": "是"}
    modes = [(r.response_format or {}).get("type") for r in fake_deepseek.chat_requests]
    assert modes == ["json_schema", "json_object"]
    assert "JSON" in fake_deepseek.chat_requests[-1].system  # DeepSeek needs the word
    # the refusal is remembered: the next call goes straight to json_object
    assert client.complete_json("你是助手。", "回答", SCHEMA, "probe")[0] == {"answer": "否"}
    assert (fake_deepseek.chat_requests[-1].response_format or {}).get("type") == "json_object"


def test_json_refused_in_every_mode_extracts_from_text():
    with FakeLLMServer(json_schema=False, json_object=False) as srv:
        srv.push(Reply.text('好的：\n```json\n{"answer": "可以"}\n```'))
        value, _ = _client(srv.config(), []).complete_json("你是助手。", "回答", SCHEMA, "probe")
    assert value == {"answer": "可以"}


# ------------------------------------------------------------- jobs survive the fault


ENGINE_FAULTS = [f for f in FAULTS if f.name != "invalid JSON answer (twice)"]


@pytest.mark.parametrize("fault", ENGINE_FAULTS, ids=[f.name for f in ENGINE_FAULTS])
def test_pending_memory_jobs_survive_the_fault_and_complete_after_recovery(
    tmp_path, embedder, fault
):
    model = ScriptedModel()
    with FakeLLMServer(responder=model) as srv:
        broken = _client(fault.setup(srv), [])
        with MemoryEngine.open(tmp_path / "data", embedder=embedder, llm=broken) as eng:
            case = eng.create_case("故障")
            note = eng.add_note("被告于2024年4月1日书面拒绝退货", case_id=case.id).note
            assert eng.pending_jobs() == 1
            report = eng.run_pending_jobs()
            assert report.done == 0 and report.deferred >= 1, report
            assert _bilingual(report.last_problem) and fault.message in report.last_problem
            # nothing lost: the note as stored, its job waiting (not failed, not dropped)
            assert eng.get_note(note.id).content == "被告于2024年4月1日书面拒绝退货"
            assert eng.pending_jobs() == 1 and eng.job_counts().failed == 0
            assert eng.search("拒绝退货", case_id=case.id, k=1)[0].note.id == note.id
            # the endpoint recovers (or the user fixes the settings)
            srv.api_key = None
            srv.known_models = None
            eng.set_llm(_client(srv.config(api_key=RIGHT_KEY, timeout=5.0), []))
            report = eng.run_pending_jobs()
            assert report.done == 1 and report.deferred == 0 and report.failed == 0, report
            assert eng.pending_jobs() == 0
            assert "note_construction" in model.asked
            assert eng.note_history(note.id)[-1].actor == "construction"


def test_pending_jobs_survive_a_restart_while_offline(tmp_path, embedder):
    model = ScriptedModel()
    dead = _client(_refused(None), [])  # type: ignore[arg-type]
    with MemoryEngine.open(tmp_path / "data", embedder=embedder, llm=dead) as eng:
        case = eng.create_case("离线")
        ids = [
            r.note.id
            for r in eng.add_notes(
                [{"content": f"离线期间记录的第{i}条事实", "case_id": case.id} for i in range(3)]
            )
        ]
        assert eng.run_pending_jobs().deferred == 1
    with FakeLLMServer(responder=model) as srv:
        client = _client(srv.config(), [])
        with MemoryEngine.open(tmp_path / "data", embedder=embedder, llm=client) as eng:
            assert eng.pending_jobs() == 3
            eng.retry_jobs_now()  # backoff put them in the future; the endpoint is back now
            assert eng.run_pending_jobs().done == 3
            assert eng.pending_jobs() == 0
            assert all(eng.note_history(i)[-1].actor == "construction" for i in ids)
