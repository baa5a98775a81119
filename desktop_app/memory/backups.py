"""Automatic snapshots of the SQLite database, restore, and "forget" inside the backups.

Only SQLite is backed up: it is the source of truth, and the LanceDB index is derived from it
(the engine rebuilds or repairs the index at open).  Snapshots are taken with SQLite's online
backup API (``MemoryEngine.backup``), so they are consistent while the app keeps writing.

Layout: ``<data_dir>/backups/lexmem-<UTC timestamp>-<kind>.sqlite3`` where kind is ``auto``
(the schedule), ``manual`` (the user or the CLI), ``pre-restore`` (the database as it was
just before a restore, so a restore can itself be undone) or ``damaged`` (a database that
could not be read, moved aside rather than destroyed).  Each copy is converted to a rollback
journal (no ``-wal`` beside it), checked with ``PRAGMA integrity_check`` and only then renamed
into place: a crash mid-backup leaves a ``.tmp-*`` file, never a half backup under a real name.

True delete ("Forget") must reach the backups too: :meth:`BackupManager.find_in_backups` says
exactly which copies still hold a text, :meth:`BackupManager.purge_from_backups` removes the
note (rows, history, links) or the text from each copy with ``secure_delete`` and ``VACUUM``
and swaps the cleaned copy in atomically.

No Qt here: the UI, the CLI and the tests use the same class.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from desktop_app.core.errors import CorruptDatabaseError, InvalidInputError, StorageError
from desktop_app.core.folder_lock import FolderLock

log = logging.getLogger(__name__)

DB_FILE = "lexmem.sqlite3"  # same name as desktop_app.memory.engine.DB_FILE (not imported: cost)
BACKUP_DIR = "backups"
KINDS = ("auto", "manual", "pre-restore", "damaged")
DEFAULT_KEEP = 10
DEFAULT_INTERVAL_S = 6 * 3600.0

_NAME = re.compile(
    r"^lexmem-(?P<ts>\d{8}T\d{6}\.\d{6}Z)(?:-(?P<n>\d+))?-(?P<kind>auto|manual|pre-restore|damaged)"
    r"\.sqlite3$"
)
_TS_FORMAT = "%Y%m%dT%H%M%S.%fZ"
# Rows of these tables are never deleted by a purge: deleting a case or a conversation would
# cascade to everything in it.  A text found there is reported, not removed.
_KEEP_TABLES = frozenset({"cases", "conversations", "meta", "schema_migrations", "sqlite_sequence"})


@dataclass(frozen=True, slots=True)
class BackupInfo:
    path: Path
    created_at: datetime
    kind: str
    size: int

    @property
    def name(self) -> str:
        return self.path.name


@dataclass(slots=True)
class PurgeReport:
    """What a purge did.  ``still_holding`` is empty when the text is gone from every backup."""

    purged: list[Path] = field(default_factory=list)  # copies rewritten without the note/text
    untouched: list[Path] = field(default_factory=list)  # copies that never held it
    still_holding: list[Path] = field(default_factory=list)  # copies that hold it after the purge
    notes_removed: int = 0

    @property
    def complete(self) -> bool:
        return not self.still_holding


# ------------------------------------------------------------------------------- file helpers


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    # A rename is durable only once the directory entry is: POSIX only (Windows cannot open
    # a directory, and NTFS journals the rename itself).
    if os.name == "posix":
        _fsync_file(path)


def _private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    if os.name == "posix":
        os.chmod(path, 0o700)  # backups hold the whole case file: owner only, like the data folder
    return path


def backups_dir(data_dir: Path) -> Path:
    return _private_dir(Path(data_dir) / BACKUP_DIR)


def _tmp_path(folder: Path) -> Path:
    return folder / f".tmp-{uuid.uuid4().hex}.sqlite3"


def _remove_quietly(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _connect_ro(path: Path) -> sqlite3.Connection:
    # Read-only via URI so that inspecting a backup never creates a -wal/-shm or journal.
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)


def _finish_copy(tmp: Path) -> None:
    """Turn a fresh copy into a self-contained, checked file (rollback journal, no WAL)."""
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        try:
            conn.execute("PRAGMA journal_mode = DELETE")
            row = conn.execute("PRAGMA integrity_check").fetchone()
        except sqlite3.DatabaseError as exc:
            raise CorruptDatabaseError(f"backup copy unreadable: {exc}") from exc
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
    _fsync_file(tmp)


def verify_backup(path: Path) -> None:
    """Raise unless ``path`` is a readable LexMem database that passes an integrity check."""
    path = Path(path)
    if not path.is_file():
        raise InvalidInputError(
            f"{path}: no such backup",
            user_message=f"找不到备份文件：{path.name} / Backup not found: {path.name}",
        )
    try:
        conn = _connect_ro(path)
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


def _new_name(folder: Path, kind: str, now: datetime | None = None) -> Path:
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
    tmp = _tmp_path(data_dir)
    try:
        shutil.copyfile(backup, tmp)
        _force_reindex(tmp)
        _fsync_file(tmp)
        for stale in (wal, shm):
            _remove_quietly(stale)
        os.replace(tmp, db)
        _fsync_dir(data_dir)
    except BaseException:
        _remove_quietly(tmp)
        raise
    log.info(
        "database restored from %s (previous kept as %s)", backup.name, kept.name if kept else None
    )
    return kept


def _keep_current(db: Path, folder: Path) -> Path:
    """Snapshot the database about to be replaced; a damaged one is moved aside intact."""
    target = _new_name(folder, "pre-restore")
    tmp = _tmp_path(folder)
    try:
        src = sqlite3.connect(db, isolation_level=None)
        try:
            dest = sqlite3.connect(tmp)
            try:
                src.backup(dest)  # reads the WAL too: nothing committed is lost
            finally:
                dest.close()
        finally:
            src.close()
        _finish_copy(tmp)
        os.replace(tmp, target)
        _fsync_dir(folder)
        return target
    except (sqlite3.DatabaseError, StorageError):
        _remove_quietly(tmp)
        damaged = _new_name(folder, "damaged")
        log.warning("current database unreadable; moved aside as %s", damaged.name, exc_info=True)
        shutil.move(db, damaged)
        for suffix in ("-wal", "-shm"):
            side = db.with_name(db.name + suffix)
            if side.exists():
                shutil.move(side, damaged.with_name(damaged.name + suffix))
        _fsync_dir(folder)
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


# ------------------------------------------------------------------------- text in backups


def _text_columns(conn: sqlite3.Connection) -> dict[str, list[str]]:
    tables = [
        r[0]
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not r[0].startswith("sqlite_")
    ]
    out: dict[str, list[str]] = {}
    for table in tables:
        cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
        if cols:
            out[table] = cols
    return out


def _rows_with(conn: sqlite3.Connection, table: str, cols: list[str], needle: str) -> list[int]:
    """rowids of ``table`` with ``needle`` in any column (exact substring, not LIKE: no
    wildcards, no ASCII-only case folding)."""
    cond = " OR ".join(f'instr(CAST("{c}" AS TEXT), ?) > 0' for c in cols)
    try:
        return [
            r[0]
            for r in conn.execute(f'SELECT rowid FROM "{table}" WHERE {cond}', [needle] * len(cols))
        ]
    except sqlite3.OperationalError:  # a WITHOUT ROWID table: none in our schema
        return []


def _holds(path: Path, needles: Iterable[str]) -> bool:
    needles = [n for n in needles if n]
    if not needles:
        return False
    # The byte scan catches what SQL cannot see (free pages, a damaged file); SQL catches
    # text split across overflow pages, which the byte scan can miss.
    blob = path.read_bytes()
    for needle in needles:
        if needle.encode("utf-8") in blob or needle.encode("utf-16-le") in blob:
            return True
    try:
        conn = _connect_ro(path)
    except sqlite3.DatabaseError:
        return False
    try:
        for needle in needles:
            for table, cols in _text_columns(conn).items():
                if _rows_with(conn, table, cols, needle):
                    return True
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()
    return False


def find_in_backups(data_dir: Path, text: str) -> list[Path]:
    """Backups (newest first) in which ``text`` still appears, in a row or in the raw file."""
    if not text:
        return []
    return [b.path for b in list_backups(data_dir) if _holds(b.path, [text])]


def _note_texts(conn: sqlite3.Connection, note_ids: Iterable[str]) -> set[str]:
    """Every text of the given notes in one copy: content and each historical content."""
    import json

    texts: set[str] = set()
    for note_id in note_ids:
        for (content,) in conn.execute("SELECT content FROM notes WHERE id = ?", (note_id,)):
            texts.add(content)
        for before, after in conn.execute(
            "SELECT before, after FROM note_history WHERE note_id = ?", (note_id,)
        ):
            for snap in (before, after):
                with contextlib.suppress(ValueError, TypeError, AttributeError):
                    content = (json.loads(snap) or {}).get("content") if snap else None
                    if content:
                        texts.add(content)
    return texts


def _purge_copy(path: Path, note_id: str | None, text: str | None) -> tuple[bool, int, set[str]]:
    """Purge one backup (on a temp copy swapped in atomically).  Returns (changed,
    notes removed, the texts that must now be absent)."""
    tmp = _tmp_path(path.parent)
    shutil.copyfile(path, tmp)
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            # secure_delete zeroes freed cells; VACUUM then rewrites the whole file, so the
            # deleted text survives neither in a page nor in the free list.
            conn.execute("PRAGMA secure_delete = ON")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("BEGIN IMMEDIATE")
            ids: set[str] = set()
            if note_id:
                ids |= {r[0] for r in conn.execute("SELECT id FROM notes WHERE id = ?", (note_id,))}
            columns = _text_columns(conn)
            if text:
                for rowid in _rows_with(conn, "notes", columns.get("notes", []), text):
                    ids |= {
                        r[0] for r in conn.execute("SELECT id FROM notes WHERE rowid = ?", (rowid,))
                    }
            gone = _note_texts(conn, ids)
            if text:
                gone.add(text)
            changes_before = conn.total_changes
            for nid in sorted(ids):
                conn.execute("DELETE FROM note_history WHERE note_id = ?", (nid,))
                conn.execute("DELETE FROM links WHERE src = ? OR dst = ?", (nid, nid))
                if "graph_positions" in columns:
                    conn.execute("DELETE FROM graph_positions WHERE note_id = ?", (nid,))
                conn.execute("DELETE FROM notes WHERE id = ?", (nid,))
            # Rows elsewhere that name the note (its jobs) or, for a purge by text, carry the
            # text (other notes' history, chat messages, job payloads).  A purge by id leaves
            # chat messages alone, as the live delete does; the final scan reports them.
            needles = sorted(ids) + ([text] if text else [])
            for table, cols in columns.items():
                if table in _KEEP_TABLES or table == "notes":
                    continue
                for needle in needles:
                    rowids = _rows_with(conn, table, cols, needle)
                    conn.executemany(
                        f'DELETE FROM "{table}" WHERE rowid = ?', [(r,) for r in rowids]
                    )
            changed = conn.total_changes != changes_before
            conn.execute("COMMIT")
            if changed:
                conn.execute("VACUUM")
            row = conn.execute("PRAGMA integrity_check").fetchone()
            if not row or row[0] != "ok":
                raise StorageError(f"{path.name}: integrity check failed after purge")
        finally:
            conn.close()
        if not changed:
            _remove_quietly(tmp)
            return False, 0, gone
        if os.name == "posix":
            os.chmod(tmp, 0o600)
        _fsync_file(tmp)
        os.replace(tmp, path)
        _fsync_dir(path.parent)
        return True, len(ids), gone
    except BaseException:
        _remove_quietly(tmp)
        raise


def purge_from_backups(
    data_dir: Path, note_id: str | None = None, text: str | None = None
) -> PurgeReport:
    """Remove a note (by id: its row, history, links, jobs) and/or a text from every backup.

    Copies that cannot be cleaned (a ``damaged`` one, or a text that sits in a case name)
    are listed in ``still_holding``: the UI tells the user exactly which, and may offer to
    delete those files.
    """
    if not note_id and not text:
        raise InvalidInputError("purge needs a note id or a text")
    report = PurgeReport()
    for info in list_backups(data_dir):
        needles: set[str] = {text} if text else set()
        try:
            if info.kind == "damaged":
                raise sqlite3.DatabaseError("damaged copy: not purged")
            changed, removed, gone = _purge_copy(info.path, note_id, text)
            needles |= gone
            if changed:
                report.purged.append(info.path)
                report.notes_removed += removed
            else:
                report.untouched.append(info.path)
        except (sqlite3.DatabaseError, StorageError):
            log.warning("could not purge %s", info.name, exc_info=True)
        # Verify on the file as it is now, whatever happened above (a damaged copy is only
        # byte-scanned: it holds the note if its id or one of its texts is in the file).
        if note_id and info.kind == "damaged":
            needles.add(note_id)
        if _holds(info.path, needles):
            report.still_holding.append(info.path)
            if info.path in report.untouched:
                report.untouched.remove(info.path)
    return report


# ---------------------------------------------------------------------------------- manager


class BackedUpEngine(Protocol):
    """What the backups need from the engine (the engine itself is never imported here:
    this module must stay cheap to import and below the engine)."""

    data_dir: Path
    llm: Any
    config: Any
    embedder: Any

    def backup(self, target: str | os.PathLike[str]) -> Path: ...
    def close(self) -> None: ...
    def delete_note(self, note_id: str) -> None: ...


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
        _remove_quietly(info.path)
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
            tmp = _tmp_path(self.folder)
            try:
                self.engine.backup(tmp)
                _finish_copy(tmp)
                target = _new_name(self.folder, kind)
                os.replace(tmp, target)
                _fsync_dir(self.folder)
            except BaseException:
                _remove_quietly(tmp)
                raise
            self._prune(kind)
        log.info("backup written: %s", target.name)
        return next(b for b in self.list(kind) if b.path == target)

    def _prune(self, kind: str) -> list[Path]:
        removed = []
        for info in list_backups(self.data_dir, kind)[self.keep :]:
            _remove_quietly(info.path)
            removed.append(info.path)
        # Leftovers of a crash mid-backup; only old ones, since another process (the CLI)
        # may be writing a backup into the same folder right now.
        for stale in self.folder.glob(".tmp-*.sqlite3"):
            with contextlib.suppress(FileNotFoundError):
                if stale.stat().st_mtime < datetime.now().timestamp() - 3600:
                    stale.unlink()
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

    def find_in_backups(self, text: str) -> list[Path]:
        return find_in_backups(self.data_dir, text)

    def purge_from_backups(
        self, note_id: str | None = None, text: str | None = None
    ) -> PurgeReport:
        with self._lock:
            return purge_from_backups(self.data_dir, note_id=note_id, text=text)

    def forget_note(self, note_id: str) -> PurgeReport:
        """True delete everywhere: the note in the live data, then in every backup.  The
        report's ``still_holding`` lists backups where its text survives elsewhere (a chat
        message quoting it): the UI offers ``purge_from_backups(text=...)`` for those."""
        self.engine.delete_note(note_id)
        return self.purge_from_backups(note_id=note_id)
