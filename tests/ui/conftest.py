"""Fixtures for the UI tests: a real engine in a temp folder, an EngineHost around it, and
the scripted LLM server playing both the chat model and the memory model."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakes.llm_server import FakeLLMServer, Reply


def _schema_name(body: dict) -> str:
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt["json_schema"]["name"]
    system = body["messages"][0]["content"] if body.get("messages") else ""
    for name in ("note_construction", "memory_decisions", "knowledge_extraction"):
        if name in system:
            return name
    return "chat"


class UIModel:
    """Streams ``chat_replies`` in order for chat requests; answers the memory steps simply."""

    def __init__(self) -> None:
        self.chat_replies: list[Reply] = []
        self.extract_items: list[dict] = []

    def __call__(self, body: dict) -> Reply:
        name = _schema_name(body)
        if name == "chat" or body.get("stream"):
            return self.chat_replies.pop(0) if self.chat_replies else Reply.text("（默认回答）")
        if name == "knowledge_extraction":
            return Reply.json({"items": self.extract_items})
        if name == "note_construction":
            return Reply.json({"keywords": ["关键词"], "context": "背景", "tags": ["标签"], "category": "事实"})
        if name == "memory_decisions":  # decision and evolution, one call: every new note ADD
            return Reply.json({"decisions": [], "neighbour_updates": []})
        return Reply.fail(500, f"unexpected {name}")


@pytest.fixture
def ui_model() -> UIModel:
    return UIModel()


@pytest.fixture
def llm_server(ui_model) -> Iterator[FakeLLMServer]:
    with FakeLLMServer(responder=ui_model) as srv:
        yield srv


@pytest.fixture
def llm_client(llm_server):
    from desktop_app.llm.client import LLMClient

    client = LLMClient(llm_server.config(), sleep=lambda s: None)
    yield client
    client.close()


@pytest.fixture
def no_dialogs(monkeypatch):
    """Modal dialogs answer by script instead of blocking the test."""
    from desktop_app.ui import dialogs, excepthook

    excepthook.interactive = False
    answers = {"confirm": True, "text": "新名称", "errors": []}
    monkeypatch.setattr(dialogs, "confirm", lambda *a, **k: answers["confirm"])
    monkeypatch.setattr(dialogs, "ask_text", lambda *a, **k: answers["text"])
    monkeypatch.setattr(dialogs, "error", lambda parent, title, text: answers["errors"].append(text))
    monkeypatch.setattr(dialogs, "inform", lambda *a, **k: None)
    monkeypatch.setattr(dialogs, "ask_restart", lambda *a, **k: False)  # "later"
    yield answers
    excepthook.interactive = True


@pytest.fixture
def make_host(qtbot, tmp_path, embedder, no_dialogs):
    """Build an EngineHost over a real engine (opened through the normal background path)."""
    from desktop_app.core.settings import Settings
    from desktop_app.memory import MemoryEngine
    from desktop_app.ui.engine_host import EngineHost
    from desktop_app.ui.workers import wait_all

    hosts = []

    def make(llm=None, settings: Settings | None = None, data_dir=None, llm_factory=None):
        """``llm_factory(settings)``: how the host builds its client (default: ``llm``)."""
        data_dir = data_dir or tmp_path / "data"

        def factory(path, llm_, s):
            return MemoryEngine.open(path, llm=llm_, embedder=embedder)

        host = EngineHost(data_dir, settings or Settings(language="en"), engine_factory=factory,
                          llm_factory=llm_factory or (lambda s: llm))
        hosts.append(host)
        with qtbot.waitSignal(host.stateChanged, timeout=20_000, check_params_cb=lambda s: s == "ready"):
            host.open()
        return host

    yield make
    wait_all(10_000)
    for h in hosts:
        h.close()


@pytest.fixture
def memory_keyring(monkeypatch):
    """The app's secret store over an in-memory keyring (what a real OS keyring does)."""
    import keyring
    from fakes.keyring_backend import MemoryKeyring

    from desktop_app.core.secrets import SecretStore
    from desktop_app.ui import llm_setup

    backend = MemoryKeyring()
    SecretStore.clear_session()
    previous = keyring.get_keyring()
    monkeypatch.setattr(llm_setup, "_session_store", SecretStore(backend=backend))
    yield backend
    keyring.set_keyring(previous)
    SecretStore.clear_session()
