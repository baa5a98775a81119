"""The client the app uses, built from the user's settings in one call.

It binds the settings' endpoint, models and proxy choice, the preset's structured-output hint,
and — given the settings file — what was learnt about the endpoint, kept in that file so a
restart does not pay for refused modes and parameters again. The API key and the proxy
password come from the keyring (the caller reads them; nothing here touches a secret store).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .client import LLMClient, LLMConfig
from .knowledge import DEFAULT_MODE_CACHE, EndpointKnowledge, settings_knowledge
from .presets import get_preset
from .proxy import ProxyPolicy
from .tokens import TokenMeter


def config_from_settings(
    settings: Any, api_key: str | None, *, proxy_password: str | None = None
) -> LLMConfig:
    """The :class:`LLMConfig` of a :class:`desktop_app.core.settings.Settings`."""
    preset = get_preset(settings.provider)
    return LLMConfig(
        base_url=settings.base_url,
        api_key=api_key or None,
        chat_model=settings.chat_model,
        memory_model=settings.memory_model or None,
        json_mode_hint=preset.json_mode_hint,
        proxy=ProxyPolicy.from_settings(settings, proxy_password),
    )


def client_from_settings(
    settings: Any,
    api_key: str | None,
    *,
    settings_path: Path | None = None,
    proxy_password: str | None = None,
    meter: TokenMeter | None = None,
) -> LLMClient:
    """An :class:`LLMClient` for these settings. With ``settings_path``, what the client
    learns about the endpoint is remembered in that file (see :mod:`.knowledge`).

    Raises :class:`desktop_app.core.errors.ProxyConfigError` when the proxy choice cannot
    work, and the client's ``warnings`` tell what the user should know before chatting.
    """
    knowledge: EndpointKnowledge = (
        settings_knowledge(settings_path) if settings_path is not None else DEFAULT_MODE_CACHE
    )
    return LLMClient(
        config_from_settings(settings, api_key, proxy_password=proxy_password),
        meter=meter,
        mode_cache=knowledge,
    )
