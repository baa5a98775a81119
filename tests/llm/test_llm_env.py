"""Stale OPENAI_* variables in the environment change nothing (one test per variable that
openai 3.x reads: see desktop_app/llm/client.py)."""

from __future__ import annotations

import pytest
from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.llm import JsonModeCache, LLMClient

# The fake_llm / fake_deepseek fixtures (also registered by tests/conftest.py, if it lists them).
pytest_plugins = ["fakes.fixtures"]

MSG = [{"role": "user", "content": "hi"}]


def _client(srv: FakeLLMServer, **kw) -> LLMClient:
    return LLMClient(srv.config(**kw), mode_cache=JsonModeCache(), sleep=lambda s: None)


def _one_request(srv: FakeLLMServer, client: LLMClient):
    srv.push(Reply.text("ok"))
    assert client.chat(MSG).text == "ok"
    assert srv.calls == 1
    return srv.requests[-1]


def test_stale_api_key_is_not_used(fake_llm, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-stale-env")
    req = _one_request(fake_llm, _client(fake_llm, api_key="sk-from-keyring"))
    assert req.authorization == "Bearer sk-from-keyring"


def test_stale_api_key_not_used_when_endpoint_needs_no_key(fake_llm, monkeypatch):
    # Ollama / LM Studio: no key configured must not pick the environment's key.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-stale-env")
    req = _one_request(fake_llm, _client(fake_llm, api_key=None))
    assert "sk-stale-env" not in str(req.headers)
    assert req.authorization == "Bearer no-key-required"


def test_stale_admin_key_is_not_used(fake_llm, monkeypatch):
    monkeypatch.setenv("OPENAI_ADMIN_KEY", "sk-admin-stale")
    client = _client(fake_llm, api_key="sk-mine")
    assert client._client.admin_api_key is None
    req = _one_request(fake_llm, client)
    assert "sk-admin-stale" not in str(req.headers)


def test_stale_base_url_is_not_used(fake_llm, monkeypatch):
    with FakeLLMServer() as other:
        monkeypatch.setenv("OPENAI_BASE_URL", other.base_url)
        _one_request(fake_llm, _client(fake_llm))
        assert other.calls == 0 and other.requests == []


def test_stale_custom_headers_are_dropped(fake_llm, monkeypatch):
    monkeypatch.setenv(
        "OPENAI_CUSTOM_HEADERS",
        "Authorization: Bearer sk-env-header\nX-Stale-Proxy: leak\nOpenAI-Organization: org-env",
    )
    req = _one_request(fake_llm, _client(fake_llm, api_key="sk-mine"))
    assert req.authorization == "Bearer sk-mine"
    assert "x-stale-proxy" not in req.headers
    assert "openai-organization" not in req.headers


@pytest.mark.parametrize(
    ("var", "header"),
    [("OPENAI_ORG_ID", "openai-organization"), ("OPENAI_PROJECT_ID", "openai-project")],
)
def test_stale_org_and_project_are_not_sent(fake_llm, monkeypatch, var, header):
    monkeypatch.setenv(var, "stale-value")
    req = _one_request(fake_llm, _client(fake_llm))
    assert header not in req.headers
    assert "stale-value" not in str(req.headers)


def test_openai_project_variable_is_harmless_too(fake_llm, monkeypatch):
    # Not read by openai 3.x (it reads OPENAI_PROJECT_ID), checked anyway: the brief names it.
    monkeypatch.setenv("OPENAI_PROJECT", "stale-project")
    req = _one_request(fake_llm, _client(fake_llm))
    assert "stale-project" not in str(req.headers)


def test_stale_webhook_secret_is_dropped(fake_llm, monkeypatch):
    monkeypatch.setenv("OPENAI_WEBHOOK_SECRET", "whsec-stale")
    assert _client(fake_llm)._client.webhook_secret is None


def test_all_at_once(fake_llm, monkeypatch):
    with FakeLLMServer() as other:
        for var, value in {
            "OPENAI_API_KEY": "sk-env",
            "OPENAI_ADMIN_KEY": "sk-admin-env",
            "OPENAI_BASE_URL": other.base_url,
            "OPENAI_CUSTOM_HEADERS": "Authorization: Bearer sk-hdr\nX-Env: 1",
            "OPENAI_ORG_ID": "org-env",
            "OPENAI_PROJECT_ID": "proj-env",
        }.items():
            monkeypatch.setenv(var, value)
        req = _one_request(fake_llm, _client(fake_llm, api_key="sk-mine"))
        assert other.calls == 0
        assert req.authorization == "Bearer sk-mine"
        assert not {"x-env", "openai-organization", "openai-project"} & set(req.headers)


def test_loopback_endpoint_ignores_proxy_variables(fake_llm, monkeypatch):
    # A corporate proxy from the environment cannot reach the user's local Ollama.
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
    _one_request(fake_llm, _client(fake_llm))
