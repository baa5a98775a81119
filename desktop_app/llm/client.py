"""One client for any OpenAI-compatible endpoint (DeepSeek, OpenAI, Ollama, LM Studio, custom).

Built on the ``openai`` package, but never trusting its environment defaults: openai 3.x reads
``OPENAI_API_KEY``, ``OPENAI_ADMIN_KEY``, ``OPENAI_BASE_URL``, ``OPENAI_ORG_ID``,
``OPENAI_PROJECT_ID``, ``OPENAI_WEBHOOK_SECRET`` and ``OPENAI_CUSTOM_HEADERS`` whenever the
matching argument is missing, and ``OPENAI_CUSTOM_HEADERS`` is merged into every request.
A lawyer's stale shell variable must not send a case to another endpoint or under another
account, so :func:`build_openai_client` passes everything explicitly and then removes what the
environment added (see the tests in ``tests/llm/test_llm_env.py``, one per variable). The
proxy is explicit too (:mod:`.proxy`): the environment's proxy variables count only when the
user chose the system proxy.

The SDK's own retries are off (``max_retries=0``): this module retries itself, so that sleeps
are injectable (fast tests), ``Retry-After`` is capped, and every failure ends up as one of the
errors in :mod:`desktop_app.core.errors`.

Every request goes through :meth:`LLMClient._create`, which adapts it to what the endpoint is
known to accept (:mod:`.knowledge`) and learns from an HTTP 400 that names a refused parameter
(:mod:`.failures`): the parameter is dropped, renamed or capped, remembered, and the request
sent again — once per parameter, never in a loop.
"""

from __future__ import annotations

import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import openai
from openai import Omit

from desktop_app.core.errors import (
    BadResponseError,
    EndpointUnreachableError,
    InvalidAnswerError,
    LexMemWarning,
    ModelNotFoundError,
    RateLimitedError,
    RequestRejectedError,
    TruncatedResponseError,
    error_summary,
)
from desktop_app.core.redaction import remember_secret

from .abort import current_scope
from .failures import (
    classify_bad_request,
    is_bad_request,
    is_transient,
    map_openai_error,
    rejected_error,
)
from .knowledge import DEFAULT_MODE_CACHE, JSON_MODES, EndpointKnowledge, JsonModeCache
from .presets import normalize_base_url
from .proxy import ProxyPolicy, connection_warnings, resolve_proxy
from .reasoning import split_reasoning
from .schema import conform, extract_json, wire_schema
from .stream import ChatStream, StreamResult, usage_from
from .tokens import TokenMeter, Usage, estimate_messages_tokens, estimate_tokens

__all__ = [
    "DEFAULT_MODE_CACHE",
    "JSON_MODES",
    "ChatResult",
    "ChatStream",
    "JsonModeCache",
    "LLMClient",
    "LLMConfig",
    "StreamResult",
    "StructuredResult",
    "build_openai_client",
    "map_openai_error",
]

log = logging.getLogger(__name__)

Message = Mapping[str, Any]

#: Placeholder sent when an endpoint needs no key (Ollama, LM Studio). Never empty: the SDK
#: would then look for ``OPENAI_API_KEY``.
NO_KEY = "no-key-required"

#: Headers the SDK may fill from the environment (OPENAI_ORG_ID / OPENAI_PROJECT_ID): always
#: omitted — LexMem has no notion of an OpenAI organisation or project.
_OMITTED_HEADERS = ("OpenAI-Organization", "OpenAI-Project")

#: The budget of a structured answer retried after ``finish_reason: "length"``: at least this,
#: twice what was cut, never more than the cap (and never above what the endpoint allows).
TRUNCATION_RETRY_MIN_TOKENS = 4096
TRUNCATION_RETRY_MAX_TOKENS = 32768


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
    #: The proxy choice (default: none; local and LAN endpoints are always direct).
    proxy: ProxyPolicy = field(default_factory=ProxyPolicy)
    #: Token budget of a structured answer (None: the endpoint's default).
    json_max_tokens: int | None = None

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
    """A non-streamed reply: ``text`` is the answer, ``reasoning`` the thinking (if shown)."""

    text: str
    usage: Usage
    model: str = ""
    finish_reason: str | None = None
    reasoning: str = ""

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"


