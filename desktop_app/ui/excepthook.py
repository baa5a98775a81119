"""Unexpected exceptions: log them with their traceback and show a dialog, never crash silently."""

from __future__ import annotations

import logging
import sys
import traceback
from types import TracebackType

from PySide6.QtCore import QCoreApplication, Qt, QThread
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop_app.core.errors import LexMemError
from desktop_app.core.logging_setup import redact

log = logging.getLogger("lexmem.crash")

#: tests turn this off; offscreen runs never block on a dialog either
interactive = True
_showing = False  # an exception inside the dialog must not open dialogs forever


def crash_summary(exc: BaseException) -> str:
    """The dialog's sentence: a LexMem error's own words, else a reassurance."""
    if isinstance(exc, LexMemError):
        from desktop_app.ui.texts import in_ui_language

        return redact(in_ui_language(exc.user_message))
    return QCoreApplication.translate(
        "Crash",
        "Something unexpected went wrong. Your data is safe; the details were written to the log file.",
    )


def crash_details(
    exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None
) -> str:
    """The traceback shown under "Show Details…": the configured API key and anything
    shaped like a credential scrubbed (a key is copied from this dialog into bug reports)."""
    return redact("".join(traceback.format_exception(exc_type, exc, tb)))


def show_exception(
    exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None
) -> None:
    global _showing
    text = "".join(traceback.format_exception(exc_type, exc, tb))
    log.error("unhandled exception:\n%s", text)
    app = QApplication.instance()
    # only the UI thread may open a dialog; other threads just log
    if _showing or app is None or QThread.currentThread() is not app.thread():
        return
    # offscreen (tests, --screenshots) has nobody to click OK: a modal dialog would hang
    if not interactive or QApplication.platformName() in ("offscreen", "minimal"):
        return
    _showing = True
    try:
        box = QMessageBox(QApplication.activeWindow())
        box.setIcon(QMessageBox.Icon.Critical)
        box.setWindowTitle(QCoreApplication.translate("Crash", "Unexpected error"))
        box.setTextFormat(Qt.TextFormat.PlainText)  # an error may quote a note or a reply
        box.setText(crash_summary(exc))
        box.setDetailedText(crash_details(exc_type, exc, tb))
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.exec()
    finally:
        _showing = False


def install() -> None:
    """Route uncaught exceptions (UI thread and threading threads) to the log and a dialog."""
    sys.excepthook = show_exception

    import threading

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            show_exception(args.exc_type, args.exc_value, args.exc_traceback)

    threading.excepthook = thread_hook
