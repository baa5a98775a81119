"""Build the LLM client from the settings and the key in the OS keyring (or None: offline)."""

from __future__ import annotations

import logging
from typing import Any

from desktop_app.core.settings import Settings

log = logging.getLogger(__name__)

_session_store: Any = None


def secret_store() -> Any:
    """The shared SecretStore (created once: it may fall back to a session-only memory)."""
    global _session_store
    if _session_store is None:
        from desktop_app.core.secrets import SecretStore

        _session_store = SecretStore()
    return _session_store


def key_id(settings: Settings) -> str:
    from desktop_app.llm.presets import key_id_for

    return key_id_for(settings.provider, settings.base_url or None)


def load_key(settings: Settings) -> str | None:
    try:
        store = secret_store()
        return store.get(key_id(settings))
    except Exception as exc:
        log.warning("API key not readable: %s", exc)
        return None


def make_client(settings: Settings, api_key: str | None) -> Any:
    from desktop_app.llm.client import LLMClient, LLMConfig
    from desktop_app.llm.presets import get_preset

    preset = get_preset(settings.provider)
    return LLMClient(
        LLMConfig(
            base_url=settings.base_url,
            api_key=api_key or None,
            chat_model=settings.chat_model,
            memory_model=settings.memory_model or None,
            json_mode_hint=preset.json_mode_hint,
        )
    )


def build_llm(settings: Settings) -> Any:
    """The client, or None when it cannot work yet (no URL, no model, or a missing key)."""
    if not settings.base_url or not settings.chat_model:
        return None
    try:
        from desktop_app.llm.presets import get_preset
    except ImportError:
        return None
    preset = get_preset(settings.provider)
    key = load_key(settings)
    if preset.needs_key and not key:
        return None
    return make_client(settings, key)
