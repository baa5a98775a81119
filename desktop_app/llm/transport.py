"""The HTTP client handed to ``openai``: an explicit proxy (never the environment's by accident)
and requests that another thread can abort in any phase: every socket goes through a network
backend that enrols it in the calling thread's :class:`.abort.AbortScope`.

The hook is httpcore's network backend, a public interface; installing it needs the
transport's connection pool, which httpx keeps in ``_pool``. If a future httpx moves it, the
stream still returns within its poll interval on cancel (see ``stream.py``), only the request
is no longer ended before its headers arrive — logged as a warning, and caught by the tests.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterable
from typing import Any

import httpcore2
import httpx2
import openai

from .abort import current_scope

log = logging.getLogger(__name__)


class _AbortableStream(httpcore2.NetworkStream):
    def __init__(self, inner: httpcore2.NetworkStream) -> None:
        self._inner = inner

    def _enrol(self) -> None:
        scope = current_scope()
        if scope is not None:
            scope.enrol(self)

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        self._enrol()
        return self._inner.read(max_bytes, timeout)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._enrol()
        self._inner.write(buffer, timeout)

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore2.NetworkStream:
        # The handshake can hang too, and ssl's wrap detaches the socket object we hold before
        # it starts: a duplicate of the descriptor keeps the socket reachable for an abort.
        guard = _HandshakeGuard.of(self._inner.get_extra_info("socket"))
        scope = current_scope()
        if scope is not None and guard is not None:
            scope.enrol(guard)
        try:
            return _AbortableStream(self._inner.start_tls(ssl_context, server_hostname, timeout))
        finally:
            if guard is not None:
                guard.close()

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _HandshakeGuard:
    """A duplicate descriptor of a socket during its TLS handshake (shutting it down ends the
    handshake: shutdown acts on the connection, not on one descriptor)."""

    def __init__(self, dup: socket.socket) -> None:
        self._dup = dup

    @classmethod
    def of(cls, sock: Any) -> _HandshakeGuard | None:
        try:
            return cls(sock.dup())
        except (AttributeError, OSError, NotImplementedError):  # no socket, or TLS in TLS
            return None

    def get_extra_info(self, info: str) -> Any:
        return self._dup if info == "socket" else None

    def close(self) -> None:
        self._dup.close()


class AbortableBackend(httpcore2.NetworkBackend):
    """httpcore's network backend, with every stream enrolled in the thread's abort scope."""

    def __init__(self, inner: httpcore2.NetworkBackend | None = None) -> None:
        self._inner = inner or httpcore2.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.NetworkStream:
        scope = current_scope()
        if scope is not None and scope.aborted:
            raise httpcore2.ConnectError("request aborted")
        stream = _AbortableStream(
            self._inner.connect_tcp(host, port, timeout, local_address, socket_options)
        )
        stream._enrol()
        return stream

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore2.NetworkStream:
        return _AbortableStream(self._inner.connect_unix_socket(path, timeout, socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def build_http_client(proxy_url: str | None, *, system_certificates: bool = False) -> httpx2.Client:
    """The httpx client for ``openai``: this proxy or none, nothing from the environment.

    ``system_certificates``: honour ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` (with the system proxy
    policy, where a corporate proxy may inspect TLS with its own certificate).
    """
    transport = httpx2.HTTPTransport(proxy=proxy_url, trust_env=system_certificates)
    pool = getattr(transport, "_pool", None)
    if pool is not None and hasattr(pool, "_network_backend"):
        pool._network_backend = AbortableBackend(pool._network_backend)
    else:  # see the module docstring
        log.warning("httpx transport without a connection pool hook: stop waits for headers")
    # trust_env=False: no proxy, no .netrc, no certificate variables read behind our back.
    return openai.DefaultHttpxClient(transport=transport, trust_env=False)
