"""Typed user settings, kept as JSON in the data folder.

The API key is never stored here (it lives in the OS keyring through SecretStore); any
field whose name looks like a secret is dropped on load and on save, so a hand-edited file
cannot smuggle one in either.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

LANGUAGES = ("", "zh_CN", "en")  # "" = follow the system locale
THEMES = ("system", "light", "dark")
_SECRET_MARKERS = ("key", "secret", "token", "password")


@dataclass(slots=True)
class Settings:
    # provider
    provider: str = "deepseek"
    base_url: str = "https://api.deepseek.com/v1"
    chat_model: str = "deepseek-chat"
    memory_model: str = "deepseek-chat"
    # memory parameters (mirrors MemoryConfig fields the user may tune)
    recall_threshold: float = 0.3
    max_memories: int = 5
    recency_weight: float = 0.1
    # look
    language: str = ""
    theme: str = "system"
    # state
    last_case_id: str | None = None
    demo_offered: bool = False
    window_geometry: str = ""  # base64 of QWidget.saveGeometry, opaque here
    extra: dict[str, Any] = field(default_factory=dict)

    def validated(self) -> Settings:
        """A copy with out-of-range values clamped back to something usable."""
        s = Settings(**asdict(self))
        if s.language not in LANGUAGES:
            s.language = ""
        if s.theme not in THEMES:
            s.theme = "system"
        s.recall_threshold = min(max(float(s.recall_threshold), 0.0), 1.0)
        s.max_memories = min(max(int(s.max_memories), 0), 50)
        s.recency_weight = min(max(float(s.recency_weight), 0.0), 1.0)
        s.extra = {k: v for k, v in dict(s.extra).items() if not _looks_secret(k)}
        return s


def _looks_secret(name: str) -> bool:
    low = name.lower()
    return any(m in low for m in _SECRET_MARKERS)


def load_settings(path: Path) -> Settings:
    """Read the settings file; a missing or damaged file gives the defaults (and a log line)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    except (OSError, ValueError) as exc:
        log.warning("settings file unreadable, using defaults: %s", exc)
        return Settings()
    if not isinstance(raw, dict):
        return Settings()
    known = {f.name: f for f in fields(Settings)}
    kwargs: dict[str, Any] = {}
    for name, value in raw.items():
        if _looks_secret(name) or name not in known:
            continue
        default = getattr(Settings(), name)
        # a value of the wrong type is ignored rather than crashing the app at start-up
        if default is not None and not isinstance(value, type(default)):
            if isinstance(default, float) and isinstance(value, int):
                value = float(value)
            else:
                continue
        kwargs[name] = value
    try:
        return Settings(**kwargs).validated()
    except (TypeError, ValueError) as exc:
        log.warning("settings file invalid, using defaults: %s", exc)
        return Settings()


def save_settings(settings: Settings, path: Path) -> None:
    """Write atomically (temp file + replace) so a crash never leaves half a file."""
    data = asdict(settings.validated())
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=2)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
