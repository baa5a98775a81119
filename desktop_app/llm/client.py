"""One client for any OpenAI-compatible endpoint (DeepSeek, OpenAI, Ollama, LM Studio, custom).

Built on the ``openai`` package, but never trusting its environment defaults: openai 3.x reads
``OPENAI_API_KEY``, ``OPENAI_ADMIN_KEY``, ``OPENAI_BASE_URL``, ``OPENAI_ORG_ID``,
``OPENAI_PROJECT_ID``, ``OPENAI_WEBHOOK_SECRET`` and ``OPENAI_CUSTOM_HEADERS`` whenever the
matching argument is missing, and ``OPENAI_CUSTOM_HEADERS`` is merged into every request.
A lawyer's stale shell variable must not send a case to another endpoint or under another
account, so :func:`build_openai_client` passes everything explicitly and then removes what the
environment added (see the tests in ``tests/llm/test_llm_env.py``, one per variable).

The SDK's own retries are off (``max_retries=0``): this module retries itself, so that sleeps
are injectable (fast tests), ``Retry-After`` is capped, and every failure ends up as one of the
errors in :mod:`desktop_app.core.errors`.
"""

from __future__ import annotations

import email.utils
import json
import logging
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import openai
from openai import Omit

from desktop_app.core.errors import (
    AuthenticationError,
    BadResponseError,
    EndpointUnreachableError,
    LLMError,
    ModelNotFoundError,
    RateLimitedError,
)

from .presets import is_loopback, normalize_base_url
from .schema import SchemaValidationError, extract_json, validate
from .tokens import TokenMeter, Usage, estimate_messages_tokens, estimate_tokens

log = logging.getLogger(__name__)

Message = Mapping[str, Any]

#: Structured-output modes, strongest first.
JSON_MODES: tuple[str, ...] = ("json_schema", "json_object", "text")

#: Placeholder sent when an endpoint needs no key (Ollama, LM Studio). Never empty: the SDK
#: would then look for ``OPENAI_API_KEY``.
NO_KEY = "no-key-required"

#: Headers the SDK may fill from the environment (OPENAI_ORG_ID / OPENAI_PROJECT_ID): always
#: omitted — LexMem has no notion of an OpenAI organisation or project.
_OMITTED_HEADERS = ("OpenAI-Organization", "OpenAI-Project")


@dataclass(frozen=True, slots=True)
class LLMConfig:
    base_url: str
    api_key: str | None = field(default=None, repr=False)  # never in a repr / log line
    chat_model: str = ""
    memory_model: str | None = None  # None / "": use chat_model for memory work too
    timeout: float = 60.0  # seconds, per request (per chunk while streaming)
    max_retries: int = 2  # retries after the first attempt (429 / 5xx / connection errors)
    #: Structured-output mode to try first when nothing is cached yet (see presets).
    json_mode_hint: str | None = None

    @property
    def effective_memory_model(self) -> str:
        return self.memory_model or self.chat_model

    @classmethod
    def for_preset(
        cls,
        provider_id: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        chat_model: str | None = None,
        memory_model: str | None = None,
        **kw: Any,
    ) -> LLMConfig:
        """A config from a preset, with the user's overrides (empty values keep the preset's)."""
        from .presets import get_preset

        p = get_preset(provider_id)
        return cls(
            base_url=base_url or p.base_url,
            api_key=api_key,
            chat_model=chat_model or p.chat_model,
            memory_model=memory_model or p.memory_model or None,
            json_mode_hint=kw.pop("json_mode_hint", p.json_mode_hint),
            **kw,
        )


@dataclass(frozen=True, slots=True)
class ChatResult:
    text: str
    usage: Usage
    model: str = ""
    finish_reason: str | None = None


# --------------------------------------------------------------------------------------------
# Building the SDK client