@dataclass(frozen=True, slots=True)
class StructuredResult:
    """A structured answer: the object, the summed usage of the calls it took, the repairs
    the tolerant validation made (see :func:`.schema.conform`) and the mode that worked."""

    value: dict
    usage: Usage
    coercions: tuple[str, ...] = ()
    mode: str = ""


# --------------------------------------------------------------------------------------------
# Building the SDK client


def build_openai_client(config: LLMConfig) -> openai.OpenAI:
    """An ``openai.OpenAI`` bound to exactly this endpoint, key and proxy, whatever the
    environment (the proxy is what the config's policy resolves to)."""
    _require_base_url(config)
    return _openai_client(config, resolve_proxy(config.proxy, normalize_base_url(config.base_url)))


def _require_base_url(config: LLMConfig) -> None:
    if not config.base_url or not config.base_url.strip():
        raise EndpointUnreachableError(
            "no base URL configured",
            user_message="尚未设置模型服务地址。 / No model endpoint is configured.",
        )


def _openai_client(config: LLMConfig, proxy_url: str | None) -> openai.OpenAI:
    from .transport import build_http_client  # imports httpcore: only once a client is built

    base_url = normalize_base_url(config.base_url)
    key = (config.api_key or "").strip() or NO_KEY
    # The Authorization header is set explicitly as well: with it present the SDK drops any
    # Authorization line from OPENAI_CUSTOM_HEADERS.
    headers: dict[str, Any] = {"Authorization": f"Bearer {key}"}
    headers.update({h: Omit() for h in _OMITTED_HEADERS})
    http_client = build_http_client(proxy_url, system_certificates=config.proxy.mode == "system")
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
# Prompt additions for the weaker modes

# Stated once, in the prompt's own language (the memory steps write Chinese prompts for
# Chinese notes, English ones for English notes): a bilingual copy doubled the tokens.
_SCHEMA_INSTRUCTION = {
    "zh": "\n\n只输出一个符合以下 JSON Schema 的 JSON 对象，不要其他文字或 Markdown：\n{schema}",
    "en": (
        "\n\nAnswer with one JSON object only (no other text, no Markdown), valid against "
        "this JSON Schema:\n{schema}"
    ),
}
_RETRY_INSTRUCTION = {
    "zh": "你上一次的回答无效：{reason}\n请改正后重新回答，只输出 JSON 对象。",
    "en": "Your previous answer was invalid: {reason}\nAnswer again with a corrected JSON object only.",
}
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _language(text: str) -> str:
    return "zh" if _CJK.search(text) else "en"


class _FormatRefused(Exception):
    """The endpoint refused the response format (internal: the chain tries the next mode)."""

    def __init__(self, cause: openai.APIStatusError) -> None:
        super().__init__(str(cause))
        self.cause = cause


@dataclass(frozen=True, slots=True)
class _Answer:
    text: str
    finish_reason: str | None
    usage: Usage
    mode: str


