"""Prompt templates from ``resources/prompts/*.md``.

Templates use ``string.Template`` placeholders (``$content``): prompts contain JSON examples
whose braces would fight ``str.format``. The resources folder is found next to the package in a
source checkout and under ``sys._MEIPASS`` in a PyInstaller build (the spec must ship
``resources/prompts``).
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from string import Template

#: Override for tests and unusual installs.
RESOURCES_ENV = "LEXMEM_RESOURCES_DIR"


def resources_dir() -> Path:
    """The ``resources`` folder: $LEXMEM_RESOURCES_DIR, the frozen bundle, or the repo root."""
    candidates: list[Path] = []
    if os.environ.get(RESOURCES_ENV):
        candidates.append(Path(os.environ[RESOURCES_ENV]))
    meipass = getattr(sys, "_MEIPASS", None)
    if meipass:
        candidates.append(Path(meipass) / "resources")
    candidates.append(Path(__file__).resolve().parents[2] / "resources")
    for c in candidates:
        if (c / "prompts").is_dir():
            return c
    raise FileNotFoundError(
        "resources/prompts not found; looked in " + ", ".join(str(c) for c in candidates)
    )


@functools.lru_cache(maxsize=64)
def _load(path: str) -> str:
    return Path(path).read_text(encoding="utf-8").strip()


def load_prompt(name: str) -> str:
    """The text of ``resources/prompts/<name>.md``."""
    return _load(str(resources_dir() / "prompts" / f"{name}.md"))


def render_prompt(name: str, **values: object) -> str:
    """``load_prompt(name)`` with ``$placeholders`` filled; unknown ``$words`` stay as they are."""
    return Template(load_prompt(name)).safe_substitute({k: str(v) for k, v in values.items()})
