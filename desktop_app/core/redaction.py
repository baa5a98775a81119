"""Keeping secrets out of text that leaves the process or reaches a disk.

Two nets, both applied by :func:`redact`:

- the **configured keys themselves**, by their literal value: every key the app reads from
  the keyring or hands to an LLM client is remembered here (in memory only), so it is
  scrubbed whatever its shape — ``sk-…``, 32 hex digits, Zhipu's ``id.secret``, ``AIza…``,
  or anything a provider invents next;
- **shapes** of credentials the app was never told about (a key printed by a library, a
  header, a token in a URL).

The log filter, the crash dialog and the exports call :func:`redact`; stored job errors keep
no text at all (see :func:`desktop_app.core.errors.error_summary`).
"""

from __future__ import annotations

import re
import threading

REDACTED = "***"
#: shorter values are not real keys (tests use "k"); scrubbing them would garble every line
MIN_SECRET_CHARS = 8

_KNOWN: set[str] = set()
_KNOWN_LOCK = threading.Lock()
_KNOWN_PATTERN: re.Pattern[str] | None = None

# keep the label, hide the value
_PREFIXED = (
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]{8,}"),
    re.compile(
        r"(?i)((?:api[_-]?key|authorization|x-api-key|token|secret|password)[\"']?\s*[:=]\s*[\"']?)"
        r"[^\s\"',;}]{4,}"
    ),
)
_WHOLE = (
    re.compile(r"\b(?:sk|pk|rk|ak)-[A-Za-z0-9_\-]{8,}"),
    re.compile(r"\bAIza[0-9A-Za-z_\-]{30,}"),  # Google
    re.compile(r"\b[0-9a-fA-F]{32}\.[A-Za-z0-9]{8,}\b"),  # Zhipu: id.secret
    re.compile(r"\b[A-Za-z0-9_\-]{40,}\b"),
)


def remember_secret(value: str | None) -> None:
    """Scrub ``value`` from everything :func:`redact` sees from now on (this process)."""
    if not isinstance(value, str):
        return
    value = value.strip()
    if len(value) < MIN_SECRET_CHARS:
        return
    global _KNOWN_PATTERN
    with _KNOWN_LOCK:
        if value in _KNOWN:
            return
        _KNOWN.add(value)
        # longest first: a key that contains another is replaced whole
        ordered = sorted(_KNOWN, key=len, reverse=True)
        _KNOWN_PATTERN = re.compile("|".join(re.escape(v) for v in ordered))


def forget_secrets() -> None:
    """Drop every remembered value (tests)."""
    global _KNOWN_PATTERN
    with _KNOWN_LOCK:
        _KNOWN.clear()
        _KNOWN_PATTERN = None


def scrub_known(text: str) -> str:
    """``text`` with every remembered key replaced, and nothing else touched: for what the
    user wrote (an export keeps a long evidence hash that merely looks like a token)."""
    known = _KNOWN_PATTERN
    return known.sub(REDACTED, text) if text and known is not None else text


def redact(text: str) -> str:
    """``text`` with every remembered key and anything shaped like a credential replaced
    by ``***``."""
    if not text:
        return text
    known = _KNOWN_PATTERN
    if known is not None:
        text = known.sub(REDACTED, text)
    for pat in _PREFIXED:
        text = pat.sub(lambda m: m.group(1) + REDACTED, text)
    for pat in _WHOLE:
        text = pat.sub(REDACTED, text)
    return text
