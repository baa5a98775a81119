"""Proxies (issue 13, item 7): one explicit policy, never the environment by accident.

A stale ``ALL_PROXY=socks5://…`` used to make ``LLMClient()`` raise ``ImportError`` (shown as
"not configured"), and a stale ``HTTP_PROXY`` received the API key in clear text when the
endpoint was ``http://`` on the LAN. The policy now: local and LAN endpoints always connect
directly; otherwise no proxy unless the user chose the system proxy or typed one.
"""

from __future__ import annotations

import socket
import sys

import pytest
from fakes.http_proxy import FakeHTTPProxy
from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.core.errors import LexMemWarning, PlaintextKeyWarning, ProxyConfigError
from desktop_app.llm import JsonModeCache, LLMClient, LLMConfig, ProxyPolicy
from desktop_app.llm.proxy import endpoint_locality, resolve_proxy

pytest_plugins = ["fakes.fixtures"]

MSG = [{"role": "user", "content": "hi"}]
KEY = "sk-case-secret-0123456789"
PROXY_VARS = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
)


@pytest.fixture(autouse=True)
def clean_proxy_env(monkeypatch):
    for var in PROXY_VARS:
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def hosts(monkeypatch):
    """Made-up host names (a LAN box, a remote provider) that resolve to 127.0.0.1."""
    names: set[str] = set()
    real = socket.getaddrinfo

    def fake(host, *args, **kw):
        if host in names:
            return real("127.0.0.1", *args, **kw)
        return real(host, *args, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return names


def _config(url: str, **kw) -> LLMConfig:
    kw.setdefault("api_key", KEY)
    return LLMConfig(base_url=url, chat_model="fake-chat", timeout=5, max_retries=0, **kw)


def _client(cfg: LLMConfig) -> LLMClient:
    return LLMClient(cfg, mode_cache=JsonModeCache(), sleep=lambda s: 0)


def test_stale_socks_all_proxy_does_not_break_the_client(monkeypatch):
    monkeypatch.setitem(sys.modules, "socksio", None)  # not installed
    monkeypatch.setenv("ALL_PROXY", "socks5://127.0.0.1:1080")
    client = _client(_config("https://api.deepseek.com/v1"))
    assert client.proxy_url is None
    client.close()


def test_system_policy_with_socks_and_no_socksio_names_the_cause(monkeypatch):
    monkeypatch.setitem(sys.modules, "socksio", None)
    monkeypatch.setenv("ALL_PROXY", "socks5://127.0.0.1:1080")
    with pytest.raises(ProxyConfigError) as info:
        _client(_config("https://api.deepseek.com/v1", proxy=ProxyPolicy("system")))
    assert "socksio" in str(info.value)
    assert "SOCKS" in info.value.user_message and "代理" in info.value.user_message


def test_custom_socks_proxy_without_socksio_names_the_cause(monkeypatch):
    monkeypatch.setitem(sys.modules, "socksio", None)
    with pytest.raises(ProxyConfigError):
        _client(
            _config(
                "https://api.openai.com/v1", proxy=ProxyPolicy("custom", "socks5://10.0.0.1:1080")
            )
        )


def test_stale_http_proxy_never_sees_the_key_of_a_lan_endpoint(monkeypatch, hosts):
    hosts.add("lan-box")
    with FakeHTTPProxy() as proxy, FakeLLMServer() as srv:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        monkeypatch.setenv("http_proxy", proxy.url)
        srv.push(Reply.text("局域网直连"))
        client = _client(_config(f"http://lan-box:{srv.port}/v1"))
        assert client.chat(MSG).text == "局域网直连"
        assert proxy.requests == []  # the key did not travel through the proxy
        assert srv.requests[-1].authorization == f"Bearer {KEY}"
        assert client.warnings == ()  # a LAN endpoint over http is not warned about


def test_system_policy_sends_a_remote_endpoint_through_the_environment_proxy(monkeypatch, hosts):
    hosts.add("llm.example.test")
    with FakeHTTPProxy() as proxy, FakeLLMServer() as srv:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        srv.push(Reply.text("经代理"))
        client = _client(
            _config(f"http://llm.example.test:{srv.port}/v1", proxy=ProxyPolicy("system"))
        )
        assert client.chat(MSG).text == "经代理"
        assert [r.url for r in proxy.requests] == [
            f"http://llm.example.test:{srv.port}/v1/chat/completions"
        ]


def test_default_policy_ignores_the_environment_proxy_for_remote_endpoints(monkeypatch, hosts):
    hosts.add("llm.example.test")
    with FakeHTTPProxy() as proxy, FakeLLMServer() as srv:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        srv.push(Reply.text("直连"))
        assert _client(_config(f"http://llm.example.test:{srv.port}/v1")).chat(MSG).text == "直连"
        assert proxy.requests == []


def test_custom_proxy_is_used_and_plain_http_key_is_warned(hosts):
    hosts.add("llm.example.test")
    with FakeHTTPProxy() as proxy, FakeLLMServer() as srv:
        srv.push(Reply.text("经指定代理"))
        client = _client(
            _config(
                f"http://llm.example.test:{srv.port}/v1", proxy=ProxyPolicy("custom", proxy.url)
            )
        )
        assert client.proxy_url == proxy.url
        assert [type(w) for w in client.warnings] == [PlaintextKeyWarning]
        warning = client.warnings[0]
        assert isinstance(warning, LexMemWarning)
        assert "明文" in warning.user_message and "plain" in warning.user_message
        assert KEY not in warning.user_message and KEY not in str(warning)
        assert client.chat(MSG).text == "经指定代理"
        assert len(proxy.requests) == 1


def test_no_proxy_is_honoured_by_the_system_policy(monkeypatch, hosts):
    hosts.add("llm.example.test")
    with FakeHTTPProxy() as proxy, FakeLLMServer() as srv:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        monkeypatch.setenv("NO_PROXY", "llm.example.test")
        srv.push(Reply.text("ok"))
        _client(
            _config(f"http://llm.example.test:{srv.port}/v1", proxy=ProxyPolicy("system"))
        ).chat(MSG)
        assert proxy.requests == []


@pytest.mark.parametrize(
    ("url", "key", "warned"),
    [
        ("http://203.0.113.7:8000/v1", KEY, True),
        ("http://llm.example.com/v1", KEY, True),
        ("https://llm.example.com/v1", KEY, False),
        ("http://192.168.1.20:11434/v1", KEY, False),
        ("http://127.0.0.1:11434/v1", KEY, False),
        ("http://llm.example.com/v1", None, False),
    ],
)
def test_plaintext_key_warning(url, key, warned):
    client = _client(_config(url, api_key=key))
    assert any(isinstance(w, PlaintextKeyWarning) for w in client.warnings) == warned
    client.close()


@pytest.mark.parametrize(
    ("url", "locality"),
    [
        ("http://127.0.0.1:11434/v1", "local"),
        ("http://localhost:1234/v1", "local"),
        ("http://[::1]:8000/v1", "local"),
        ("http://192.168.1.20:11434/v1", "lan"),
        ("http://10.0.0.5/v1", "lan"),
        ("http://172.20.1.1/v1", "lan"),
        ("http://169.254.10.1/v1", "lan"),
        ("http://[fd00::2]:8000/v1", "lan"),
        ("http://gpu-box:11434/v1", "lan"),
        ("http://ollama.local:11434/v1", "lan"),
        ("http://203.0.113.7/v1", "remote"),
        ("http://172.32.0.1/v1", "remote"),
        ("https://api.deepseek.com/v1", "remote"),
    ],
)
def test_endpoint_locality(url, locality):
    assert endpoint_locality(url) == locality


def test_resolve_proxy_policy(monkeypatch):
    monkeypatch.setenv("HTTPS_PROXY", "http://corp:3128")
    remote, lan = "https://api.openai.com/v1", "http://192.168.1.20:11434/v1"
    assert resolve_proxy(ProxyPolicy(), remote) is None
    assert resolve_proxy(ProxyPolicy("system"), remote) == "http://corp:3128"
    assert resolve_proxy(ProxyPolicy("system"), lan) is None
    assert resolve_proxy(ProxyPolicy("custom", "http://mine:8080"), remote) == "http://mine:8080"
    assert resolve_proxy(ProxyPolicy("custom", "http://mine:8080"), lan) is None
    with pytest.raises(ProxyConfigError):
        resolve_proxy(ProxyPolicy("custom", "ftp://mine:21"), remote)
    with pytest.raises(ProxyConfigError):
        resolve_proxy(ProxyPolicy("custom", ""), remote)


def test_policy_words_for_the_settings_dialog():
    from desktop_app.llm.proxy import PROXY_CHOICES

    assert [c.mode for c in PROXY_CHOICES] == ["none", "system", "custom"]
    for choice in PROXY_CHOICES:
        assert any("\u4e00" <= ch <= "\u9fff" for ch in choice.label_zh)
        assert choice.label_en and choice.help_zh and choice.help_en


def test_proxy_settings_round_trip_without_the_password(tmp_path):
    from desktop_app.core.settings import Settings, load_settings, save_settings
    from desktop_app.llm.factory import config_from_settings

    path = tmp_path / "settings.json"
    save_settings(
        Settings(proxy_mode="custom", proxy_url="http://lawyer:hunter2@proxy.firm.example:3128"),
        path,
    )
    assert "hunter2" not in path.read_text(encoding="utf-8")
    settings = load_settings(path)
    assert settings.proxy_mode == "custom"
    assert settings.proxy_url == "http://lawyer@proxy.firm.example:3128"
    # the password comes from the keyring and reaches the proxy URL only in memory
    cfg = config_from_settings(settings, KEY, proxy_password="hunter2")
    assert "hunter2" not in repr(cfg)
    assert resolve_proxy(cfg.proxy, "https://api.openai.com/v1") == (
        "http://lawyer:hunter2@proxy.firm.example:3128"
    )
    save_settings(Settings(proxy_mode="tor"), path)
    assert load_settings(path).proxy_mode == "none"
