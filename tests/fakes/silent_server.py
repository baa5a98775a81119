"""A TCP server that accepts connections and never says a word.

An ``https://`` client connecting to it hangs in the TLS handshake, before any request is
sent: the "connecting" phase of a call, which Stop must end as quickly as the others.
"""

from __future__ import annotations

import socket
import threading


class SilentServer:
    """Accepts on 127.0.0.1 (``port``); ``accepted`` holds the server side of each connection."""

    def __init__(self) -> None:
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(8)
        self.port: int = self._listener.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self.port}/v1"

    def start(self) -> SilentServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2)
        for conn in self.accepted:
            conn.close()
        self._listener.close()

    def __enter__(self) -> SilentServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _accept(self) -> None:
        self._listener.settimeout(0.1)
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
                self.accepted.append(conn)
            except OSError:
                continue
