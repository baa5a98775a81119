from __future__ import annotations

import pytest

from desktop_app.llm import PRESETS, get_preset, is_loopback, key_id_for, normalize_base_url


def test_presets_match_the_design():
    assert PRESETS["deepseek"].base_url == "https://api.deepseek.com/v1"
    assert PRESETS["deepseek"].chat_model == "deepseek-chat"
    assert PRESETS["deepseek"].json_mode_hint == "json_object"
    assert PRESETS["openai"].base_url == "https://api.openai.com/v1"
    assert PRESETS["openai"].chat_model == "gpt-4o-mini"
    assert PRESETS["ollama"].base_url == "http://127.0.0.1:11434/v1"
    assert not PRESETS["ollama"].needs_key and PRESETS["ollama"].local
    assert PRESETS["lmstudio"].base_url == "http://127.0.0.1:1234/v1"
    assert PRESETS["custom"].base_url == ""
    assert get_preset("nope") is PRESETS["custom"]


def test_key_ids():
    assert key_id_for("deepseek") == "api-key/deepseek"
    assert key_id_for("deepseek", "https://API.deepseek.com/v1/") == "api-key/deepseek"
    assert (
        key_id_for("deepseek", "https://proxy.example/v1")
        == "api-key/custom/https://proxy.example/v1"
    )
    assert key_id_for("custom", "https://x.example/v1/") == "api-key/custom/https://x.example/v1"
    with pytest.raises(ValueError):
        key_id_for("custom")


def test_url_helpers():
    assert normalize_base_url(" HTTPS://Api.X.com/v1/ ") == "https://api.x.com/v1"
    assert is_loopback("http://127.0.0.1:11434/v1") and is_loopback("http://localhost:1234/v1")
    assert not is_loopback("https://api.deepseek.com/v1")
