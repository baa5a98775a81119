"""SQLite, the source of truth: connections, transactions, meta values and time stamps.

One writer: every write goes through :meth:`Store.write`, which holds the engine's write
lock and one ``BEGIN IMMEDIATE`` transaction.  Readers use their own per-thread
connections, so in WAL mode a long write never blocks a read (or the UI).

A read-only store (``read_only=True``: a CLI search beside the running app) opens every
connection with ``mode=ro`` and refuses :meth:`Store.write` with a clear error.  The row
mappers live with the SQL that reads each table (notes_repository, cases, conversations).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from desktop_app.core.errors import (
    CorruptDatabaseError,
    DiskFullError,
    ReadOnlyFolderError,
    StorageError,
)
from desktop_app.memory.migrations import MIGRATIONS, apply_migrations
from desktop_app.memory.wal_checkpointer import BACKSTOP_PAGES, WalCheckpointer

T = TypeVar("T")

#: beside the database after a clean close: its size, mtime and inode (see _check_integrity)
CLEAN_CLOSE_SUFFIX = ".clean-close"

READ_ONLY_MESSAGE = (
    "这个数据文件夹以只读方式打开，不能修改。 / "
    "This data folder was opened read-only; nothing can be changed."
)


def utcnow() -> datetime:
    return datetime.now(UTC)


def to_iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def from_iso(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    target, uri = (f"{path.resolve().as_uri()}?mode=ro", True) if read_only else (path, False)
    conn = sqlite3.connect(
        target, timeout=30.0, isolation_level=None, check_same_thread=False, uri=uri
    )
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.execute("PRAGMA foreign_keys = ON")
    # Deleted text is overwritten with zeros in the database pages (true delete).
    conn.execute("PRAGMA secure_delete = ON")
    return conn


# SQLite's primary result codes (the low byte of an extended code)
_SQLITE_READONLY, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_NOTADB = (
    8,
    11,
    13,
    14,
    26,
)


def storage_error(path: Path, exc: sqlite3.Error) -> StorageError:
    """Every sqlite3 error as a LexMem error: a damaged file becomes CorruptDatabaseError
    (the UI offers a restore), a full disk DiskFullError, a read-only folder
    ReadOnlyFolderError, the rest StorageError.  No raw sqlite3 error reaches a caller."""
    text = str(exc)
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB) or "not a database" in text or "malformed" in text:
        return CorruptDatabaseError(f"{path}: {exc}")
    if code == _SQLITE_FULL or "disk is full" in text:
        return DiskFullError(f"{path}: {exc}")
    if code in (_SQLITE_READONLY, _SQLITE_CANTOPEN) or "readonly database" in text:
        return ReadOnlyFolderError(
            f"{path}: {exc}",
            user_message=f"{ReadOnlyFolderError.default_user_message}\n{path.parent}",
        )
    return StorageError(f"{path}: {exc}")


class Store:
    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        self.write_lock = threading.RLock()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._writer: sqlite3.Connection | None = None
        self._checkpointer: WalCheckpointer | None = None
        if read_only:
            self._check_schema_current()
            return
        writer: sqlite3.Connection | None = None
        try:
            writer = self._writer = _connect(path)
            mode = self._writer.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise StorageError(f"could not enable WAL (journal_mode={mode})")
            self._writer.execute("PRAGMA synchronous = NORMAL")
            # commits leave the checkpoint to a thread of its own (wal_checkpointer.py)
            self._writer.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")
            self._checkpointer = WalCheckpointer(lambda: _connect(path))
            self._check_integrity(self._writer)
            apply_migrations(self._writer)
        except (sqlite3.DatabaseError, StorageError) as exc:
            # The caller keeps the error (the "restore from backup" dialog) and with it this
            # frame: close now, or the file stays open and cannot be replaced (Windows).
            if writer is not None:
                writer.close()
            if isinstance(exc, StorageError):
                raise
            raise storage_error(path, exc) from exc

    def _check_integrity(self, conn: sqlite3.Connection) -> None:
        """A garbled page is found here, at open, rather than by the first search that
        reads it.  ``quick_check`` reads every page once (it skips integrity_check's
        index/table cross-checks): ~0.1 s for 10k notes, so it runs only when the file may
        have changed since LexMem closed it cleanly — after a crash, a restore, a copy, a
        sync tool or any other program.  Opening a file exactly as LexMem left it stays O(1)."""
        if self._closed_cleanly_as_is():
            return
        rows = conn.execute("PRAGMA quick_check(3)").fetchall()
        if [tuple(r) for r in rows] != [("ok",)]:
            raise CorruptDatabaseError(
                f"{self.path}: quick_check: {'; '.join(str(r[0]) for r in rows)[:300]}"
            )

    @property
    def _clean_mark(self) -> Path:
        return self.path.with_name(self.path.name + CLEAN_CLOSE_SUFFIX)

    def _file_identity(self) -> list[int]:
        info = self.path.stat()
        return [info.st_size, info.st_mtime_ns, info.st_ino]

    def _closed_cleanly_as_is(self) -> bool:
        """True when the database is byte for byte the file LexMem closed cleanly (same
        size, modification time and file); the mark is spent here, so a crash before the
        next clean close means a check at the next open."""
        mark = self._clean_mark
        try:
            recorded = json.loads(mark.read_text(encoding="ascii"))
        except (OSError, ValueError):
            return False
        finally:
            with contextlib.suppress(OSError):
                mark.unlink()
        try:
            return recorded == self._file_identity()
        except OSError:
            return False

    def _mark_clean_close(self) -> None:
        with contextlib.suppress(OSError):  # no mark: the next open just checks
            self._clean_mark.write_text(json.dumps(self._file_identity()), encoding="ascii")

    def _check_schema_current(self) -> None:
        """A read-only store cannot migrate: an older (or newer) schema is refused clearly."""
        try:
            done = {r[0] for r in self.query("SELECT name FROM schema_migrations")}
        except StorageError as exc:
            raise StorageError(
                f"{self.path}: cannot be read ({exc})",
                user_message="无法读取这个数据文件夹。 / This data folder cannot be read.",
            ) from exc
        if done != {migration[0] for migration in MIGRATIONS}:
            self.close()
            raise StorageError(
                f"{self.path}: schema {sorted(done)} is not this version's",
                user_message=(
                    "数据库版本与本程序不一致，请先用 LexMem 打开一次。 / "
                    "The database is from another LexMem version; open it in the app first."
                ),
            )

    # -- connections -------------------------------------------------------------------

    def reader(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = _connect(self.path, self.read_only)
            except sqlite3.Error as exc:
                raise storage_error(self.path, exc) from exc
            self._local.conn = conn
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction on the single writer connection; rolled back on any error."""
        if self._writer is None:
            raise StorageError(f"{self.path}: opened read-only", user_message=READ_ONLY_MESSAGE)
        with self.write_lock:
            conn = self._writer
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise storage_error(self.path, exc) from exc
            try:
                yield conn
                # COMMIT inside the handling: a full disk or a read-only file fails here
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback(conn)
                raise storage_error(self.path, exc) from exc
            except BaseException:
                self._rollback(conn)
                raise
            if self._checkpointer is not None:
                self._checkpointer.committed(conn.total_changes)

    @staticmethod
    def _rollback(conn: sqlite3.Connection) -> None:
        # SQLite may already have rolled back (a failed COMMIT on a full disk), and a
        # damaged file may refuse even this: the original error is the one to report.
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")

    def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` on this thread's reader connection, its sqlite3 errors mapped (for
        SQL written against a connection: forget_sql.py works on backups too)."""
        try:
            return fn(self.reader())
        except sqlite3.Error as exc:
            raise storage_error(self.path, exc) from exc

    def query(self, sql: str, params: tuple | list = ()) -> list[sqlite3.Row]:
        try:
            return self.reader().execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise storage_error(self.path, exc) from exc

    def query_one(self, sql: str, params: tuple | list = ()) -> sqlite3.Row | None:
        try:
            cursor = self.reader().execute(sql, params)
        except sqlite3.Error as exc:
            raise storage_error(self.path, exc) from exc
        try:
            return cursor.fetchone()
        except sqlite3.Error as exc:
            raise storage_error(self.path, exc) from exc
        finally:
            # An unfinished statement keeps its read snapshot open: later reads on this
            # thread would not see newer commits, and checkpoints could not truncate the WAL.
            cursor.close()

    def checkpoint_truncate(self) -> bool:
        """Move the WAL into the main file and truncate it to zero bytes (true delete).
        Returns False if a reader kept it from finishing (the caller may retry)."""
        if self._writer is None:
            return False
        # not half-way through a background checkpoint: this one must truncate
        background = self._checkpointer.lock if self._checkpointer else contextlib.nullcontext()
        with self.write_lock, background:
            try:
                row = self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.Error as exc:
                raise storage_error(self.path, exc) from exc
        return row[0] == 0

    def integrity_ok(self) -> bool:
        row = self.query_one("PRAGMA quick_check")
        return bool(row) and row[0] == "ok"

    def backup_to(self, target: Path) -> None:
        try:
            dest = sqlite3.connect(target)
        except sqlite3.Error as exc:
            raise storage_error(target, exc) from exc
        try:
            if self._writer is None:  # read-only: a reader's snapshot is just as consistent
                self.reader().backup(dest)
                return
            with self.write_lock:
                self._writer.backup(dest)
        except sqlite3.Error as exc:
            raise storage_error(self.path, exc) from exc
        finally:
            dest.close()

    def close(self) -> None:
        with self._readers_lock:
            for conn in self._readers:
                conn.close()
            self._readers.clear()
        self._local = threading.local()
        if self._writer is None:
            return
        if self._checkpointer is not None:
            self._checkpointer.stop()
        with self.write_lock:
            try:
                self._writer.execute("PRAGMA optimize")
                self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                self._writer.close()
                raise storage_error(self.path, exc) from exc
            self._writer.close()
            self._mark_clean_close()

    def close_quietly(self) -> None:
        """Close after a failed open: the open's own error is the one to report."""
        with contextlib.suppress(StorageError, sqlite3.Error):
            self.close()

    # -- meta --------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self.query_one("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    @staticmethod
    def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
        conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
