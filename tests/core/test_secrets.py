"""SecretStore with in-memory keyring backends: the keyring path, refusal of missing and
plaintext backends, session-only fallback, and that a key never reaches a log or the env."""

from __future__ import annotations

import logging
import os

import keyring
import keyring.errors
import pytest
from fakes.keyring_backend import MemoryKeyring
from keyring.backends import chainer, fail, null

from desktop_app.core.errors import SecretStoreError
from desktop_app.core.secrets import SERVICE_NAME, SecretStore, refusal_reason

SECRET = "sk-test-Very-Secret-0123456789"


class BrokenKeyring(MemoryKeyring):
    """Locked keyring / D-Bus gone: every call fails."""

    def get_password(self, service, username):
        raise keyring.errors.KeyringLocked("locked")

    def set_password(self, service, username, password):
        raise keyring.errors.PasswordSetError(f"cannot store {password}")  # echoes the secret


class DroppingKeyring(MemoryKeyring):
    """Accepts writes and forgets them."""

    def set_password(self, service, username, password):
        pass


# A stand-in for keyrings.alt's PlaintextKeyring (not installed, and never should be).
PlaintextKeyring = type("PlaintextKeyring", (MemoryKeyring,), {"__module__": "keyrings.alt.file"})
EncryptedKeyring = type("EncryptedKeyring", (MemoryKeyring,), {"__module__": "keyrings.alt.file"})


@pytest.fixture(autouse=True)
def _isolate():
    SecretStore.clear_session()
    previous = keyring.get_keyring()
    yield
    keyring.set_keyring(previous)
    SecretStore.clear_session()


def test_roundtrip_in_the_keyring():
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    store = SecretStore()
    assert store.is_persistent and store.user_message is None and store.error() is None
    assert store.set("api-key/deepseek", f"  {SECRET}\n") is True  # pasted whitespace dropped
    assert backend.store == {(SERVICE_NAME, "api-key/deepseek"): SECRET}
    assert SecretStore().get("api-key/deepseek") == SECRET  # another store, same keyring
    store.delete("api-key/deepseek")
    assert store.get("api-key/deepseek") is None
    store.delete("api-key/deepseek")  # deleting a missing key is fine


def test_empty_secret_deletes():
    backend = MemoryKeyring()
    store = SecretStore(backend=backend)
    store.set("k", SECRET)
    store.set("k", "   ")
    assert store.get("k") is None and backend.store == {}


@pytest.mark.parametrize("backend", [fail.Keyring(), null.Keyring()], ids=["fail", "null"])
def test_no_usable_backend_means_session_only(backend, caplog):
    caplog.set_level(logging.WARNING)
    keyring.set_keyring(backend)
    store = SecretStore()
    assert not store.is_persistent
    assert store.user_message == SecretStoreError.default_user_message
    assert isinstance(store.error(), SecretStoreError)
    assert "session" in store.backend_name()
    assert any("session only" in r.getMessage() for r in caplog.records)
    assert store.set("api-key/openai", SECRET) is False
    assert store.get("api-key/openai") == SECRET
    assert SecretStore().get("api-key/openai") == SECRET  # shared for the whole session
    store.delete("api-key/openai")
    assert store.get("api-key/openai") is None


@pytest.mark.parametrize("cls", [PlaintextKeyring, EncryptedKeyring])
def test_plaintext_backends_are_refused(cls, caplog):
    caplog.set_level(logging.WARNING)
    backend = cls()
    assert "plaintext" in refusal_reason(backend)
    keyring.set_keyring(backend)
    store = SecretStore()
    assert not store.is_persistent
    store.set("api-key/deepseek", SECRET)
    assert backend.store == {}  # nothing written to the "file"
    assert store.get("api-key/deepseek") == SECRET
    assert any("plaintext" in r.getMessage() for r in caplog.records)


def test_chainer_uses_its_best_secure_member_only(monkeypatch):
    secure, plain = MemoryKeyring(), PlaintextKeyring()
    chain = chainer.ChainerBackend()
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [plain, secure])
    store = SecretStore(backend=chain)
    assert store.is_persistent
    store.set("k", SECRET)
    assert plain.store == {} and secure.store == {(SERVICE_NAME, "k"): SECRET}


def test_chainer_with_only_refused_members(monkeypatch):
    chain = chainer.ChainerBackend()
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [PlaintextKeyring()])
    assert not SecretStore(backend=chain).is_persistent


def test_get_keyring_failing_is_session_only(monkeypatch):
    def boom():
        raise keyring.errors.NoKeyringError("No recommended backend was available.")

    monkeypatch.setattr(keyring, "get_keyring", boom)
    store = SecretStore()
    assert not store.is_persistent
    assert store.set("k", SECRET) is False and store.get("k") == SECRET


def test_runtime_failure_degrades_to_session_without_logging_the_key(caplog):
    caplog.set_level(logging.DEBUG)
    store = SecretStore(backend=BrokenKeyring())
    assert store.is_persistent  # looked fine at start
    assert store.set("api-key/deepseek", SECRET) is False
    assert not store.is_persistent and store.user_message
    assert store.get("api-key/deepseek") == SECRET
    assert SECRET not in caplog.text
    assert all(SECRET not in str(r.args) for r in caplog.records)


def test_write_that_does_not_stick_is_detected():
    store = SecretStore(backend=DroppingKeyring())
    assert store.set("k", SECRET) is False
    assert store.get("k") == SECRET and not store.is_persistent


def test_key_never_in_environment_or_logs(caplog):
    caplog.set_level(logging.DEBUG)
    for backend in (MemoryKeyring(), fail.Keyring()):
        store = SecretStore(backend=backend)
        store.set("api-key/x", SECRET)
        store.get("api-key/x")
    assert SECRET not in caplog.text
    assert not any(SECRET in v for v in os.environ.values())


def test_no_file_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    store = SecretStore(backend=fail.Keyring())
    store.set("api-key/x", SECRET)
    assert list(tmp_path.rglob("*")) == []


def test_key_id_must_be_given():
    store = SecretStore(backend=MemoryKeyring())
    with pytest.raises(ValueError):
        store.get("")
