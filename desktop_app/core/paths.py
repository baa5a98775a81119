"""Where LexMem keeps its data: one folder per user, chosen by platformdirs.

Everything the app writes (SQLite, LanceDB index, settings, logs, backups, the instance
lock) lives in this one folder, so a backup, a move or a true delete is one folder.  The
one exception holds nothing of the user's: :func:`cache_dir`, a rebuildable cache of the
bundled model (memory/tokenizer_snapshot.py).
``--data-dir`` overrides it (portable installs, tests, a second profile).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from desktop_app import APP_NAME
from desktop_app.core.errors import DataFolderNotPrivateError, storage_os_error

#: environment override, handy for packaged builds and scripted runs
ENV_DATA_DIR = "LEXMEM_DATA_DIR"
#: where :func:`cache_dir` points instead (tests, portable installs)
ENV_CACHE_DIR = "LEXMEM_CACHE_DIR"


def default_data_dir() -> Path:
    """The per-user data folder, without an author level (``.../LexMem``)."""
    # imported here: platformdirs is cheap, but keeping module import free of work helps start-up
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=True))


def cache_dir() -> Path:
    """The per-user cache folder (``%LOCALAPPDATA%\\LexMem\\Cache`` on Windows): what can be
    rebuilt from the installed program and holds no user data, so deleting it loses nothing."""
    raw = os.environ.get(ENV_CACHE_DIR)
    if raw:
        return Path(raw).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def resolve_data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data folder to use: the explicit override, then the environment, then platformdirs.

    The folder is created if missing; the returned path is absolute.
    """
    raw = override or os.environ.get(ENV_DATA_DIR) or None
    path = Path(raw).expanduser() if raw else default_data_dir()
    return ensure_private_dir(path.resolve())


def use_private_umask() -> None:
    """Files and folders this process creates are its user's alone (0600 / 0700): the index
    files LanceDB writes, SQLite's journals, logs, exports and temporary copies alike."""
    if os.name == "posix":
        os.umask(0o077)


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` as a private folder (0700), or check that an existing one is the
    user's own and make it private.  A folder of another user, or a shared one (writable
    by others, or with the sticky bit like /tmp), is refused rather than changed: its mode
    is not ours to decide, and case files must not sit where others can write."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise storage_os_error(exc, path) from exc
    if os.name != "posix":
        return path
    info = path.stat()
    shared = info.st_mode & (stat.S_IWOTH | stat.S_ISVTX)
    if info.st_uid != os.getuid() or shared:
        owner = "another user" if info.st_uid != os.getuid() else "everyone"
        raise DataFolderNotPrivateError(
            f"{path}: mode {stat.filemode(info.st_mode)}, owner uid {info.st_uid} "
            f"(writable by {owner})",
            user_message=f"{DataFolderNotPrivateError.default_user_message}\n{path}",
        )
    if info.st_mode & 0o077:
        try:
            os.chmod(path, 0o700)  # case files are confidential: owner only
        except OSError as exc:
            raise storage_os_error(exc, path) from exc
    return path


def make_tree_private(folder: Path) -> int:
    """Files 0600, folders 0700 under ``folder`` (those an older version left readable by
    others).  Returns how many were changed; a file that cannot be changed is left as is."""
    if os.name != "posix" or not folder.is_dir():
        return 0
    changed = 0
    for root, dirs, files in os.walk(folder):
        for name, mode in [(d, 0o700) for d in dirs] + [(f, 0o600) for f in files]:
            target = os.path.join(root, name)
            try:
                info = os.lstat(target)
                if stat.S_ISLNK(info.st_mode) or not info.st_mode & 0o077:
                    continue
                os.chmod(target, mode)
                changed += 1
            except OSError:
                continue
    return changed


def settings_file(data_dir: Path) -> Path:
    return data_dir / "settings.json"


def log_dir(data_dir: Path) -> Path:
    path = data_dir / "logs"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def log_file(data_dir: Path) -> Path:
    return log_dir(data_dir) / "lexmem.log"


def lock_file(data_dir: Path) -> Path:
    return data_dir / "lexmem.lock"


def backups_dir(data_dir: Path) -> Path:
    path = data_dir / "backups"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path
