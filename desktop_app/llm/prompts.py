"""Prompt templates from ``resources/prompts/*.md``.

Templates use ``string.Template`` placeholders (``$content``): prompts contain JSON examples
whose braces would fight ``str.format``. The resources folder is found next to the package in a
source checkout and under ``sys._MEIPASS`` in a PyInstaller build (the spec must ship
``resources/prompts``).
"""

from __future__ import annotations

import functools
from pathlib import Path
from string import Template

from desktop_app.core.resources import resources_dir


@functools.lru_cache(maxsize=64)
def _load(path: str) -> str:
    return Path(path).read_text(encoding="utf-8").strip()


def load_prompt(name: str) -> str:
    """The text of ``resources/prompts/<name>.md``."""
    return _load(str(resources_dir("prompts") / "prompts" / f"{name}.md"))


def render_prompt(name: str, **values: object) -> str:
    """``load_prompt(name)`` with ``$placeholders`` filled; unknown ``$words`` stay as they are."""
    return Template(load_prompt(name)).safe_substitute({k: str(v) for k, v in values.items()})
