"""A scripted OpenAI-compatible HTTP server on 127.0.0.1, for tests and benchmarks.

It speaks the wire format of ``/v1/chat/completions`` (plain and SSE streaming, with the final
usage chunk when ``stream_options.include_usage`` is set) and ``/v1/models``, so the real
``openai`` client is exercised end to end. It cannot understand text: tests script its answers
with a queue of :class:`Reply` objects and/or a responder callable.

    with FakeLLMServer(json_schema=False) as srv:        # refuses json_schema like DeepSeek
        srv.push(Reply.json({"keywords": [...]}))
        client = LLMClient(LLMConfig(base_url=srv.base_url, api_key="k", chat_model="m"))
        ...
        assert srv.calls == 2 and srv.requests[0].response_format["type"] == "json_schema"

It can also play the providers' quirks that the LLM layer must survive: OpenAI o-series / gpt-5
(``fixed_temperature``: a ``temperature`` other than 1 gets the real HTTP 400 body;
``rejects_max_tokens``: ``max_tokens`` is refused in favour of ``max_completion_tokens``),
DeepSeek's output limit (``max_tokens_limit``), Ollama holding the headers while it loads a
model (``Reply(delay=...)``), dribbled streams (``chunk_delay``), reasoning models
(``Reply(reasoning=...)`` or ``<think>`` in the content), answers cut by the token budget
(``Reply.truncated``, ``needs_tokens``) and connections dropped before or during a reply.
``disconnects`` counts the requests whose client went away before the answer was complete.

Every request is recorded (path, headers incl. Authorization, body, messages, response_format),
and the server counts chat calls and tokens (prompt tokens estimated exactly as
``desktop_app.llm.tokens`` does), so benchmarks can report LLM calls and tokens per operation.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from desktop_app.llm.tokens import estimate_messages_tokens, estimate_tokens

DEEPSEEK_REFUSAL = {
    "error": {
        "message": "This response_format type is unavailable now",
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_request_error",
    }
}

#: LM Studio refuses json_object (its error is a bare string, not an object).
LMSTUDIO_JSON_OBJECT_REFUSAL = {"error": "'response_format.type' must be 'json_schema' or 'text'"}


def openai_temperature_refusal(value: object) -> dict:
    """OpenAI o-series / gpt-5 on ``temperature`` other than the default (real body)."""
    return {
        "error": {
            "message": f"Unsupported value: 'temperature' does not support {value} with this "
            "model. Only the default (1) value is supported.",
            "type": "invalid_request_error",
            "param": "temperature",
            "code": "unsupported_value",
        }
    }


OPENAI_MAX_TOKENS_REFUSAL = {
    "error": {
        "message": "Unsupported parameter: 'max_tokens' is not supported with this model. "
        "Use 'max_completion_tokens' instead.",
        "type": "invalid_request_error",
        "param": "max_tokens",
        "code": "unsupported_parameter",
    }
}


def deepseek_max_tokens_refusal(limit: int) -> dict:
    """DeepSeek on a ``max_tokens`` above the model's output limit (real body)."""
    return {
        "error": {
            "message": f"Invalid max_tokens value, the valid range of max_tokens is [1, {limit}]",
            "type": "invalid_request_error",
            "param": None,
            "code": "invalid_request_error",
        }
    }


