"""Entry point: ``python -m desktop_app`` and the ``lexmem`` gui-script.

Qt is imported only inside functions (see tests/test_architecture.py): parsing the command
line and guarding the standard streams must not pay for it.
"""

from __future__ import annotations

import argparse
import os
import sys


def _guard_stdio() -> None:
    """Windowed builds (pythonw, PyInstaller --windowed) have no stdout/stderr: any print or
    warning would raise. Point them at the null device."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # lives for the process


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="lexmem", description="LexMem 律记 — legal assistant with long-term memory")
    parser.add_argument("--data-dir", help="use this data folder instead of the per-user default")
    parser.add_argument("--lang", choices=["zh_CN", "en"], help="interface language for this run")
    parser.add_argument("--screenshots", metavar="DIR", help="render every view offscreen to PNG files in DIR and exit")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS", help=argparse.SUPPRESS)
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    _guard_stdio()
    args = parse_args(argv)
    if args.version:
        from desktop_app import __version__

        print(__version__)
        return 0
    if args.screenshots:
        from desktop_app.ui.screenshots import run_screenshots

        return run_screenshots(args.screenshots)
    from desktop_app.ui.app import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
