"""A recording HTTP forward proxy on 127.0.0.1, for the proxy-policy tests.

It plays the stale corporate proxy of a lawyer's shell (``HTTP_PROXY=http://…``): it records
every request it receives (method, absolute URL, headers — so a test can see an API key that
should never have reached it) and forwards plain-http requests to their target, so a call
through it still succeeds. ``CONNECT`` (https tunnels) is recorded and refused with 502.

    with FakeHTTPProxy() as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        ...
        assert proxy.requests == []
"""

from __future__ import annotations

import http.client
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit


@dataclass
class ProxiedRequest:
    method: str
    url: str  # the absolute URL the client asked the proxy for
    headers: dict[str, str]  # lower-case names

    @property
    def authorization(self) -> str | None:
        return self.headers.get("authorization")


class FakeHTTPProxy:
    def __init__(self) -> None:
        self.requests: list[ProxiedRequest] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None

    def start(self) -> FakeHTTPProxy:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeHTTPProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._httpd is not None, "proxy not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def _record(self, method: str, url: str, headers: Any) -> None:
        with self._lock:
            self.requests.append(
                ProxiedRequest(method, url, {k.lower(): v for k, v in headers.items()})
            )


def _make_handler(proxy: FakeHTTPProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_CONNECT(self) -> None:
            proxy._record("CONNECT", self.path, self.headers)
            self.send_response(502)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def _forward(self) -> None:
            proxy._record(self.command, self.path, self.headers)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            target = urlsplit(self.path)
            headers = {
                k: v for k, v in self.headers.items() if k.lower() not in ("proxy-connection",)
            }
            try:
                conn = http.client.HTTPConnection(
                    target.hostname or "", target.port or 80, timeout=10
                )
                path = target.path + (f"?{target.query}" if target.query else "")
                conn.request(self.command, path, body, headers)
                resp = conn.getresponse()
                data = resp.read()
            except OSError as exc:
                data = f"proxy could not reach {target.hostname}: {exc}".encode()
                self.send_response(502)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            self.send_response(resp.status)
            for k, v in resp.getheaders():
                if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = _forward
        do_POST = _forward

    return Handler