def build_openai_client(config: LLMConfig) -> openai.OpenAI:
    """An ``openai.OpenAI`` bound to exactly this endpoint and key, whatever the environment."""
    if not config.base_url or not config.base_url.strip():
        raise EndpointUnreachableError(
            "no base URL configured",
            user_message="尚未设置模型服务地址。 / No model endpoint is configured.",
        )
    base_url = normalize_base_url(config.base_url)
    key = (config.api_key or "").strip() or NO_KEY
    # The Authorization header is set explicitly as well: with it present the SDK drops any
    # Authorization line from OPENAI_CUSTOM_HEADERS.
    headers: dict[str, Any] = {"Authorization": f"Bearer {key}"}
    headers.update({h: Omit() for h in _OMITTED_HEADERS})
    # Loopback endpoints must not go through an HTTP(S)_PROXY from the environment (a corporate
    # proxy cannot reach the user's Ollama); remote ones may legitimately need it.
    http_client = openai.DefaultHttpxClient(trust_env=not is_loopback(base_url))
    client = openai.OpenAI(
        api_key=key,
        admin_api_key=None,
        organization=None,
        project=None,
        base_url=base_url,
        timeout=config.timeout,
        max_retries=0,
        default_headers=headers,
        http_client=http_client,
    )
    # What the SDK took from the environment because our value was None: removed here.
    # OPENAI_CUSTOM_HEADERS was merged into _custom_headers at construction; reset it to ours.
    client.admin_api_key = None
    client.organization = None
    client.project = None
    client.webhook_secret = None
    client._custom_headers = headers
    return client


# --------------------------------------------------------------------------------------------
# Error mapping


def _retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:  # an HTTP date
        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _error_fields(exc: openai.APIStatusError) -> tuple[str, str]:
    """(code, message) of an API error body, whatever shape the endpoint used."""
    body = exc.body
    if isinstance(body, Mapping) and isinstance(body.get("error"), Mapping):
        body = body["error"]
    code = message = ""
    if isinstance(body, Mapping):
        code = str(body.get("code") or body.get("type") or "")
        message = str(body.get("message") or "")
    elif isinstance(body, str):
        message = body
    return code, message or str(exc)


def map_openai_error(exc: BaseException) -> LLMError:
    """The LexMem error for an exception raised by the SDK (or by httpx underneath it)."""
    if isinstance(exc, LLMError):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        return EndpointUnreachableError(
            f"timeout: {exc}",
            user_message="模型服务响应超时，请检查网络或稍后再试。 / "
            "The model endpoint timed out; check the network or try again later.",
        )
    if isinstance(exc, openai.APIConnectionError):
        return EndpointUnreachableError(f"connection failed: {exc.__cause__ or exc}")
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        code, message = _error_fields(exc)
        detail = f"HTTP {status} {code}: {message}".strip()
        if status in (401, 403):
            return AuthenticationError(detail)
        if status == 402:  # DeepSeek: insufficient balance
            return LLMError(
                detail,
                user_message="模型服务账户余额不足。 / The model account has insufficient balance.",
            )
        if status == 404:
            if "model" in code.lower() or "model" in message.lower():
                return ModelNotFoundError(detail)
            return EndpointUnreachableError(
                detail,
                user_message="服务地址不正确（找不到接口），请检查 Base URL 是否以 /v1 结尾。 / "
                "Wrong base URL (endpoint not found); check that it ends with /v1.",
            )
        if status == 429:
            if "quota" in code.lower() or "quota" in message.lower():
                return RateLimitedError(
                    detail,
                    user_message="模型服务额度已用完。 / The model account's quota is used up.",
                )
            return RateLimitedError(detail, retry_after=_retry_after_seconds(exc.response.headers))
        return BadResponseError(detail)
    if isinstance(exc, openai.APIResponseValidationError | ValueError):
        return BadResponseError(f"malformed response: {exc}")
    if isinstance(exc, openai.OpenAIError):
        return BadResponseError(f"{type(exc).__name__}: {exc}")
    return BadResponseError(f"{type(exc).__name__}: {exc}")


