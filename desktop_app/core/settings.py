"""Typed user settings, kept as JSON in the data folder.

The API key is never stored here (it lives in the OS keyring through SecretStore); any
field whose name looks like a secret is dropped on load and on save, so a hand-edited file
cannot smuggle one in either. A proxy URL is kept without its password for the same reason.

``llm_endpoints`` is what the LLM layer learnt about the configured endpoint and models (the
structured-output mode that worked, the parameters the endpoint refuses), so a restart does
not pay for the refusals again. It is written by the LLM layer through
:class:`EndpointKnowledgeFile` while the app runs, so :func:`save_settings` keeps what the file
holds rather than an older copy from memory, and forgets every entry that does not belong to
the saved endpoint and models (a settings change of endpoint or model invalidates it).
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from desktop_app.core.urls import is_valid_base_url, normalize_base_url

log = logging.getLogger(__name__)

LANGUAGES = ("", "zh_CN", "en")  # "" = follow the system locale
THEMES = ("system", "light", "dark")
#: "none": connect directly; "system": the proxy of the OS / environment; "custom": proxy_url.
#: Local and LAN endpoints always connect directly (desktop_app.llm.proxy).
PROXY_MODES = ("none", "system", "custom")
_SECRET_MARKERS = ("key", "secret", "token", "password")

# One writer at a time for the settings file (the UI's save and the LLM layer's learning).
_file_lock = threading.RLock()


@dataclass(slots=True)
class Settings:
    # provider
    provider: str = "deepseek"
    base_url: str = "https://api.deepseek.com/v1"
    chat_model: str = "deepseek-chat"
    memory_model: str = "deepseek-chat"
    proxy_mode: str = "none"
    proxy_url: str = ""  # without a password (that would belong in the keyring)
    # memory parameters (mirrors MemoryConfig fields the user may tune)
    recall_threshold: float = 0.3
    max_memories: int = 5
    recency_weight: float = 0.1
    # memory check-up (记忆体检; mirrors MemoryConfig.maintenance_*)
    maintenance_enabled: bool = True
    maintenance_period_days: int = 7
    maintenance_stale_days: int = 90
    maintenance_duplicate_threshold: float = 0.91
    # look
    language: str = ""
    theme: str = "system"
    # state
    last_case_id: str | None = None
    demo_offered: bool = False
    window_geometry: str = ""  # base64 of QWidget.saveGeometry, opaque here
    #: normalised base URL → model → what was learnt (see EndpointKnowledgeFile)
    llm_endpoints: dict[str, Any] = field(default_factory=dict)
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
        s.maintenance_enabled = bool(s.maintenance_enabled)
        s.maintenance_period_days = min(max(int(s.maintenance_period_days), 1), 365)
        s.maintenance_stale_days = min(max(int(s.maintenance_stale_days), 7), 3650)
        s.maintenance_duplicate_threshold = min(
            max(float(s.maintenance_duplicate_threshold), 0.5), 0.999
        )
        if s.proxy_mode not in PROXY_MODES:
            s.proxy_mode = "none"
        s.proxy_url = _without_password(s.proxy_url.strip())
        s.llm_endpoints = _endpoints_for(s, s.llm_endpoints)
        s.extra = {k: v for k, v in dict(s.extra).items() if not _looks_secret(k)}
        return s

    def llm_targets(self) -> set[tuple[str, str]]:
        """The (normalised base URL, model) pairs these settings talk to."""
        if not self.base_url.strip():
            return set()
        url = normalize_base_url(self.base_url)
        return {(url, m) for m in (self.chat_model, self.memory_model or self.chat_model) if m}


def setup_problems(settings: Settings) -> list[str]:
    """What keeps the model setup from working, as kinds the UI words: "base_url_malformed",
    "chat_model_empty", "memory_model_empty" (empty: nothing to refuse)."""
    problems = []
    if not is_valid_base_url(settings.base_url):
        problems.append("base_url_malformed")
    if not settings.chat_model.strip():
        problems.append("chat_model_empty")
    if not settings.memory_model.strip():
        problems.append("memory_model_empty")
    return problems


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{parts.username}@{host}" if parts.username else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _endpoints_for(settings: Settings, endpoints: Any) -> dict[str, Any]:
    """The well-formed entries of ``endpoints`` that belong to the settings' endpoint/models."""
    if not isinstance(endpoints, dict):
        return {}
    kept: dict[str, dict[str, Any]] = {}
    for url, model in sorted(settings.llm_targets()):
        models = endpoints.get(url)
        entry = models.get(model) if isinstance(models, dict) else None
        if isinstance(entry, dict) and entry:
            kept.setdefault(url, {})[model] = entry
    return kept


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
    """Write atomically (temp file + replace) so a crash never leaves half a file.

    What the LLM layer learnt (``llm_endpoints``) is taken from the file when it has an entry:
    the caller's copy may predate it. Entries of other endpoints or models are dropped.
    """
    with _file_lock:
        merged = _merge_endpoints(settings.llm_endpoints, _read_endpoints(path))
        settings = Settings(**{**asdict(settings), "llm_endpoints": merged})
        _write(asdict(settings.validated()), path)


def _read_endpoints(path: Path) -> dict[str, Any]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    endpoints = raw.get("llm_endpoints") if isinstance(raw, dict) else None
    return endpoints if isinstance(endpoints, dict) else {}


def _merge_endpoints(mine: Any, on_disk: dict[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for source in (mine if isinstance(mine, dict) else {}, on_disk):
        for url, models in source.items():
            if isinstance(models, dict):
                merged.setdefault(url, {}).update(models)
    return merged


class EndpointKnowledgeFile:
    """The ``llm_endpoints`` section of a settings file, read and written entry by entry.

    The LLM layer's memory of an endpoint (``desktop_app.llm.knowledge``) persists through it:
    ``load()`` at start, ``save(url, model, entry)`` whenever something new was learnt.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, dict[str, dict[str, Any]]]:
        return load_settings(self.path).llm_endpoints

    def save(self, base_url: str, model: str, entry: dict[str, Any]) -> None:
        with _file_lock:
            settings = load_settings(self.path)
            url = normalize_base_url(base_url)
            if (url, model) not in settings.llm_targets():
                # a client built for settings that were never saved (Settings → Test): its
                # knowledge would be dropped at the next save anyway
                log.debug("not remembering %s %s: not the configured endpoint", url, model)
                return
            settings.llm_endpoints.setdefault(url, {})[model] = dict(entry)
            _write(asdict(settings.validated()), self.path)


def _write(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=2)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
