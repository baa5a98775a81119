"""MemoryEngine: the public API of the memory, over SQLite (truth) and LanceDB (derived index).

Every caller — the UI, the CLI, the tests and the benchmarks — goes through this class.  It is
a façade: each method hands the work to the module that owns it (the table in
``desktop_app/memory/__init__.py`` says which).  What lives here is only what ties them
together: opening and closing the data folder (with its writer lock), the LLM and the
parameters in use, what is recorded as changed, and the background work.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from desktop_app.core.errors import MissingDatabaseError, StorageError
from desktop_app.core.folder_lock import FolderLock
from desktop_app.core.paths import ensure_private_dir, make_tree_private, use_private_umask
from desktop_app.memory.backup_files import list_backups, remove_stale_temp_copies
from desktop_app.memory.backups import BackupManager
from desktop_app.memory.cases import Cases
from desktop_app.memory.changes import ChangeLog, ChangeRecorder
from desktop_app.memory.conversations import Conversations
from desktop_app.memory.document_delete import DocumentDeletion
from desktop_app.memory.documents import DocumentLibrary
from desktop_app.memory.documents_repository import DocumentsRepository
from desktop_app.memory.editing import NoteEditor
from desktop_app.memory.embedder import Embedder, default_embedder
from desktop_app.memory.evidence_list import EvidenceEntry, rows_for
from desktop_app.memory.evidence_order import EvidenceOrder
from desktop_app.memory.forgetting import CaseContents, ForgetReport, Forgetting
from desktop_app.memory.graph import GraphBuilder
from desktop_app.memory.index import NoteIndex
from desktop_app.memory.index_sync import IndexSync, ProgressCallback
from desktop_app.memory.ingest import Ingestion
from desktop_app.memory.input_checks import check_created_at, check_items
from desktop_app.memory.job_runner import JobRunner
from desktop_app.memory.job_steps import JobReport, JobSteps
from desktop_app.memory.jobs import ENRICH, JobCounts, JobQueue
from desktop_app.memory.maintenance_proposals import MaintenanceProposals
from desktop_app.memory.notes_repository import NotesRepository
from desktop_app.memory.passage_index import PASSAGES_TABLE, PassageIndexSync
from desktop_app.memory.prefetch import Planned, Prefetch, unguarded
from desktop_app.memory.ranking import FusionParams
from desktop_app.memory.search import Search
from desktop_app.memory.store import Store
from desktop_app.memory.text import without_surrogates
from desktop_app.memory.types import (
    AddResult,
    Case,
    Conflict,
    Conversation,
    Document,
    EngineStats,
    Graph,
    HistoryEntry,
    Hit,
    Link,
    MaintenanceChoice,
    MaintenanceOutcome,
    MaintenanceProposal,
    MemoryConfig,
    Message,
    Note,
    Passage,
    PassageHit,
    Recall,
)

log = logging.getLogger(__name__)

DB_FILE = "lexmem.sqlite3"
#: passages injected into one chat reply beside the notes (MemoryConfig.extra["max_passages"])
MAX_RECALLED_PASSAGES = 3
INDEX_DIR = "index"


def _refuse_lost_database(data_dir: Path) -> None:
    """A missing or emptied database beside an existing index, WAL or backups is damage,
    not a new start: opening it would create an empty database and silently wipe the
    index.  Refuse, and let the app offer the newest backup."""
    db = data_dir / DB_FILE
    if db.is_file() and db.stat().st_size > 0:
        return
    wal = db.with_name(db.name + "-wal")
    backups = list_backups(data_dir)
    index_table = (data_dir / INDEX_DIR / "notes.lance").exists()
    if not (backups or index_table or (wal.is_file() and wal.stat().st_size > 0)):
        return  # a new data folder
    what = "missing" if not db.exists() else "empty"
    hint = (
        ""
        if backups
        else "\n没有可用的备份：若要重新开始，请先把这个文件夹移走。 / "
        "There is no backup: to start over, move this folder away first."
    )
    raise MissingDatabaseError(
        f"{db} is {what} but this folder holds "
        f"{'backups ' if backups else ''}{'an index' if index_table else ''}",
        user_message=MissingDatabaseError.default_user_message + hint,
    )


class MemoryEngine:
    """Open with :meth:`open`; thread-safe; close with :meth:`close` (or use ``with``)."""

    def __init__(
        self,
        data_dir: Path,
        store: Store,
        index: NoteIndex,
        embedder: Embedder,
        config: MemoryConfig,
        llm: Any | None,
    ) -> None:
        self.data_dir = data_dir
        self.config = config
        self.llm = llm
        self.fusion = FusionParams()
        self._store = store
        self._index = index
        self._embedder = embedder
        self._closed = False
        self._lock: FolderLock | None = None
        self._prefetch: Prefetch | None = None
        self._runner: JobRunner | None = None
        self._backups: BackupManager | None = None
        self._changes = ChangeRecorder()
        self._jobs = JobQueue(store)
        self._notes = NotesRepository(store)
        self._index_sync = IndexSync(store, self._notes, index, embedder)
        self._cases = Cases(store, self._changes)
        self._conversations = Conversations(store, self._cases, self._jobs, self._changes)
        self._ingestion = Ingestion(
            store,
            self._notes,
            self._cases,
            self._index_sync,
            index,
            self._jobs,
            lambda: self.config,
            self._changes,
        )
        self._editor = NoteEditor(store, self._notes, self._index_sync, self._changes)
        self._search = Search(
            self._notes, index, self._index_sync, embedder, lambda: self.config, lambda: self.fusion
        )
        self._graph = GraphBuilder(store, self._notes)
        self._maintenance = MaintenanceProposals(store, self._notes, index)
        self._steps = JobSteps(
            self,
            self._jobs,
            store,
            lambda items, also: self._ingestion.add_notes(items, None, False, also),
        )
        self._forgetting = Forgetting(
            data_dir,
            store,
            self._notes,
            self._cases,
            self._index_sync,
            self._changes,
            lambda: self.backups.lock,
        )
        self._documents_repo = DocumentsRepository(store)
        self._evidence = EvidenceOrder(store, self._notes, self._documents_repo.names)
        self._passage_sync: PassageIndexSync | None = None
        self._documents: DocumentLibrary | None = None
        #: the passages' index opens on first use, from whichever thread asks first
        self._documents_lock = threading.Lock()

    # ==================================================================== life cycle

    @classmethod
    def open(
        cls,
        data_dir: str | os.PathLike[str],
        llm: Any | None = None,
        embedder: Embedder | None = None,
        config: MemoryConfig | None = None,
        progress: ProgressCallback | None = None,
        *,
        read_only: bool = False,
    ) -> MemoryEngine:
        """Open (or create) the data folder.  O(1) in the number of notes when the index is
        in step; rebuilds or re-embeds (reporting ``progress``) only when it is not.

        A writer takes the folder's writer lock: a second writer (another process, or the
        app while a CLI restore runs) gets DataFolderLockedError.  ``read_only=True`` takes
        no lock, never writes and never repairs the index: a search or an export beside the
        running app."""
        data_dir = Path(data_dir)
        embedder = embedder or default_embedder()
        # the model loads (~0.6 s) while the database and the index open (lancedb's import
        # alone is ~1 s): a new process's first search does not wait for both in turn
        load_in_background = getattr(embedder, "load_in_background", None)
        if load_in_background is not None:
            load_in_background()
        if read_only:
            return cls._open_read_only(data_dir, llm, embedder, config)
        # case files are confidential: everything written from here on is owner-only, and
        # a folder that is shared or someone else's is refused, not changed
        use_private_umask()
        ensure_private_dir(data_dir)
        lock = FolderLock(data_dir).acquire()
        try:
            engine = cls._open_writer(data_dir, llm, embedder, config, progress)
        except BaseException:
            lock.release()
            raise
        engine._lock = lock
        _freeze_what_lives_on()
        return engine

    @classmethod
    def _open_writer(
        cls,
        data_dir: Path,
        llm: Any | None,
        embedder: Embedder,
        config: MemoryConfig | None,
        progress: ProgressCallback | None,
    ) -> MemoryEngine:
        db_file = data_dir / DB_FILE
        _refuse_lost_database(data_dir)
        # full copies of the database a crash left behind (mid-backup, -restore, -purge)
        for stale in remove_stale_temp_copies(data_dir):
            log.info("removed a temporary copy left by an interrupted operation: %s", stale.name)
        make_tree_private(data_dir)  # files an older version wrote readable by others
        store = Store(db_file)
        try:
            index = NoteIndex(data_dir / INDEX_DIR, embedder.dim)
            engine = cls(data_dir, store, index, embedder, config or MemoryConfig(), llm)
            engine._index_sync.reconcile(progress)
            index.on_write = engine._index_sync.record_version
            index.start_upkeep()  # after on_write: every version it writes is recorded
            engine._jobs.recover_interrupted()  # jobs a crash left "running" run again
            engine._forgetting.resume(progress)  # forgets a crash interrupted finish now
            engine._open_documents(progress)
            engine._resume_document_deletes(progress)
        except BaseException:
            store.close_quietly()
            raise
        engine._prefetch = Prefetch(engine._prefetch_plan).start()
        return engine

    def _prefetch_plan(self) -> Iterator[Planned]:
        """The database, then the notes' and the passages' index files (prefetch.py)."""
        yield self.data_dir / DB_FILE, unguarded
        yield from self._index.prefetch_plan()
        if self._passage_sync is not None:
            yield from self._passage_sync.index.prefetch_plan()

    @property
    def prefetch(self) -> Prefetch | None:
        """The cache warm-up started by the open (None for a read-only engine)."""
        return self._prefetch

    @classmethod
    def _open_read_only(
        cls,
        data_dir: Path,
        llm: Any | None,
        embedder: Embedder,
        config: MemoryConfig | None,
    ) -> MemoryEngine:
        db_file = data_dir / DB_FILE
        if not db_file.is_file() or db_file.stat().st_size == 0:
            raise StorageError(
                f"{db_file}: no database to read",
                user_message=f"这个文件夹里没有律记的数据：{data_dir} / No LexMem data in {data_dir}",
            )
        store = Store(db_file, read_only=True)
        index = NoteIndex(data_dir / INDEX_DIR, embedder.dim, read_only=True)
        return cls(data_dir, store, index, embedder, config or MemoryConfig(), llm)

    @property
    def read_only(self) -> bool:
        return self._store.read_only

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._prefetch is not None:
            self._prefetch.stop()
        self.stop_background_work()
        try:
            try:
                self._index.close()  # stops the background upkeep, then compacts
            except Exception:
                log.warning("index upkeep at close failed", exc_info=True)
            if self._passage_sync is not None:
                try:
                    self._passage_sync.index.close()
                except Exception:
                    log.warning("passage index upkeep at close failed", exc_info=True)
            self._store.close()
        finally:
            if self._lock is not None:
                self._lock.release()

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def embedder(self) -> Embedder:
        return self._embedder

    @property
    def embedder_id(self) -> str:
        return self._embedder.id

    def set_config(self, config: MemoryConfig) -> None:
        """Apply new memory parameters (Settings) without reopening."""
        self.config = config

    def set_llm(self, llm: Any | None) -> None:
        """Switch the LLM (settings changed); pending jobs run with the new one."""
        self.llm = llm
        if llm is not None:
            self._jobs.retry_now()
            self.kick_jobs()

    # ======================================================= what changed, background work

    @contextmanager
    def recording(self) -> Iterator[ChangeLog]:
        """Collect what the operations run on this thread inside the block change:
        ``with engine.recording() as log: ...`` then ``log.changes`` (a Changes value)."""
        with self._changes.recording() as change_log:
            yield change_log

    @property
    def backups(self) -> BackupManager:
        """The backups of this data folder: snapshots on a schedule, restore, forget."""
        if self._backups is None:
            self._backups = BackupManager(self)
        return self._backups

    def start_background_work(
        self,
        on_jobs: Callable[[JobReport], None] | None = None,
        *,
        jobs_interval: float | None = None,
        backups: bool = True,
        first_backup_check_after: float = 5.0,
    ) -> None:
        """Start the job runner (and the backup schedule) in their own threads.  ``on_jobs``
        hears each round's report, from the runner's thread."""
        if self.read_only:
            return
        if self._runner is None:
            kwargs = {} if jobs_interval is None else {"interval": jobs_interval}
            self._runner = JobRunner(
                lambda n: self.run_pending_jobs(max_jobs=n), on_report=on_jobs, **kwargs
            )
        self._runner.start()
        if backups:
            self.backups.start(first_backup_check_after)

    def stop_background_work(self) -> None:
        if self._runner is not None:
            self._runner.stop()
            self._runner = None
        if self._backups is not None:
            self._backups.stop()

    def kick_jobs(self) -> None:
        """New work was queued: the runner (if started) looks at the queue now."""
        if self._runner is not None:
            self._runner.kick()

    # ===================================================================== index upkeep

    def rebuild_index(self, progress: ProgressCallback | None = None) -> int:
        """Recreate the index from SQLite (re-embedding every note); returns the row count."""
        return self._index_sync.rebuild(progress)

    def optimize(self) -> None:
        """Bring the index fully up to date now (the background upkeep otherwise does it
        within seconds of a write)."""
        self._index_sync.optimize()
        if self._passage_sync is not None:
            self._passage_sync.index.optimize()

    def wait_for_index_upkeep(self, timeout: float | None = None, *, flush: bool = True) -> bool:
        """Block until the background index upkeep is idle (tests, benchmarks); False if
        ``timeout`` seconds passed first.  ``flush``: also fold in the last few writes, which
        the upkeep otherwise leaves for its idle round."""
        done = self._index.wait_for_upkeep(timeout, flush=flush)
        if self._passage_sync is not None:  # the passages' table, when documents exist
            done = self._passage_sync.index.wait_for_upkeep(timeout, flush=flush) and done
        return done

    # ========================================================================== cases

    def create_case(self, name: str, description: str = "") -> Case:
        return self._cases.create(name, description)

    def list_cases(self, include_archived: bool = False) -> list[Case]:
        return self._cases.list(include_archived)

    def get_case(self, case_id: str) -> Case:
        return self._cases.get(case_id)

    def rename_case(self, case_id: str, name: str, description: str | None = None) -> Case:
        return self._cases.rename(case_id, name, description)

    def archive_case(self, case_id: str, archived: bool = True) -> Case:
        return self._cases.archive(case_id, archived)

    # ========================================================================= adding

    def add_note(
        self,
        content: str,
        case_id: str | None = None,
        category: str | None = None,
        created_at: datetime | None = None,
        source: str | None = None,
        pinned: bool = False,
        tags: Iterable[str] | None = None,
        wait: bool = False,
        *,
        event_date: str | None = None,
        source_kind: str | None = None,
        origin: str | None = None,
    ) -> AddResult:
        """Add one note (see :meth:`add_notes`, which this calls with a batch of one).

        The note is stored at once (offline construction: keywords, category, the event
        date its text names, a guessed source).  ``created_at`` is when it was written (a
        naive time is local); ``event_date`` when the fact happened ("2024-07-15", also
        "2024年7月15日"); ``source_kind`` one of SOURCE_KINDS; ``origin`` message / manual /
        import (default: from ``source``).  With an LLM configured, the agentic steps
        (construction, then decision and evolution) are queued as a durable job;
        ``wait=True`` runs that job now and returns its outcome (see AddResult.action),
        falling back to the stored note if the LLM fails (the job then stays queued)."""
        item = {
            "content": content,
            "case_id": case_id,
            "category": category,
            "created_at": check_created_at(created_at),
            "source": source,
            "pinned": pinned,
            "tags": tags,
            "event_date": event_date,
            "source_kind": source_kind,
            "origin": origin,
        }
        enrich = self.llm is not None
        result = self._ingestion.add_notes([item], None, enrich)[0]
        if enrich and result.action == "added":
            if wait:
                upgraded = self._steps.run_inline(f"{ENRICH}:{result.note.id}")
                if upgraded is not None:
                    return upgraded
            self.kick_jobs()
        return result

    def add_notes(
        self,
        items: Iterable[dict[str, Any]],
        progress: ProgressCallback | None = None,
        enrich: bool | None = None,
    ) -> list[AddResult]:
        """Add many notes: embedded in batches, written in ONE SQLite transaction (all or
        nothing) and one index write.  Each result says what happened to its item.

        ``enrich`` queues the agentic steps for each new note (default: when an LLM is
        configured); the jobs are part of the same transaction."""
        enrich = self.llm is not None if enrich is None else enrich
        results = self._ingestion.add_notes(check_items(items), progress, enrich)
        if enrich and any(r.action == "added" for r in results):
            self.kick_jobs()
        return results

    # ======================================================================== reading

    def get_note(self, note_id: str) -> Note:
        return self._notes.get(note_id)

    def notes_by_ids(self, note_ids: Sequence[str]) -> list[Note]:
        """The notes that still exist, in the order given."""
        return self._notes.by_ids(list(note_ids))

    def list_notes(
        self,
        case_id: str | None,
        include_global: bool = False,
        status: str | None = None,
        category: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        order_by: str = "created_at",
        descending: bool = False,
        conflicted: bool = False,
    ) -> list[Note]:
        """The notes of a scope; ``order_by="event_date"`` orders by when the facts
        happened (a note naming no date at the day it was recorded); ``conflicted`` keeps
        only the notes in an open conflict."""
        return self._notes.list(
            case_id,
            include_global,
            status,
            category,
            limit,
            offset,
            order_by,
            descending,
            conflicted,
        )

    def count_notes(
        self,
        case_id: str | None,
        include_global: bool = False,
        status: str | None = None,
        category: str | None = None,
        conflicted: bool = False,
    ) -> int:
        return self._notes.count(case_id, include_global, status, category, conflicted)

    def open_conflicts(self, case_id: str | None, include_global: bool = False) -> list[Conflict]:
        """The conflicts nobody settled yet: two active notes that contradict each other
        (from different sources), oldest first."""
        conflicts = []
        for link in self._notes.open_conflict_links(case_id, include_global):
            first, second = self._notes.by_ids([link.src, link.dst])
            conflicts.append(Conflict(first, second, link.reason, link.created_at))
        return conflicts

    def links_of(self, note_id: str) -> list[Link]:
        return self._notes.links_of(note_id)

    def note_history(self, note_id: str) -> list[HistoryEntry]:
        return self._notes.history(note_id)

    # ======================================================================== editing

    def update_note(
        self,
        note_id: str,
        *,
        content: str | None = None,
        category: str | None = None,
        tags: Iterable[str] | None = None,
        pinned: bool | None = None,
        context: str | None = None,
        keywords: Iterable[str] | None = None,
        event_date: str | None = None,
        source_kind: str | None = None,
        actor: str = "user",
        reason: str = "",
        derived_from: str | None = None,
    ) -> Note:
        """Edit a note; the text fields are re-embedded at once, and a history row is kept.
        ``event_date`` / ``source_kind``: ``""`` clears them, None leaves them.
        ``derived_from``: the note a model-made change came from (evolution after a new
        note); forgetting that note rolls the change back."""
        return self._editor.update(
            note_id,
            content=content,
            category=category,
            tags=tags,
            pinned=pinned,
            context=context,
            keywords=keywords,
            event_date=event_date,
            source_kind=source_kind,
            actor=actor,
            reason=reason,
            derived_from=derived_from,
        )

    def expire_note(self, note_id: str, reason: str = "") -> Note:
        """Mark a note no longer valid (kept for history, never recalled)."""
        return self._editor.expire(note_id, reason)

    def archive_note(self, note_id: str, reason: str = "") -> Note:
        """Put a note aside (status archived, kept with its history, never recalled)."""
        return self._editor.set_status(note_id, "archived", "user", "archived", reason)

    def restore_note(self, note_id: str, reason: str = "") -> Note:
        return self._editor.restore(note_id, reason)

    def pin_note(self, note_id: str, pinned: bool = True) -> Note:
        return self._editor.update(note_id, pinned=pinned)

    def supersede_note(
        self, old_id: str, new_id: str, actor: str = "decision", reason: str = ""
    ) -> Note:
        """``new_id`` replaces ``old_id``: the old one gets invalid_at and a supersedes link."""
        return self._editor.supersede(old_id, new_id, actor, reason)

    def undo_last_change(self, note_id: str) -> Note:
        """Restore the state before the latest change that has not been undone yet."""
        return self._editor.undo_last_change(note_id)

    def merge_notes(self, keep_id: str, other_id: str, merged_text: str | None = None) -> Note:
        """Fold ``other`` into ``keep``: the kept note holds ``merged_text`` (None: its own
        text and what the other adds), the other's tags and links; the other is marked
        replaced by the merge (kept with its history, reachable from the kept note's).
        One transaction; the kept note is re-embedded at once."""
        return self._editor.merge(keep_id, [other_id], merged_text)

    def merge_group(
        self, keep_id: str, other_ids: Sequence[str], merged_text: str | None = None
    ) -> Note:
        """:meth:`merge_notes` for several notes at once (a group of near-duplicates)."""
        return self._editor.merge(keep_id, list(other_ids), merged_text)

    def link_notes(
        self,
        src: str,
        dst: str,
        kind: str = "manual",
        strength: float = 1.0,
        reason: str = "",
        label: str | None = None,
    ) -> None:
        """Link two notes of one scope; ``label`` is the relation the lawyer reads (one of
        LINK_TYPES: 证明 / 适用 / 矛盾 / 补充 / 取代 / 相关)."""
        self._editor.link(src, dst, kind, strength, reason, label)

    def set_link_type(self, a: str, b: str, label: str) -> int:
        """Set the relation shown on the links between two notes; returns the rows changed."""
        return self._editor.set_link_type(a, b, label)

    def resolve_conflict(self, note_id: str, other_id: str, keep: str) -> list[Note]:
        """Settle a conflict by hand: ``keep="both"`` keeps both notes (settled), or the id
        of the note that is right (the other is expired, kept in history)."""
        return self._editor.resolve_conflict(note_id, other_id, keep)

    def unlink_notes(self, src: str, dst: str, kind: str | None = None) -> int:
        return self._editor.unlink(src, dst, kind)

    def delete_note(self, note_id: str) -> None:
        """Truly delete: the row, its history and links, its index rows and every old index
        version; SQLite pages are zeroed (secure_delete) and the WAL truncated.  The backups
        keep it: :meth:`forget_note` is the user's "forget", which reaches them too."""
        self._editor.delete(note_id)

    # ======================================================================== forget

    def forget_note(self, note_id: str, progress: ProgressCallback | None = None) -> ForgetReport:
        """Forget a note everywhere: what the model derived from it in other notes is
        rolled back, the note goes from the live data, the index (every version), every
        backup and temporary copy; ``complete`` only when a scan of every file of the data
        folder finds none of its distinctive terms.  Interrupted, it finishes at the next
        open."""
        return self._forgetting.forget_note(note_id, progress)

    def case_contents(self, case_id: str) -> CaseContents:
        """What :meth:`delete_case` would remove (the confirmation names it)."""
        return self._forgetting.case_contents(case_id)

    def delete_case(self, case_id: str, progress: ProgressCallback | None = None) -> ForgetReport:
        """Delete a case with everything in it — notes, history, links, conversations,
        messages, jobs, graph positions — from the live data, the index and every backup,
        with the same proof as :meth:`forget_note`."""
        if self._documents_repo.in_case(case_id, False):
            # the case's files and passages first, each with its purge (index, backups)
            for doc in self.list_documents(case_id):
                self.delete_document(doc.id)
        return self._forgetting.delete_case(case_id, progress)

    @property
    def resumed_forgets(self) -> list[ForgetReport]:
        """The forgets an earlier crash interrupted, finished when this engine opened."""
        return list(self._forgetting.resumed)

    def mark_reused(self, note_id: str) -> None:
        """A known fact came up again: it counts as retrieved and moves up."""
        self._editor.mark_reused(note_id)

    # ======================================================================== evidence list

    def evidence_list(self, case_id: str) -> list[EvidenceEntry]:
        """The case's evidence (active 证据 notes) in the order the lawyer arranged it, each
        with the name, purpose and source its 证据目录 row shows."""
        self._cases.get(case_id)
        return self._evidence.entries(self._evidence.evidence_notes(case_id))

    def set_evidence_order(self, case_id: str, note_ids: Sequence[str]) -> list[EvidenceEntry]:
        """Keep ``note_ids`` (evidence notes of this case) as the case's evidence order."""
        self._cases.get(case_id)
        return self._evidence.entries(self._evidence.set_order(case_id, note_ids))

    def export_evidence_list(
        self, path: str | os.PathLike[str], case_id: str, *, english: bool = False
    ) -> int:
        """Write the case's 证据目录 as a Word file (English headings when ``english``), in
        the stored order; returns the number of rows."""
        from desktop_app.memory.evidence_docx import write_evidence_docx

        case = self._cases.get(case_id)
        rows = rows_for(self.evidence_list(case_id), english)
        write_evidence_docx(path, case.name, rows, english=english)
        return len(rows)

    # ======================================================================== search

    def search(
        self,
        query: str,
        case_id: str | None = None,
        k: int = 5,
        include_inactive: bool = False,
    ) -> list[Hit]:
        """Hybrid search within ``case_id`` plus the global notes — never another case
        (see Search.search for the ranking).  While the index is broken it reads SQLite."""
        query = without_surrogates(query) if isinstance(query, str) else ""
        return self._search.search(query, case_id, k, include_inactive)

    def find_notes(
        self,
        query: str,
        case_id: str | None,
        *,
        include_global: bool = True,
        status: str | None = "active",
        category: str | None = None,
        limit: int = 200,
    ) -> list[Hit]:
        """The memory search: notes of the case (and the global ones if asked) relevant to
        ``query``, most relevant first, filtered by status and category; [] when nothing is
        relevant (see Search.find)."""
        hits = self._search.find(query, case_id, include_inactive=status != "active", limit=limit)
        return [
            h
            for h in hits
            if (status is None or h.note.status == status)
            and (category is None or h.note.category == category)
            and (include_global or h.note.case_id == case_id)
        ]

    def recall_for_chat(self, query: str, case_id: str | None) -> Recall:
        """The memories injected into one chat reply (see Search.recall); the chat layer
        words them for the model."""
        recall = self._search.recall(query, case_id)
        return replace(recall, passages=tuple(self._recalled_passages(query, case_id)))

    def _recalled_passages(self, query: str, case_id: str | None) -> list[PassageHit]:
        """The case's passages close enough to inject beside the notes (at most
        ``max_passages``; the same threshold as notes)."""
        if case_id is None or not self._case_has_passages(case_id):
            return []
        cfg = self.config
        limit = int(cfg.extra.get("max_passages", MAX_RECALLED_PASSAGES))
        chosen = []
        # the query's vector from the notes' search just before: embedded once per recall
        found = self.documents.search(
            query, case_id, k=limit * 2, query_vector=self._search.query_vector(query)
        )
        for hit, sim, text_rank in found:
            words_match = text_rank is not None and text_rank <= 3
            if sim >= cfg.recall_threshold or (words_match and sim >= cfg.recall_threshold / 2):
                chosen.append(hit)
            if len(chosen) >= limit:
                break
        return chosen

    def _case_has_passages(self, case_id: str) -> bool:
        row = self._store.query_one("SELECT 1 FROM passages WHERE case_id = ? LIMIT 1", (case_id,))
        return row is not None

    def neighbours_of(self, note: Note, k: int | None = None) -> list[Note]:
        """The nearest active notes of the note's own scope, best first."""
        return self._search.neighbours_of(note, k or self.config.neighbours)

    # ============================================================ knowledge and jobs

    def ingest_turn(
        self,
        user_text: str,
        assistant_text: str,
        case_id: str | None = None,
        conversation_id: str | None = None,
        message_time: datetime | None = None,
        source: str | None = None,
        wait: bool = False,
        message_id: str | None = None,
    ) -> list[AddResult]:
        """Queue knowledge extraction for one chat turn (a durable job; the chat never
        waits).  ``wait=True`` runs it now, then enriches each new note, and returns the
        results; otherwise (or if the LLM is unavailable) it returns [] and the job runner
        takes it.  Small talk yields nothing.  ``message_id``: the stored reply, which keeps
        the ids of the notes learned (Message.learned_note_ids) once the job has run."""
        results = self._steps.ingest_turn(
            user_text, assistant_text, case_id, conversation_id, message_time, source, wait,
            message_id,
        )
        self._changes.jobs_changed()
        if not wait or self.llm is None:
            self.kick_jobs()
        return results

    def run_pending_jobs(self, max_jobs: int | None = None) -> JobReport:
        """Run the due LLM jobs now, in this thread (the job runner calls this)."""
        with self.recording() as change_log:
            report = self._steps.run_pending(max_jobs)
            if report.anything_happened:
                self._changes.jobs_changed()
        return replace(report, changes=change_log.changes)

    def job_counts(self) -> JobCounts:
        return self._jobs.counts()

    def pending_jobs(self) -> int:
        counts = self._jobs.counts()
        return counts.pending + counts.running

    def retry_jobs_now(self) -> int:
        """Make waiting jobs due immediately (e.g. after the user fixed the API key)."""
        count = self._jobs.retry_now()
        self.kick_jobs()
        return count

    # ============================================================== memory check-up

    def run_maintenance(self, case_id: str, now: datetime | None = None) -> MaintenanceProposal:
        """Check one case (stale orphans, near-duplicates, possible updates, passed
        events) and store the proposal; nothing in the memory changes until the lawyer
        accepts an item.  Synchronous: callers run it off the UI thread."""
        self.get_case(case_id)  # CaseNotFoundError for an unknown case
        proposal = self._maintenance.run(case_id, self.config, now)
        self._changes.maintenance_changed(case_id)
        return proposal

    def maintenance_proposal(self, case_id: str) -> MaintenanceProposal:
        """The open items of the case's last check-up (no new check)."""
        return self._maintenance.proposal(case_id)

    def maintenance_waiting(self, case_id: str | None = None) -> int:
        """How many proposed items wait for a decision (in one case, or in all)."""
        return self._maintenance.open_count(case_id)

    def maintenance_due(self, case_id: str, now: datetime | None = None) -> bool:
        """Is the case's periodic check-up due (enabled, and not run for a period)?"""
        if not self.config.maintenance_enabled:
            return False
        last = self._maintenance.last_run(case_id)
        now = now or datetime.now(UTC)
        return last is None or (now - last) >= timedelta(days=self.config.maintenance_period_days)

    def accept_maintenance(
        self,
        item_ids: Sequence[str],
        choices: Mapping[str, MaintenanceChoice] | None = None,
    ) -> MaintenanceOutcome:
        """Apply proposed items (archive, merge, supersede, expire, settle — each with
        history); an item whose notes changed since the proposal is skipped, not applied.
        ``choices``: the lawyer's decision per item id — for a duplicate group the note to
        keep and the merged text (the merge dialog), for a conflict the note that holds or
        ``"both"``; a conflict without one stays open (``outcome.undecided``)."""
        outcome = self._maintenance.accept(self, item_ids, choices)
        self._changes.maintenance_changed(None)
        return outcome

    def dismiss_maintenance(self, item_ids: Sequence[str]) -> int:
        """Dismissed items are not proposed again unless one of their notes changes."""
        count = self._maintenance.dismiss(item_ids)
        self._changes.maintenance_changed(None)
        return count

    # ========================================================================= graph

    def graph(self, case_id: str | None, include_global: bool = False) -> Graph:
        return self._graph.graph(case_id, include_global)

    def graph_positions(self, case_id: str | None) -> dict[str, tuple[float, float]]:
        return self._graph.positions(case_id)

    def save_graph_positions(
        self, case_id: str | None, positions: dict[str, tuple[float, float]]
    ) -> None:
        self._graph.save_positions(case_id, positions)

    # ================================================================= conversations

    def create_conversation(self, case_id: str | None, title: str = "") -> Conversation:
        return self._conversations.create(case_id, title)

    def get_conversation(self, conversation_id: str) -> Conversation:
        return self._conversations.get(conversation_id)

    def list_conversations(self, case_id: str | None, query: str = "") -> list[Conversation]:
        return self._conversations.list(case_id, query)

    def rename_conversation(self, conversation_id: str, title: str) -> Conversation:
        return self._conversations.rename(conversation_id, title)

    def set_conversation_memory(self, conversation_id: str, enabled: bool) -> Conversation:
        return self._conversations.set_memory(conversation_id, enabled)

    def delete_conversation(self, conversation_id: str) -> None:
        self._conversations.delete(conversation_id)

    def add_message(
        self,
        conversation_id: str,
        role: str,
        content: str,
        injected_note_ids: Sequence[str] = (),
        status: str = "complete",
        passage_ids: Sequence[str] = (),
    ) -> Message:
        """``status``: how a reply ended — complete, stopped, truncated or interrupted;
        ``passage_ids``: the document passages the reply was given to cite."""
        return self._conversations.add_message(
            conversation_id, role, content, injected_note_ids, status, passage_ids
        )

    def passages_by_ids(self, passage_ids: Sequence[str]) -> list[PassageHit]:
        """The passages that still exist, in the order given, each with its document's
        name (a reply's citations, shown again when its conversation is reopened)."""
        order = {pid: i for i, pid in enumerate(passage_ids)}
        passages = sorted(self._documents_repo.by_ids(list(order)), key=lambda p: order[p.id])
        names = self._documents_repo.names([p.document_id for p in passages])
        return [PassageHit(p, names.get(p.document_id, ""), 0.0) for p in passages]

    def delete_message(self, message_id: str) -> None:
        """Remove one message (Retry replaces the last reply)."""
        self._conversations.delete_message(message_id)

    def record_learned(self, message_id: str, note_ids: Sequence[str]) -> bool:
        """Keep with a reply the notes learned from its turn (False: the reply is gone)."""
        return self._conversations.record_learned(message_id, note_ids)

    def list_messages(self, conversation_id: str) -> list[Message]:
        return self._conversations.messages(conversation_id)

    # ================================================================ case documents

    def _open_documents(self, progress: ProgressCallback | None) -> None:
        """At open: remove copies no document names (an import or delete a crash cut off)
        and bring the passages' index in step — skipped (O(1)) while no document exists."""
        folder = self.data_dir / INDEX_DIR / f"{PASSAGES_TABLE}.lance"
        repo = self._documents_repo
        if repo.total_passages() or repo.tombstones() or folder.exists():
            self.documents.sweep_files()
            self._passages().reconcile(progress)
        elif (self.data_dir / "documents").exists():
            self.documents.sweep_files()

    def _passages(self) -> PassageIndexSync:
        """The passages' index, opened on first use (a folder without documents never
        opens it)."""
        with self._documents_lock:
            return self._passages_locked()

    def _passages_locked(self) -> PassageIndexSync:
        if self._passage_sync is None:
            index = NoteIndex(
                self.data_dir / INDEX_DIR,
                self._embedder.dim,
                read_only=self.read_only,
                table=PASSAGES_TABLE,
            )
            self._passage_sync = PassageIndexSync(
                self._store, self._documents_repo, index, self._embedder
            )
            index.start_upkeep()
        return self._passage_sync

    @property
    def documents(self) -> DocumentLibrary:
        """The case documents (engine internals: callers use the methods below)."""
        sync = self._passages()
        with self._documents_lock:
            if self._documents is None:
                self._documents = DocumentLibrary(
                    self.data_dir,
                    self._store,
                    self._documents_repo,
                    self._cases,
                    sync,
                    self._jobs,
                    lambda: self.llm is not None,
                )
            return self._documents

    def import_document(
        self,
        case_id: str,
        path: str | os.PathLike[str],
        *,
        progress: Callable[[int, int, str], None] | None = None,
        cancel: Callable[[], bool] | None = None,
    ) -> Document:
        """Import a file into a case: the original copied into the data folder, its text
        split into passages (page kept), embedded and indexed; knowledge extraction queued
        (it runs when a model is configured).  All or nothing: a failure or a cancel keeps
        no row, no passage, no copy.  DocumentImportError(.reason) for bad files."""
        doc = self.documents.import_document(case_id, Path(path), progress, cancel)
        self._changes.jobs_changed()
        self.kick_jobs()
        return doc

    def list_documents(self, case_id: str) -> list[Document]:
        return self.documents.list(case_id)

    def get_document(self, document_id: str) -> Document:
        return self.documents.get(document_id)

    def document_file(self, document_id: str) -> Path:
        """The stored copy of the document (read it; never write it)."""
        return self.documents.file_of(document_id)

    def passages_of(self, document_id: str, page: int | None = None) -> list[Passage]:
        return self.documents.passages_of(document_id, page)

    def get_passage(self, passage_id: str) -> Passage:
        return self.documents.get_passage(passage_id)

    def search_passages(self, query: str, case_id: str, k: int = 10) -> list[PassageHit]:
        """The case's passages relevant to ``query``, best first — never another case's."""
        query = without_surrogates(query) if isinstance(query, str) else ""
        return [hit for hit, _sim, _rank in self.documents.search(query, case_id, k)]

    def notes_from_document(self, document_id: str) -> list[Note]:
        """The active notes whose source is a page of this document."""
        self.documents.file_of(document_id)  # DocumentNotFoundError for an unknown id
        return self._notes.by_ids(self._documents_repo.derived_note_ids(document_id))

    def delete_document(
        self,
        document_id: str,
        purge_note_ids: Sequence[str] = (),
        progress: ProgressCallback | None = None,
    ) -> ForgetReport:
        """Delete the document: its copy, its passages (SQLite, index, backups) and the
        derived notes listed (forgotten like :meth:`forget_note`); the report's
        ``complete`` says a scan of every file found none of its distinctive terms."""
        deletion = self._document_deletion()
        report = deletion.delete(document_id, purge_note_ids, progress)
        self._changes.jobs_changed()
        return report

    def _document_deletion(self) -> DocumentDeletion:
        return DocumentDeletion(
            self.data_dir,
            self._store,
            self._documents_repo,
            self.documents,
            self._passages(),
            lambda note_id: self.forget_note(note_id),
            lambda term, excluded: self._notes.any_content_holds(term, excluded),
            lambda: self.backups.lock,
            self._forgetting,
        )

    def _resume_document_deletes(self, progress: ProgressCallback | None) -> None:
        """Finish the document deletes a crash cut off (their copies and index rows went at
        :meth:`_open_documents`; the chosen notes, the backups and the proof remain)."""
        if not any(p.kind == "document" for p in self._forgetting.pending()):
            return  # the passages' index stays unopened
        self._forgetting.resumed += self._document_deletion().resume(progress)
        self._changes.jobs_changed()

    def page_size(self, document_id: str, page: int) -> tuple[float, float] | None:
        """(width, height) of a page in the units of its passages' boxes (PDF points, or
        an image's pixels); None for docx/text or a page out of range."""
        from desktop_app.memory.page_geometry import page_size

        doc = self.documents.get(document_id)
        path = self._stored_copy(document_id)
        return None if path is None else page_size(path, doc.kind, page)

    def render_page(self, document_id: str, page: int, width_px: int) -> bytes | None:
        """A PNG of one page (pdf: rendered; image: scaled); None for docx/text."""
        from desktop_app.memory.readers.render import render_page

        doc = self.documents.get(document_id)
        path = self._stored_copy(document_id)
        return None if path is None else render_page(path, doc.kind, page, width_px)

    def _stored_copy(self, document_id: str) -> Path | None:
        """The document's stored copy, or None when it is missing (an older backup restored,
        a file removed by hand): the row stays listed, readable as text, and deletable."""
        path = self.documents.file_of(document_id)
        if path.is_file():
            return path
        log.warning("the stored copy of document %s is missing", document_id)
        return None

    # ================================================================ import / export

    def import_jsonl(
        self, path: str | os.PathLike[str], case_id: str | None = None
    ) -> list[AddResult]:
        """Load notes from JSON Lines, all or nothing.  An optional first line
        ``{"case": {"name": ..., "description": ...}}`` creates the case when ``case_id`` is
        not given.  A bad line raises InvalidInputError naming its line number."""
        from desktop_app.memory.io import import_jsonl

        return import_jsonl(Path(path), case_id, self._cases, self.add_notes)

    def export_jsonl(self, path: str | os.PathLike[str], case_id: str | None) -> int:
        from desktop_app.memory.io import write_jsonl

        case = self.get_case(case_id) if case_id is not None else None
        return write_jsonl(Path(path), case, self.list_notes(case_id))

    def export_markdown(
        self, path: str | os.PathLike[str], case_id: str | None, language: str = "zh_CN"
    ) -> int:
        """A readable export, its own words in ``language`` ("zh_CN" or "en")."""
        from desktop_app.memory.io import write_markdown

        case = self.get_case(case_id) if case_id is not None else None
        return write_markdown(Path(path), case, self.list_notes(case_id), language)

    # ========================================================================= misc

    def backup(self, target: str | os.PathLike[str]) -> Path:
        """A consistent copy of the SQLite database (online backup API)."""
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        self._store.backup_to(target)
        return target

    def stats(self) -> EngineStats:
        return EngineStats(
            notes_total=self._notes.total(),
            notes_active=self._notes.active_total(),
            cases=self._cases.total(),
            links=self._notes.link_total(),
            pending_jobs=self.pending_jobs(),
            index_rows=self._index.count(),
            embedder_id=self._embedder.id,
        )


_frozen = False


def _freeze_what_lives_on() -> None:
    """Once per process, at the first open: every object alive now (the imported modules,
    LanceDB's and the embedder's tables, the engine) lives as long as the app, so the garbage
    collector stops walking it.  A full collection walked ~130k of them in ~120 ms, and a
    search that ran beside one took as long (bench_perf, 10k notes, right after the ingest);
    frozen, a collection took ~30 ms.  Not at every open: what a closed engine left behind
    must stay collectable."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.freeze()
