"""True delete inside the backups: every copy is rewritten without the forgotten note (and
what the model derived from it), a deleted case, or a text.

Each copy is rewritten on a temporary copy — with ``secure_delete`` (freed cells zeroed), its
journal in memory (no journal file ever holds the text) and ``VACUUM`` (no free page keeps
it) — checked, and swapped in atomically; a crash leaves the old copy whole and a temporary
copy that the next open removes.  :func:`find_in_backups` says which copies still hold a
text, in a row or in the raw file.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from desktop_app.core.errors import InvalidInputError, StorageError, storage_os_error
from desktop_app.memory import forget_sql
from desktop_app.memory.backup_files import (
    BackupInfo,
    fsync_dir,
    fsync_file,
    list_backups,
    temp_copy,
)
from desktop_app.memory.documents_repository import DocumentsRepository
from desktop_app.memory.text_scan import scan_file

log = logging.getLogger(__name__)

T = TypeVar("T")

# Rows of these tables are never deleted by a purge by text: deleting a case or a
# conversation would cascade to everything in it.  A text found there is reported.
_KEEP_TABLES = frozenset({"cases", "conversations", "meta", "schema_migrations", "sqlite_sequence"})


@dataclass(slots=True)
class PurgeReport:
    """What a purge did.  ``still_holding`` is empty when the text is gone from every backup."""

    purged: list[Path] = field(default_factory=list)  # copies rewritten without the note/text
    untouched: list[Path] = field(default_factory=list)  # copies that never held it
    still_holding: list[Path] = field(default_factory=list)  # copies that hold it after the purge
    notes_removed: int = 0  # copies in which a note row was removed

    @property
    def complete(self) -> bool:
        return not self.still_holding


# ----------------------------------------------------------------------- rewriting a copy


def rewrite_copy(path: Path, apply: Callable[[sqlite3.Connection], T]) -> tuple[bool, T]:
    """Run ``apply`` on a temporary copy of the backup ``path`` in one transaction; when it
    changed anything, make the deletion physical and swap the copy in.  Returns (changed,
    what ``apply`` returned)."""
    try:
        return _rewrite(path, apply)
    except OSError as exc:  # a full disk while copying: the copy in place is untouched
        raise storage_os_error(exc, path) from exc


def _rewrite(path: Path, apply: Callable[[sqlite3.Connection], T]) -> tuple[bool, T]:
    with temp_copy(path.parent) as tmp:
        shutil.copyfile(path, tmp)
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA secure_delete = ON")
            conn.execute("PRAGMA foreign_keys = ON")
            # no journal file (it would hold the deleted pages), VACUUM's copy in memory
            conn.execute("PRAGMA journal_mode = MEMORY")
            conn.execute("PRAGMA temp_store = MEMORY")
            conn.execute("BEGIN IMMEDIATE")
            before = conn.total_changes
            try:
                result = apply(conn)
                changed = conn.total_changes != before
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
            if changed:
                conn.execute("VACUUM")
            conn.execute("PRAGMA journal_mode = DELETE")
            row = conn.execute("PRAGMA integrity_check").fetchone()
            if not row or row[0] != "ok":
                raise StorageError(f"{path.name}: integrity check failed after purge")
        finally:
            conn.close()
        if not changed:
            return False, result
        if os.name == "posix":
            os.chmod(tmp, 0o600)
        fsync_file(tmp)
        os.replace(tmp, path)
        fsync_dir(path.parent)
    return True, result


# -------------------------------------------------------------------------- text in copies


def _text_columns(conn: sqlite3.Connection) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for table in forget_sql.tables(conn):
        if table.startswith("sqlite_"):
            continue
        cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
        if cols:
            out[table] = cols
    return out


def _row_key(conn: sqlite3.Connection, table: str) -> list[str]:
    """The columns that name one row of ``table``: its rowid, or for a WITHOUT ROWID table
    (links, since migration 0012) its primary key."""
    try:
        conn.execute(f'SELECT rowid FROM "{table}" LIMIT 0')
        return ["rowid"]
    except sqlite3.OperationalError:
        info = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
        return [r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5])]


def _column_sql(column: str) -> str:
    return column if column == "rowid" else f'"{column}"'


def _rows_with(
    conn: sqlite3.Connection, table: str, cols: list[str], needle: str, key: list[str]
) -> list[tuple]:
    """The keys (see :func:`_row_key`) of the rows of ``table`` with ``needle`` in any column
    (exact substring, not LIKE: no wildcards, no ASCII-only case folding)."""
    cond = " OR ".join(f'instr(CAST("{c}" AS TEXT), ?) > 0' for c in cols)
    sql = f'SELECT {", ".join(map(_column_sql, key))} FROM "{table}" WHERE {cond}'
    return [tuple(r) for r in conn.execute(sql, [needle] * len(cols))]


def _delete_rows(conn: sqlite3.Connection, table: str, key: list[str], rows: list[tuple]) -> None:
    where = " AND ".join(f"{_column_sql(c)} = ?" for c in key)
    conn.executemany(f'DELETE FROM "{table}" WHERE {where}', rows)


def _holds(path: Path, needles: Iterable[str]) -> bool:
    needles = [n for n in needles if n]
    return bool(needles) and scan_file(path, needles) is not None


def find_in_backups(data_dir: Path, text: str) -> list[Path]:
    """Backups (newest first) in which ``text`` still appears, in a row or in the raw file."""
    if not text:
        return []
    return [b.path for b in list_backups(data_dir) if _holds(b.path, [text])]


def _note_texts(conn: sqlite3.Connection, note_ids: Iterable[str]) -> set[str]:
    """Every text of the given notes in one copy: content and each historical content."""
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


def _purge_by(conn: sqlite3.Connection, note_id: str | None, text: str | None) -> tuple[int, set]:
    """One copy: the note (with what was derived from it) and/or every row holding ``text``.
    Returns (notes removed, the texts that must now be absent)."""
    ids: set[str] = set()
    if note_id:
        ids |= {r[0] for r in conn.execute("SELECT id FROM notes WHERE id = ?", (note_id,))}
    columns = _text_columns(conn)
    if text:
        ids |= {i for (i,) in _rows_with(conn, "notes", columns.get("notes", []), text, ["id"])}
    gone = _note_texts(conn, ids)
    if text:
        gone.add(text)
    forget_sql.revert_derived(conn, sorted(ids), sorted(gone))
    removed = forget_sql.delete_notes(conn, sorted(ids))
    if text:
        # Rows elsewhere that carry the text (other notes' history, chat messages, job
        # payloads): a purge by text removes them.  A purge by id leaves chat messages alone,
        # as the live forget does; the final scan reports them.
        for table, cols in columns.items():
            if table in _KEEP_TABLES or table == "notes":
                continue
            key = _row_key(conn, table)
            _delete_rows(conn, table, key, _rows_with(conn, table, cols, text, key))
    return removed, gone


def purge_from_backups(
    data_dir: Path, note_id: str | None = None, text: str | None = None
) -> PurgeReport:
    """Remove a note (by id: its row, history, links, jobs and what the model derived from
    it) and/or a text from every backup.

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
            changed, (removed, gone) = rewrite_copy(
                info.path, lambda conn: _purge_by(conn, note_id, text)
            )
            needles |= gone
            _count(report, info, changed, removed)
        except (sqlite3.DatabaseError, StorageError):
            log.warning("could not purge %s", info.name, exc_info=True)
            if note_id:  # not rewritten (a full disk): the note's row is still in it
                needles.add(note_id)
        # Verify on the file as it is now, whatever happened above (a damaged copy is only
        # byte-scanned: it holds the note if its id or one of its texts is in the file).
        if note_id and info.kind == "damaged":
            needles.add(note_id)
        _verify(report, info, needles)
    return report


