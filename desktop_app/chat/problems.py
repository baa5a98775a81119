"""Turn any exception from a chat turn into words a lawyer understands and a fixing action."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from desktop_app.core import errors
from desktop_app.core.errors import ProviderNotConfiguredError

#: "new_chat": start a new conversation (the current one is too long for the model)
FixAction = Literal["settings", "retry", "new_chat", "none"]


@dataclass(frozen=True, slots=True)
class Problem:
    kind: str  # a stable code the UI maps to its own translated wording
    user_message: str  # bilingual fallback from the exception tree
    actions: tuple[FixAction, ...]
    technical: str
    #: the message names this very cause (which proxy setting, a used-up balance, a timeout)
    #: rather than the class's default: the UI must show it, not its generic wording
    specific: bool = False


#: most specific first
_KINDS: tuple[tuple[type[BaseException], str, tuple[FixAction, ...]], ...] = (
    (ProviderNotConfiguredError, "not_configured", ("settings",)),
    (errors.ProxyConfigError, "proxy", ("settings",)),
    (errors.AuthenticationError, "auth", ("settings",)),
    (errors.ModelNotFoundError, "model_missing", ("settings",)),
    (errors.RateLimitedError, "rate_limited", ("retry",)),
    (errors.EndpointUnreachableError, "unreachable", ("retry", "settings")),
    (errors.ConnectionLostError, "connection_lost", ("retry",)),
    (errors.TruncatedResponseError, "truncated", ("retry",)),
    (errors.ContextTooLongError, "context_too_long", ("new_chat",)),
    (errors.RequestRejectedError, "rejected", ("retry", "settings")),
    (errors.BadResponseError, "bad_response", ("retry",)),
    (errors.LLMError, "llm", ("retry", "settings")),
    (errors.StorageError, "storage", ("retry",)),
    (errors.LexMemError, "generic", ("retry",)),
)


def describe_error(exc: BaseException) -> Problem:
    for cls, kind, actions in _KINDS:
        if isinstance(exc, cls):
            message: str = exc.user_message  # type: ignore[attr-defined]
            specific = message != getattr(type(exc), "default_user_message", message)
            return Problem(kind, message, actions, f"{type(exc).__name__}: {exc}", specific)
    return Problem(
        "unexpected",
        errors.LexMemError.default_user_message,
        ("retry",),
        f"{type(exc).__name__}: {exc}",
    )
