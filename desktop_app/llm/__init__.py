"""The LLM layer (no Qt): one client for any OpenAI-compatible endpoint, provider presets,
structured JSON output with fallbacks and tolerant validation, streaming that stops within a
second, reasoning kept apart from answers, an explicit proxy policy, what each endpoint
accepts (remembered in the settings), and token accounting."""

from .client import (
    ChatResult,
    LLMClient,
    LLMConfig,
    StructuredResult,
    build_openai_client,
)
from .failures import classify_bad_request, map_openai_error
from .knowledge import (
    DEFAULT_MODE_CACHE,
    JSON_MODES,
    EndpointFacts,
    EndpointKnowledge,
    JsonModeCache,
    settings_knowledge,
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
from .proxy import (
    PROXY_CHOICES,
    ProxyChoice,
    ProxyPolicy,
    connection_warnings,
    endpoint_locality,
    proxy_key_id,
    resolve_proxy,
)
from .reasoning import StreamEvent, split_reasoning
from .schema import (
    SchemaValidationError,
    conform,
    extract_json,
    register_synonyms,
    schema_errors,
    validate,
)
from .stream import ChatStream, StreamResult
from .tokens import TokenMeter, Usage, estimate_messages_tokens, estimate_tokens

__all__ = [
    "DEFAULT_MODE_CACHE",
    "DEFAULT_PROVIDER",
    "JSON_MODES",
    "PRESETS",
    "PROXY_CHOICES",
    "ChatResult",
    "ChatStream",
    "EndpointFacts",
    "EndpointKnowledge",
    "JsonModeCache",
    "LLMClient",
    "LLMConfig",
    "ProviderPreset",
    "ProxyChoice",
    "ProxyPolicy",
    "SchemaValidationError",
    "StreamEvent",
    "StreamResult",
    "StructuredResult",
    "TokenMeter",
    "Usage",
    "build_openai_client",
    "classify_bad_request",
    "conform",
    "connection_warnings",
    "endpoint_locality",
    "estimate_messages_tokens",
    "estimate_tokens",
    "extract_json",
    "get_preset",
    "is_loopback",
    "key_id_for",
    "map_openai_error",
    "normalize_base_url",
    "proxy_key_id",
    "register_synonyms",
    "resolve_proxy",
    "schema_errors",
    "settings_knowledge",
    "split_reasoning",
    "validate",
]