def _count(report: PurgeReport, info: BackupInfo, changed: bool, removed: int) -> None:
    (report.purged if changed else report.untouched).append(info.path)
    report.notes_removed += int(removed > 0)


def _verify(report: PurgeReport, info: BackupInfo, needles: Iterable[str]) -> None:
    if _holds(info.path, needles):
        report.still_holding.append(info.path)
        if info.path in report.untouched:
            report.untouched.remove(info.path)


# ------------------------------------------------------------------ forget and case delete


def forget_in_backups(data_dir: Path, note_ids: Sequence[str], terms: Sequence[str]) -> PurgeReport:
    """Every backup without the notes ``note_ids`` and what the model derived from them
    (neighbours' context and tags rolled back).  ``still_holding`` lists the copies that
    could not be rewritten; the caller's scan of the whole folder checks the terms."""
    ids = sorted(set(note_ids))

    def apply(conn: sqlite3.Connection) -> int:
        forget_sql.revert_derived(conn, ids, terms)
        return forget_sql.delete_notes(conn, ids)

    return _each_copy(data_dir, apply)


def delete_case_in_backups(data_dir: Path, case_id: str) -> PurgeReport:
    """Every backup without the case ``case_id`` and everything in it."""

    def apply(conn: sqlite3.Connection) -> int:
        return forget_sql.delete_case(conn, case_id).notes

    return _each_copy(data_dir, apply)


def delete_document_in_backups(data_dir: Path, document_id: str) -> PurgeReport:
    """Every backup without the case document ``document_id``: its row, its passages and its
    waiting extraction jobs (the same statements as on the live database).  A backup older
    than the documents' migration has none."""

    def apply(conn: sqlite3.Connection) -> int:
        if "documents" not in forget_sql.tables(conn):
            return 0
        return len(DocumentsRepository.delete(conn, document_id))

    return _each_copy(data_dir, apply)


def _each_copy(data_dir: Path, apply: Callable[[sqlite3.Connection], int]) -> PurgeReport:
    report = PurgeReport()
    for info in list_backups(data_dir):
        if info.kind == "damaged":
            report.still_holding.append(info.path)  # unreadable: the scan decides
            continue
        try:
            changed, removed = rewrite_copy(info.path, apply)
        except (sqlite3.DatabaseError, StorageError):
            log.warning("could not purge %s", info.name, exc_info=True)
            report.still_holding.append(info.path)
            continue
        _count(report, info, changed, removed)
    return report