class LLMClient:
    """Chat, streaming chat, structured JSON and the model list for one configured endpoint.

    Thread-safe: the SDK client is, and the meter and the endpoint knowledge lock.

    ``warnings``: what the user should be told before using this endpoint (a key over plain
    http to a remote host); ``proxy_url``: the proxy its requests go through, or None.
    Raises :class:`desktop_app.core.errors.ProxyConfigError` when the proxy choice cannot work.
    """

    def __init__(
        self,
        config: LLMConfig,
        *,
        meter: TokenMeter | None = None,
        mode_cache: EndpointKnowledge | None = None,
        sleep: Callable[[float], None] = time.sleep,
        max_retry_after: float = 20.0,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
    ) -> None:
        self.config = config
        self.meter = meter if meter is not None else TokenMeter()
        self.knowledge = mode_cache if mode_cache is not None else DEFAULT_MODE_CACHE
        self._sleep = sleep
        self._max_retry_after = max_retry_after
        self._backoff_base = backoff_base
        self._backoff_max = backoff_max
        _require_base_url(config)
        remember_secret(config.api_key)  # scrubbed from logs and dialogs, whatever its shape
        base = normalize_base_url(config.base_url)
        self.proxy_url: str | None = resolve_proxy(config.proxy, base)
        self.warnings: tuple[LexMemWarning, ...] = connection_warnings(base, config.api_key)
        for warning in self.warnings:
            log.warning("%s: %s", type(warning).__name__, warning)
        self._client = _openai_client(config, self.proxy_url)

    @property
    def mode_cache(self) -> EndpointKnowledge:  # the former name
        return self.knowledge

    def __repr__(self) -> str:  # the config's repr already hides the key
        return f"LLMClient({self.config!r})"

    def close(self) -> None:
        self._client.close()

    # -- retries ---------------------------------------------------------------------------

    def _call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` with retries on transient failures; raise a mapped LexMem error.

        HTTP 400/422 come out raw: only :meth:`_create` knows what was sent and can tell a
        refused parameter from a refused format from a plain error.
        """
        attempt = 0
        while True:
            try:
                return fn()
            except Exception as exc:
                if is_bad_request(exc):
                    raise
                err = map_openai_error(exc)
                if attempt >= self.config.max_retries or not is_transient(err, exc):
                    raise err from exc
                scope = current_scope()
                if scope is not None and scope.aborted:  # stopped: no new request
                    raise err from exc
                delay = self._backoff(attempt)
                if isinstance(err, RateLimitedError) and err.retry_after is not None:
                    if err.retry_after > self._max_retry_after:
                        # Waiting minutes inside a call blocks the chat; the caller (or the
                        # job queue) can come back after err.retry_after.
                        raise err from exc
                    delay = err.retry_after
                attempt += 1
                # the class and status only: the endpoint's message may quote the note or key
                log.info(
                    "LLM call failed (%s); retry %d in %.1fs", error_summary(err), attempt, delay
                )
                self._sleep(delay)

    def _backoff(self, attempt: int) -> float:
        base = min(self._backoff_max, self._backoff_base * (2**attempt))
        return base * (0.5 + random.random() / 2)  # jitter: no thundering herd after an outage

    def _create(
        self,
        model: str,
        messages: list[Any],
        params: Mapping[str, Any],
        *,
        stream: bool = False,
    ) -> Any:
        """One chat-completions request, adapted to what the endpoint accepts.

        A 400 naming a parameter we sent is learnt (drop / rename / cap) and the request sent
        again; a refused response format raises :class:`_FormatRefused`; any other 400 is a
        :class:`RequestRejectedError` at once.
        """
        base = self.config.base_url
        for _ in range(len(params) + 1):
            effective = self.knowledge.facts(base, model).apply(params)
            if stream:
                effective["stream"] = True
            try:
                return self._call(
                    lambda kw=effective: self._client.chat.completions.create(
                        model=model, messages=messages, **kw
                    )
                )
            except openai.APIStatusError as exc:
                if not is_bad_request(exc):
                    raise
                cause = classify_bad_request(
                    exc.status_code, exc.body, frozenset(effective) | {"model", "messages"}
                )
                if cause.kind == "format":
                    raise _FormatRefused(exc) from exc
                if cause.kind == "parameter" and cause.param is not None:
                    learnt = self.knowledge.learn_refused(
                        base, model, cause.param, rename=cause.rename, limit=cause.limit
                    )
                    if learnt:
                        log.info(
                            "endpoint %s (%s) refused %r: adapted and remembered",
                            normalize_base_url(base),
                            model,
                            cause.param,
                        )
                        continue
                raise rejected_error(exc, cause) from exc
        raise RequestRejectedError(f"the endpoint kept refusing parameters of {sorted(params)}")

    # -- chat --------------------------------------------------------------------------------

    def chat(
        self,
        messages: Sequence[Message],
        model: str | None = None,
        *,
        purpose: str = "chat",
        temperature: float | None = None,
    ) -> ChatResult:
        """One non-streamed reply (its thinking, if any, apart in ``reasoning``)."""
        model = model or self.config.chat_model
        params: dict[str, Any] = {}
        if temperature is not None:
            params["temperature"] = temperature
        resp = self._create_plain(model, list(messages), params)
        content, reasoning, finish = _first_choice(resp)
        answer, thinking = split_reasoning(content)
        usage = usage_from(getattr(resp, "usage", None)) or Usage(
            estimate_messages_tokens(messages), estimate_tokens(content), True
        )
        self.meter.record(purpose, usage)
        reasoning = "\n".join(r for r in (reasoning.strip(), thinking) if r)
        return ChatResult(answer, usage, getattr(resp, "model", "") or model, finish, reasoning)

    def _create_plain(
        self, model: str, messages: list[Any], params: Mapping[str, Any], **kw: Any
    ) -> Any:
        try:
            return self._create(model, messages, params, **kw)
        except _FormatRefused as refused:  # cannot happen without a response_format; be safe
            raise rejected_error(refused.cause) from refused.cause

    def stream_chat(
        self,
        messages: Sequence[Message],
        cancel: threading.Event | None = None,
        model: str | None = None,
        *,
        purpose: str = "chat",
        temperature: float | None = None,
    ) -> ChatStream:
        """A streamed reply: iterate the returned :class:`ChatStream` for the answer's text
        deltas, or its ``events()`` for answer and reasoning apart.

        Nothing is sent until the iteration starts. Setting ``cancel`` (or calling
        ``stream.cancel()``) stops it within a fraction of a second in any phase, keeping the
        partial answer (``stream.result().stopped``). Connection errors, 429 and 5xx before
        the first delta are retried like any call; a stream that breaks afterwards raises
        :class:`BadResponseError` (partial text stays in ``stream.text``).
        """
        model = model or self.config.chat_model
        params: dict[str, Any] = {"stream_options": {"include_usage": True}}
        if temperature is not None:
            params["temperature"] = temperature
        sent = list(messages)
        return ChatStream(
            lambda: self._create_plain(model, sent, params, stream=True),
            sent,
            cancel,
            lambda u: self.meter.record(purpose, u),
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
        max_tokens: int | None = None,
    ) -> tuple[dict, Usage]:
        """A JSON object valid against ``schema``: ``(object, summed usage)``.

        See :meth:`complete_structured`, which also reports the repairs it made.
        """
        result = self.complete_structured(
            system, user, schema, name, model, purpose=purpose, check=check, max_tokens=max_tokens
        )
        return result.value, result.usage

    def complete_structured(
        self,
        system: str,
        user: str,
        schema: dict,
        name: str,
        model: str | None = None,
        *,
        purpose: str = "json",
        check: Callable[[dict], None] | None = None,
        max_tokens: int | None = None,
    ) -> StructuredResult:
        """A JSON object valid against ``schema``, through the structured-output chain.

        json_schema → (refused) json_object with the schema in the prompt → (refused) plain
        text with the JSON extracted; the mode that worked is remembered per endpoint and
        model. The answer is repaired where that is unambiguous (:func:`.schema.conform`),
        then validated; an invalid answer (not JSON, schema mismatch, or ``check`` raising
        ``ValueError``) is retried once with the reason appended, and a second one raises
        :class:`BadResponseError` with the reasons and the repairs. An answer cut off by the
        token budget (``finish_reason: "length"``) is asked again once with a larger budget,
        then raises :class:`TruncatedResponseError`. ``max_tokens``: the first budget (a batch
        of items needs more than one item); default ``config.json_max_tokens``.
        """
        model = model or self.config.effective_memory_model
        budget = max_tokens if max_tokens is not None else self.config.json_max_tokens
        total = Usage()
        reason = previous = ""
        enlarged = False
        attempt = 0
        while attempt < 2:
            answer = self._json_call(system, user, schema, name, model, previous, reason, budget)
            total = total + answer.usage
            self.meter.record(purpose, answer.usage)
            if answer.finish_reason == "length":
                if enlarged:
                    raise TruncatedResponseError(
                        f"{name}: the answer was cut off by the token budget again "
                        f"(max {budget} tokens, {answer.usage.completion_tokens} written)"
                    )
                enlarged = True
                budget = _larger_budget(budget, answer.usage)
                log.info(
                    "%s: answer cut off by the token budget; asking again with %d", name, budget
                )
                continue  # the same question, a bigger budget: not an invalid answer
            try:
                value, coercions = conform(extract_json(answer.text), schema)
                if not isinstance(value, dict):
                    raise InvalidAnswerError("$: expected a JSON object")
                if check is not None:
                    check(value)
            except (ValueError, RecursionError) as exc:
                # RecursionError: a value nested too deeply for the validator or a repr
                reason = str(exc) or type(exc).__name__
                if isinstance(exc, RecursionError):
                    reason = "the JSON is nested too deeply to read"
                previous = answer.text
                attempt += 1
                log.warning(  # not the reason: it quotes the answer, which may quote a note
                    "invalid structured answer for %s (attempt %d): %s",
                    name,
                    attempt,
                    error_summary(exc),
                )
                continue
            if coercions:
                log.info("%s: repaired %d value(s)", name, len(coercions))
            return StructuredResult(value, total, tuple(coercions), answer.mode)
        raise BadResponseError(f"{name}: invalid answer after a retry: {reason}")

    def _json_call(
        self,
        system: str,
        user: str,
        schema: dict,
        name: str,
        model: str,
        previous: str,
        reason: str,
        budget: int | None,
    ) -> _Answer:
        base = self.config.base_url
        start = self.knowledge.get(base, model) or self.config.json_mode_hint or JSON_MODES[0]
        modes = JSON_MODES[JSON_MODES.index(start) :] if start in JSON_MODES else JSON_MODES
        for mode in modes:
            messages = _json_messages(mode, system, user, schema, previous, reason)
            params: dict[str, Any] = {"temperature": 0}
            if budget is not None:
                params["max_tokens"] = budget
            if mode == "json_schema":
                params["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": name, "schema": wire_schema(schema), "strict": True},
                }
            elif mode == "json_object":
                params["response_format"] = {"type": "json_object"}
            try:
                resp = self._create(model, messages, params)
            except _FormatRefused as refused:
                log.info("endpoint %s refused %s for %s: %s", base, mode, model, refused)
                continue
            if self.knowledge.get(base, model) != mode:
                self.knowledge.set(base, model, mode)
            content, reasoning, finish = _first_choice(resp)
            usage = usage_from(getattr(resp, "usage", None)) or Usage(
                estimate_messages_tokens(messages), estimate_tokens(content + reasoning), True
            )
            return _Answer(content, finish, usage, mode)
        raise BadResponseError(f"{name}: the endpoint refused every structured-output mode")

    # -- models ------------------------------------------------------------------------------

    def list_models(self) -> list[str]:
        """Model ids the endpoint offers (``/models``), sorted."""
        page = self._call_mapped(lambda: self._client.models.list())
        try:
            ids = {m.id for m in page.data if getattr(m, "id", None)}
        except (AttributeError, TypeError) as exc:
            raise BadResponseError(f"malformed /models answer: {exc}") from exc
        return sorted(ids)

    def _call_mapped(self, fn: Callable[[], Any]) -> Any:
        try:
            return self._call(fn)
        except openai.APIStatusError as exc:  # a 400 outside chat completions
            raise map_openai_error(exc) from exc

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


def _larger_budget(budget: int | None, usage: Usage) -> int:
    cut_at = budget or usage.completion_tokens
    return min(TRUNCATION_RETRY_MAX_TOKENS, max(TRUNCATION_RETRY_MIN_TOKENS, 2 * cut_at))


def _first_choice(resp: Any) -> tuple[str, str, str | None]:
    """``(content, reasoning field, finish_reason)`` of a non-streamed response."""
    choices = getattr(resp, "choices", None)
    if not choices:
        raise BadResponseError(f"response without choices: {str(resp)[:200]}")
    msg = getattr(choices[0], "message", None)
    content = getattr(msg, "content", None) if msg is not None else None
    reasoning = ""
    if msg is not None:
        field_value = getattr(msg, "reasoning_content", None) or getattr(msg, "reasoning", None)
        reasoning = field_value if isinstance(field_value, str) else ""
    if content is None and reasoning:
        # Some local servers put the answer in reasoning_content only; take it over nothing.
        content, reasoning = reasoning, ""
    if not isinstance(content, str):
        raise BadResponseError("response without message content")
    return content, reasoning, getattr(choices[0], "finish_reason", None)


def _json_messages(
    mode: str, system: str, user: str, schema: dict, previous: str, reason: str
) -> list[dict[str, str]]:
    sys_text = system
    language = _language(system)
    if mode != "json_schema":
        # DeepSeek's json_object requires the word "json" in the prompt; the schema goes there
        # because the endpoint will not enforce it (compact: indentation costs tokens).
        sys_text = system + _SCHEMA_INSTRUCTION[language].format(
            schema=json.dumps(wire_schema(schema), ensure_ascii=False, separators=(",", ":"))
        )
    messages = [{"role": "system", "content": sys_text}, {"role": "user", "content": user}]
    if reason:
        messages.append({"role": "assistant", "content": previous[:4000]})
        retry = _RETRY_INSTRUCTION[language].format(reason=reason)
        messages.append({"role": "user", "content": retry})
    return messages
