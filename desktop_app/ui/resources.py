"""Where the bundled resources (icons, translations, styles, demo case) are."""

from __future__ import annotations

import sys
from pathlib import Path


def resources_dir() -> Path:
    # frozen builds (PyInstaller) unpack data next to the executable under _MEIPASS
    base = getattr(sys, "_MEIPASS", None)
    if base:
        candidate = Path(base) / "resources"
        if candidate.is_dir():
            return candidate
    return Path(__file__).resolve().parents[2] / "resources"


def icon_path(name: str) -> Path:
    return resources_dir() / "icons" / f"{name}.svg"


def translations_dir() -> Path:
    return resources_dir() / "translations"


def demo_dir() -> Path:
    return resources_dir() / "demo"
