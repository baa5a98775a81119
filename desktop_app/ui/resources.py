"""Paths of the UI's bundled resources (icons, translations); the lookup itself is shared
with the rest of the app in desktop_app/core/resources.py."""

from __future__ import annotations

from pathlib import Path

from desktop_app.core.resources import resources_dir

__all__ = ["icon_path", "resources_dir", "translations_dir"]


def icon_path(name: str) -> Path:
    return resources_dir() / "icons" / f"{name}.svg"


def translations_dir() -> Path:
    return resources_dir() / "translations"
