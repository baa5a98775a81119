"""Entry point: ``python -m desktop_app`` and the ``lexmem`` gui-script.

Qt is imported only inside functions (see tests/test_architecture.py): parsing the command
line and guarding the standard streams must not pay for it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

# taken at import, before any heavy import: the start-up probe measures from here too
_T0 = time.perf_counter()


def _guard_stdio() -> None:
    """Windowed builds (pythonw, PyInstaller --windowed) have no stdout/stderr: any print or
    warning would raise. Point them at the null device."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # lives for the process


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="lexmem", description="LexMem 律记 — legal assistant with long-term memory"
    )
    parser.add_argument("--data-dir", help="use this data folder instead of the per-user default")
    parser.add_argument("--lang", choices=["zh_CN", "en"], help="interface language for this run")
    parser.add_argument(
        "--screenshots",
        metavar="DIR",
        help="render every view offscreen to PNG files in DIR and exit",
    )
    parser.add_argument("--quit-after", type=float, metavar="SECONDS", help=argparse.SUPPRESS)
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument(
        "--selftest",
        action="store_true",
        help="check this installation offscreen in a temporary data folder, print a JSON report and exit",
    )
    parser.add_argument(
        "--selftest-report", metavar="FILE", help="also write the self-test report to FILE"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    _guard_stdio()
    args = parse_args(argv)
    if args.version:
        from desktop_app import __version__

        print(__version__)
        return 0
    if args.selftest:
        from desktop_app.selftest import run as run_selftest

        return run_selftest(args.selftest_report)
    if args.screenshots:
        from desktop_app.ui.screenshots import run_screenshots

        return run_screenshots(args.screenshots)
    if os.environ.get("LEXMEM_STARTUP_PROBE") == "1":
        # measurement only: prints the time to the main window's first paint
        from desktop_app.ui.selftest_gui import install_startup_probe

        install_startup_probe(_T0)
    from desktop_app.ui.app import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
