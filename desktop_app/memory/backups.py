"""Automatic snapshots of the SQLite database, their schedule, restore — and forget inside
the backups, through the engine.

Only SQLite is backed up: it is the source of truth, and the LanceDB index is derived from it
(the engine rebuilds or repairs the index at open).  Snapshots are taken with SQLite's online
backup API (``MemoryEngine.backup``), so they are consistent while the app keeps writing.
Each copy is converted to a rollback journal (no ``-wal`` beside it), checked with
``PRAGMA integrity_check`` and only then renamed into place (see backup_files.py for the
layout and the temporary copies; backup_purge.py for true delete inside the copies).

True delete ("Forget") must reach the backups too: :meth:`BackupManager.forget_note` is the
engine's forget (live data, index, every backup, then a scan of the whole folder for the
note's distinctive terms); :meth:`BackupManager.find_in_backups` says exactly which copies
still hold a text, and :meth:`BackupManager.purge_from_backups` removes it from them.

No Qt here: the UI, the CLI and the tests use the same class.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from desktop_app.core.errors import StorageError, storage_os_error
from desktop_app.core.folder_lock import FolderLock
from desktop_app.memory.backup_files import (
    BACKUP_DIR,
    DB_FILE,
    KINDS,
    BackupInfo,
    backups_dir,
    finish_copy,
    fsync_dir,
    fsync_file,
    list_backups,
    new_name,
    remove_quietly,
    remove_stale_temp_copies,
    resolve_backup,
    temp_copy,
    verify_backup,
)
from desktop_app.memory.backup_purge import PurgeReport, find_in_backups, purge_from_backups

log = logging.getLogger(__name__)

__all__ = [
    "BACKUP_DIR",
    "DB_FILE",
    "DEFAULT_INTERVAL_S",
    "DEFAULT_KEEP",
    "KINDS",
    "BackupInfo",
    "BackupManager",
    "PurgeReport",
    "backups_dir",
    "find_in_backups",
    "list_backups",
    "purge_from_backups",
    "resolve_backup",
    "restore_and_reopen",
    "restore_database",
    "verify_backup",
]

DEFAULT_KEEP = 10
DEFAULT_INTERVAL_S = 6 * 3600.0


# ---------------------------------------------------------------------------------- restore


def restore_database(data_dir: Path, backup: Path, *, keep_current: bool = True) -> Path | None:
    """Replace ``<data_dir>/lexmem.sqlite3`` with ``backup``.  The engine must be closed:
    the folder's writer lock is held during the swap, so a restore while a writer (the app)
    has the folder open fails with DataFolderLockedError — run beside the app, it once
    succeeded and the app's next notes went into the replaced file, lost.

    The current database is first kept as a ``pre-restore`` backup (or, when it cannot be
    read, moved aside as a ``damaged`` one) and its path returned.  The copy is written to a
    temp file, fsynced and renamed over the database; a stale ``-wal``/``-shm`` is removed
    first, because SQLite would replay another database's WAL into the restored one.
    Every note is marked for re-indexing, so the next open re-embeds from the restored
    text (see ``_force_reindex``).
    """
    data_dir = Path(data_dir)
    backup = Path(backup)
    verify_backup(backup)
    with FolderLock(data_dir):
        return _swap_database(data_dir, backup, keep_current)


def _swap_database(data_dir: Path, backup: Path, keep_current: bool) -> Path | None:
    folder = backups_dir(data_dir)
    db = data_dir / DB_FILE
    wal, shm = db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")
    kept: Path | None = None
    if keep_current and db.exists():
        kept = _keep_current(db, folder)
    with temp_copy(data_dir) as tmp:
        shutil.copyfile(backup, tmp)
        _force_reindex(tmp)
        fsync_file(tmp)
        for stale in (wal, shm):
            remove_quietly(stale)
        os.replace(tmp, db)
        fsync_dir(data_dir)
    log.info(
        "database restored from %s (previous kept as %s)", backup.name, kept.name if kept else None
    )
    return kept


def _keep_current(db: Path, folder: Path) -> Path:
    """Snapshot the database about to be replaced; a damaged one is moved aside intact."""
    target = new_name(folder, "pre-restore")
    try:
        with temp_copy(folder) as tmp:
            src = sqlite3.connect(db, isolation_level=None)
            try:
                dest = sqlite3.connect(tmp)
                try:
                    src.backup(dest)  # reads the WAL too: nothing committed is lost
                finally:
                    dest.close()
            finally:
                src.close()
            finish_copy(tmp)
            os.replace(tmp, target)
            fsync_dir(folder)
        return target
    except (sqlite3.DatabaseError, StorageError):
        damaged = new_name(folder, "damaged")
        log.warning("current database unreadable; moved aside as %s", damaged.name, exc_info=True)
        shutil.move(db, damaged)
        for suffix in ("-wal", "-shm"):
            side = db.with_name(db.name + suffix)
            if side.exists():
                shutil.move(side, damaged.with_name(damaged.name + suffix))
        fsync_dir(folder)
        return damaged


def _force_reindex(path: Path) -> None:
    # A restored database never matches the index's recorded version, but forgetting it
    # makes that explicit: the next open compares every row's stamp with its note and
    # re-embeds only the notes that differ (edited, expired or missing since the backup).
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("DELETE FROM meta WHERE key = 'index_version'")
    finally:
        conn.close()


class BackedUpEngine(Protocol):
    """What the backups need from the engine (the engine itself is never imported here:
    this module must stay cheap to import and below the engine)."""

    data_dir: Path
    llm: Any
    config: Any
    embedder: Any

    def backup(self, target: str | os.PathLike[str]) -> Path: ...
    def close(self) -> None: ...
    def forget_note(self, note_id: str) -> Any: ...


def _reopen_like(
    old: BackedUpEngine, progress: Callable[[int, int], None] | None
) -> Callable[[Path], Any]:
    """Reopen the folder with the same LLM, embedder and parameters as ``old``."""

    def reopen(data_dir: Path) -> Any:
        return type(old).open(  # type: ignore[attr-defined]
            data_dir, llm=old.llm, embedder=old.embedder, config=old.config, progress=progress
        )

    return reopen


def restore_and_reopen(
    data_dir: Path,
    backup: Path | str,
    engine: BackedUpEngine | None,
    reopen: Callable[[Path], Any],
    *,
    keep: int = DEFAULT_KEEP,
) -> Any:
    """The one restore path of the app and the manager: verify the backup (before closing
    anything: a bad choice changes nothing), close ``engine`` (None after a failed open),
    swap the database, and reopen with ``reopen`` — also when the swap failed, so the caller
    keeps a working engine if the old database still opens."""
    data_dir = Path(data_dir)
    path = resolve_backup(data_dir, backup)
    verify_backup(path)
    if engine is not None:
        engine.close()
    try:
        restore_database(data_dir, path)
    finally:
        reopened = reopen(data_dir)
    for info in list_backups(data_dir, "pre-restore")[keep:]:
        remove_quietly(info.path)
    return reopened


class BackupManager:
    """Scheduled snapshots of one engine's database, keeping the last ``keep`` of each kind.

    ``start()`` runs a daemon thread that takes an ``auto`` snapshot whenever the newest one
    is older than ``interval`` seconds (checked every ``check_every`` seconds, and once at
    start).  The engine owns one (``engine.backups``; ``engine.start_background_work()``
    starts its schedule).  ``restore()`` closes the engine, swaps the database and returns the reopened
    engine (also available as ``manager.engine``).
    """

    def __init__(
        self,
        engine: BackedUpEngine,
        *,
        keep: int = DEFAULT_KEEP,
        interval: float = DEFAULT_INTERVAL_S,
        check_every: float | None = None,
        reopen: Callable[[Path], Any] | None = None,
    ) -> None:
        if keep < 1:
            raise ValueError("keep must be at least 1")
        self.engine = engine
        self.data_dir = Path(engine.data_dir)
        self.keep = keep
        self.interval = float(interval)
        self.check_every = float(check_every if check_every is not None else min(interval, 600.0))
        self._reopen = reopen
        self._lock = threading.Lock()  # one snapshot / restore / purge at a time
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.last_error: BaseException | None = None
        self.folder = backups_dir(self.data_dir)

    # -- snapshots -----------------------------------------------------------------------

    def snapshot(self, kind: str = "manual") -> BackupInfo:
        if kind not in ("auto", "manual"):
            raise ValueError(f"unknown backup kind {kind!r}")
        with self._lock:
            try:
                with temp_copy(self.folder) as tmp:
                    self.engine.backup(tmp)
                    finish_copy(tmp)
                    target = new_name(self.folder, kind)
                    os.replace(tmp, target)
                    fsync_dir(self.folder)
            except OSError as exc:  # a full disk or read-only folder, said so
                raise storage_os_error(exc, self.folder) from exc
            self._prune(kind)
        log.info("backup written: %s", target.name)
        return next(b for b in self.list(kind) if b.path == target)

    def _prune(self, kind: str) -> list[Path]:
        removed = []
        for info in list_backups(self.data_dir, kind)[self.keep :]:
            remove_quietly(info.path)
            removed.append(info.path)
        # Leftovers of a crash mid-backup: those no live process is writing (another
        # process, the CLI, may be writing a backup into the same folder right now).
        remove_stale_temp_copies(self.data_dir)
        return removed

    def list(self, kind: str | None = None) -> list[BackupInfo]:
        return list_backups(self.data_dir, kind)

    def latest(self, kind: str | None = None) -> BackupInfo | None:
        found = self.list(kind)
        return found[0] if found else None

    def due(self, now: datetime | None = None) -> bool:
        last = self.latest("auto")
        if last is None:
            return True
        now = now or datetime.now(UTC)
        return (now - last.created_at).total_seconds() >= self.interval

    def maybe_snapshot(self) -> BackupInfo | None:
        """An ``auto`` snapshot if one is due; errors are kept in ``last_error`` and logged
        (a failed backup must never take the app down)."""
        if not self.due():
            return None
        try:
            info = self.snapshot("auto")
        except Exception as exc:
            self.last_error = exc
            log.warning("scheduled backup failed", exc_info=True)
            return None
        self.last_error = None
        return info

    # -- schedule ------------------------------------------------------------------------

    def start(self, first_check_after: float = 0.0) -> None:
        """Run the schedule in a daemon thread; the first check waits ``first_check_after``
        seconds (the app lets its window settle first)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, args=(first_check_after,), name="lexmem-backups", daemon=True
        )
        self._thread.start()

    def _run(self, first_check_after: float) -> None:
        if first_check_after > 0 and self._stop.wait(first_check_after):
            return
        while not self._stop.is_set():
            self.maybe_snapshot()
            if self._stop.wait(self.check_every):
                return

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    # -- restore -------------------------------------------------------------------------

    def restore(
        self, backup: Path | str, progress: Callable[[int, int], None] | None = None
    ) -> Any:
        """Close the engine, replace the database with ``backup``, reopen (the index is
        re-synchronised at open, reporting ``progress``).  The database it replaced is kept
        as a ``pre-restore`` backup."""
        running = self._thread is not None
        self.stop()
        with self._lock:
            self.engine = restore_and_reopen(
                self.data_dir,
                backup,
                self.engine,
                self._reopen or _reopen_like(self.engine, progress),
                keep=self.keep,
            )
        if running:
            # the schedule belongs to the reopened engine now: its close stops it
            owned = getattr(self.engine, "backups", None)
            (owned if isinstance(owned, BackupManager) else self).start()
        return self.engine

    # -- forget --------------------------------------------------------------------------

    @property
    def lock(self) -> threading.Lock:
        """Held by one snapshot, restore or purge at a time (the engine's forget holds it
        while it rewrites the copies, so no snapshot lands between list and purge)."""
        return self._lock

    def find_in_backups(self, text: str) -> list[Path]:
        return find_in_backups(self.data_dir, text)

    def purge_from_backups(
        self, note_id: str | None = None, text: str | None = None
    ) -> PurgeReport:
        with self._lock:
            return purge_from_backups(self.data_dir, note_id=note_id, text=text)

    def forget_note(self, note_id: str) -> Any:
        """True delete everywhere (the engine's :meth:`forget_note`): live data, index,
        every backup, temporary copies; complete only when a scan finds none of the note's
        distinctive terms.  ``still_holding`` lists backups where its text survives
        elsewhere (a chat message quoting it): the UI offers ``purge_from_backups(text=...)``."""
        return self.engine.forget_note(note_id)
