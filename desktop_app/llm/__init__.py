"""The LLM layer (no Qt): one client for any OpenAI-compatible endpoint, provider presets,
structured JSON output with fallbacks, and token accounting."""

from .client import (
    DEFAULT_MODE_CACHE,
    JSON_MODES,
    ChatResult,
    ChatStream,
    JsonModeCache,
    LLMClient,
    LLMConfig,
    build_openai_client,
    map_openai_error,
)
from .presets import (
    DEFAULT_PROVIDER,
    PRESETS,
    ProviderPreset,
    get_preset,
    is_loopback,
    key_id_for,
    normalize_base_url,
)
from .schema import SchemaValidationError, extract_json, schema_errors, validate
from .tokens import TokenMeter, Usage, estimate_messages_tokens, estimate_tokens

__all__ = [
    "DEFAULT_MODE_CACHE",
    "DEFAULT_PROVIDER",
    "JSON_MODES",
    "PRESETS",
    "ChatResult",
    "ChatStream",
    "JsonModeCache",
    "LLMClient",
    "LLMConfig",
    "ProviderPreset",
    "SchemaValidationError",
    "TokenMeter",
    "Usage",
    "build_openai_client",
    "estimate_messages_tokens",
    "estimate_tokens",
    "extract_json",
    "get_preset",
    "is_loopback",
    "key_id_for",
    "map_openai_error",
    "normalize_base_url",
    "schema_errors",
    "validate",
]
