"""Where LexMem keeps its data: one folder per user, chosen by platformdirs.

Everything the app writes (SQLite, LanceDB index, settings, logs, backups, the instance
lock) lives in this one folder, so a backup, a move or a true delete is one folder.
``--data-dir`` overrides it (portable installs, tests, a second profile).
"""

from __future__ import annotations

import os
from pathlib import Path

from desktop_app import APP_NAME

#: environment override, handy for packaged builds and scripted runs
ENV_DATA_DIR = "LEXMEM_DATA_DIR"


def default_data_dir() -> Path:
    """The per-user data folder, without an author level (``.../LexMem``)."""
    # imported here: platformdirs is cheap, but keeping module import free of work helps start-up
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=True))


def resolve_data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data folder to use: the explicit override, then the environment, then platformdirs.

    The folder is created if missing; the returned path is absolute.
    """
    raw = override or os.environ.get(ENV_DATA_DIR) or None
    path = Path(raw).expanduser() if raw else default_data_dir()
    path = path.resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def settings_file(data_dir: Path) -> Path:
    return data_dir / "settings.json"


def log_dir(data_dir: Path) -> Path:
    path = data_dir / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def log_file(data_dir: Path) -> Path:
    return log_dir(data_dir) / "lexmem.log"


def lock_file(data_dir: Path) -> Path:
    return data_dir / "lexmem.lock"


def backups_dir(data_dir: Path) -> Path:
    path = data_dir / "backups"
    path.mkdir(parents=True, exist_ok=True)
    return path
