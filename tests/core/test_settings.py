"""Typed settings in JSON: defaults, round trip, damage tolerance, never a secret."""

from __future__ import annotations

import json

from desktop_app.core.settings import Settings, load_settings, save_settings


def test_missing_file_gives_defaults(tmp_path):
    s = load_settings(tmp_path / "settings.json")
    assert s == Settings()
    assert s.theme == "system" and s.language == "" and s.max_memories == 5


def test_round_trip(tmp_path):
    path = tmp_path / "settings.json"
    s = Settings(
        provider="ollama",
        base_url="http://127.0.0.1:11434/v1",
        chat_model="qwen2.5:7b",
        language="zh_CN",
        theme="dark",
        max_memories=8,
        recall_threshold=0.4,
        last_case_id="c1",
    )
    save_settings(s, path)
    assert load_settings(path) == s
    assert json.loads(path.read_text(encoding="utf-8"))["chat_model"] == "qwen2.5:7b"


def test_damaged_or_wrongly_typed_file_does_not_stop_the_app(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    assert load_settings(path) == Settings()
    path.write_text(
        json.dumps({"max_memories": "many", "theme": "purple", "recency_weight": 1}),
        encoding="utf-8",
    )
    s = load_settings(path)
    assert s.max_memories == 5 and s.theme == "system" and s.recency_weight == 1.0
    path.write_text(json.dumps([1, 2]), encoding="utf-8")
    assert load_settings(path) == Settings()


def test_out_of_range_values_are_clamped(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps({"max_memories": 500, "recall_threshold": 3.0, "language": "fr"}),
        encoding="utf-8",
    )
    s = load_settings(path)
    assert s.max_memories == 50 and s.recall_threshold == 1.0 and s.language == ""


def test_no_secret_ever_reaches_the_file(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps({"api_key": "sk-live-123456789", "chat_model": "m"}), encoding="utf-8"
    )
    s = load_settings(path)
    assert not hasattr(s, "api_key")
    s.extra["openai_api_key"] = "sk-live-123456789"
    s.extra["note"] = "fine"
    save_settings(s, path)
    text = path.read_text(encoding="utf-8")
    assert "sk-live" not in text and "fine" in text


def test_save_is_atomic(tmp_path):
    path = tmp_path / "settings.json"
    save_settings(Settings(), path)
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no temp file left


def test_check_up_settings_round_trip_clamp_and_reach_the_engine(tmp_path):
    from desktop_app.memory.types import MemoryConfig
    from desktop_app.ui.engine_host import memory_config

    path = tmp_path / "settings.json"
    save_settings(
        Settings(maintenance_enabled=False, maintenance_period_days=14, maintenance_stale_days=30),
        path,
    )
    loaded = load_settings(path)
    assert (loaded.maintenance_enabled, loaded.maintenance_period_days) == (False, 14)
    wild = Settings(
        maintenance_period_days=0, maintenance_stale_days=1, maintenance_duplicate_threshold=2.0
    ).validated()
    assert wild.maintenance_period_days == 1 and wild.maintenance_stale_days == 7
    assert wild.maintenance_duplicate_threshold < 1.0
    config = memory_config(loaded)
    assert isinstance(config, MemoryConfig)
    assert config.maintenance_enabled is False
    assert config.maintenance_period_days == 14 and config.maintenance_stale_days == 30
    # the defaults are the calibrated engine defaults
    assert (
        Settings().maintenance_duplicate_threshold == MemoryConfig().maintenance_duplicate_threshold
    )
