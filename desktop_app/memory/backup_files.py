"""The files of the backups folder: names, listing, checks, and the temporary copies every
snapshot, restore and purge writes first.

Layout: ``<data_dir>/backups/lexmem-<UTC timestamp>-<kind>.sqlite3`` where kind is ``auto``
(the schedule), ``manual`` (the user or the CLI), ``pre-restore`` (the database as it was
just before a restore, so a restore can itself be undone) or ``damaged`` (a database that
could not be read, moved aside rather than destroyed).

A copy is first written to a **temporary copy** (``.tmp-<uuid>.sqlite3``), created private
(0600) and held in use by an OS lock while it is written; only a finished, checked copy is
renamed into place.  A crash leaves the temporary copy behind — a full copy of the database —
so every open removes those no live process holds (:func:`remove_stale_temp_copies`), and a
forget removes them too before it checks that the text is gone.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from desktop_app.core.errors import CorruptDatabaseError, InvalidInputError, storage_os_error
from desktop_app.core.folder_lock import hold_in_use, in_use_by_another
from desktop_app.memory.store import storage_error

DB_FILE = "lexmem.sqlite3"  # same name as desktop_app.memory.engine.DB_FILE (not imported: cost)
BACKUP_DIR = "backups"
KINDS = ("auto", "manual", "pre-restore", "damaged")
TEMP_PREFIX = ".tmp-"
_SIDECARS = ("-journal", "-wal", "-shm")

_NAME = re.compile(
    r"^lexmem-(?P<ts>\d{8}T\d{6}\.\d{6}Z)(?:-(?P<n>\d+))?-(?P<kind>auto|manual|pre-restore|damaged)"
    r"\.sqlite3$"
)
_TS_FORMAT = "%Y%m%dT%H%M%S.%fZ"


@dataclass(frozen=True, slots=True)
class BackupInfo:
    path: Path
    created_at: datetime
    kind: str
    size: int

    @property
    def name(self) -> str:
        return self.path.name


# ------------------------------------------------------------------------------ durability


def fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(path: Path) -> None:
    # A rename is durable only once the directory entry is: POSIX only (Windows cannot open
    # a directory, and NTFS journals the rename itself).
    if os.name == "posix":
        fsync_file(path)


def remove_quietly(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def backups_dir(data_dir: Path) -> Path:
    path = Path(data_dir) / BACKUP_DIR
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.name == "posix" and path.stat().st_mode & 0o077:
        os.chmod(path, 0o700)  # backups hold the whole case file: owner only, like the data folder
    return path


# -------------------------------------------------------------------------- temporary copies


@contextmanager
def temp_copy(folder: Path) -> Iterator[Path]:
    """A new, empty, private (0600) temporary file in ``folder``, held in use while the
    block runs and removed afterwards — unless the block renamed it into place."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / f"{TEMP_PREFIX}{uuid.uuid4().hex}.sqlite3"
    try:
        fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise storage_os_error(exc, folder) from exc
    if os.name == "nt":
        # Windows cannot rename a file that is open, and refuses to delete one in use
        # anyway: the copy is protected by being open while SQLite writes it
        os.close(fd)
        fd = None
    else:
        hold_in_use(fd)
    try:
        yield path
    finally:
        if fd is not None:
            os.close(fd)
        for side in (path, *(path.with_name(path.name + s) for s in _SIDECARS)):
            remove_quietly(side)


def temp_copies(data_dir: Path) -> list[Path]:
    """Every temporary copy (and its journal files) in the data folder and its backups."""
    data_dir = Path(data_dir)
    found: list[Path] = []
    for folder in (data_dir, data_dir / BACKUP_DIR):
        if folder.is_dir():
            found += sorted(p for p in folder.glob(f"{TEMP_PREFIX}*") if p.is_file())
    return found


def remove_stale_temp_copies(data_dir: Path) -> list[Path]:
    """Remove the temporary copies no live process holds (a crash mid-backup, mid-restore
    or mid-purge left them: full copies of the database).  Returns what was removed."""
    removed = []
    for path in temp_copies(data_dir):
        main = path
        for suffix in _SIDECARS:
            if path.name.endswith(suffix):
                main = path.with_name(path.name[: -len(suffix)])
        if main.exists() and in_use_by_another(main):
            continue  # another process (a CLI backup beside the app) is writing it now
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError:  # Windows: open elsewhere; it is tried again at the next open
            continue
        removed.append(path)
    return removed