def _is_transient(err: LLMError, exc: BaseException) -> bool:
    """Worth retrying: rate limits (not quota), 5xx, refused/reset connections.

    Read timeouts are not retried: the user already waited ``timeout`` seconds, and the durable
    job queue retries memory work later anyway.
    """
    if isinstance(exc, openai.APITimeoutError):
        return False
    if isinstance(err, RateLimitedError):
        return "quota" not in str(err).lower()
    if isinstance(exc, openai.APIConnectionError):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def _is_refusal(exc: BaseException) -> bool:
    """Did the endpoint refuse the ``response_format`` (DeepSeek: HTTP 400 for json_schema)?

    Any 400/422 counts, except one about the context length (that would fail in every mode).
    """
    if not isinstance(exc, openai.APIStatusError) or exc.status_code not in (400, 422):
        return False
    _, message = _error_fields(exc)
    low = message.lower()
    return not any(
        w in low for w in ("context length", "context_length", "too long", "maximum context")
    )


# --------------------------------------------------------------------------------------------
# The mode cache: per (base URL, model), the structured-output mode that worked.


class JsonModeCache:
    """Thread-safe memory of which structured-output mode each (endpoint, model) accepts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._modes: dict[tuple[str, str], str] = {}

    def get(self, base_url: str, model: str) -> str | None:
        with self._lock:
            return self._modes.get((normalize_base_url(base_url), model))

    def set(self, base_url: str, model: str, mode: str) -> None:
        with self._lock:
            self._modes[(normalize_base_url(base_url), model)] = mode

    def clear(self) -> None:
        with self._lock:
            self._modes.clear()


#: Shared by every client of the process: rebuilding the client after a settings change must
#: not pay for the refused modes again.
DEFAULT_MODE_CACHE = JsonModeCache()


# --------------------------------------------------------------------------------------------
# Prompt additions for the weaker modes

_SCHEMA_INSTRUCTION = (
    "\n\n## 输出格式 / Output format\n"
    "只输出一个 JSON 对象，不要输出其他文字，不要使用 Markdown。该 JSON 必须符合以下 JSON Schema：\n"
    "Answer with one JSON object only (no other text, no Markdown), valid against this JSON Schema:\n"
    "{schema}"
)
_RETRY_INSTRUCTION = (
    "你上一次的回答无效：{reason}\n请改正后重新回答，只输出符合要求的 JSON 对象。\n"
    "Your previous answer was invalid: {reason}\nAnswer again with a corrected JSON object only."
)


class ChatStream:
    """Iterator of text deltas of a streamed reply.

    After the iteration ends, ``usage`` holds the tokens (the endpoint's final usage chunk,
    or an estimate), ``text`` the whole reply, ``cancelled`` whether it was stopped.
    ``cancel()`` may be called from another thread (the UI's stop button): it closes the
    connection, so a worker blocked on a slow chunk wakes up at once.
    """

    def __init__(
        self,
        open_stream: Callable[[], Any],
        messages: Sequence[Message],
        cancel: threading.Event | None,
        on_done: Callable[[Usage], None],
    ) -> None:
        self._open = open_stream
        self._messages = messages
        self._cancel = cancel or threading.Event()
        self._on_done = on_done
        self._stream: Any = None
        self._parts: list[str] = []
        self.usage: Usage | None = None
        self.finish_reason: str | None = None
        self.model: str = ""
        self.cancelled = False
        self._done = False

    @property
    def text(self) -> str:
        return "".join(self._parts)

    def cancel(self) -> None:
        self._cancel.set()
        stream = self._stream
        if stream is None:
            return
        # Closing the response from another thread does not wake a thread blocked in recv();
        # shutting the socket down does (the read then fails and the iteration ends quietly).
        try:
            response = getattr(stream, "response", None)
            network = response.extensions.get("network_stream") if response is not None else None
            sock = network.get_extra_info("socket") if network is not None else None
            if sock is not None:
                sock.shutdown(socket.SHUT_RDWR)
        except Exception:  # best effort: the close below still stops the stream
            log.debug("socket shutdown on cancel failed", exc_info=True)
        try:
            stream.close()
        except Exception:  # closing a half-read socket may raise; it is closed either way
            log.debug("closing a cancelled stream raised", exc_info=True)

    def __iter__(self) -> Iterator[str]:
        return self._iterate()

    def _iterate(self) -> Iterator[str]:
        if self._done:
            return
        reported: Usage | None = None
        try:
            if self._cancel.is_set():
                self.cancelled = True
                return
            self._stream = self._open()
            if self._cancel.is_set():  # stopped while we waited for the response headers
                self.cancelled = True
                return
            try:
                for chunk in self._stream:
                    if self._cancel.is_set():
                        self.cancelled = True
                        break
                    if getattr(chunk, "model", None):
                        self.model = chunk.model
                    if getattr(chunk, "usage", None) is not None:
                        reported = _usage_from(chunk.usage)
                    for choice in chunk.choices or ():
                        delta = getattr(choice.delta, "content", None) if choice.delta else None
                        if choice.finish_reason:
                            self.finish_reason = choice.finish_reason
                        if delta:
                            self._parts.append(delta)
                            yield delta
                            if self._cancel.is_set():
                                self.cancelled = True
                                break
                    if self.cancelled:
                        break
            except Exception as exc:
                if self._cancel.is_set():  # the error is our own close(): a normal stop
                    self.cancelled = True
                else:
                    err = map_openai_error(exc)
                    if isinstance(err, EndpointUnreachableError) and self._parts:
                        # Bytes had arrived: the endpoint was reachable, the stream broke.
                        err = BadResponseError(f"stream cut after {len(self.text)} chars: {exc}")
                    raise err from exc
            if not self.cancelled and self.finish_reason is None:
                raise BadResponseError(
                    f"stream ended without a finish reason after {len(self.text)} chars (cut?)"
                )
        finally:
            self._done = True
            if self._stream is not None:
                try:
                    self._stream.close()
                except Exception:
                    log.debug("closing a stream raised", exc_info=True)
            if reported is not None and not self.cancelled:
                self.usage = reported
            else:
                self.usage = Usage(
                    estimate_messages_tokens(self._messages), estimate_tokens(self.text), True
                )
            self._on_done(self.usage)


def _usage_from(usage: Any) -> Usage | None:
    if usage is None:
        return None
    p = getattr(usage, "prompt_tokens", None)
    c = getattr(usage, "completion_tokens", None)
    if p is None and c is None:
        return None
    return Usage(int(p or 0), int(c or 0), False)


class LLMClient:
    """Chat, streaming chat, structured JSON and the model list for one configured endpoint.

    Thread-safe: the SDK client is, and the meter and the mode cache lock.
    """

    def __init__(
        self,
        config: LLMConfig,
        *,
        meter: TokenMeter | None = None,
        mode_cache: JsonModeCache | None = None,
        sleep: Callable[[float], None] = time.sleep,
        max_retry_after: float = 20.0,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
    ) -> None:
        self.config = config
        self.meter = meter if meter is not None else TokenMeter()
        self.mode_cache = mode_cache if mode_cache is not None else DEFAULT_MODE_CACHE
        self._sleep = sleep
        self._max_retry_after = max_retry_after
        self._backoff_base = backoff_base
        self._backoff_max = backoff_max
        self._client = build_openai_client(config)

    def __repr__(self) -> str:  # the config's repr already hides the key
        return f"LLMClient({self.config!r})"

    def close(self) -> None:
        self._client.close()

    # -- retries ---------------------------------------------------------------------------

    def _call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` with retries on transient failures; raise a mapped LexMem error."""
        attempt = 0
        while True:
            try:
                return fn()
            except Exception as exc:
                if isinstance(exc, openai.APIStatusError) and _is_refusal(exc):
                    raise  # the structured-output chain decides what a 400 means
                err = map_openai_error(exc)
                if attempt >= self.config.max_retries or not _is_transient(err, exc):
                    raise err from exc
                delay = self._backoff(attempt)
                if isinstance(err, RateLimitedError) and err.retry_after is not None:
                    if err.retry_after > self._max_retry_after:
                        # Waiting minutes inside a call blocks the chat; the caller (or the
                        # job queue) can come back after err.retry_after.
                        raise err from exc
                    delay = err.retry_after
                attempt += 1
                log.info("LLM call failed (%s); retry %d in %.1fs", err, attempt, delay)
                self._sleep(delay)

    def _backoff(self, attempt: int) -> float:
        base = min(self._backoff_max, self._backoff_base * (2**attempt))
        return base * (0.5 + random.random() / 2)  # jitter: no thundering herd after an outage

    # -- chat --------------------------------------------------------------------------------

    def chat(
        self,
        messages: Sequence[Message],
        model: str | None = None,
        *,
        purpose: str = "chat",
        temperature: float | None = None,
    ) -> ChatResult:
        """One non-streamed reply."""
        model = model or self.config.chat_model
        kwargs: dict[str, Any] = {}
        if temperature is not None:
            kwargs["temperature"] = temperature
        resp = self._call_refusal_as_error(
            lambda: self._client.chat.completions.create(
                model=model, messages=list(messages), **kwargs
            )
        )
        text, finish = _first_choice(resp)
        usage = _usage_from(getattr(resp, "usage", None)) or Usage(
            estimate_messages_tokens(messages), estimate_tokens(text), True
        )
        self.meter.record(purpose, usage)
        return ChatResult(text, usage, getattr(resp, "model", "") or model, finish)

    def _call_refusal_as_error(self, fn: Callable[[], Any]) -> Any:
        try:
            return self._call(fn)
        except openai.APIStatusError as exc:  # a 400 outside the structured chain
            raise map_openai_error(exc) from exc

    def stream_chat(
        self,
        messages: Sequence[Message],
        cancel: threading.Event | None = None,
        model: str | None = None,
        *,
        purpose: str = "chat",
        temperature: float | None = None,
    ) -> ChatStream:
        """A streamed reply: iterate the returned :class:`ChatStream` for text deltas.

        Connection errors, 429 and 5xx before the first delta are retried like any call; a
        stream that breaks afterwards raises :class:`BadResponseError` (partial text stays in
        ``stream.text``). Setting ``cancel`` (or calling ``stream.cancel()``) stops it quietly.
        """
        model = model or self.config.chat_model
        kwargs: dict[str, Any] = {}
        if temperature is not None:
            kwargs["temperature"] = temperature

        def open_stream() -> Any:
            def create(with_usage: bool) -> Any:
                extra = {"stream_options": {"include_usage": True}} if with_usage else {}
                return self._client.chat.completions.create(
                    model=model, messages=list(messages), stream=True, **extra, **kwargs
                )

            try:
                return self._call(lambda: create(True))
            except openai.APIStatusError as exc:
                # Some older servers and proxies reject stream_options: stream without it (the
                # usage is then estimated) rather than fail the chat.
                if "stream_options" not in str(exc.body or exc):
                    raise map_openai_error(exc) from exc
                return self._call_refusal_as_error(lambda: create(False))

        return ChatStream(
            open_stream, list(messages), cancel, lambda u: self.meter.record(purpose, u)
        )

    # -- structured output ---------------------------------------------------------------------

    def complete_json(
        self,
        system: str,
        user: str,
        schema: dict,
        name: str,
        model: str | None = None,
        *,
        purpose: str = "json",
        check: Callable[[dict], None] | None = None,
    ) -> tuple[dict, Usage]:
        """A JSON object valid against ``schema``, through the structured-output chain.

        json_schema → (refused) json_object with the schema in the prompt → (refused) plain
        text with the JSON extracted. An invalid answer (not JSON, schema mismatch, or
        ``check`` raising ``ValueError``) is retried once with the reason appended; a second
        invalid answer raises :class:`BadResponseError` with the reason. Returns the object
        and the summed usage of the calls it took.
        """
        model = model or self.config.effective_memory_model
        total = Usage()
        reason = ""
        previous = ""
        for attempt in range(2):
            resp_text, usage = self._json_call(system, user, schema, name, model, previous, reason)
            total = total + usage
            self.meter.record(purpose, usage)
            try:
                value = extract_json(resp_text)
                if not isinstance(value, dict):
                    raise SchemaValidationError(["$: expected a JSON object"])
                validate(value, schema)
                if check is not None:
                    check(value)
                return value, total
            except ValueError as exc:
                reason = str(exc) or type(exc).__name__
                previous = resp_text
                log.warning(
                    "invalid structured answer for %s (attempt %d): %s", name, attempt + 1, reason
                )
        raise BadResponseError(
            f"{name}: invalid answer after a retry: {reason}",
        )

    def _json_call(
        self,
        system: str,
        user: str,
        schema: dict,
        name: str,
        model: str,
        previous: str,
        reason: str,
    ) -> tuple[str, Usage]:
        base = self.config.base_url
        start = self.mode_cache.get(base, model) or self.config.json_mode_hint or JSON_MODES[0]
        modes = JSON_MODES[JSON_MODES.index(start) :] if start in JSON_MODES else JSON_MODES
        last_refusal: BaseException | None = None
        for mode in modes:
            messages = _json_messages(mode, system, user, schema, previous, reason)
            kwargs: dict[str, Any] = {}
            if mode == "json_schema":
                kwargs["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": name, "schema": schema, "strict": True},
                }
            elif mode == "json_object":
                kwargs["response_format"] = {"type": "json_object"}
            try:
                resp = self._call(
                    lambda m=messages, k=kwargs: self._client.chat.completions.create(
                        model=model, messages=m, temperature=0, **k
                    )
                )
            except openai.APIStatusError as exc:
                # _call re-raises refusals untouched. In text mode nothing is left to drop.
                if mode == "text":
                    raise map_openai_error(exc) from exc
                log.info("endpoint %s refused %s for %s: %s", base, mode, model, exc)
                last_refusal = exc
                continue
            if self.mode_cache.get(base, model) != mode:
                self.mode_cache.set(base, model, mode)
            text, _ = _first_choice(resp)
            usage = _usage_from(getattr(resp, "usage", None)) or Usage(
                estimate_messages_tokens(messages), estimate_tokens(text), True
            )
            return text, usage
        raise map_openai_error(last_refusal or BadResponseError("no structured-output mode"))

    # -- models ------------------------------------------------------------------------------

    def list_models(self) -> list[str]:
        """Model ids the endpoint offers (``/models``), sorted."""
        page = self._call_refusal_as_error(lambda: self._client.models.list())
        try:
            ids = {m.id for m in page.data if getattr(m, "id", None)}
        except (AttributeError, TypeError) as exc:
            raise BadResponseError(f"malformed /models answer: {exc}") from exc
        return sorted(ids)

    def test_connection(self) -> list[str]:
        """For the settings dialog: the model list, or a one-word chat when ``/models`` is
        missing (some proxies lack it). Raises the mapped error otherwise."""
        try:
            return self.list_models()
        except (EndpointUnreachableError, ModelNotFoundError) as exc:
            if "404" not in str(exc):
                raise
        self.chat([{"role": "user", "content": "ping"}], purpose="test")
        return []


