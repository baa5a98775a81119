"""Start the desktop app: QApplication, lock, log, look, window first — engine after paint."""

from __future__ import annotations

import logging
import os
import sys
import time
from argparse import Namespace
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_app import APP_DISPLAY_NAME, APP_NAME, __version__
from desktop_app.core.errors import DataFolderLockedError
from desktop_app.core.logging_setup import setup_logging
from desktop_app.core.paths import lock_file, log_file, resolve_data_dir, settings_file
from desktop_app.core.settings import load_settings
from desktop_app.ui import excepthook, i18n, platform_check, theme
from desktop_app.ui.single_instance import DataFolderLock

log = logging.getLogger(__name__)

#: set by the start-up test and benchmark: print a line at the main window's first paint
FIRST_PAINT_ENV = "LEXMEM_REPORT_FIRST_PAINT"


class _FirstPaint(QObject):
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            print("first-paint", flush=True, file=sys.stdout)
            obj.removeEventFilter(self)
        return False


def _report_first_paint(window: QObject) -> None:
    window._first_paint_probe = _FirstPaint(window)  # type: ignore[attr-defined]
    window.installEventFilter(window._first_paint_probe)  # type: ignore[attr-defined]


def make_app(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv or [APP_NAME])
    QCoreApplication.setApplicationName(APP_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    QApplication.setApplicationDisplayName(APP_DISPLAY_NAME)
    return app  # type: ignore[return-value]


def run(args: Namespace) -> int:
    t0 = time.perf_counter()
    data_dir: Path = resolve_data_dir(args.data_dir)
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
        box = QMessageBox(QMessageBox.Icon.Warning, APP_DISPLAY_NAME, text)
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
        _report_first_paint(window)
    window.show()
    log.info("window shown after %.0f ms", 1000 * (time.perf_counter() - t0))
    # open the engine only once the event loop has painted the window
    QTimer.singleShot(0, host.open)
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
