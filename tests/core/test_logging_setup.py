"""The rotating log in the data folder never holds an API key."""

from __future__ import annotations

import logging
import logging.handlers

from desktop_app.core.logging_setup import redact, setup_logging


def test_redact_patterns():
    text = "key sk-abcdefghijkl1234 header Authorization: Bearer abcdefgh12345 api_key='zzzzzzzz' done"
    out = redact(text)
    assert "sk-abcdef" not in out and "abcdefgh12345" not in out and "zzzzzzzz" not in out
    assert out.endswith("done")
    assert redact("普通的一句话，没有密钥。") == "普通的一句话，没有密钥。"


def test_log_file_is_rotating_and_redacted(tmp_path):
    path = tmp_path / "logs" / "lexmem.log"
    handler = setup_logging(path)
    try:
        assert isinstance(handler, logging.handlers.RotatingFileHandler)
        assert setup_logging(path) is handler  # idempotent
        log = logging.getLogger("lexmem.test")
        log.warning("calling with %s", "sk-proj-SECRETSECRET123")
        try:
            raise ValueError("token=abcdef123456")
        except ValueError:
            log.exception("failed")
        handler.flush()
        text = path.read_text(encoding="utf-8")
        assert "SECRETSECRET" not in text and "abcdef123456" not in text
        assert "calling with ***" in text and "ValueError" in text
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()
