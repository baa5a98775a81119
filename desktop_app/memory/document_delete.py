"""Deleting a case document: the stored copy, its passages (SQLite, the index with every old
version, every backup) and the derived notes the lawyer chose — with the same proof as a
forget: a scan of every file of the data folder for the document's distinctive terms.

Like a forget it survives a crash: the intent (the document, the notes chosen, the terms to
look for; sealed) is written to ``pending_purges`` in the transaction that deletes the rows,
and an open that finds it finishes the delete (:meth:`DocumentDeletion.resume`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from desktop_app.core.errors import NotFoundError, StorageError, error_summary
from desktop_app.memory.backup_files import list_backups
from desktop_app.memory.backup_purge import delete_document_in_backups
from desktop_app.memory.documents import DocumentLibrary
from desktop_app.memory.documents_repository import DocumentsRepository
from desktop_app.memory.forgetting import ForgetReport, Forgetting
from desktop_app.memory.passage_index import PassageIndexSync
from desktop_app.memory.store import Store
from desktop_app.memory.text_scan import distinctive_terms, scan_folder

log = logging.getLogger(__name__)

ProgressCallback = Callable[[int, int], None]
#: the proof looks for at most this many terms (each file is read once per term)
MAX_TERMS = 300


class DocumentDeletion:
    def __init__(
        self,
        data_dir: Path,
        store: Store,
        repo: DocumentsRepository,
        library: DocumentLibrary,
        sync: PassageIndexSync,
        forget_note: Callable[[str], ForgetReport],
        any_note_holds: Callable[[str, Sequence[str]], bool],
        backups_lock: Callable[[], Any],
        forgetting: Forgetting,
    ) -> None:
        self._forgetting = forgetting
        self._data_dir = data_dir
        self._store = store
        self._repo = repo
        self._library = library
        self._sync = sync
        self._forget_note = forget_note
        self._any_note_holds = any_note_holds
        self._backups_lock = backups_lock

    def _terms(self, document_id: str, purged_notes: Sequence[str]) -> list[str]:
        """The most telling term of each passage, skipping terms another document's passage
        or a surviving note states (their presence would prove nothing)."""

        def stated_elsewhere(term: str) -> bool:
            other = self._store.query_one(
                "SELECT 1 FROM passages WHERE document_id != ? AND instr(text, ?) > 0 LIMIT 1",
                (document_id, term),
            )
            return other is not None or self._any_note_holds(term, purged_notes)

        chosen: dict[str, None] = {}
        for passage in self._repo.passages_of(document_id):
            for term in distinctive_terms([passage.text], stated_elsewhere=stated_elsewhere)[:1]:
                chosen.setdefault(term, None)
            if len(chosen) >= MAX_TERMS:
                break
        return list(chosen)

    def delete(
        self,
        document_id: str,
        purge_note_ids: Sequence[str] = (),
        progress: ProgressCallback | None = None,
    ) -> ForgetReport:
        derived = set(self._repo.derived_note_ids(document_id, active_only=False))
        notes = [n for n in dict.fromkeys(purge_note_ids) if n in derived]
        with self._store.write_lock:
            path = self._library.file_of(document_id)  # DocumentNotFoundError first
            case_id = self._library.get(document_id).case_id
            terms = self._terms(document_id, notes)
            with self._store.write() as conn:
                passage_ids = DocumentsRepository.delete(conn, document_id)
                row_id = Forgetting.record(
                    conn, "document", document_id, case_id, terms, [document_id], notes
                )
        # the copy, then the index (every old version)
        path.unlink(missing_ok=True)
        self._library.sweep_files()
        self._sync.remove(passage_ids)
        report = ForgetReport("document", document_id)
        return self._finish(row_id, document_id, notes, terms, report, progress)

    def resume(self, progress: ProgressCallback | None = None) -> list[ForgetReport]:
        """Finish the document deletes a crash interrupted (at open, after the documents'
        copies were swept and their index brought in step)."""
        reports = []
        for pending in self._forgetting.pending():
            if pending.kind != "document":
                continue
            try:
                self._forgetting.count_attempt(pending.row_id)
                self._library.sweep_files()  # the copy, if the crash came before its unlink
                tombstones = self._repo.tombstones()
                if tombstones:
                    self._sync.remove(tombstones)
                report = ForgetReport("document", pending.target_id, resumed=True)
                reports.append(
                    self._finish(
                        pending.row_id,
                        pending.target_id,
                        pending.notes,
                        pending.terms,
                        report,
                        progress,
                    )
                )
            except (StorageError, OSError) as exc:
                # the record stays: the next open tries again
                log.warning("interrupted document delete not finished yet: %s", error_summary(exc))
        return reports

    def _finish(
        self,
        row_id: int,
        document_id: str,
        notes: Sequence[str],
        terms: Sequence[str],
        report: ForgetReport,
        progress: ProgressCallback | None,
    ) -> ForgetReport:
        # the derived notes the lawyer chose, each forgotten everywhere (with its own proof)
        for note_id in notes:
            try:
                sub = self._forget_note(note_id)
            except NotFoundError:
                continue  # forgotten before the crash
            report.reverted += sub.reverted
        with self._backups_lock():
            purge = delete_document_in_backups(self._data_dir, document_id)
        report.purged = list(purge.purged)
        report.untouched = list(purge.untouched)
        self._truncate_wal()
        holdings = scan_folder(self._data_dir, terms, progress=progress)
        backups = {b.path for b in list_backups(self._data_dir)}
        for holding in holdings:
            if holding.path in backups:
                report.still_holding.append(holding.path)
            else:
                where = "" if holding.where == "bytes" else f" ({holding.where})"
                report.live_places.append(f"{holding.path.relative_to(self._data_dir)}{where}")
        report.terms_checked = len(terms)
        # done: the intent goes (zeroed by secure_delete), with the WAL that saw it
        self._forgetting.drop(row_id)
        log.info(
            "document delete finished: %d notes forgotten, complete=%s, resumed=%s",
            len(notes),
            report.complete,
            report.resumed,
        )
        return report

    def _truncate_wal(self) -> None:
        for _attempt in range(50):
            if self._store.checkpoint_truncate():
                return
            time.sleep(0.02)
        log.warning("WAL could not be truncated after a document delete")
