"""Turn any exception from a chat turn into words a lawyer understands and a fixing action."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from desktop_app.core import errors
from desktop_app.core.errors import ProviderNotConfiguredError

FixAction = Literal["settings", "retry", "none"]


@dataclass(frozen=True, slots=True)
class Problem:
    kind: str  # a stable code the UI maps to its own translated wording
    user_message: str  # bilingual fallback from the exception tree
    actions: tuple[FixAction, ...]
    technical: str


_KINDS: tuple[tuple[type[BaseException], str, tuple[FixAction, ...]], ...] = (
    (ProviderNotConfiguredError, "not_configured", ("settings",)),
    (errors.AuthenticationError, "auth", ("settings",)),
    (errors.ModelNotFoundError, "model_missing", ("settings",)),
    (errors.RateLimitedError, "rate_limited", ("retry",)),
    (errors.EndpointUnreachableError, "unreachable", ("retry", "settings")),
    (errors.BadResponseError, "bad_response", ("retry",)),
    (errors.LLMError, "llm", ("retry", "settings")),
    (errors.StorageError, "storage", ("retry",)),
    (errors.LexMemError, "generic", ("retry",)),
)


def describe_error(exc: BaseException) -> Problem:
    for cls, kind, actions in _KINDS:
        if isinstance(exc, cls):
            return Problem(kind, exc.user_message, actions, f"{type(exc).__name__}: {exc}")  # type: ignore[attr-defined]
    return Problem(
        "unexpected",
        errors.LexMemError.default_user_message,
        ("retry",),
        f"{type(exc).__name__}: {exc}",
    )
