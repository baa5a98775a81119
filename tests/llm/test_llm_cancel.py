"""Stop within a second in every phase of a streamed reply (issue 13, item 1).

The UI only sets the cancel event (it never calls ``ChatStream.cancel()``), so the stream must
watch the event itself: while connecting, while the server holds the response headers (Ollama
loading a model), and between two slow chunks. Stopping must also end the HTTP request, so
the server sees the client go away instead of generating on for nobody.
"""

from __future__ import annotations

import threading
import time

from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.llm import JsonModeCache, LLMClient, LLMConfig

pytest_plugins = ["fakes.fixtures"]

MSG = [{"role": "user", "content": "请总结一下案情"}]
STOP_WITHIN = 1.0  # seconds: what the issue promises the lawyer


def _client(srv: FakeLLMServer, **kw) -> LLMClient:
    return LLMClient(srv.config(timeout=30, **kw), mode_cache=JsonModeCache(), sleep=lambda s: 0)


class Consumer(threading.Thread):
    """Iterates a stream the way the chat worker does, timing when control comes back."""

    def __init__(self, stream) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.deltas: list[str] = []
        self.error: BaseException | None = None
        self.first = threading.Event()
        self.ended_at: float | None = None

    def run(self) -> None:
        try:
            for delta in self.stream:
                self.deltas.append(delta)
                self.first.set()
        except BaseException as exc:
            self.error = exc
        finally:
            self.ended_at = time.monotonic()


def _wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the request never reached the server"
        time.sleep(0.01)


def _stop_and_time(consumer: Consumer, stop) -> float:
    stopped_at = time.monotonic()
    stop()
    consumer.join(timeout=15)
    assert not consumer.is_alive(), "the stream never returned"
    assert consumer.ended_at is not None
    return consumer.ended_at - stopped_at


def test_cancel_event_while_the_server_holds_the_headers(fake_llm):
    # Ollama loading a model: nothing, not even headers, for many seconds.
    fake_llm.push(Reply.text("终于加载好了", delay=8))
    cancel = threading.Event()
    stream = _client(fake_llm).stream_chat(MSG, cancel=cancel)
    consumer = Consumer(stream)
    consumer.start()
    _wait_until(lambda: fake_llm.calls == 1)  # the request is out, the headers are not back
    time.sleep(0.1)
    took = _stop_and_time(consumer, cancel.set)
    assert took < STOP_WITHIN, f"stop took {took:.2f}s"
    assert consumer.error is None and consumer.deltas == []
    assert stream.cancelled and stream.result().stopped
    # the HTTP request was really ended: the server saw the client go away
    assert fake_llm.disconnected.wait(2), "the request kept running on the server"


def test_cancel_event_between_two_slow_chunks_keeps_the_partial_answer(fake_llm):
    fake_llm.push(
        Reply.text("根据合同第五条，", chunks=["根据", "合同第五条，", "违约金"], chunk_delay=3)
    )
    cancel = threading.Event()
    stream = _client(fake_llm).stream_chat(MSG, cancel=cancel)
    consumer = Consumer(stream)
    consumer.start()
    assert consumer.first.wait(10)
    took = _stop_and_time(consumer, cancel.set)
    assert took < STOP_WITHIN, f"stop took {took:.2f}s"
    assert consumer.error is None
    assert consumer.deltas == ["根据"] and stream.text == "根据"
    result = stream.result()
    assert result.stopped and result.text == "根据" and result.status == "stopped"
    assert result.usage.estimated  # no final usage chunk came: estimated from what arrived
    assert fake_llm.disconnected.wait(2)


def test_cancel_method_while_waiting_for_headers(fake_llm):
    fake_llm.push(Reply.text("late", delay=8))
    stream = _client(fake_llm).stream_chat(MSG)
    consumer = Consumer(stream)
    consumer.start()
    _wait_until(lambda: fake_llm.calls == 1)
    time.sleep(0.1)
    took = _stop_and_time(consumer, stream.cancel)
    assert took < STOP_WITHIN and stream.cancelled


def test_cancel_event_while_connecting(silent_tls_server):
    cfg = LLMConfig(
        base_url=silent_tls_server.base_url,
        api_key="k",
        chat_model="m",
        timeout=30,
        max_retries=0,
    )
    cancel = threading.Event()
    stream = LLMClient(cfg, mode_cache=JsonModeCache()).stream_chat(MSG, cancel=cancel)
    consumer = Consumer(stream)
    consumer.start()
    _wait_until(lambda: silent_tls_server.accepted)
    time.sleep(0.2)  # stuck in the TLS handshake: no response object exists yet
    took = _stop_and_time(consumer, cancel.set)
    assert took < STOP_WITHIN, f"stop took {took:.2f}s"
    assert consumer.error is None and stream.cancelled
    # the half-open connection was ended too: the server reads the end of the stream
    server_side = silent_tls_server.accepted[0]
    server_side.settimeout(3)
    while server_side.recv(4096):  # the client's hello, then the end
        pass


def test_cancel_set_before_the_stream_starts_sends_nothing(fake_llm):
    cancel = threading.Event()
    cancel.set()
    stream = _client(fake_llm).stream_chat(MSG, cancel=cancel)
    assert list(stream) == [] and stream.cancelled
    assert fake_llm.calls == 0


def test_a_stream_left_early_ends_the_request(fake_llm):
    # A consumer that stops iterating (an exception in the UI callback) must not leave the
    # request running in the background.
    fake_llm.push(Reply.text("abcdefgh" * 20, chunk_delay=0.5))
    stream = _client(fake_llm).stream_chat(MSG)
    iterator = iter(stream)
    assert next(iterator)
    iterator.close()
    assert fake_llm.disconnected.wait(3)
