"""Restart LexMem (after a language change): close the window, and once the data folder
is released, start the same program again."""

from __future__ import annotations

import logging
import subprocess
import sys

from PySide6.QtWidgets import QApplication, QMainWindow

log = logging.getLogger(__name__)

_requested = False


def requested() -> bool:
    return _requested


def request() -> None:
    """Close the main windows; ``app.run`` starts the program again once it has stopped."""
    global _requested
    _requested = True
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QMainWindow):
            widget.close()


def command(argv: list[str] | None = None, frozen: bool | None = None) -> list[str]:
    """How this program was started, without a ``--lang`` that would override the new
    language (and without the test-only ``--quit-after``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in ("--lang", "--quit-after"):
            skip = True
            continue
        if arg.startswith(("--lang=", "--quit-after=")):
            continue
        kept.append(arg)
    if getattr(sys, "frozen", False) if frozen is None else frozen:
        return [sys.executable, *kept]
    return [sys.executable, "-m", "desktop_app", *kept]


def relaunch_if_requested() -> None:
    if not _requested:
        return
    cmd = command()
    log.info("restarting: %s", cmd)
    try:
        subprocess.Popen(cmd, start_new_session=True)
    except OSError:
        log.exception("could not restart")
