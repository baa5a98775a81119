"""Ending a request from another thread: the sockets it uses, enrolled in a scope.

A streamed chat runs its request in a worker thread inside an :class:`AbortScope`. Every
socket that thread connects, reads or writes is enrolled (by the network backend in
:mod:`.transport`) — including a pooled keep-alive connection made earlier by another request —
so :meth:`AbortScope.abort` can shut them down from the UI's thread: a read blocked while the
server holds the headers, a TLS handshake that never finishes, or a slow chunk all fail at
once, and the server sees the client go away. (Closing a response from another thread does not
wake a thread blocked in ``recv()``; shutting its socket down does.)

Kept apart from :mod:`.transport` so that importing the LLM layer does not import httpcore
(the engine imports it at start-up, while the window is being painted).
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from typing import Any

_current = threading.local()


class AbortScope:
    """The sockets one request uses, so that another thread can end the request."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streams: list[Any] = []
        self.aborted = False

    @contextlib.contextmanager
    def bound(self) -> Iterator[AbortScope]:
        """Enrol every socket the current thread uses while inside the block."""
        previous = getattr(_current, "scope", None)
        _current.scope = self
        try:
            yield self
        finally:
            _current.scope = previous

    def enrol(self, stream: Any) -> None:
        with self._lock:
            if not self.aborted:
                if not any(s is stream for s in self._streams):
                    self._streams.append(stream)
                return
        _shutdown(stream)  # aborted already: this socket must not be used
        import httpcore2

        raise httpcore2.ReadError("request aborted")

    def track_response(self, response_stream: Any) -> None:
        """Enrol the socket of an open response (when the backend hook is missing)."""
        response = getattr(response_stream, "response", None)
        network = response.extensions.get("network_stream") if response is not None else None
        if network is not None:
            with self._lock:
                if not self.aborted:
                    self._streams.append(network)
                    return
            _shutdown(network)

    def abort(self) -> None:
        """End the request from any thread: every enrolled socket is shut down."""
        with self._lock:
            self.aborted = True
            streams, self._streams = self._streams, []
        for stream in streams:
            _shutdown(stream)


def current_scope() -> AbortScope | None:
    return getattr(_current, "scope", None)


def _shutdown(stream: Any) -> None:
    try:
        sock = stream.get_extra_info("socket")
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)
    except (OSError, AttributeError, ValueError):
        pass  # already closed, or detached by a TLS wrap: nothing left to wake
