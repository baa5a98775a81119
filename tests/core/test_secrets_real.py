"""SecretStore against a real Secret Service (GNOME Keyring over D-Bus).

Skipped unless one is reachable. CI runs it inside its own session bus with
``tests/core/run_real_keyring.sh``.
"""

from __future__ import annotations

import os
import uuid

import pytest

from desktop_app.core.secrets import SecretStore


def _unavailable(reason: str) -> None:
    # run_real_keyring.sh sets this: there, a missing Secret Service is a failure, not a skip
    if os.environ.get("LEXMEM_REQUIRE_REAL_KEYRING") == "1":
        pytest.fail(f"the real Secret Service was required but is unavailable: {reason}")
    pytest.skip(reason)


def _secret_service():
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        _unavailable("no D-Bus session bus (run tests/core/run_real_keyring.sh)")
    try:
        from keyring.backends.SecretService import Keyring
    except ImportError as exc:  # pragma: no cover - SecretStorage missing
        _unavailable(f"SecretStorage not installed: {exc}")
    backend = Keyring()
    try:
        backend.priority  # noqa: B018  (raises when the service is unreachable)
        probe = f"probe-{uuid.uuid4()}"
        backend.set_password("LexMem-test", probe, "x")
        backend.delete_password("LexMem-test", probe)
    except Exception as exc:
        _unavailable(f"Secret Service not usable: {type(exc).__name__}: {exc}")
    return backend


def test_roundtrip_in_the_real_secret_service():
    backend = _secret_service()
    store = SecretStore(service="LexMem-test", backend=backend)
    assert store.is_persistent, store.backend_name()
    key_id = f"api-key/test-{uuid.uuid4()}"
    secret = "sk-real-keyring-" + uuid.uuid4().hex
    try:
        assert store.set(key_id, secret) is True
        SecretStore.clear_session()
        # A fresh store (as after a restart) reads it back from the service.
        assert SecretStore(service="LexMem-test", backend=backend).get(key_id) == secret
        assert backend.get_password("LexMem-test", key_id) == secret
    finally:
        store.delete(key_id)
    assert store.get(key_id) is None


def test_default_backend_is_the_secret_service_and_persistent():
    _secret_service()
    store = SecretStore(service="LexMem-test")
    assert store.is_persistent, store.backend_name()
