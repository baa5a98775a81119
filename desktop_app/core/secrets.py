"""API keys in the OS keyring — and nowhere else.

Keys live under the service name ``"LexMem"``, one entry per endpoint (user name from
:func:`desktop_app.llm.presets.key_id_for`, e.g. ``api-key/deepseek``).

When no secure keyring is usable — none at all (``NoKeyringError``, keyring's fail/null
backends, a headless Linux without Secret Service) or only a plaintext one (``keyrings.alt``
file backends, which silently write the key to a file in the home folder) — the key is kept in
process memory for this session only, ``is_persistent`` is False and ``user_message`` says so
for the UI. A key is never written to a file, a log line or an environment variable.
"""

from __future__ import annotations

import logging
import threading

import keyring
import keyring.errors
from keyring.backend import KeyringBackend

from desktop_app.core.errors import SecretStoreError
from desktop_app.core.redaction import remember_secret

log = logging.getLogger(__name__)

SERVICE_NAME = "LexMem"

# Session-only keys, shared by every SecretStore of the process (the settings dialog and the
# LLM client build their own stores): {(service, key_id): secret}.
_SESSION: dict[tuple[str, str], str] = {}
_SESSION_LOCK = threading.Lock()


def _qualname(backend: object) -> str:
    cls = type(backend)
    return f"{cls.__module__}.{cls.__qualname__}"


def _wrapped(backend: object) -> list[object]:
    """The backends ``backend`` hands its work to (keyrings.alt's MultipartKeyringWrapper
    keeps one in ``_keyring``; other wrappers use similar attributes).  A chainer's members
    are chosen among separately (see _pick_backend)."""
    inner: list[object] = []
    for value in vars(backend).values() if hasattr(backend, "__dict__") else ():
        if isinstance(value, KeyringBackend):
            inner.append(value)
        elif isinstance(value, list | tuple):
            inner.extend(v for v in value if isinstance(v, KeyringBackend))
    return inner


def _own_refusal(name: str) -> str | None:
    if name.startswith(("keyring.backends.fail.", "keyring.backends.null.")):
        return f"no usable keyring backend ({name})"
    if name.startswith("keyrings.alt.file") or "plaintext" in name.lower():
        return f"plaintext keyring backend refused ({name})"
    return None


def refusal_reason(backend: KeyringBackend | None, _depth: int = 0) -> str | None:
    """Why ``backend`` must not hold keys (None: it is fine).  A wrapper is judged by what
    it wraps too: ``MultipartKeyringWrapper(PlaintextKeyring())`` writes plaintext."""
    if backend is None:
        return "no keyring backend"
    name = _qualname(backend)
    reason = _own_refusal(name)
    if reason is not None:
        return reason
    if _depth > 8:  # a cycle of wrappers: refuse rather than trust it
        return f"keyring backend nested too deeply ({name})"
    for inner in _wrapped(backend):
        inner_reason = refusal_reason(inner, _depth + 1)
        if inner_reason is not None:
            return f"{inner_reason}, wrapped in {name}"
    return None


def _pick_backend(backend: KeyringBackend | None) -> tuple[KeyringBackend | None, str | None]:
    """The backend to use and, when there is none, why."""
    if backend is None:
        try:
            backend = keyring.get_keyring()
        except Exception as exc:  # a broken keyring config file must not stop the app
            return None, f"keyring unavailable: {type(exc).__name__}"
    # A chainer writes to its best member and falls back to the next: a plaintext member would
    # then receive the key when the secure one fails. Use the best acceptable member alone.
    members = getattr(backend, "backends", None)
    if _qualname(backend).startswith("keyring.backends.chainer.") and members is not None:
        for member in members:
            if refusal_reason(member) is None:
                return member, None
        return None, "no usable keyring backend (chainer has only refused members)"
    reason = refusal_reason(backend)
    return (None, reason) if reason else (backend, None)


