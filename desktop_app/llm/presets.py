"""Provider presets for OpenAI-compatible endpoints, and the keyring name of each one's key."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from desktop_app.core.urls import normalize_base_url


@dataclass(frozen=True, slots=True)
class ProviderPreset:
    id: str
    name_zh: str  # display name in a Chinese interface
    name_en: str  # display name in an English one (the UI picks; this layer knows no language)
    base_url: str  # "" for custom: the user types it
    chat_model: str  # "" when the endpoint's /models must tell
    memory_model: str  # a cheaper model for memory work; "" → same as chat_model
    needs_key: bool
    local: bool  # runs on this machine: nothing leaves it
    #: The structured-output mode to start with, when known to work ("json_object" for
    #: DeepSeek, which refuses json_schema with HTTP 400): saves one refused call per start.
    json_mode_hint: str | None = None


PRESETS: dict[str, ProviderPreset] = {
    p.id: p
    for p in (
        ProviderPreset(
            "deepseek",
            "DeepSeek 深度求索",
            "DeepSeek",
            "https://api.deepseek.com/v1",
            "deepseek-chat",
            "deepseek-chat",
            needs_key=True,
            local=False,
            json_mode_hint="json_object",
        ),
        ProviderPreset(
            "openai",
            "OpenAI",
            "OpenAI",
            "https://api.openai.com/v1",
            "gpt-4o-mini",
            "gpt-4o-mini",
            needs_key=True,
            local=False,
            json_mode_hint="json_schema",
        ),
        ProviderPreset(
            "ollama",
            "Ollama（本机）",
            "Ollama (this computer)",
            "http://127.0.0.1:11434/v1",
            "qwen2.5:7b",
            "",
            needs_key=False,
            local=True,
        ),
        ProviderPreset(
            "lmstudio",
            "LM Studio（本机）",
            "LM Studio (this computer)",
            "http://127.0.0.1:1234/v1",
            "",
            "",
            needs_key=False,
            local=True,
        ),
        ProviderPreset(
            "custom",
            "自定义（兼容 OpenAI 接口）",
            "Custom (OpenAI-compatible)",
            "",
            "",
            "",
            needs_key=True,
            local=False,
        ),
    )
}

DEFAULT_PROVIDER = "deepseek"

__all__ = [
    "DEFAULT_PROVIDER",
    "PRESETS",
    "ProviderPreset",
    "get_preset",
    "is_loopback",
    "key_id_for",
    "normalize_base_url",
]


def get_preset(provider_id: str) -> ProviderPreset:
    """The preset with this id; unknown ids get the custom preset."""
    return PRESETS.get(provider_id, PRESETS["custom"])


def is_loopback(url: str) -> bool:
    """True for endpoints on this machine (Ollama, LM Studio, the test server)."""
    host = (urlsplit(url.strip()).hostname or "").lower()
    return host in ("localhost", "::1") or host.startswith("127.")


def key_id_for(provider_id: str, base_url: str | None = None) -> str:
    """The keyring user name of an endpoint's API key (service name ``"LexMem"``).

    Presets: ``api-key/<provider id>`` (``api-key/deepseek``). Custom endpoints, and presets
    pointed at another URL, are keyed by URL as well, so two custom endpoints never share a key:
    ``api-key/custom/<normalised base URL>``.
    """
    preset = PRESETS.get(provider_id)
    if preset is not None and provider_id != "custom":
        if not base_url or normalize_base_url(base_url) == normalize_base_url(preset.base_url):
            return f"api-key/{provider_id}"
    if not base_url:
        raise ValueError("a custom endpoint needs its base URL to name its key")
    return f"api-key/custom/{normalize_base_url(base_url)}"
