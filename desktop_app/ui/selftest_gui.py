"""Qt half of ``lexmem --selftest`` and the start-up probe (``LEXMEM_STARTUP_PROBE=1``).

The Qt-free half (engine, keyring, versions, the JSON report) is ``desktop_app.selftest``;
Qt may only be imported under ``desktop_app/ui`` (tests/test_architecture.py).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer, qVersion
from PySide6.QtWidgets import QApplication

PROBE_ENV = "LEXMEM_STARTUP_PROBE"
PROBE_QUIT_ENV = "LEXMEM_STARTUP_PROBE_QUIT"


def open_main_window(data_dir: Path, timeout_s: float = 120.0) -> dict[str, Any]:
    """Build the real main window over a real engine host, show it, wait for the first
    paint and for the engine to open in its worker, then close everything.

    Raises RuntimeError with the reason when the window never paints or the engine fails.
    """
    from desktop_app.core.settings import Settings
    from desktop_app.ui import dialogs, i18n, theme
    from desktop_app.ui.app import make_app
    from desktop_app.ui.engine_host import EngineHost
    from desktop_app.ui.main_window import MainWindow
    from desktop_app.ui.workers import wait_all

    # a modal box would block the self-test forever (offscreen, nobody clicks): record them
    shown: list[str] = []
    dialogs.error = lambda _p, title, text: shown.append(f"error: {text}")  # type: ignore[assignment]
    dialogs.inform = lambda _p, title, text: shown.append(f"info: {text}")  # type: ignore[assignment]
    dialogs.confirm = lambda _p, title, text, **_kw: bool(shown.append(f"confirm: {text}"))  # type: ignore[assignment]

    t0 = time.perf_counter()
    app = make_app()
    settings = Settings()
    i18n.install(settings.language)
    theme.apply(app, settings.theme)
    host = EngineHost(data_dir, settings)
    window = MainWindow(host)
    painted = _PaintWatcher(window)
    window.installEventFilter(painted)
    window.show()
    host.open()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        app.processEvents()
        if host.state == "failed" or (painted.at is not None and host.state == "ready"):
            break
        time.sleep(0.01)
    # a short extra spin lets the views react to "ready" (cases, stats) like a real start
    spin_until = time.monotonic() + 0.5
    while time.monotonic() < spin_until:
        app.processEvents()
        time.sleep(0.01)
    info: dict[str, Any] = {
        "qt": qVersion(),
        "platform": QApplication.platformName(),
        "title": window.windowTitle(),
        "first_paint_ms": None if painted.at is None else round(1000 * (painted.at - t0)),
        "engine_state": host.state,
        "dialogs": shown,
    }
    state, error = host.state, host.error
    window.close()
    wait_all(15_000)
    host.close()
    app.processEvents()
    if painted.at is None:
        raise RuntimeError(f"the main window never painted within {timeout_s:.0f} s")
    if state != "ready":
        raise RuntimeError(f"the window's engine did not open: {state} {error!r}")
    return info


class _PaintWatcher(QObject):
    """Records the time of the first paint event of one widget (or any top-level window)."""

    def __init__(self, target: QObject | None = None, on_first: Any = None) -> None:
        super().__init__()
        self.target = target
        self.at: float | None = None
        self._on_first = on_first

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if self.at is None and event.type() == QEvent.Type.Paint:
            if self.target is None or obj is self.target:
                if self.target is not None or _is_main_window(obj):
                    self.at = time.perf_counter()
                    if self._on_first is not None:
                        self._on_first(obj)
        return False


def _is_main_window(obj: QObject) -> bool:
    from PySide6.QtWidgets import QMainWindow

    return isinstance(obj, QMainWindow)


def process_start_epoch() -> float | None:
    """When the OS created this process (seconds since the epoch), or None if unknown.

    Measuring from here (not from the first Python line) includes what users wait for in a
    frozen build: the bootloader, unpacking nothing (one-folder), the interpreter start."""
    try:
        if sys.platform.startswith("linux"):
            ticks = os.sysconf("SC_CLK_TCK")
            fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
            start_ticks = int(fields[19])  # field 22 of stat(5), counted after the comm field
            boot = next(
                float(line.split()[1])
                for line in Path("/proc/stat").read_text().splitlines()
                if line.startswith("btime ")
            )
            return boot + start_ticks / ticks
        if sys.platform == "win32":
            import ctypes
            from ctypes import wintypes

            ft = [wintypes.FILETIME() for _ in range(4)]
            kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
            handle = kernel32.GetCurrentProcess()
            if kernel32.GetProcessTimes(handle, *[ctypes.byref(f) for f in ft]):
                created = (ft[0].dwHighDateTime << 32) | ft[0].dwLowDateTime
                return created / 1e7 - 11644473600.0  # FILETIME: 100 ns since 1601
    except Exception:
        return None
    return None


def install_startup_probe(py_t0: float) -> None:
    """With LEXMEM_STARTUP_PROBE=1: print one JSON line at the main window's first paint
    (ms since the process was created and since Python started running our code), and
    with LEXMEM_STARTUP_PROBE_QUIT=1 quit right after, for scripted measurements.

    Installed before ``desktop_app.ui.app.run``: it creates the QApplication through the same
    ``make_app`` (which reuses an existing instance) and filters its events.  ``py_t0`` is
    ``time.perf_counter()`` taken when ``desktop_app.__main__`` was imported."""
    from desktop_app.ui.app import make_app

    started = process_start_epoch()
    app = make_app()

    def report(_obj: QObject) -> None:
        now_perf, now_epoch = time.perf_counter(), time.time()
        line = {
            "event": "first_paint",
            "ms_since_process_start": None
            if started is None
            else round(1000 * (now_epoch - started)),
            "ms_since_python_main": round(1000 * (now_perf - py_t0)),
            "frozen": bool(getattr(sys, "frozen", False)),
        }
        text = "LEXMEM_STARTUP_PROBE " + json.dumps(line)
        print(text, flush=True)
        out = os.environ.get(PROBE_ENV + "_FILE")
        if out:  # windowed Windows builds have no stdout
            with open(out, "a", encoding="utf-8") as fh:
                fh.write(text + "\n")
        if os.environ.get(PROBE_QUIT_ENV) == "1":
            QTimer.singleShot(0, _close_all)

    watcher = _PaintWatcher(None, report)
    app.installEventFilter(watcher)
    app._lexmem_probe = watcher  # type: ignore[attr-defined]  # keep it alive with the app


def _close_all(tries: int = 600) -> None:
    # let the engine finish opening in its worker first: quitting mid-open would measure a
    # start-up no user sees and tear the worker down under its feet
    hosts = [getattr(w, "host", None) for w in QApplication.topLevelWidgets()]
    if tries > 0 and any(getattr(h, "state", None) == "loading" for h in hosts):
        QTimer.singleShot(100, lambda: _close_all(tries - 1))
        return
    for w in QApplication.topLevelWidgets():
        w.close()
    QApplication.quit()