# ------------------------------------------------------------------------------ the copies


def connect_ro(path: Path) -> sqlite3.Connection:
    # Read-only via URI so that inspecting a backup never creates a -wal/-shm or journal.
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)


def finish_copy(tmp: Path) -> None:
    """Turn a fresh copy into a self-contained, checked file (rollback journal, no WAL)."""
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        try:
            conn.execute("PRAGMA journal_mode = DELETE")
            row = conn.execute("PRAGMA integrity_check").fetchone()
        except sqlite3.Error as exc:  # a full disk is not a damaged database
            raise storage_error(tmp, exc) from exc
        if not row or row[0] != "ok":
            # The copy is page-exact, so the database itself is damaged: say so (the UI offers
            # the newest good backup) rather than store a damaged copy and prune a good one.
            raise CorruptDatabaseError(
                f"backup copy failed its integrity check: {row[0] if row else None}"
            )
    finally:
        conn.close()
    if os.name == "posix":
        os.chmod(tmp, 0o600)
    fsync_file(tmp)


def verify_backup(path: Path) -> None:
    """Raise unless ``path`` is a readable LexMem database that passes an integrity check."""
    path = Path(path)
    if not path.is_file():
        raise InvalidInputError(
            f"{path}: no such backup",
            user_message=f"找不到备份文件：{path.name} / Backup not found: {path.name}",
        )
    try:
        conn = connect_ro(path)
        try:
            row = conn.execute("PRAGMA integrity_check").fetchone()
            tables = {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise CorruptDatabaseError(
            f"{path}: {exc}",
            user_message=f"备份文件已损坏，无法恢复：{path.name} / The backup is damaged: {path.name}",
        ) from exc
    if not row or row[0] != "ok":
        raise CorruptDatabaseError(
            f"{path}: integrity_check {row[0] if row else None}",
            user_message=f"备份文件已损坏，无法恢复：{path.name} / The backup is damaged: {path.name}",
        )
    if not {"notes", "meta"} <= tables:
        raise InvalidInputError(
            f"{path}: not a LexMem database (tables {sorted(tables)})",
            user_message=f"这不是律记的备份：{path.name} / Not a LexMem backup: {path.name}",
        )


def new_name(folder: Path, kind: str, now: datetime | None = None) -> Path:
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime(_TS_FORMAT)
    path = folder / f"lexmem-{stamp}-{kind}.sqlite3"
    n = 1
    while path.exists():  # two snapshots in the same microsecond (tests, a fast scheduler)
        path = folder / f"lexmem-{stamp}-{n}-{kind}.sqlite3"
        n += 1
    return path


def list_backups(data_dir: Path, kind: str | None = None) -> list[BackupInfo]:
    """The backups of ``data_dir``, newest first (files with other names are ignored)."""
    folder = Path(data_dir) / BACKUP_DIR
    if not folder.is_dir():
        return []
    out: list[BackupInfo] = []
    for path in folder.iterdir():
        m = _NAME.match(path.name)
        if not m or not path.is_file() or (kind is not None and m["kind"] != kind):
            continue
        created = datetime.strptime(m["ts"], _TS_FORMAT).replace(tzinfo=UTC)
        out.append(BackupInfo(path, created, m["kind"], path.stat().st_size))
    out.sort(key=lambda b: (b.created_at, b.name), reverse=True)
    return out


def resolve_backup(data_dir: Path, which: str | os.PathLike[str]) -> Path:
    """A backup given by path, by file name, or as ``latest``."""
    if str(which) == "latest":
        candidates = [b for b in list_backups(data_dir) if b.kind != "damaged"]
        if not candidates:
            raise InvalidInputError(
                "no backups", user_message="还没有任何备份。 / There are no backups yet."
            )
        return candidates[0].path
    path = Path(which)
    if not path.is_file():
        path = Path(data_dir) / BACKUP_DIR / str(which)
    return path