@dataclass
class Reply:
    """One scripted answer.

    ``content`` is the assistant text (ignored when ``status`` != 200 or ``raw`` is set).
    ``raw`` is sent as the body verbatim (malformed JSON, odd shapes). ``usage=False`` omits
    the usage block (the client must then estimate). ``delay`` sleeps before answering
    (timeouts; before the response headers, as Ollama does while it loads a model);
    ``chunk_delay`` between stream chunks. ``cut_after`` closes the socket after that many
    content chunks of a stream, without the terminating chunk; ``drop`` closes it before
    answering at all.

    ``reasoning`` is a reasoning model's thinking, sent in ``reasoning_field`` of the message
    (streamed before the content). ``needs_tokens``: the answer only fits a budget of that
    many tokens; a request with a smaller (or no) ``max_tokens`` / ``max_completion_tokens``
    gets the first half of it with ``finish_reason: "length"``.
    """

    content: str = "ok"
    status: int = 200
    error: dict | None = None
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | str | None = None
    usage: bool = True
    delay: float = 0.0
    chunk_delay: float = 0.0
    chunks: list[str] | None = None  # stream deltas; default: content split in ~4-char pieces
    cut_after: int | None = None
    finish_reason: str = "stop"
    model: str | None = None
    reasoning: str | None = None
    reasoning_field: str = "reasoning_content"
    drop: bool = False
    needs_tokens: int | None = None

    @classmethod
    def text(cls, content: str, **kw: Any) -> Reply:
        return cls(content=content, **kw)

    @classmethod
    def json(cls, obj: Any, **kw: Any) -> Reply:
        return cls(content=json.dumps(obj, ensure_ascii=False), **kw)

    @classmethod
    def fail(
        cls,
        status: int,
        message: str = "error",
        *,
        code: str | None = None,
        type: str = "invalid_request_error",
        retry_after: float | str | None = None,
        **kw: Any,
    ) -> Reply:
        headers = dict(kw.pop("headers", {}))
        if retry_after is not None:
            headers["Retry-After"] = str(retry_after)
        err = {"error": {"message": message, "type": type, "param": None, "code": code}}
        return cls(status=status, error=err, headers=headers, **kw)

    @classmethod
    def model_not_found(cls, model: str = "missing-model") -> Reply:
        return cls.fail(
            404,
            f"The model `{model}` does not exist or you do not have access to it.",
            code="model_not_found",
        )

    @classmethod
    def malformed(cls) -> Reply:
        return cls(raw=b'{"id": "chatcmpl-x", "choices": [ {"message": ')

    @classmethod
    def truncated(cls, content: str, keep: int | None = None, **kw: Any) -> Reply:
        """The first ``keep`` characters (default: half) of ``content``, cut by the budget."""
        keep = len(content) // 2 if keep is None else keep
        return cls(content=content[:keep], finish_reason="length", **kw)

    @classmethod
    def dropped(cls) -> Reply:
        """The connection closes without an answer (a crashed server, a flaky proxy)."""
        return cls(drop=True)


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: dict | None

    @property
    def messages(self) -> list[dict]:
        return list((self.body or {}).get("messages") or [])

    @property
    def response_format(self) -> dict | None:
        return (self.body or {}).get("response_format")

    @property
    def model(self) -> str | None:
        return (self.body or {}).get("model")

    @property
    def stream(self) -> bool:
        return bool((self.body or {}).get("stream"))

    @property
    def authorization(self) -> str | None:
        return self.headers.get("authorization")

    @property
    def system(self) -> str:
        return "\n".join(str(m.get("content")) for m in self.messages if m.get("role") == "system")

    @property
    def user(self) -> str:
        return "\n".join(str(m.get("content")) for m in self.messages if m.get("role") == "user")


Responder = Callable[[dict], "Reply | str | dict | None"]


