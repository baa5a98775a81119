"""Rotating log file in the data folder, with secrets scrubbed from every record."""

from __future__ import annotations

import logging
import logging.handlers
import re
import sys
from pathlib import Path

# API keys look like "sk-...", "Bearer ...", or long opaque tokens; a lawyer's log must never
# hold one even if some library prints a request.
_PREFIXED = (
    # keep the label, hide the value
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]{8,}"),
    re.compile(
        r"(?i)((?:api[_-]?key|authorization|x-api-key|token|secret|password)[\"']?\s*[:=]\s*[\"']?)"
        r"[^\s\"',;}]{4,}"
    ),
)
_WHOLE = (
    re.compile(r"\b(?:sk|pk|rk|ak)-[A-Za-z0-9_\-]{8,}"),
    re.compile(r"\b[A-Za-z0-9_\-]{40,}\b"),
)
REDACTED = "***"


def redact(text: str) -> str:
    """Replace anything that looks like a credential with ``***``."""
    for pat in _PREFIXED:
        text = pat.sub(lambda m: m.group(1) + REDACTED, text)
    for pat in _WHOLE:
        text = pat.sub(REDACTED, text)
    return text


class RedactingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        try:
            msg = record.getMessage()
        except Exception:  # a bad format string must not lose the record
            msg = str(record.msg)
        record.msg = redact(msg)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def setup_logging(log_path: Path, level: int = logging.INFO) -> logging.Handler:
    """Attach a rotating file handler (1 MB x 5) to the root logger; idempotent per path."""
    root = logging.getLogger()
    for h in root.handlers:
        if (
            isinstance(h, logging.handlers.RotatingFileHandler)
            and Path(h.baseFilename) == log_path.resolve()
        ):
            return h
    log_path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(
        log_path, maxBytes=1_000_000, backupCount=5, encoding="utf-8"
    )
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)s [%(threadName)s] %(name)s: %(message)s")
    )
    handler.addFilter(RedactingFilter())
    root.addHandler(handler)
    root.setLevel(level)
    # windowed builds have no stderr; only add a console handler when there is one
    if sys.stderr is not None and getattr(sys.stderr, "isatty", lambda: False)():
        console = logging.StreamHandler(sys.stderr)
        console.setLevel(logging.WARNING)
        console.addFilter(RedactingFilter())
        root.addHandler(console)
    return handler