class SecretStore:
    """get / set / delete API keys in the OS keyring, or for this session only without one."""

    def __init__(self, service: str = SERVICE_NAME, backend: KeyringBackend | None = None) -> None:
        self.service = service
        self._backend, self._reason = _pick_backend(backend)
        if self._backend is None:
            self._warn(self._reason or "no keyring")

    # -- status ------------------------------------------------------------------------------

    @property
    def is_persistent(self) -> bool:
        """True when keys survive a restart (a secure OS keyring is in use)."""
        return self._backend is not None

    def backend_name(self) -> str:
        """A short description for the settings dialog and the log."""
        if self._backend is None:
            return f"session memory only ({self._reason})"
        return f"{getattr(type(self._backend), 'name', type(self._backend).__name__)}"

    @property
    def user_message(self) -> str | None:
        """What the UI shows next to the key field when keys are session-only."""
        return None if self.is_persistent else SecretStoreError.default_user_message

    def error(self) -> SecretStoreError | None:
        """The condition as an exception object (for callers that report errors uniformly)."""
        if self.is_persistent:
            return None
        return SecretStoreError(self._reason or "no keyring")

    def _warn(self, reason: str) -> None:
        self._reason = reason
        log.warning(
            "API keys will be kept for this session only: %s. Install/unlock an OS keyring "
            "(Windows Credential Manager, macOS Keychain, GNOME Keyring/KWallet) to keep them.",
            reason,
        )

    def _degrade(self, what: str, exc: BaseException) -> None:
        # A keyring that fails at run time (locked, D-Bus gone): stop using it for the session.
        # Only the exception type goes to the log — some backends echo arguments in messages.
        self._backend = None
        self._warn(f"keyring {what} failed ({type(exc).__name__})")

    # -- operations --------------------------------------------------------------------------

    def get(self, key_id: str) -> str | None:
        """The stored key, or None."""
        _check_id(key_id)
        with _SESSION_LOCK:
            session = _SESSION.get((self.service, key_id))
        if self._backend is not None:
            try:
                value = self._backend.get_password(self.service, key_id)
            except Exception as exc:
                self._degrade("read", exc)
            else:
                found = value if value else session
                remember_secret(found)  # from now on scrubbed from every log line and dialog
                return found
        remember_secret(session)
        return session

    def set(self, key_id: str, secret: str) -> bool:
        """Store ``secret``; True if it was persisted, False if kept for this session only.

        Surrounding whitespace (a pasted newline) is dropped; an empty secret deletes the key.
        """
        _check_id(key_id)
        secret = (secret or "").strip()
        if not secret:
            self.delete(key_id)
            return self.is_persistent
        remember_secret(secret)
        if self._backend is not None:
            try:
                self._backend.set_password(self.service, key_id, secret)
                # Some backends accept a write and drop it; read back to be sure.
                if self._backend.get_password(self.service, key_id) == secret:
                    with _SESSION_LOCK:
                        _SESSION.pop((self.service, key_id), None)
                    return True
                self._degrade("write verification", RuntimeError("read-back mismatch"))
            except Exception as exc:
                self._degrade("write", exc)
        with _SESSION_LOCK:
            _SESSION[(self.service, key_id)] = secret
        return False

    def delete(self, key_id: str) -> None:
        """Forget the key everywhere (keyring and session). Missing keys are fine."""
        _check_id(key_id)
        with _SESSION_LOCK:
            _SESSION.pop((self.service, key_id), None)
        if self._backend is not None:
            try:
                self._backend.delete_password(self.service, key_id)
            except keyring.errors.PasswordDeleteError:
                pass  # nothing stored
            except Exception as exc:
                self._degrade("delete", exc)

    @staticmethod
    def clear_session() -> None:
        """Forget every session-only key (tests; "forget keys" in the UI)."""
        with _SESSION_LOCK:
            _SESSION.clear()


def _check_id(key_id: str) -> None:
    if not isinstance(key_id, str) or not key_id.strip():
        raise ValueError("key_id must be a non-empty string")
