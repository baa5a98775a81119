"""Deleting a case document: the stored copy, its passages (SQLite, the index with every old
version, every backup) and the derived notes the lawyer chose — with the same proof as a
forget: a scan of every file of the data folder for the document's distinctive terms."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from desktop_app.memory.backup_files import list_backups
from desktop_app.memory.backup_purge import delete_document_in_backups
from desktop_app.memory.documents import DocumentLibrary
from desktop_app.memory.documents_repository import DocumentsRepository
from desktop_app.memory.forgetting import ForgetReport
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
    ) -> None:
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
            terms = self._terms(document_id, notes)
            with self._store.write() as conn:
                passage_ids = DocumentsRepository.delete(conn, document_id)
        report = ForgetReport("document", document_id)
        # the copy, then the index (every old version)
        path.unlink(missing_ok=True)
        self._library.sweep_files()
        self._sync.remove(passage_ids)
        # the derived notes the lawyer chose, each forgotten everywhere (with its own proof)
        for note_id in notes:
            sub = self._forget_note(note_id)
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
        log.info(
            "document deleted: %d passages, %d notes forgotten, complete=%s",
            len(passage_ids),
            len(notes),
            report.complete,
        )
        return report

    def _truncate_wal(self) -> None:
        for _attempt in range(50):
            if self._store.checkpoint_truncate():
                return
            time.sleep(0.02)
        log.warning("WAL could not be truncated after a document delete")
