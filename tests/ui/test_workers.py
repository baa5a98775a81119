"""The one background helper: results, failures, progress and cancel reach the UI thread."""

from __future__ import annotations

import threading

from PySide6.QtCore import QThread
from PySide6.QtWidgets import QApplication

from desktop_app.ui.workers import run_op


def test_success_arrives_on_the_ui_thread(qtbot):
    seen = {}

    def work():
        seen["worker"] = QThread.currentThread()
        return 42

    def ok(value):
        seen["value"] = value
        seen["ui"] = QThread.currentThread()

    run_op(work, on_success=ok)
    qtbot.waitUntil(lambda: "value" in seen, timeout=5000)
    assert seen["value"] == 42
    assert seen["ui"] is QApplication.instance().thread()
    assert seen["worker"] is not seen["ui"]


def test_failure_and_finally(qtbot):
    got = []
    run_op(lambda: 1 / 0, on_failure=got.append, on_finally=lambda: got.append("finally"))
    qtbot.waitUntil(lambda: len(got) == 2, timeout=5000)
    assert isinstance(got[0], ZeroDivisionError) and got[1] == "finally"


def test_progress_and_cooperative_cancel(qtbot):
    progress, done = [], []
    started = threading.Event()

    def work(report, cancel):
        report(1)
        started.set()
        cancel.wait(5)
        return "stopped" if cancel.is_set() else "timeout"

    op = run_op(work, on_progress=progress.append, on_success=done.append)
    qtbot.waitUntil(lambda: progress == [1], timeout=5000)
    op.cancel_event.set()  # like the chat's Stop: the result still arrives
    qtbot.waitUntil(lambda: done == ["stopped"], timeout=5000)


def test_cancel_drops_late_results(qtbot):
    done, finished = [], []
    gate = threading.Event()
    op = run_op(lambda: gate.wait(5) and "late", on_success=done.append, on_finally=lambda: finished.append(1))
    op.cancel()
    gate.set()
    qtbot.waitUntil(lambda: finished == [1], timeout=5000)
    assert done == []