def _first_choice(resp: Any) -> tuple[str, str | None]:
    choices = getattr(resp, "choices", None)
    if not choices:
        raise BadResponseError(f"response without choices: {str(resp)[:200]}")
    msg = getattr(choices[0], "message", None)
    content = getattr(msg, "content", None) if msg is not None else None
    if content is None:
        # Some local servers put the answer in reasoning_content only; take it over nothing.
        content = getattr(msg, "reasoning_content", None) if msg is not None else None
    if not isinstance(content, str):
        raise BadResponseError("response without message content")
    return content, getattr(choices[0], "finish_reason", None)


def _json_messages(
    mode: str, system: str, user: str, schema: dict, previous: str, reason: str
) -> list[dict[str, str]]:
    sys_text = system
    if mode != "json_schema":
        # DeepSeek's json_object requires the word "json" in the prompt; the schema goes there
        # because the endpoint will not enforce it.
        sys_text = system + _SCHEMA_INSTRUCTION.format(
            schema=json.dumps(schema, ensure_ascii=False, indent=1)
        )
    messages = [{"role": "system", "content": sys_text}, {"role": "user", "content": user}]
    if reason:
        messages.append({"role": "assistant", "content": previous[:4000]})
        messages.append({"role": "user", "content": _RETRY_INSTRUCTION.format(reason=reason)})
    return messages
