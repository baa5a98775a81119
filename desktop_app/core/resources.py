"""Finding ``resources/`` (demo case, prompts, icons, translations) in every layout.

Source checkout or editable install: next to the package.  PyInstaller: under
``sys._MEIPASS``.  ``LEXMEM_RESOURCES_DIR`` overrides both (tests, unusual installs).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

RESOURCES_ENV = "LEXMEM_RESOURCES_DIR"


def resources_dir(required: str = "") -> Path:
    """The first candidate folder that exists (and holds ``required``, if given)."""
    candidates: list[Path] = []
    if os.environ.get(RESOURCES_ENV):
        candidates.append(Path(os.environ[RESOURCES_ENV]))
    meipass = getattr(sys, "_MEIPASS", None)
    if meipass:
        candidates.append(Path(meipass) / "resources")
    candidates.append(Path(__file__).resolve().parents[2] / "resources")
    for candidate in candidates:
        if (candidate / required).is_dir():
            return candidate
    raise FileNotFoundError("resources/ not found; looked in " + ", ".join(map(str, candidates)))


def resource_path(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


#: the sample case offered on first run, loaded by ``lexmem-cli demo`` and the screenshots
DEMO_FILE = "zhang_san_laptop.jsonl"


def demo_path() -> Path:
    return resource_path("demo", DEMO_FILE)
