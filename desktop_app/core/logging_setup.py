"""Rotating log file in the data folder, with secrets scrubbed from every record."""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path

from desktop_app.core.redaction import REDACTED, redact

__all__ = ["REDACTED", "RedactingFilter", "redact", "setup_logging"]

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


class _PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """The log can name cases and files: owner-only (0600), including each rotated file."""

    def _open(self):  # type: ignore[override]
        stream = super()._open()
        if os.name == "posix":
            os.chmod(self.baseFilename, 0o600)
        return stream


def setup_logging(log_path: Path, level: int = logging.INFO) -> logging.Handler:
    """Attach a rotating file handler (1 MB x 5) to the root logger; idempotent per path."""
    root = logging.getLogger()
    for h in root.handlers:
        if (
            isinstance(h, logging.handlers.RotatingFileHandler)
            and Path(h.baseFilename) == log_path.resolve()
        ):
            return h
    log_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    handler = _PrivateRotatingFileHandler(
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
