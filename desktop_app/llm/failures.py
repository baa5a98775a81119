"""What went wrong with a call: SDK exceptions mapped to the LexMem error tree, and the cause of
an HTTP 400 read from its body.

A 400 from an OpenAI-compatible endpoint means very different things: DeepSeek refusing the
``json_schema`` response format (→ try the next structured-output mode), OpenAI o-series and
gpt-5 refusing ``temperature=0`` or ``max_tokens`` (→ drop or rename the parameter and remember
that for the endpoint and model), a prompt longer than the context window, or anything else.
:func:`classify_bad_request` tells them apart from the body — the only place they differ.
"""

from __future__ import annotations

import email.utils
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import openai

from desktop_app.core.errors import (
    AuthenticationError,
    BadResponseError,
    ContextTooLongError,
    EndpointUnreachableError,
    LLMError,
    ModelNotFoundError,
    RateLimitedError,
    RequestRejectedError,
)

# --------------------------------------------------------------------------------------------
# The body of an error


def error_fields(body: Any) -> tuple[str, str, str]:
    """``(code, param, message)`` of an error body, whatever shape the endpoint used: OpenAI's
    ``{"error": {...}}``, LM Studio's ``{"error": "text"}``, FastAPI's ``{"detail": ...}``,
    or plain text."""
    if isinstance(body, Mapping) and "error" in body:
        body = body["error"]
    code = param = message = ""
    if isinstance(body, Mapping):
        code = str(body.get("code") or body.get("type") or "")
        param = str(body.get("param") or "")
        message = str(body.get("message") or body.get("detail") or "")
        if not message and body:
            message = json.dumps(body, ensure_ascii=False, default=str)
    elif isinstance(body, str):
        message = body
    elif body is not None:
        message = json.dumps(body, ensure_ascii=False, default=str)
    return code, param, message


def _fields(exc: openai.APIStatusError) -> tuple[str, str, str]:
    code, param, message = error_fields(exc.body)
    return code, param, message or str(exc)


# --------------------------------------------------------------------------------------------
# HTTP 400: why?

CauseKind = Literal["format", "parameter", "context", "other"]

#: Parameters never dropped: without them there is no request.
_ESSENTIAL = frozenset({"model", "messages", "stream"})
_BUDGET_PARAMS = ("max_tokens", "max_completion_tokens")

_CONTEXT = re.compile(
    r"context[ _]length|maximum context|context window|reduce the length of the messages|"
    r"prompt is too long|上下文",
    re.IGNORECASE,
)
_FORMAT = re.compile(
    r"response_format|json_schema|json_object|structured output|json mode|guided_json",
    re.IGNORECASE,
)
_UNSUPPORTED_NAMED = re.compile(
    r"unsupported (?:value|parameter):\s*'([A-Za-z_.]+)'", re.IGNORECASE
)
_REFUSAL_WORDS = re.compile(
    r"unsupported|not supported|unrecognized|unrecogni[sz]ed|unknown|invalid|not allowed|"
    r"not permitted|does not support|extra (?:fields|inputs)|不支持|无效",
    re.IGNORECASE,
)
_USE_INSTEAD = re.compile(r"use '([A-Za-z_]+)' instead", re.IGNORECASE)
_LIMIT = re.compile(
    r"\[\s*\d+\s*,\s*(\d+)\s*\]|at most (\d+)|less than or equal to `?(\d+)|<=\s*(\d+)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class BadRequestCause:
    """Why the endpoint refused a request.

    ``kind``: ``format`` (the response format), ``parameter`` (``param`` — to rename to
    ``rename``, or to cap at ``limit``, or else to drop), ``context`` (the prompt is too long
    for the model) or ``other``.
    """

    kind: CauseKind
    param: str | None = None
    rename: str | None = None
    limit: int | None = None
    message: str = ""


def classify_bad_request(
    status: int, body: Any, sent: set[str] | frozenset[str]
) -> BadRequestCause:
    """The cause of an HTTP 400/422 whose ``body`` answered a request with the keys ``sent``."""
    code, param, message = error_fields(body)
    text = " ".join((code, param, message))
    if _CONTEXT.search(text):
        return BadRequestCause("context", message=message)
    if "response_format" in sent and (param == "response_format" or _FORMAT.search(text)):
        return BadRequestCause("format", message=message)
    name = _refused_parameter(param, message, sent)
    if name is None:
        return BadRequestCause("other", message=message)
    rename = limit = None
    if name in _BUDGET_PARAMS:
        m = _USE_INSTEAD.search(message)
        if m and m.group(1) != name and m.group(1) in _BUDGET_PARAMS:
            rename = m.group(1)
        elif lm := _LIMIT.search(message):
            limit = int(next(g for g in lm.groups() if g))
    return BadRequestCause("parameter", name, rename, limit, message)


def _refused_parameter(param: str, message: str, sent: set[str] | frozenset[str]) -> str | None:
    candidates = [p for p in sent if p not in _ESSENTIAL and p != "response_format"]
    if param in candidates:
        return param
    m = _UNSUPPORTED_NAMED.search(message)
    if m and m.group(1) in candidates:
        return m.group(1)
    if _REFUSAL_WORDS.search(message):
        # the longest name first: "max_completion_tokens" before a shorter one it contains
        for name in sorted(candidates, key=len, reverse=True):
            if re.search(rf"(?<![A-Za-z_]){re.escape(name)}(?![A-Za-z_])", message):
                return name
    return None


# --------------------------------------------------------------------------------------------
# Mapping to the error tree


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
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


def rejected_error(exc: openai.APIStatusError, cause: BadRequestCause | None = None) -> LLMError:
    """The error for a 400/422 that no fallback fixes."""
    code, _, message = _fields(exc)
    detail = f"HTTP {exc.status_code} {code}: {message}".strip()
    if cause is not None and cause.kind == "context":
        err: LLMError = ContextTooLongError(detail)
    else:
        err = RequestRejectedError(detail)
    err.http_status = exc.status_code
    return err


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
        err = _status_error(exc)
        err.http_status = exc.status_code
        return err
    if isinstance(exc, RecursionError):
        return BadResponseError("the response is nested too deeply to read")
    if isinstance(exc, openai.APIResponseValidationError | ValueError):
        return BadResponseError(f"malformed response: {exc}")
    return BadResponseError(f"{type(exc).__name__}: {exc}")


def _status_error(exc: openai.APIStatusError) -> LLMError:
    """The LexMem error for an HTTP error status."""
    status = exc.status_code
    code, _, message = _fields(exc)
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
        return RateLimitedError(detail, retry_after=retry_after_seconds(exc.response.headers))
    if status in (400, 422):
        return rejected_error(exc, classify_bad_request(status, exc.body, frozenset()))
    return BadResponseError(detail)


def is_bad_request(exc: BaseException) -> bool:
    return isinstance(exc, openai.APIStatusError) and exc.status_code in (400, 422)


def is_transient(err: LLMError, exc: BaseException) -> bool:
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
