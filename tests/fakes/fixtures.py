"""Pytest fixtures for the fakes. Registered in tests/conftest.py with
``pytest_plugins = ["fakes.fixtures"]`` (tests/ is on sys.path because pytest inserts the
root conftest's folder; test modules can also import the fixtures directly)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fakes.llm_server import FakeLLMServer
from fakes.silent_server import SilentServer


@pytest.fixture
def fake_llm() -> Iterator[FakeLLMServer]:
    """A started scripted server (accepts every structured-output mode, any key)."""
    with FakeLLMServer() as server:
        yield server


@pytest.fixture
def fake_deepseek() -> Iterator[FakeLLMServer]:
    """A server that refuses ``json_schema`` with HTTP 400, as DeepSeek does."""
    with FakeLLMServer(json_schema=False) as server:
        yield server


@pytest.fixture
def silent_tls_server() -> Iterator[SilentServer]:
    """Accepts TCP connections and never answers: an https client hangs in the handshake."""
    with SilentServer() as server:
        yield server
