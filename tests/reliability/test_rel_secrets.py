"""The configured key is in no file and no dialog whatever its shape; a plaintext keyring is
refused even wrapped; the data folder is the user's alone (issue 14, items 11, 12 and 13)."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes.keyring_backend import MemoryKeyring
from fakes.llm_server import FakeLLMServer, Reply
from reliability.scan_helpers import ROOT, files, holders

from desktop_app.core.errors import AuthenticationError, StorageError
from desktop_app.core.logging_setup import setup_logging
from desktop_app.core.redaction import forget_secrets
from desktop_app.core.secrets import SecretStore, refusal_reason
from desktop_app.llm import JsonModeCache, LLMClient
from desktop_app.memory import MemoryEngine
from desktop_app.memory.backups import BackupManager

KEYS = {
    "openai": "sk-proj-Qx7RfT2mWvB9kLpZ3nYc8HdJ",
    "hex32": "3f9a0c7be21d45f6a8b90c1d2e3f4a5b",
    "zhipu": "0a1b2c3d4e5f60718293a4b5c6d7e8f9.Kp3Lm9Qr2Ts7Vw1X",
    "google": "AIzaSyD4f8Q2mX7pL0vB3nK9cR5tW1yH6jE8uZa",
}


@pytest.fixture(autouse=True)
def _no_remembered_keys() -> Iterator[None]:
    forget_secrets()
    yield
    forget_secrets()


@pytest.fixture
def logged(tmp_path) -> Iterator[Path]:
    data = tmp_path / "data"
    handler = setup_logging(data / "logs" / "lexmem.log", level=logging.DEBUG)
    try:
        yield data
    finally:
        handler.flush()
        logging.getLogger().removeHandler(handler)
        handler.close()


@pytest.mark.parametrize("shape", list(KEYS))
def test_a_key_echoed_by_the_endpoint_reaches_no_file_and_no_dialog(logged, embedder, shape):
    key = KEYS[shape]
    secrets = SecretStore(service="LexMem-test", backend=MemoryKeyring())
    secrets.set("api-key/custom", key)
    # a careless endpoint quotes the key it was sent in its 401 message
    echo = lambda body: Reply.fail(  # noqa: E731
        401, f"Incorrect API key provided: {key}. Check it at the console.", code="invalid_api_key"
    )
    with FakeLLMServer(responder=echo) as srv:
        llm = LLMClient(
            srv.config(api_key=secrets.get("api-key/custom")),
            mode_cache=JsonModeCache(),
            sleep=lambda s: None,
        )
        with MemoryEngine.open(logged, embedder=embedder, llm=llm) as eng:
            case = eng.create_case("密钥")
            eng.add_note("对方拖欠货款8999元", case_id=case.id)
            eng.run_pending_jobs()
            stored = [r[0] for r in eng._store.query("SELECT last_error FROM jobs")]
            assert stored == ["AuthenticationError (HTTP 401)"]
            BackupManager(eng).snapshot("auto")
            with pytest.raises(AuthenticationError) as err:
                llm.chat([{"role": "user", "content": "hi"}])
            # careless lines anywhere in the app still come out scrubbed
            log = logging.getLogger("desktop_app.test")
            log.warning("endpoint said: %s", err.value)
            log.info("config %s", {"key": key})
            try:
                raise RuntimeError(f"failed with {key}")
            except RuntimeError:
                log.exception("call failed")
            eng.export_markdown(logged / "export.md", case.id)
            # the crash dialog's details (copied into bug reports)
            from desktop_app.ui.excepthook import crash_details, crash_summary

            details = crash_details(type(err.value), err.value, err.value.__traceback__)
            assert key not in details and key not in crash_summary(err.value)
    for handler in logging.getLogger().handlers:
        handler.flush()
    assert "call failed" in (logged / "logs" / "lexmem.log").read_text(encoding="utf-8")
    assert holders(logged, [key, key[4:], key[-16:]]) == []


class PlaintextKeyring(MemoryKeyring):
    """Stand-in for keyrings.alt.file.PlaintextKeyring (writes the key to a file)."""


class MultipartKeyringWrapper(MemoryKeyring):
    """Stand-in for keyrings.alt.multi.MultipartKeyringWrapper: hands every call to the
    keyring it wraps (``_keyring``), splitting long values."""

    def __init__(self, keyring, max_password_size: int = 512) -> None:
        super().__init__()
        self._keyring = keyring
        self._max_password_size = max_password_size

    def get_password(self, service, username):
        return self._keyring.get_password(service, username)

    def set_password(self, service, username, password):
        self._keyring.set_password(service, username, password)


PlaintextKeyring.__module__ = "keyrings.alt.file"
MultipartKeyringWrapper.__module__ = "keyrings.alt.multi"


@pytest.mark.parametrize("depth", [1, 2])
def test_a_plaintext_keyring_is_refused_even_wrapped(depth):
    inner = PlaintextKeyring()
    backend = inner
    for _ in range(depth):
        backend = MultipartKeyringWrapper(backend)
    assert "plaintext" in (refusal_reason(backend) or "")
    store = SecretStore(service="LexMem-test", backend=backend)
    assert not store.is_persistent and store.user_message
    assert store.set("api-key/custom", KEYS["openai"]) is False  # session only
    assert inner.store == {}  # nothing reached the plaintext file
    assert store.get("api-key/custom") == KEYS["openai"]
    SecretStore.clear_session()


def test_a_secure_keyring_wrapped_is_still_used():
    inner = MemoryKeyring()
    store = SecretStore(service="LexMem-test", backend=MultipartKeyringWrapper(inner))
    assert store.is_persistent and store.set("api-key/custom", KEYS["hex32"]) is True
    assert KEYS["hex32"] in inner.store.values()


# --------------------------------------------------------------------------- permissions


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_every_file_of_the_data_folder_is_private(tmp_path, embedder):
    old = os.umask(0o022)  # a typical desktop session's umask
    try:
        data = tmp_path / "data"
        handler = setup_logging(data / "logs" / "lexmem.log")
        try:
            with MemoryEngine.open(data, embedder=embedder) as eng:
                case = eng.create_case("权限")
                eng.add_notes(
                    [{"content": f"第{i}条保密记录", "case_id": case.id} for i in range(5)]
                )
                note = eng.add_note("将被遗忘的记录", case_id=case.id).note
                mgr = BackupManager(eng)
                mgr.snapshot("auto")
                eng.export_jsonl(data / "export.jsonl", case.id)
                eng.forget_note(note.id)
                logging.getLogger("desktop_app.test").warning("a line in the log")
                open_files = files(data)
                loose = [
                    f"{p.relative_to(data)} {oct(stat.S_IMODE(p.stat().st_mode))}"
                    for p in open_files
                    if stat.S_IMODE(p.stat().st_mode) & 0o077
                ]
                assert loose == []
        finally:
            logging.getLogger().removeHandler(handler)
            handler.close()
        folders = [data, *(p for p in data.rglob("*") if p.is_dir())]
        assert [str(p) for p in folders if stat.S_IMODE(p.stat().st_mode) != 0o700] == []
        assert len(open_files) > 10  # the index, the database, backups, the log were there
    finally:
        os.umask(old)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_shared_folder_is_refused_not_changed(tmp_path, embedder):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)  # like /tmp: everyone may write
    with pytest.raises(StorageError) as err:
        MemoryEngine.open(shared, embedder=embedder)
    assert "共享" in err.value.user_message and "shared" in err.value.user_message
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777  # left as it was
    assert list(shared.iterdir()) == []  # nothing written into it
    cli = subprocess.run(
        [sys.executable, "-m", "desktop_app.cli", "--data-dir", str(shared), "stats"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert cli.returncode == 2 and "shared" in cli.stderr, cli.stderr
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
