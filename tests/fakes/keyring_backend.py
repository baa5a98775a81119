"""An in-memory keyring backend for the tests: what a real OS keyring does, minus the OS.

It looks secure to ``SecretStore`` (not a plaintext or fail backend), so the code paths of a
real keyring run; the real Secret Service is exercised separately
(tests/core/run_real_keyring.sh)."""

from __future__ import annotations

import keyring.errors
from keyring.backend import KeyringBackend


class MemoryKeyring(KeyringBackend):
    priority = 10

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.store.get((service, username))

    def set_password(self, service, username, password):
        self.store[(service, username)] = password

    def delete_password(self, service, username):
        if (service, username) not in self.store:
            raise keyring.errors.PasswordDeleteError("not found")
        del self.store[(service, username)]