class FakeLLMServer:
    """The server. Use as a context manager or call ``start()`` / ``stop()``.

    Capabilities: ``json_schema`` / ``json_object`` — when False, a request with that
    ``response_format`` gets HTTP 400 with DeepSeek's error body (and consumes no scripted
    reply). ``api_key``: when set, other keys get 401. ``known_models``: when set, other model
    names get 404 model_not_found. ``models`` is what ``/v1/models`` lists.
    """

    def __init__(
        self,
        *,
        json_schema: bool = True,
        json_object: bool = True,
        api_key: str | None = None,
        models: list[str] | None = None,
        known_models: set[str] | None = None,
        responder: Responder | None = None,
        default: Reply | None = None,
        fixed_temperature: bool = False,
        rejects_max_tokens: bool = False,
        max_tokens_limit: int | None = None,
        json_object_refusal: dict | None = None,
    ) -> None:
        self.json_schema = json_schema
        self.json_object = json_object
        #: o-series / gpt-5: any temperature but the default (1) is refused with HTTP 400
        self.fixed_temperature = fixed_temperature
        #: o-series / gpt-5: max_tokens is refused; max_completion_tokens is the name
        self.rejects_max_tokens = rejects_max_tokens
        #: DeepSeek: a max_tokens above this is refused with HTTP 400
        self.max_tokens_limit = max_tokens_limit
        self.json_object_refusal = json_object_refusal or DEEPSEEK_REFUSAL
        self.api_key = api_key
        self.models = list(models or ["fake-chat", "fake-memory"])
        self.known_models = known_models
        self.responder = responder
        #: Answer when the queue is empty and no responder answered; None → HTTP 500
        #: "no scripted reply", which makes a missing script obvious in a test failure.
        self.default = default
        self.models_reply: Reply | None = None  # override for /v1/models (errors)
        self.requests: list[RecordedRequest] = []
        self.calls = 0  # chat completion requests, refusals included
        self.prompt_tokens = 0
        self.completion_tokens = 0
        #: requests whose client went away before the answer was complete (cancel, timeout)
        self.disconnects = 0
        self.disconnected = threading.Event()
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> FakeLLMServer:
        handler = _make_handler(self)
        self._httpd = _QuietServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers sleeping in a delay
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def config(self, **kw: Any) -> Any:
        """An ``LLMConfig`` for this server (key, model and a short timeout filled in)."""
        from desktop_app.llm.client import LLMConfig

        kw.setdefault("api_key", self.api_key or "sk-test")
        kw.setdefault("chat_model", self.models[0] if self.models else "fake-chat")
        kw.setdefault("timeout", 5.0)
        return LLMConfig(base_url=self.base_url, **kw)

    # -- scripting ---------------------------------------------------------------------------

    def push(self, *replies: Reply | str | dict) -> None:
        with self._lock:
            for r in replies:
                self._queue.append(_as_reply(r))

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def reset_counts(self) -> None:
        with self._lock:
            self.requests.clear()
            self.calls = self.prompt_tokens = self.completion_tokens = 0

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def stats(self) -> dict[str, int]:
        with self._lock:
            return {
                "calls": self.calls,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "total_tokens": self.prompt_tokens + self.completion_tokens,
            }

    def _note_disconnect(self) -> None:
        with self._lock:
            self.disconnects += 1
        self.disconnected.set()

    def _refusal(self, body: dict) -> dict | None:
        """The provider's HTTP 400 body for a request it does not accept, or None."""
        fmt = (body.get("response_format") or {}).get("type")
        if fmt == "json_schema" and not self.json_schema:
            return DEEPSEEK_REFUSAL
        if fmt == "json_object" and not self.json_object:
            return self.json_object_refusal
        temperature = body.get("temperature")
        if self.fixed_temperature and temperature is not None and temperature != 1:
            return openai_temperature_refusal(temperature)
        if self.rejects_max_tokens and "max_tokens" in body:
            return OPENAI_MAX_TOKENS_REFUSAL
        budget = body.get("max_tokens")
        if self.max_tokens_limit is not None and budget is not None:
            if budget > self.max_tokens_limit:
                return deepseek_max_tokens_refusal(self.max_tokens_limit)
        return None

    def _next_reply(self, body: dict) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            answer = self.responder(body)
            if answer is not None:
                return _as_reply(answer)
        if self.default is not None:
            return self.default
        return Reply.fail(500, "fake server: no scripted reply left", type="server_error")


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients that time out, cancel or drop keep-alive connections are normal in tests.
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)


