"""Forget: a note, or a whole case, gone from every file of the data folder — and a proof.

One forget, in order:

1. **one SQLite transaction**: roll back what the model derived from the note in other notes
   (forget_sql.revert_derived), delete the note (or the case with everything in it), leave a
   tombstone for the index, and record a **pending purge** holding what to forget and the
   terms to look for;
2. the index: the changed neighbours re-indexed, the note's rows deleted and every old
   version of the table dropped (index.purge_deleted);
3. the WAL truncated (secure_delete has zeroed the freed cells);
4. temporary copies no live process holds removed (a crash mid-backup left full copies);
5. every backup rewritten without it (backup_purge.py), under the backups' lock;
6. a **scan of every file** of the data folder for the forgotten text's distinctive terms
   (text_scan.py); the forget is ``complete`` only when it finds nothing;
7. the pending purge deleted.

A crash anywhere after step 1 leaves the pending purge: every open resumes it (steps 2–7)
until it is done, so a note can never end up gone from the live data but alive in a backup.
The pending record keeps the terms **masked** (XOR with a random key): the scan that proves
the text gone must not find the forget's own to-do list, and the record goes once done.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_app.core.errors import StorageError, error_summary
from desktop_app.memory import forget_sql
from desktop_app.memory.backup_files import list_backups, remove_stale_temp_copies
from desktop_app.memory.backup_purge import (
    PurgeReport,
    delete_case_in_backups,
    forget_in_backups,
)
from desktop_app.memory.cases import Cases
from desktop_app.memory.changes import ChangeRecorder
from desktop_app.memory.index_sync import IndexSync
from desktop_app.memory.notes_repository import NotesRepository
from desktop_app.memory.store import Store, to_iso, utcnow
from desktop_app.memory.text_scan import Holding, distinctive_terms, scan_folder
from desktop_app.memory.types import Case

log = logging.getLogger(__name__)

ProgressCallback = Callable[[int, int], None]
#: a case's proof searches for at most this many terms (each file is read once per term)
MAX_CASE_TERMS = 300
_KEY_BYTES = 16


# ------------------------------------------------------------------------------ reports


@dataclass(slots=True)
class ForgetReport:
    """What a forget did, and where (if anywhere) the forgotten text still is."""

    kind: str  # "note" or "case"
    target_id: str
    #: notes whose model-derived context, tags or status were rolled back
    reverted: list[str] = field(default_factory=list)
    purged: list[Path] = field(default_factory=list)  # backups rewritten without it
    untouched: list[Path] = field(default_factory=list)  # backups that never held it
    #: backups in which a distinctive term was still found after the purge
    still_holding: list[Path] = field(default_factory=list)
    #: other files of the data folder still holding one (the live database: a chat message
    #: quoting the note; relative paths, with the tables when SQL found it)
    live_places: list[str] = field(default_factory=list)
    temp_copies_removed: int = 0
    notes_removed: int = 0  # backups in which a note row was removed
    terms_checked: int = 0
    resumed: bool = False  # finished at an open, after an interrupted forget

    @property
    def complete(self) -> bool:
        """True only when the scan of every file found none of the distinctive terms."""
        return not self.still_holding and not self.live_places


@dataclass(frozen=True, slots=True)
class CaseContents:
    """What deleting a case removes (the confirmation names it)."""

    case: Case
    notes: int
    conversations: int
    messages: int
    jobs: int
    backups: int


# ------------------------------------------------------------------- the pending record


def _seal(value: dict[str, Any]) -> str:
    raw = json.dumps(value, ensure_ascii=False).encode("utf-8")
    key = os.urandom(_KEY_BYTES)
    masked = bytes(b ^ key[i % _KEY_BYTES] for i, b in enumerate(raw))
    return base64.b64encode(key + masked).decode("ascii")


def _unseal(sealed: str) -> dict[str, Any]:
    blob = base64.b64decode(sealed)
    key, masked = blob[:_KEY_BYTES], blob[_KEY_BYTES:]
    raw = bytes(b ^ key[i % _KEY_BYTES] for i, b in enumerate(masked))
    return json.loads(raw.decode("utf-8"))


@dataclass(frozen=True, slots=True)
class _Pending:
    row_id: int
    kind: str
    target_id: str
    case_id: str | None
    terms: tuple[str, ...]
    needles: tuple[str, ...]  # terms plus ids that must be gone too
    #: a document delete's chosen derived notes (forgotten when it is finished)
    notes: tuple[str, ...] = ()


# ------------------------------------------------------------------------- forgetting


class Forgetting:
    def __init__(
        self,
        data_dir: Path,
        store: Store,
        notes: NotesRepository,
        cases: Cases,
        sync: IndexSync,
        changes: ChangeRecorder,
        backups_lock: Callable[[], Any],
    ) -> None:
        self._data_dir = data_dir
        self._store = store
        self._notes = notes
        self._cases = cases
        self._sync = sync
        self._changes = changes
        self._backups_lock = backups_lock
        #: the forgets finished at the last open (interrupted before); the UI may say so
        self.resumed: list[ForgetReport] = []

    # -- note ----------------------------------------------------------------------------

    def forget_note(self, note_id: str, progress: ProgressCallback | None = None) -> ForgetReport:
        with self._store.write_lock:
            note = self._notes.get(note_id)
            texts = [note.content, *self._history_contents(note_id)]
            terms = distinctive_terms(texts, stated_elsewhere=self._stated_by_others([note_id]))
            with self._store.write() as conn:
                reverted = forget_sql.revert_derived(conn, [note_id], terms)
                forget_sql.delete_notes(conn, [note_id])
                self._tombstones(conn, [note_id])
                row_id = self._record(conn, "note", note_id, note.case_id, terms, [note_id])
        self._changes.notes_removed([(note.case_id, note_id)])
        self._changes.notes_changed((note.case_id, i) for i in reverted)
        self._changes.links_changed(note.case_id)
        report = ForgetReport("note", note_id, reverted=reverted)
        pending = _Pending(row_id, "note", note_id, note.case_id, tuple(terms), (*terms, note_id))
        return self._finish(pending, report, progress)

    def _history_contents(self, note_id: str) -> list[str]:
        out = []
        for entry in self._notes.history(note_id):
            for snap in (entry.before, entry.after):
                if snap and isinstance(snap.get("content"), str):
                    out.append(snap["content"])
        return out

    def _stated_by_others(self, excluded: Sequence[str]) -> Callable[[str], bool]:
        """A term that a surviving note states in its own content proves nothing."""
        return lambda term: self._notes.any_content_holds(term, excluded)

    # -- case ----------------------------------------------------------------------------

    def case_contents(self, case_id: str) -> CaseContents:
        case = self._cases.get(case_id)
        rows = self._store.read(lambda conn: forget_sql.count_case(conn, case_id))
        return CaseContents(
            case,
            rows.notes,
            rows.conversations,
            rows.messages,
            rows.jobs,
            len(list_backups(self._data_dir)),
        )

    def delete_case(self, case_id: str, progress: ProgressCallback | None = None) -> ForgetReport:
        with self._store.write_lock:
            case = self._cases.get(case_id)
            note_ids = sorted(self._notes.ids_in_scope(case_id))
            terms = self._case_terms(case, note_ids)
            with self._store.write() as conn:
                forget_sql.delete_case(conn, case_id)
                self._tombstones(conn, note_ids)
                row_id = self._record(conn, "case", case_id, case_id, terms, [case_id])
        self._changes.cases_changed()
        self._changes.notes_removed((case_id, i) for i in note_ids)
        self._changes.conversations_changed(case_id)
        self._changes.jobs_changed()
        report = ForgetReport("case", case_id)
        pending = _Pending(row_id, "case", case_id, case_id, tuple(terms), (*terms, case_id))
        return self._finish(pending, report, progress)

    def _case_terms(self, case: Case, note_ids: Sequence[str]) -> list[str]:
        """The most telling term of each text in the case (its name first), at most
        MAX_CASE_TERMS: each file is read once per term."""
        texts: list[str] = [case.name, case.description]
        for note in self._notes.by_ids(list(note_ids)):
            texts.append(note.content)
            texts += self._history_contents(note.id)
        for row in self._store.query(
            "SELECT c.title, m.content FROM conversations c LEFT JOIN messages m "
            "ON m.conversation_id = c.id WHERE c.case_id = ?",
            (case.id,),
        ):
            texts += [t for t in (row[0], row[1]) if t]
        stated = lambda term: self._notes.any_content_holds(term, outside_case=case.id)  # noqa: E731
        chosen: dict[str, None] = {}
        for text in texts:
            for term in distinctive_terms([text], stated_elsewhere=stated)[:1]:
                chosen.setdefault(term, None)
            if len(chosen) >= MAX_CASE_TERMS:
                break
        return list(chosen)

    # -- the pending record ----------------------------------------------------------------

    @staticmethod
    def _tombstones(conn: sqlite3.Connection, note_ids: Iterable[str]) -> None:
        conn.executemany(
            "INSERT OR IGNORE INTO index_tombstones (note_id) VALUES (?)",
            [(i,) for i in note_ids],
        )

    @staticmethod
    def _record(
        conn: sqlite3.Connection,
        kind: str,
        target_id: str,
        case_id: str | None,
        terms: Sequence[str],
        ids: Sequence[str],
        notes: Sequence[str] = (),
    ) -> int:
        value = {"kind": kind, "target": target_id, "case": case_id, "terms": list(terms)}
        value |= {"ids": list(ids), "notes": list(notes)}
        sealed = _seal(value)
        cur = conn.execute(
            "INSERT INTO pending_purges (sealed, created_at) VALUES (?, ?)",
            (sealed, to_iso(utcnow())),
        )
        return int(cur.lastrowid)

    def pending(self) -> list[_Pending]:
        out = []
        for row in self._store.query("SELECT id, sealed FROM pending_purges ORDER BY id"):
            try:
                value = _unseal(row[1])
            except (ValueError, TypeError, UnicodeDecodeError):
                log.warning("pending purge %s unreadable; dropped", row[0])
                self._drop(row[0])
                continue
            terms = tuple(value.get("terms") or ())
            out.append(
                _Pending(
                    row[0],
                    value.get("kind", "note"),
                    value.get("target", ""),
                    value.get("case"),
                    terms,
                    (*terms, *(value.get("ids") or ())),
                    tuple(value.get("notes") or ()),
                )
            )
        return out

    #: the intent of a delete, written durably (in the transaction of its first destructive
    #: step) so that the next open finishes it; ``drop`` once the proof has run
    record = _record

    def resume(self, progress: ProgressCallback | None = None) -> list[ForgetReport]:
        """Finish the forgets a crash interrupted (called at every open, until done)."""
        reports = []
        for pending in self.pending():
            if pending.kind == "document":
                continue  # finished by the document deletion, once the documents are open
            try:
                with self._store.write() as conn:
                    conn.execute(
                        "UPDATE pending_purges SET attempts = attempts + 1 WHERE id = ?",
                        (pending.row_id,),
                    )
                report = ForgetReport(pending.kind, pending.target_id, resumed=True)
                reports.append(self._finish(pending, report, progress))
            except (StorageError, OSError) as exc:
                # a full disk, a locked backup: the record stays, the next open tries again
                log.warning("interrupted forget not finished yet: %s", error_summary(exc))
        self.resumed = reports
        return reports

    def _drop(self, row_id: int) -> None:
        with self._store.write() as conn:
            conn.execute("DELETE FROM pending_purges WHERE id = ?", (row_id,))
        self._truncate_wal()

    drop = _drop

    def count_attempt(self, row_id: int) -> None:
        with self._store.write() as conn:
            conn.execute("UPDATE pending_purges SET attempts = attempts + 1 WHERE id = ?", (row_id,))

    # -- steps 2 to 7 ----------------------------------------------------------------------

    def _finish(
        self, pending: _Pending, report: ForgetReport, progress: ProgressCallback | None
    ) -> ForgetReport:
        # 2. the index: neighbours' new versions first, then every old version goes
        dirty = self._notes.unindexed_ids()
        if dirty:
            self._sync.reindex(dirty)
        tombstones = self._notes.tombstones()
        if tombstones:
            self._sync.remove(tombstones)
        # 3. the WAL
        self._truncate_wal()
        # 4 and 5. temporary copies and backups, with no snapshot landing in between
        with self._backups_lock():
            report.temp_copies_removed = len(remove_stale_temp_copies(self._data_dir))
            if pending.kind == "case":
                purge = delete_case_in_backups(self._data_dir, pending.target_id)
            else:
                purge = forget_in_backups(self._data_dir, [pending.target_id], pending.terms)
        self._take(report, purge)
        # 6. the proof: no file of the folder holds a distinctive term
        holdings = scan_folder(self._data_dir, pending.needles, progress=progress)
        self._place(report, holdings)
        report.terms_checked = len(pending.needles)
        # 7. done: the record goes (zeroed by secure_delete), with the WAL that saw it
        self._drop(pending.row_id)
        log.info(
            "forget of a %s finished: complete=%s, %d backups rewritten, %d places still hold it",
            pending.kind,
            report.complete,
            len(report.purged),
            len(report.still_holding) + len(report.live_places),
        )
        return report

    @staticmethod
    def _take(report: ForgetReport, purge: PurgeReport) -> None:
        report.purged = list(purge.purged)
        report.untouched = list(purge.untouched)
        report.notes_removed = purge.notes_removed

    def _place(self, report: ForgetReport, holdings: Sequence[Holding]) -> None:
        backups = {b.path for b in list_backups(self._data_dir)}
        for holding in holdings:
            if holding.path in backups:
                report.still_holding.append(holding.path)
                if holding.path in report.untouched:
                    report.untouched.remove(holding.path)
            else:
                where = "" if holding.where == "bytes" else f" ({holding.where})"
                report.live_places.append(f"{holding.path.relative_to(self._data_dir)}{where}")

    def _truncate_wal(self) -> None:
        for _attempt in range(50):  # a reader mid-statement delays the truncation briefly
            if self._store.checkpoint_truncate():
                return
            time.sleep(0.02)
        log.warning("WAL could not be truncated after a forget; it will be at close")
