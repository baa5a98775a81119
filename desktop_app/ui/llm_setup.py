"""Build the LLM client from the settings and the key in the OS keyring (or None: offline)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from desktop_app.core.paths import settings_file
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


def make_client(
    settings: Settings,
    api_key: str | None,
    data_dir: Path | None = None,
    *,
    proxy_password: str | None = None,
) -> Any:
    """The client for ``settings``: the proxy choice applied (a custom proxy's password as
    typed, else from the keyring), and — with ``data_dir`` — what is learnt about the
    endpoint kept in its settings file. Raises ProxyConfigError when the proxy choice
    cannot work."""
    from desktop_app.llm.factory import client_from_settings

    return client_from_settings(
        settings,
        api_key,
        settings_path=settings_file(data_dir) if data_dir is not None else None,
        proxy_password=proxy_password or load_proxy_password(settings),
    )


def proxy_password_id(proxy_url: str) -> str:
    from desktop_app.llm.proxy import proxy_key_id

    return proxy_key_id(proxy_url)


def load_proxy_password(settings: Settings) -> str | None:
    """The custom proxy's password from the keyring (None for the other choices)."""
    if settings.proxy_mode != "custom" or not settings.proxy_url.strip():
        return None
    try:
        return secret_store().get(proxy_password_id(settings.proxy_url))
    except Exception as exc:
        log.warning("proxy password not readable: %s", type(exc).__name__)
        return None


def build_llm(settings: Settings, data_dir: Path | None = None) -> Any:
    """The client, or None when it cannot work yet (no URL, no model, or a missing key).
    A setup that cannot work (the proxy) raises its LLMError, for the UI to name."""
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
    return make_client(settings, key, data_dir)