def _fit_budget(reply: Reply, body: dict) -> Reply:
    """``needs_tokens``: cut the answer in half unless the request's budget is big enough."""
    if reply.needs_tokens is None:
        return reply
    budget = body.get("max_completion_tokens") or body.get("max_tokens")
    if budget is not None and budget >= reply.needs_tokens:
        return reply
    cut = reply.content[: len(reply.content) // 2]
    return Reply(**{**reply.__dict__, "content": cut, "finish_reason": "length", "chunks": None})


def _as_reply(r: Reply | str | dict) -> Reply:
    if isinstance(r, Reply):
        return r
    if isinstance(r, str):
        return Reply.text(r)
    return Reply.json(r)


def _make_handler(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # HTTP/1.1 so that streams use chunked encoding: a stream cut mid-way is then a
        # protocol error the client can see, not an ordinary end of body.
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            pass

        def _record(self, body: dict | None) -> None:
            rec = RecordedRequest(
                self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body
            )
            with server._lock:
                server.requests.append(rec)

        def _send_json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
            data = obj if isinstance(obj, bytes) else json.dumps(obj, ensure_ascii=False).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def _auth_ok(self) -> bool:
            if server.api_key is None:
                return True
            if self.headers.get("Authorization") == f"Bearer {server.api_key}":
                return True
            self._send_json(
                401,
                {
                    "error": {
                        "message": "Incorrect API key provided.",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": "invalid_api_key",
                    }
                },
            )
            return False

        def do_GET(self) -> None:
            self._record(None)
            if not self.path.rstrip("/").endswith("/models"):
                self._send_json(404, {"error": {"message": "not found", "code": None}})
                return
            if not self._auth_ok():
                return
            if server.models_reply is not None:
                self._send_reply_plain(server.models_reply, None)
                return
            data = [
                {"id": m, "object": "model", "created": 1700000000, "owned_by": "fake"}
                for m in server.models
            ]
            self._send_json(200, {"object": "list", "data": data})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                self._record(None)
                self._send_json(400, {"error": {"message": "invalid JSON body", "code": None}})
                return
            self._record(body)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send_json(404, {"error": {"message": f"no route {self.path}", "code": None}})
                return
            with server._lock:
                server.calls += 1
                server.prompt_tokens += estimate_messages_tokens(body.get("messages") or [])
            if not self._auth_ok():
                return
            model = body.get("model")
            if server.known_models is not None and model not in server.known_models:
                self._send_reply_plain(Reply.model_not_found(str(model)), body)
                return
            refusal = server._refusal(body)
            if refusal is not None:
                self._send_json(400, refusal)
                return
            reply = _fit_budget(server._next_reply(body), body)
            if reply.delay and not self._wait(reply.delay):
                return
            if reply.drop:
                self._cut()
                return
            try:
                if body.get("stream") and reply.status == 200 and reply.raw is None:
                    self._send_stream(reply, body)
                else:
                    self._send_reply_plain(reply, body)
            except (BrokenPipeError, ConnectionResetError):
                server._note_disconnect()  # the client gave up (timeout, cancel)

        def _wait(self, seconds: float) -> bool:
            """Sleep, watching the client: False if it went away (or the server stops)."""
            deadline = time.monotonic() + seconds
            while (left := deadline - time.monotonic()) > 0:
                if server._stopping.is_set():
                    return False
                readable, _, _ = select.select([self.connection], [], [], min(left, 0.02))
                if readable:
                    try:
                        gone = self.connection.recv(1, socket.MSG_PEEK) == b""
                    except OSError:
                        gone = True
                    if gone:
                        server._note_disconnect()
                        return False
                    time.sleep(min(left, 0.02))  # pipelined bytes: not ours to read
            return True

        def _usage(self, body: dict | None, content: str) -> dict:
            prompt = estimate_messages_tokens((body or {}).get("messages") or [])
            completion = estimate_tokens(content)
            return {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }

        def _send_reply_plain(self, reply: Reply, body: dict | None) -> None:
            if reply.raw is not None:
                raw = reply.raw.encode() if isinstance(reply.raw, str) else reply.raw
                self._send_json(reply.status, raw, reply.headers)
                return
            if reply.status != 200:
                self._send_json(reply.status, reply.error or {"error": {}}, reply.headers)
                return
            with server._lock:
                server.completion_tokens += estimate_tokens(reply.content)
            message: dict[str, Any] = {"role": "assistant", "content": reply.content}
            if reply.reasoning is not None:
                message[reply.reasoning_field] = reply.reasoning
            obj: dict[str, Any] = {
                "id": f"chatcmpl-fake{server.calls}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": reply.model or (body or {}).get("model") or "fake",
                "system_fingerprint": None,
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "logprobs": None,
                        "finish_reason": reply.finish_reason,
                    }
                ],
            }
            if reply.usage:
                obj["usage"] = self._usage(body, reply.content)
            self._send_json(200, obj, reply.headers)

        def _send_stream(self, reply: Reply, body: dict) -> None:
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            model = reply.model or body.get("model") or "fake"
            created = int(time.time())
            cid = f"chatcmpl-fake{server.calls}"
            pieces = reply.chunks
            if pieces is None:
                pieces = [reply.content[i : i + 4] for i in range(0, len(reply.content), 4)]

            def chunk(delta: dict, finish: str | None) -> dict:
                c: dict[str, Any] = {
                    "id": cid,
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "system_fingerprint": None,
                    "choices": [
                        {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
                    ],
                }
                if include_usage:
                    c["usage"] = None
                return c

            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            for k, v in reply.headers.items():
                self.send_header(k, v)
            self.end_headers()
            self._event(chunk({"role": "assistant", "content": ""}, None))
            thinking = reply.reasoning or ""
            for i in range(0, len(thinking), 4):
                if reply.chunk_delay and not self._wait(reply.chunk_delay):
                    return
                self._event(chunk({reply.reasoning_field: thinking[i : i + 4]}, None))
            sent = ""
            for n, piece in enumerate(pieces):
                if reply.cut_after is not None and n >= reply.cut_after:
                    self._cut()
                    return
                if reply.chunk_delay and not self._wait(reply.chunk_delay):
                    return
                self._event(chunk({"content": piece}, None))
                sent += piece
            self._event(chunk({}, reply.finish_reason))
            with server._lock:
                server.completion_tokens += estimate_tokens(sent)
            if include_usage and reply.usage:
                u = chunk({}, None)
                u["choices"] = []
                u["usage"] = self._usage(body, sent)
                self._event(u)
            self._write_chunk(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _event(self, obj: dict) -> None:
            self._write_chunk(b"data: " + json.dumps(obj, ensure_ascii=False).encode() + b"\n\n")

        def _write_chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

        def _cut(self) -> None:
            # Abrupt close without the terminating zero-length chunk.
            self.wfile.flush()
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.close_connection = True

    return Handler
