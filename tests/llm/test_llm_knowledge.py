"""What an endpoint accepts is remembered in the settings (issue 13, item 8).

The structured-output mode that worked and the parameters the endpoint refused (issue item 3)
are kept per endpoint and model in the settings file, so a restart does not pay for the
refusals again; changing the endpoint or the model in the settings forgets them.
"""

from __future__ import annotations

import json
from dataclasses import replace

from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.core.settings import Settings, load_settings, save_settings
from desktop_app.llm import EndpointKnowledge, LLMClient, settings_knowledge

pytest_plugins = ["fakes.fixtures"]

SCHEMA = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}


def _settings(srv: FakeLLMServer, **kw) -> Settings:
    return Settings(
        provider="custom", base_url=srv.base_url, chat_model="fake-chat", memory_model="", **kw
    )


def _client(srv: FakeLLMServer, knowledge: EndpointKnowledge) -> LLMClient:
    return LLMClient(srv.config(), mode_cache=knowledge, sleep=lambda s: 0)


def _ask(client: LLMClient) -> dict:
    return client.complete_json("s", "u", SCHEMA, "probe")[0]


def test_learned_mode_survives_a_restart(tmp_path, fake_deepseek):
    path = tmp_path / "settings.json"
    save_settings(_settings(fake_deepseek), path)
    fake_deepseek.push(Reply.json({"a": 1}))
    assert _ask(_client(fake_deepseek, settings_knowledge(path))) == {"a": 1}
    assert fake_deepseek.calls == 2  # json_schema refused once, json_object worked
    # the app restarts: a new process reads the settings file
    fake_deepseek.reset_counts()
    fake_deepseek.push(Reply.json({"a": 2}))
    assert _ask(_client(fake_deepseek, settings_knowledge(path))) == {"a": 2}
    assert fake_deepseek.calls == 1
    assert fake_deepseek.requests[0].response_format == {"type": "json_object"}


def test_dropped_parameters_survive_a_restart(tmp_path):
    path = tmp_path / "settings.json"
    with FakeLLMServer(fixed_temperature=True) as srv:
        save_settings(_settings(srv), path)
        srv.push(Reply.json({"a": 1}), Reply.json({"a": 2}))
        _ask(_client(srv, settings_knowledge(path)))
        srv.reset_counts()
        _ask(_client(srv, settings_knowledge(path)))
        assert srv.calls == 1 and "temperature" not in srv.requests[0].body
        stored = load_settings(path).llm_endpoints
        entry = stored[srv.base_url]["fake-chat"]
        assert entry["json_mode"] == "json_schema" and entry["drop"] == ["temperature"]


def test_changing_the_model_or_endpoint_forgets(tmp_path, fake_deepseek):
    path = tmp_path / "settings.json"
    settings = _settings(fake_deepseek)
    save_settings(settings, path)
    fake_deepseek.push(Reply.json({"a": 1}))
    _ask(_client(fake_deepseek, settings_knowledge(path)))
    assert load_settings(path).llm_endpoints
    # the user picks another model in Settings: what was learnt for the old one goes
    save_settings(replace(load_settings(path), chat_model="another-model"), path)
    assert load_settings(path).llm_endpoints == {}
    save_settings(settings, path)  # and back: learnt again, not resurrected
    assert load_settings(path).llm_endpoints == {}
    fake_deepseek.reset_counts()
    fake_deepseek.push(Reply.json({"a": 1}))
    _ask(_client(fake_deepseek, settings_knowledge(path)))
    assert fake_deepseek.calls == 2


def test_a_settings_object_loaded_earlier_does_not_erase_what_was_learnt(tmp_path, fake_deepseek):
    path = tmp_path / "settings.json"
    save_settings(_settings(fake_deepseek), path)
    held_by_the_window = load_settings(path)  # the UI keeps this one and saves it on close
    fake_deepseek.push(Reply.json({"a": 1}))
    _ask(_client(fake_deepseek, settings_knowledge(path)))
    held_by_the_window.theme = "dark"
    save_settings(held_by_the_window, path)
    s = load_settings(path)
    assert s.theme == "dark"
    assert s.llm_endpoints[fake_deepseek.base_url]["fake-chat"]["json_mode"] == "json_object"


def test_the_memory_model_is_remembered_apart(tmp_path, fake_deepseek):
    path = tmp_path / "settings.json"
    save_settings(replace(_settings(fake_deepseek), memory_model="fake-memory"), path)
    client = LLMClient(
        fake_deepseek.config(memory_model="fake-memory"),
        mode_cache=settings_knowledge(path),
        sleep=lambda s: 0,
    )
    fake_deepseek.push(Reply.json({"a": 1}))
    _ask(client)
    stored = load_settings(path).llm_endpoints[fake_deepseek.base_url]
    assert list(stored) == ["fake-memory"]


def test_a_damaged_entry_is_ignored(tmp_path, fake_deepseek):
    path = tmp_path / "settings.json"
    data = json.loads(
        json.dumps(
            {
                "base_url": fake_deepseek.base_url,
                "chat_model": "fake-chat",
                "memory_model": "",
                "llm_endpoints": {
                    fake_deepseek.base_url: {"fake-chat": {"json_mode": "telepathy", "drop": "all"}}
                },
            }
        )
    )
    path.write_text(json.dumps(data), encoding="utf-8")
    fake_deepseek.push(Reply.json({"a": 1}))
    assert _ask(_client(fake_deepseek, settings_knowledge(path))) == {"a": 1}
    assert fake_deepseek.calls == 2  # started from the strongest mode, as if nothing were known


def test_client_from_settings_remembers_in_the_settings_file(tmp_path, fake_deepseek):
    from desktop_app.llm.factory import client_from_settings

    path = tmp_path / "settings.json"
    settings = Settings(
        provider="deepseek",
        base_url=fake_deepseek.base_url,
        chat_model="fake-chat",
        memory_model="",
    )
    save_settings(settings, path)
    fake_deepseek.push(Reply.json({"a": 1}), Reply.json({"a": 2}))
    client = client_from_settings(settings, "sk-x", settings_path=path)
    # the DeepSeek preset's hint skips json_schema on the very first call
    assert _ask(client) == {"a": 1} and fake_deepseek.calls == 1
    assert load_settings(path).llm_endpoints[fake_deepseek.base_url]["fake-chat"] == {
        "json_mode": "json_object"
    }
    restarted = client_from_settings(load_settings(path), "sk-x", settings_path=path)
    assert _ask(restarted) == {"a": 2} and fake_deepseek.calls == 2
