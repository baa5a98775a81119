"""Paths of the UI's bundled resources (icons, translations); the lookup itself is shared
with the rest of the app in desktop_app/core/resources.py."""

from __future__ import annotations

import functools
from pathlib import Path

from desktop_app.core.resources import resources_dir

__all__ = ["icon_path", "resources_dir", "translations_dir"]


@functools.cache
def _ui_resources() -> Path:
    # Hundreds of icons are looked up while the window is built: one disk probe, not one each.
    return resources_dir("icons")


def icon_path(name: str) -> Path:
    return _ui_resources() / "icons" / f"{name}.svg"


def translations_dir() -> Path:
    return _ui_resources() / "translations"
