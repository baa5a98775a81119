"""SQLite, the source of truth: connections, transactions and row mapping.

One writer: every write goes through :meth:`Store.write`, which holds the engine's write
lock and one ``BEGIN IMMEDIATE`` transaction.  Readers use their own per-thread
connections, so in WAL mode a long write never blocks a read (or the UI).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from desktop_app.core.errors import CorruptDatabaseError, StorageError
from desktop_app.memory.migrations import apply_migrations
from desktop_app.memory.types import Case, Conversation, HistoryEntry, Link, Message, Note

NOTE_COLUMNS = (
    "id, case_id, content, category, keywords, context, tags, source, content_hash, created_at, "
    "updated_at, valid_from, invalid_at, status, pinned, retrieval_count, last_accessed, "
    "evolution_count"
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


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.execute("PRAGMA foreign_keys = ON")
    # Deleted text is overwritten with zeros in the database pages (true delete).
    conn.execute("PRAGMA secure_delete = ON")
    return conn


def _storage_error(path: Path, exc: sqlite3.Error) -> StorageError:
    """A damaged file becomes CorruptDatabaseError (the UI offers a restore); the rest
    StorageError.  Either way no raw sqlite3 error reaches a caller of the engine."""
    text = str(exc)
    if "not a database" in text or "malformed" in text:
        return CorruptDatabaseError(f"{path}: {exc}")
    return StorageError(f"{path}: {exc}")


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.write_lock = threading.RLock()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        writer: sqlite3.Connection | None = None
        try:
            writer = self._writer = _connect(path)
            mode = self._writer.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise StorageError(f"could not enable WAL (journal_mode={mode})")
            self._writer.execute("PRAGMA synchronous = NORMAL")
            apply_migrations(self._writer)
        except (sqlite3.DatabaseError, StorageError) as exc:
            # The caller keeps the error (the "restore from backup" dialog) and with it this
            # frame: close now, or the file stays open and cannot be replaced (Windows).
            if writer is not None:
                writer.close()
            if isinstance(exc, StorageError):
                raise
            raise _storage_error(path, exc) from exc

    # -- connections -------------------------------------------------------------------

    def reader(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = _connect(self.path)
            self._local.conn = conn
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction on the single writer connection; rolled back on any error."""
        with self.write_lock:
            conn = self._writer
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):  # a damaged file may refuse even this
                    conn.execute("ROLLBACK")
                raise _storage_error(self.path, exc) from exc
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def query(self, sql: str, params: tuple | list = ()) -> list[sqlite3.Row]:
        try:
            return self.reader().execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise _storage_error(self.path, exc) from exc

    def query_one(self, sql: str, params: tuple | list = ()) -> sqlite3.Row | None:
        try:
            cursor = self.reader().execute(sql, params)
        except sqlite3.Error as exc:
            raise _storage_error(self.path, exc) from exc
        try:
            return cursor.fetchone()
        except sqlite3.Error as exc:
            raise _storage_error(self.path, exc) from exc
        finally:
            # An unfinished statement keeps its read snapshot open: later reads on this
            # thread would not see newer commits, and checkpoints could not truncate the WAL.
            cursor.close()

    def checkpoint_truncate(self) -> bool:
        """Move the WAL into the main file and truncate it to zero bytes (true delete).
        Returns False if a reader kept it from finishing (the caller may retry)."""
        with self.write_lock:
            busy, _log, _done = self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return busy == 0

    def vacuum(self) -> None:
        with self.write_lock:
            self._writer.execute("VACUUM")
            self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def integrity_ok(self) -> bool:
        row = self.query_one("PRAGMA quick_check")
        return bool(row) and row[0] == "ok"

    def backup_to(self, target: Path) -> None:
        dest = sqlite3.connect(target)
        try:
            with self.write_lock:
                self._writer.backup(dest)
        except sqlite3.Error as exc:
            raise _storage_error(self.path, exc) from exc
        finally:
            dest.close()

    def close(self) -> None:
        with self._readers_lock:
            for conn in self._readers:
                conn.close()
            self._readers.clear()
        self._local = threading.local()
        with self.write_lock:
            try:
                self._writer.execute("PRAGMA optimize")
                self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                self._writer.close()

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


# -- row mapping ---------------------------------------------------------------------------


def row_to_note(row: sqlite3.Row) -> Note:
    return Note(
        id=row["id"],
        case_id=row["case_id"],
        content=row["content"],
        category=row["category"],
        keywords=tuple(json.loads(row["keywords"])),
        context=row["context"],
        tags=tuple(json.loads(row["tags"])),
        source=row["source"],
        content_hash=row["content_hash"],
        created_at=from_iso(row["created_at"]),
        updated_at=from_iso(row["updated_at"]),
        valid_from=from_iso(row["valid_from"]),
        invalid_at=from_iso(row["invalid_at"]),
        status=row["status"],
        pinned=bool(row["pinned"]),
        retrieval_count=row["retrieval_count"],
        last_accessed=from_iso(row["last_accessed"]),
        evolution_count=row["evolution_count"],
    )


def note_snapshot(note: Note) -> dict:
    """The editable part of a note, as stored in note_history (before/after)."""
    return {
        "content": note.content,
        "category": note.category,
        "keywords": list(note.keywords),
        "context": note.context,
        "tags": list(note.tags),
        "status": note.status,
        "pinned": note.pinned,
        "invalid_at": to_iso(note.invalid_at),
    }


def row_to_case(row: sqlite3.Row) -> Case:
    return Case(
        id=row["id"],
        name=row["name"],
        description=row["description"],
        created_at=from_iso(row["created_at"]),
        archived=bool(row["archived"]),
    )


def row_to_conversation(row: sqlite3.Row) -> Conversation:
    return Conversation(
        id=row["id"],
        case_id=row["case_id"],
        title=row["title"],
        created_at=from_iso(row["created_at"]),
        updated_at=from_iso(row["updated_at"]),
        memory_enabled=bool(row["memory_enabled"]),
    )


def row_to_message(row: sqlite3.Row) -> Message:
    return Message(
        id=row["id"],
        conversation_id=row["conversation_id"],
        role=row["role"],
        content=row["content"],
        created_at=from_iso(row["created_at"]),
        injected_note_ids=tuple(json.loads(row["injected_note_ids"])),
    )


def row_to_link(row: sqlite3.Row) -> Link:
    return Link(
        src=row["src"],
        dst=row["dst"],
        kind=row["kind"],
        strength=row["strength"],
        reason=row["reason"],
        created_at=from_iso(row["created_at"]),
    )


def row_to_history(row: sqlite3.Row) -> HistoryEntry:
    return HistoryEntry(
        id=row["id"],
        note_id=row["note_id"],
        actor=row["actor"],
        action=row["action"],
        before=json.loads(row["before"]) if row["before"] else None,
        after=json.loads(row["after"]) if row["after"] else None,
        reason=row["reason"],
        created_at=from_iso(row["created_at"]),
    )
