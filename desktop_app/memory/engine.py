"""MemoryEngine: the public API over SQLite (truth) and LanceDB (derived index).

Every caller — the UI, the CLI, the tests and the benchmarks — goes through this class.
The A-MEM steps (construction → decision → links → evolution) run offline here; the
agentic versions (``agentic.py``) plug in through ``llm`` and the durable jobs.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.core.errors import (
    CaseNotFoundError,
    CorruptDatabaseError,
    InvalidInputError,
    NoteNotFoundError,
    NotFoundError,
)
from desktop_app.memory import construction
from desktop_app.memory.embedder import Embedder, default_embedder
from desktop_app.memory.index import IndexRow, NoteIndex, scope_filter
from desktop_app.memory.jobs import JobCounts, JobQueue
from desktop_app.memory.pipeline import ENRICH, EXTRACT, JobReport, Pipeline
from desktop_app.memory.retrieval import (
    FusionParams,
    context_bonus,
    fuse,
    params_for_query,
    recency_decay,
)
from desktop_app.memory.store import (
    NOTE_COLUMNS,
    Store,
    from_iso,
    note_snapshot,
    row_to_case,
    row_to_conversation,
    row_to_history,
    row_to_link,
    row_to_message,
    row_to_note,
    to_iso,
    utcnow,
)
from desktop_app.memory.text import clean_content, content_hash, fts_text
from desktop_app.memory.types import (
    CATEGORIES,
    LINK_KINDS,
    NOTE_STATUSES,
    AddResult,
    Case,
    Conversation,
    EngineStats,
    Graph,
    GraphEdge,
    GraphNode,
    HistoryEntry,
    Hit,
    Link,
    MemoryConfig,
    Message,
    Note,
    Recall,
    ScoreParts,
)

log = logging.getLogger(__name__)

DB_FILE = "lexmem.sqlite3"
#: runs a search's full-text half beside its vector half (see MemoryEngine.search)
_SEARCH_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="lexmem-search")
INDEX_DIR = "index"
ProgressCallback = Callable[[int, int], None]  # (done, total)
SYMMETRIC_KINDS = frozenset({"semantic", "manual", "duplicate", "evolution"})
MEMORY_PREAMBLE = "以下是与本案相关的长程记忆，视为已知事实（若与用户新的陈述冲突，以用户为准）："


def _new_id() -> str:
    return uuid.uuid4().hex


def _epoch(value: datetime) -> float:
    return value.timestamp()


@dataclass(slots=True)
class _Pending:
    """One note on its way through the batch add path."""

    content: str
    case_id: str | None
    hash: str
    category: str | None
    created_at: datetime
    source: str | None
    pinned: bool
    tags: tuple[str, ...]
    result: AddResult | None = None
    construction: construction.Construction | None = None
    vector: np.ndarray | None = None
    note_id: str = ""


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
        self._jobs = JobQueue(store)
        self._pipeline = Pipeline(self, self._jobs)
        self._closed = False

    # ==================================================================== life cycle

    @classmethod
    def open(
        cls,
        data_dir: str | os.PathLike[str],
        llm: Any | None = None,
        embedder: Embedder | None = None,
        config: MemoryConfig | None = None,
        progress: ProgressCallback | None = None,
    ) -> MemoryEngine:
        """Open (or create) the data folder.  O(1) in the number of notes when the index is
        in step; rebuilds or re-embeds (reporting ``progress``) only when it is not."""
        data_dir = Path(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        if os.name == "posix":
            os.chmod(data_dir, 0o700)  # case files are confidential: owner only
        db_file = data_dir / DB_FILE
        if (
            db_file.exists()
            and db_file.stat().st_size == 0
            and ((data_dir / INDEX_DIR).exists() or any((data_dir / "backups").glob("*.sqlite3")))
        ):
            # An emptied database beside an existing index or backups is damage, not a new
            # start: opening it would silently wipe the index.  Offer the backups instead.
            raise CorruptDatabaseError(f"{db_file} is empty but this folder held data")
        store = Store(db_file)
        embedder = embedder or default_embedder()
        index = NoteIndex(data_dir / INDEX_DIR, embedder.dim)
        engine = cls(data_dir, store, index, embedder, config or MemoryConfig(), llm)
        engine._reconcile_index(progress)
        index.on_write = engine._record_index_version
        engine._jobs.recover_interrupted()  # jobs a crash left "running" run again
        return engine

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._index.optimize()
        except Exception:
            log.warning("index optimize at close failed", exc_info=True)
        self._store.close()

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def embedder_id(self) -> str:
        return self._embedder.id

    # ===================================================================== index upkeep

    def _reconcile_index(self, progress: ProgressCallback | None) -> None:
        stored_id = self._store.get_meta("embedder_id")
        stored_dim = self._store.get_meta("embedder_dim")
        same_embedder = stored_id == self._embedder.id and stored_dim == str(self._embedder.dim)
        if not self._index.is_open or not same_embedder:
            if stored_id and not same_embedder:
                log.info("embedder changed (%s -> %s): re-embedding", stored_id, self._embedder.id)
            self.rebuild_index(progress)
            return
        # Crash repair, O(changes): rows deleted from SQLite but maybe not from the index,
        # and notes whose newest version may not have reached the index.
        tombstones = [r[0] for r in self._store.query("SELECT note_id FROM index_tombstones")]
        if tombstones:
            self._index.delete(tombstones)
            self._index.purge_deleted()
            with self._store.write() as conn:
                conn.executemany(
                    "DELETE FROM index_tombstones WHERE note_id = ?", [(t,) for t in tombstones]
                )
        dirty = [r[0] for r in self._store.query("SELECT id FROM notes WHERE index_dirty = 1")]
        if dirty:
            self._reindex(dirty)
        # The index version recorded with the last write says whether index and database
        # still belong together; a restored database or a replaced index breaks that, and
        # only then are the id sets compared (O(n)); otherwise opening stays O(1).
        total = self._store.query_one("SELECT COUNT(*) FROM notes")[0]
        recorded = self._store.get_meta("index_version")
        if self._index.count() != total or recorded != str(self._index.version):
            self._repair_index(progress)
        self._record_index_version(self._index.version)

    def _record_index_version(self, version: int) -> None:
        if self._store.get_meta("index_version") == str(version):
            return
        with self._store.write() as conn:
            Store.set_meta(conn, "index_version", str(version))

    def _repair_index(self, progress: ProgressCallback | None) -> None:
        """Bring the index back in step with SQLite (only run when they may disagree): rows
        missing on either side, and rows built from an older version of their note (after a
        database restored from a backup), found by comparing stamps — only those re-embed."""
        index_stamps = self._index.stamps()
        sql_ids = [r[0] for r in self._store.query("SELECT id FROM notes")]
        stale = []
        for start in range(0, len(sql_ids), 2000):
            for note in self._notes_by_ids(sql_ids[start : start + 2000]):
                if index_stamps.get(note.id) != self._stamp(note):
                    stale.append(note.id)
        extra = sorted(index_stamps.keys() - set(sql_ids))
        log.info("index repair: %d stale or missing, %d extra", len(stale), len(extra))
        if extra:
            self._index.delete(extra)
            self._index.purge_deleted()
        if stale:
            self._reindex(stale, progress)

    def rebuild_index(self, progress: ProgressCallback | None = None) -> int:
        """Recreate the index from SQLite (re-embedding every note); returns the row count."""
        self._index.reset()
        ids = [r[0] for r in self._store.query("SELECT id FROM notes ORDER BY created_at")]
        self._reindex(ids, progress)
        with self._store.write() as conn:
            Store.set_meta(conn, "embedder_id", self._embedder.id)
            Store.set_meta(conn, "embedder_dim", str(self._embedder.dim))
            Store.set_meta(conn, "index_built_at", to_iso(utcnow()))
        self._index.purge_deleted()
        return len(ids)

    def _reindex(
        self, ids: Sequence[str], progress: ProgressCallback | None = None, batch: int = 512
    ) -> None:
        total = len(ids)
        if not total:
            return
        if progress:
            progress(0, total)
        for start in range(0, total, batch):
            self._index_notes(self._notes_by_ids(list(ids[start : start + batch])))
            if progress:
                progress(min(start + batch, total), total)
        self._index.optimize()

    def _mark_indexed(self, ids: Sequence[str]) -> None:
        with self._store.write() as conn:
            conn.executemany("UPDATE notes SET index_dirty = 0 WHERE id = ?", [(i,) for i in ids])

    @staticmethod
    def _embedding_text(note: Note) -> str:
        parts = [note.content]
        if note.context:
            parts.append(note.context)
        if note.tags:
            parts.append(" ".join(note.tags))
        return "\n".join(parts)

    @staticmethod
    def _terms_text(note: Note) -> str:
        return fts_text(" ".join([note.content, note.context, *note.keywords, *note.tags]))

    def _index_row(self, note: Note, vector: np.ndarray) -> IndexRow:
        return IndexRow(
            id=note.id,
            case_id=note.case_id,
            status=note.status,
            terms=self._terms_text(note),
            vector=vector,
            created_at=_epoch(note.created_at),
            stamp=self._stamp(note),
        )

    def _stamp(self, note: Note) -> str:
        import hashlib

        basis = "\x00".join(
            (
                self._embedding_text(note),
                self._terms_text(note),
                note.status,
                note.case_id or "",
                str(_epoch(note.created_at)),
            )
        )
        return hashlib.blake2b(basis.encode("utf-8"), digest_size=12).hexdigest()

    def _index_notes(self, notes: Sequence[Note], vectors: np.ndarray | None = None) -> None:
        """Write the notes' current versions to the index.

        Under the write lock, from SQLite as it is now: an edit or a delete that committed
        after the caller's snapshot wins (an older version written last would serve stale
        text, and a deleted note would come back).  ``vectors`` are reused when the text
        they were computed from is still the note's."""
        if not notes:
            return
        with self._store.write_lock:
            current = {n.id: n for n in self._notes_by_ids([n.id for n in notes])}
            rows: list[tuple[Note, np.ndarray | None]] = []
            for i, note in enumerate(notes):
                now = current.get(note.id)
                if now is None:
                    continue  # deleted meanwhile: nothing to write
                same_text = self._embedding_text(now) == self._embedding_text(note)
                rows.append((now, vectors[i] if vectors is not None and same_text else None))
            if not rows:
                return
            todo = [i for i, (_n, v) in enumerate(rows) if v is None]
            if todo:
                fresh = self._embedder.embed([self._embedding_text(rows[i][0]) for i in todo])
                for i, vector in zip(todo, fresh, strict=True):
                    rows[i] = (rows[i][0], vector)
            self._index.upsert([self._index_row(n, v) for n, v in rows])
            self._mark_indexed([n.id for n, _v in rows])

    def optimize(self) -> None:
        """Compact the index (call on idle or after large imports)."""
        self._index.optimize()

    # ========================================================================== cases

    def create_case(self, name: str, description: str = "") -> Case:
        name = (name or "").strip()
        if not name:
            raise InvalidInputError(
                "empty case name", user_message="案件名称不能为空。 / A case needs a name."
            )
        case = Case(_new_id(), name, description.strip(), utcnow(), False)
        with self._store.write() as conn:
            conn.execute(
                "INSERT INTO cases (id, name, description, created_at, archived) VALUES (?, ?, ?, ?, 0)",
                (case.id, case.name, case.description, to_iso(case.created_at)),
            )
        return case

    def list_cases(self, include_archived: bool = False) -> list[Case]:
        sql = "SELECT * FROM cases" + ("" if include_archived else " WHERE archived = 0")
        return [row_to_case(r) for r in self._store.query(sql + " ORDER BY created_at")]

    def get_case(self, case_id: str) -> Case:
        row = self._store.query_one("SELECT * FROM cases WHERE id = ?", (case_id,))
        if row is None:
            raise CaseNotFoundError(f"case {case_id!r} not found")
        return row_to_case(row)

    def rename_case(self, case_id: str, name: str, description: str | None = None) -> Case:
        name = (name or "").strip()
        if not name:
            raise InvalidInputError(
                "empty case name", user_message="案件名称不能为空。 / A case needs a name."
            )
        self.get_case(case_id)
        with self._store.write() as conn:
            conn.execute("UPDATE cases SET name = ? WHERE id = ?", (name, case_id))
            if description is not None:
                conn.execute(
                    "UPDATE cases SET description = ? WHERE id = ?", (description, case_id)
                )
        return self.get_case(case_id)

    def archive_case(self, case_id: str, archived: bool = True) -> Case:
        self.get_case(case_id)
        with self._store.write() as conn:
            conn.execute("UPDATE cases SET archived = ? WHERE id = ?", (int(archived), case_id))
        return self.get_case(case_id)

    def _check_case(self, case_id: str | None) -> None:
        if case_id is not None:
            self.get_case(case_id)

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
    ) -> AddResult:
        """Add one note (see :meth:`add_notes`, which this calls with a batch of one).

        The note is stored at once (offline construction).  With an LLM configured, the
        agentic steps (construction, decision, links, evolution) are queued as a durable job;
        ``wait=True`` runs that job now and returns its outcome ("updated", "superseded",
        "unchanged" or "added"), falling back to the stored note if the LLM fails (the job
        then stays queued)."""
        item = {
            "content": content,
            "case_id": case_id,
            "category": category,
            "created_at": created_at,
            "source": source,
            "pinned": pinned,
            "tags": tags,
        }
        result = self.add_notes([item])[0]
        if wait and self.llm is not None and result.action == "added":
            upgraded = self._pipeline.run_inline(f"{ENRICH}:{result.note.id}")
            if upgraded is not None:
                return upgraded
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
        pending = [self._prepare(item, n) for n, item in enumerate(items, start=1)]
        if not pending:
            return []
        for case_id in {p.case_id for p in pending}:
            self._check_case(case_id)

        with self._store.write_lock:  # one writer: dedupe, decide and write atomically
            new, twins = self._dedupe(pending)
            for p in new:
                p.construction = construction.construct_offline(p.content, p.category)
                if p.tags:
                    p.construction = replace(p.construction, tags=p.tags)
                p.note_id = _new_id()
            texts = [
                "\n".join(x for x in (p.content, " ".join(p.construction.tags)) if x) for p in new
            ]
            vectors = self._embed_batched(texts, progress)
            for p, v in zip(new, vectors, strict=True):
                p.vector = v
            links = self._neighbour_links(new)
            notes = self._write_new(new, links, enrich)
            for twin, first in twins:
                twin.result = AddResult(note=first.result.note, action="unchanged")
        self._index_notes(notes, np.vstack([p.vector for p in new]) if new else None)
        return [p.result for p in pending]

    def _prepare(self, item: dict[str, Any], number: int) -> _Pending:
        if not isinstance(item, dict):
            raise InvalidInputError(f"item {number}: expected an object")
        content = clean_content(item.get("content"))  # raises a clear InvalidInputError
        category = item.get("category")
        if category is not None and category not in CATEGORIES:
            raise InvalidInputError(
                f"item {number}: unknown category {category!r}",
                user_message=f"未知的类别：{category}。 / Unknown category: {category}.",
            )
        created_at = item.get("created_at") or utcnow()
        if isinstance(created_at, str):
            try:
                created_at = datetime.fromisoformat(created_at)
            except ValueError as exc:
                raise InvalidInputError(f"item {number}: bad created_at {created_at!r}") from exc
        if created_at.tzinfo is None:
            created_at = created_at.replace(tzinfo=UTC)
        tags = tuple(str(t).strip() for t in (item.get("tags") or ()) if str(t).strip())
        return _Pending(
            content=content,
            case_id=item.get("case_id"),
            hash=content_hash(content),
            category=category,
            created_at=created_at,
            source=item.get("source"),
            pinned=bool(item.get("pinned", False)),
            tags=tags,
        )

    def _dedupe(
        self, pending: list[_Pending]
    ) -> tuple[list[_Pending], list[tuple[_Pending, _Pending]]]:
        """Exact normalised duplicates (in the same scope) become "unchanged"; the rest are
        new.  Also returns the later copies of an item repeated inside the batch, each with
        its first copy, so they share its result once it is written."""
        seen: dict[tuple[str, str], _Pending] = {}
        new: list[_Pending] = []
        twins: list[tuple[_Pending, _Pending]] = []
        for p in pending:
            key = (p.case_id or "", p.hash)
            if key in seen:
                first = seen[key]
                if first.result is not None:
                    p.result, p.note_id = first.result, first.note_id
                else:
                    twins.append((p, first))
                continue
            row = self._store.query_one(
                f"SELECT {NOTE_COLUMNS} FROM notes WHERE IFNULL(case_id, '') = ? "
                "AND content_hash = ? AND status = 'active' LIMIT 1",
                key,
            )
            seen[key] = p
            if row is not None:
                p.result = AddResult(note=row_to_note(row), action="unchanged")
                p.note_id = row["id"]
            else:
                new.append(p)
        existing = [p for p in seen.values() if p.result is not None]
        if existing:
            now = to_iso(utcnow())
            with self._store.write() as wconn:
                wconn.executemany(
                    "UPDATE notes SET updated_at = ?, retrieval_count = retrieval_count + 1 WHERE id = ?",
                    [(now, p.note_id) for p in existing],
                )
        return new, twins

    def _embed_batched(self, texts: list[str], progress: ProgressCallback | None) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._embedder.dim), dtype=np.float32)
        chunks, step = [], 256
        for start in range(0, len(texts), step):
            chunks.append(self._embedder.embed(texts[start : start + step]))
            if progress:
                progress(min(start + step, len(texts)), len(texts))
        return np.vstack(chunks)

    def _neighbour_links(self, new: list[_Pending]) -> list[tuple[str, str, str, float, str]]:
        """Semantic links (and possible-duplicate flags) to same-scope neighbours, both
        earlier notes and earlier items of this batch.  Neighbours never cross scopes."""
        cfg = self.config
        links: list[tuple[str, str, str, float, str]] = []
        by_scope: dict[str | None, list[_Pending]] = {}
        for p in new:
            by_scope.setdefault(p.case_id, []).append(p)
        for case_id, group in by_scope.items():
            batch_vectors = np.vstack([p.vector for p in group])
            existing_ids, existing_vectors = self._scope_vectors(case_id, batch_vectors, len(group))
            has_existing = existing_vectors is not None and len(existing_ids) > 0
            for i, p in enumerate(group):
                # One matrix product per block of 256 items instead of a full matrix-vector
                # product and argsort per item: adding 2,000 notes to a 100k case went from
                # reading the 200 MB scope matrix 2,000 times to 8 times.
                r = i % 256
                if r == 0:
                    block = batch_vectors[i : i + 256]
                    ex_sims = block @ existing_vectors.T if has_existing else None
                    own_sims = block @ batch_vectors[: i + len(block)].T
                candidates: list[tuple[float, str]] = []
                if ex_sims is not None:
                    row = ex_sims[r]
                    for j in _top_indices(row, cfg.neighbours):
                        candidates.append((float(row[j]), existing_ids[j]))
                if i:
                    row = own_sims[r, :i]
                    for j in _top_indices(row, cfg.neighbours):
                        candidates.append((float(row[j]), group[j].note_id))
                candidates.sort(reverse=True)
                for sim, other in candidates[: cfg.neighbours]:
                    if sim >= cfg.duplicate_threshold:
                        links.append(
                            (p.note_id, other, "duplicate", sim, "可能重复 / possible duplicate")
                        )
                    elif sim >= cfg.link_threshold:
                        links.append((p.note_id, other, "semantic", sim, ""))
        return links

    def _scope_vectors(
        self, case_id: str | None, batch_vectors: np.ndarray, batch_size: int
    ) -> tuple[list[str], np.ndarray | None]:
        """Neighbour candidates among stored notes: a vector search per item for small
        batches, one scan of the scope's vectors for large ones."""
        where = f"case_id = '{case_id or ''}' AND status = 'active'"
        if batch_size <= 8:
            found: dict[str, None] = {}
            for vector in batch_vectors:
                for note_id, _sim in self._index.vector_search(
                    vector, where, self.config.neighbours
                ):
                    found[note_id] = None
            ids = list(found)
            vectors = self._index.vectors_for(ids)
            ids = [i for i in ids if i in vectors]
            return ids, (np.vstack([vectors[i] for i in ids]) if ids else None)
        return self._index.scope_matrix(where)

    def _write_new(
        self, new: list[_Pending], links: list[tuple[str, str, str, float, str]], enrich: bool
    ) -> list[Note]:
        notes: list[Note] = []
        now = utcnow()
        # links grouped by source once: scanning the whole list per note was quadratic
        # (7.7 s of 20 s when adding 2,000 notes to a 10k case)
        linked_by_src: dict[str, list[str]] = {}
        for src, dst, *_ in links:
            linked_by_src.setdefault(src, []).append(dst)
        with self._store.write() as conn:
            for p in new:
                c = p.construction
                note = Note(
                    id=p.note_id,
                    case_id=p.case_id,
                    content=p.content,
                    category=c.category,
                    keywords=c.keywords,
                    context=c.context,
                    tags=c.tags,
                    source=p.source,
                    content_hash=p.hash,
                    created_at=p.created_at,
                    updated_at=now,
                    valid_from=p.created_at,
                    invalid_at=None,
                    status="active",
                    pinned=p.pinned,
                    retrieval_count=0,
                    last_accessed=None,
                    evolution_count=0,
                )
                self._insert_note(conn, note)
                self._history(conn, note.id, "construction", "created", None, note_snapshot(note))
                if enrich:
                    self._jobs.enqueue(conn, ENRICH, {"note_id": note.id}, f"{ENRICH}:{note.id}")
                notes.append(note)
                linked = tuple(linked_by_src.get(note.id, ()))
                p.result = AddResult(note=note, action="added", linked=linked)
            for src, dst, kind, strength, reason in links:
                self._insert_link(conn, src, dst, kind, strength, reason)
        return notes

    @staticmethod
    def _insert_note(conn: sqlite3.Connection, note: Note) -> None:
        conn.execute(
            f"INSERT INTO notes ({NOTE_COLUMNS}, index_dirty) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
            (
                note.id,
                note.case_id,
                note.content,
                note.category,
                json.dumps(list(note.keywords), ensure_ascii=False),
                note.context,
                json.dumps(list(note.tags), ensure_ascii=False),
                note.source,
                note.content_hash,
                to_iso(note.created_at),
                to_iso(note.updated_at),
                to_iso(note.valid_from),
                to_iso(note.invalid_at),
                note.status,
                int(note.pinned),
                note.retrieval_count,
                to_iso(note.last_accessed),
                note.evolution_count,
            ),
        )

    @staticmethod
    def _insert_link(
        conn: sqlite3.Connection, src: str, dst: str, kind: str, strength: float, reason: str
    ) -> None:
        now = to_iso(utcnow())
        pairs = [(src, dst), (dst, src)] if kind in SYMMETRIC_KINDS else [(src, dst)]
        for a, b in pairs:
            conn.execute(
                "INSERT INTO links (src, dst, kind, strength, reason, created_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(src, dst, kind) DO UPDATE SET strength = MAX(strength, excluded.strength), "
                "reason = CASE WHEN excluded.reason != '' THEN excluded.reason ELSE reason END",
                (a, b, kind, float(strength), reason, now),
            )

    @staticmethod
    def _history(
        conn: sqlite3.Connection,
        note_id: str,
        actor: str,
        action: str,
        before: dict | None,
        after: dict | None,
        reason: str = "",
    ) -> None:
        conn.execute(
            "INSERT INTO note_history (note_id, actor, action, before, after, reason, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                note_id,
                actor,
                action,
                json.dumps(before, ensure_ascii=False) if before is not None else None,
                json.dumps(after, ensure_ascii=False) if after is not None else None,
                reason,
                to_iso(utcnow()),
            ),
        )

    # ======================================================================== reading

    def get_note(self, note_id: str) -> Note:
        row = self._store.query_one(f"SELECT {NOTE_COLUMNS} FROM notes WHERE id = ?", (note_id,))
        if row is None:
            raise NoteNotFoundError(f"note {note_id!r} not found")
        return row_to_note(row)

    def _notes_by_ids(self, ids: Sequence[str]) -> list[Note]:
        if not ids:
            return []
        found: dict[str, Note] = {}
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            marks = ",".join("?" * len(chunk))
            for row in self._store.query(
                f"SELECT {NOTE_COLUMNS} FROM notes WHERE id IN ({marks})", chunk
            ):
                found[row["id"]] = row_to_note(row)
        return [found[i] for i in ids if i in found]

    def _filter_sql(
        self,
        case_id: str | None,
        include_global: bool,
        status: str | None,
        category: str | None,
    ) -> tuple[str, list[Any]]:
        if case_id is None:
            where, params = ["case_id IS NULL"], []
        elif include_global:
            where, params = ["(case_id = ? OR case_id IS NULL)"], [case_id]
        else:
            where, params = ["case_id = ?"], [case_id]
        if status is not None:
            if status not in NOTE_STATUSES:
                raise InvalidInputError(f"unknown status {status!r}")
            where.append("status = ?")
            params.append(status)
        if category is not None:
            where.append("category = ?")
            params.append(category)
        return " AND ".join(where), params

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
    ) -> list[Note]:
        where, params = self._filter_sql(case_id, include_global, status, category)
        if order_by not in {
            "created_at",
            "updated_at",
            "category",
            "status",
            "retrieval_count",
            "content",
        }:
            raise InvalidInputError(f"cannot order by {order_by!r}")
        sql = (
            f"SELECT {NOTE_COLUMNS} FROM notes WHERE {where} ORDER BY {order_by} "
            f"{'DESC' if descending else 'ASC'}, id LIMIT ? OFFSET ?"
        )
        params += [limit if limit is not None else -1, offset]
        return [row_to_note(r) for r in self._store.query(sql, params)]

    def count_notes(
        self,
        case_id: str | None,
        include_global: bool = False,
        status: str | None = None,
        category: str | None = None,
    ) -> int:
        where, params = self._filter_sql(case_id, include_global, status, category)
        return self._store.query_one(f"SELECT COUNT(*) FROM notes WHERE {where}", params)[0]

    def links_of(self, note_id: str) -> list[Link]:
        rows = self._store.query(
            "SELECT * FROM links WHERE src = ? ORDER BY strength DESC, created_at", (note_id,)
        )
        return [row_to_link(r) for r in rows]

    def note_history(self, note_id: str) -> list[HistoryEntry]:
        rows = self._store.query(
            "SELECT * FROM note_history WHERE note_id = ? ORDER BY id", (note_id,)
        )
        return [row_to_history(r) for r in rows]

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
        actor: str = "user",
        reason: str = "",
    ) -> Note:
        """Edit a note; the text fields are re-embedded at once, and a history row is kept."""
        with self._store.write_lock:
            before = self.get_note(note_id)
            changes: dict[str, Any] = {}
            if content is not None:
                cleaned = clean_content(content)
                if cleaned != before.content:
                    changes["content"] = cleaned
                    changes["content_hash"] = content_hash(cleaned)
                    if keywords is None:
                        changes["keywords"] = construction.extract_keywords(cleaned)
            if category is not None and category != before.category:
                if category not in CATEGORIES:
                    raise InvalidInputError(f"unknown category {category!r}")
                changes["category"] = category
            if tags is not None:
                changes["tags"] = tuple(dict.fromkeys(t.strip() for t in tags if t.strip()))
            if keywords is not None:
                changes["keywords"] = tuple(dict.fromkeys(k.strip() for k in keywords if k.strip()))
            if context is not None:
                changes["context"] = context.strip()
            if pinned is not None:
                changes["pinned"] = bool(pinned)
            changes = {k: v for k, v in changes.items() if getattr(before, k) != v}
            if not changes:
                return before
            after = replace(before, **changes, updated_at=utcnow())
            if actor == "evolution":
                after = replace(after, evolution_count=before.evolution_count + 1)
            reindex = bool({"content", "context", "tags", "keywords"} & changes.keys())
            with self._store.write() as conn:
                self._save_note(conn, after, dirty=reindex)
                self._history(
                    conn,
                    note_id,
                    actor,
                    "updated",
                    note_snapshot(before),
                    note_snapshot(after),
                    reason,
                )
        if reindex:
            self._index_notes([after])
        return after

    def _save_note(self, conn: sqlite3.Connection, note: Note, *, dirty: bool) -> None:
        conn.execute(
            "UPDATE notes SET content = ?, category = ?, keywords = ?, context = ?, tags = ?, "
            "content_hash = ?, updated_at = ?, invalid_at = ?, status = ?, pinned = ?, "
            "evolution_count = ?, index_dirty = MAX(index_dirty, ?) WHERE id = ?",
            (
                note.content,
                note.category,
                json.dumps(list(note.keywords), ensure_ascii=False),
                note.context,
                json.dumps(list(note.tags), ensure_ascii=False),
                note.content_hash,
                to_iso(note.updated_at),
                to_iso(note.invalid_at),
                note.status,
                int(note.pinned),
                note.evolution_count,
                int(dirty),
                note.id,
            ),
        )

    def _set_status(
        self,
        note_id: str,
        status: str,
        actor: str,
        action: str,
        reason: str,
        also: Callable[[sqlite3.Connection], None] | None = None,
    ) -> Note:
        """Change a note's status; ``also`` adds writes to the same transaction."""
        with self._store.write_lock:
            before = self.get_note(note_id)
            invalid_at = None if status == "active" else (before.invalid_at or utcnow())
            after = replace(before, status=status, invalid_at=invalid_at, updated_at=utcnow())
            with self._store.write() as conn:
                self._save_note(conn, after, dirty=True)
                self._history(
                    conn,
                    note_id,
                    actor,
                    action,
                    note_snapshot(before),
                    note_snapshot(after),
                    reason,
                )
                if also is not None:
                    also(conn)
        self._index_notes([after])  # status is part of the row (and its stamp)
        return after

    def expire_note(self, note_id: str, reason: str = "") -> Note:
        """Mark a note no longer valid (kept for history, never recalled)."""
        return self._set_status(note_id, "archived", "user", "expired", reason)

    def restore_note(self, note_id: str, reason: str = "") -> Note:
        return self._set_status(note_id, "active", "user", "restored", reason)

    def pin_note(self, note_id: str, pinned: bool = True) -> Note:
        return self.update_note(note_id, pinned=pinned)

    def supersede_note(
        self, old_id: str, new_id: str, actor: str = "decision", reason: str = ""
    ) -> Note:
        """``new_id`` replaces ``old_id``: the old one gets invalid_at and a supersedes link
        (status, history and link in one transaction)."""
        if old_id == new_id:
            raise InvalidInputError("a note cannot supersede itself")
        with self._store.write_lock:
            old = self.get_note(old_id)
            new = self.get_note(new_id)
            if (old.case_id or "") != (new.case_id or ""):
                raise InvalidInputError("notes of different scopes cannot supersede each other")
            return self._set_status(
                old_id,
                "superseded",
                actor,
                "superseded",
                reason,
                also=lambda conn: self._insert_link(
                    conn, new_id, old_id, "supersedes", 1.0, reason
                ),
            )

    def undo_last_change(self, note_id: str) -> Note:
        """Restore the state before the latest change that has not been undone yet."""
        history = self.note_history(note_id)
        undone = {h.after.get("undo_of") for h in history if h.action == "undo" and h.after}
        target = next(
            (
                h
                for h in reversed(history)
                if h.action != "undo" and h.before is not None and h.id not in undone
            ),
            None,
        )
        if target is None:
            raise InvalidInputError(
                "nothing to undo", user_message="没有可撤销的修改。 / There is nothing to undo."
            )
        with self._store.write_lock:
            current = self.get_note(note_id)
            b = target.before
            restored = replace(
                current,
                content=b["content"],
                content_hash=content_hash(b["content"]),
                category=b["category"],
                keywords=tuple(b["keywords"]),
                context=b["context"],
                tags=tuple(b["tags"]),
                status=b["status"],
                pinned=b["pinned"],
                invalid_at=from_iso(b["invalid_at"]),
                updated_at=utcnow(),
            )
            after = note_snapshot(restored) | {"undo_of": target.id}
            with self._store.write() as conn:
                self._save_note(conn, restored, dirty=True)
                if target.action == "superseded" and restored.status == "active":
                    # no longer replaced: the "supersedes" link would contradict its status
                    conn.execute(
                        "DELETE FROM links WHERE kind = 'supersedes' AND dst = ?", (note_id,)
                    )
                self._history(
                    conn,
                    note_id,
                    "user",
                    "undo",
                    note_snapshot(current),
                    after,
                    f"undo #{target.id}",
                )
        self._index_notes([restored])
        return restored

    def merge_notes(self, keep_id: str, other_id: str) -> Note:
        """Fold ``other`` into ``keep``: content joined, tags and links carried over; the
        other note is superseded (kept in history, not deleted).  The write lock is held
        throughout, so no other edit or delete lands between the steps."""
        with self._store.write_lock:
            return self._merge_notes_locked(keep_id, other_id)

    def _merge_notes_locked(self, keep_id: str, other_id: str) -> Note:
        keep, other = self.get_note(keep_id), self.get_note(other_id)
        if keep_id == other_id:
            raise InvalidInputError("cannot merge a note with itself")
        if (keep.case_id or "") != (other.case_id or ""):
            raise InvalidInputError(
                "notes of different cases",
                user_message="不能合并不同案件的记忆。 / Notes of different cases cannot be merged.",
            )
        content = (
            keep.content if other.content in keep.content else f"{keep.content}\n{other.content}"
        )
        merged = self.update_note(
            keep_id,
            content=content,
            tags=[*keep.tags, *other.tags],
            keywords=[*keep.keywords, *other.keywords],
            reason=f"merged {other_id}",
        )
        with self._store.write() as conn:
            for link in self.links_of(other_id):
                if link.dst != keep_id and link.kind != "supersedes":
                    self._insert_link(
                        conn, keep_id, link.dst, link.kind, link.strength, link.reason
                    )
        self.supersede_note(other_id, keep_id, actor="user", reason="merged")
        return merged

    def link_notes(
        self, src: str, dst: str, kind: str = "manual", strength: float = 1.0, reason: str = ""
    ) -> None:
        if kind not in LINK_KINDS:
            raise InvalidInputError(f"unknown link kind {kind!r}")
        a, b = self.get_note(src), self.get_note(dst)
        if src == dst:
            raise InvalidInputError("a note cannot link to itself")
        if (a.case_id or "") != (b.case_id or ""):
            raise InvalidInputError(
                "cross-case link",
                user_message="不能链接不同案件的记忆。 / Notes of different cases cannot be linked.",
            )
        with self._store.write() as conn:
            self._insert_link(conn, src, dst, kind, strength, reason)

    def unlink_notes(self, src: str, dst: str, kind: str | None = None) -> int:
        with self._store.write() as conn:
            if kind is None:
                cur = conn.execute(
                    "DELETE FROM links WHERE (src = ? AND dst = ?) OR (src = ? AND dst = ?)",
                    (src, dst, dst, src),
                )
            else:
                cur = conn.execute(
                    "DELETE FROM links WHERE kind = ? AND ((src = ? AND dst = ?) OR (src = ? AND dst = ?))",
                    (kind, src, dst, dst, src),
                )
            return cur.rowcount

    def delete_note(self, note_id: str) -> None:
        """Truly delete: the row, its history and links, its index rows and every old index
        version; SQLite pages are zeroed (secure_delete) and the WAL truncated."""
        with self._store.write_lock:
            self.get_note(note_id)
            with self._store.write() as conn:
                conn.execute("DELETE FROM note_history WHERE note_id = ?", (note_id,))
                conn.execute("DELETE FROM notes WHERE id = ?", (note_id,))
                conn.execute(
                    "INSERT OR IGNORE INTO index_tombstones (note_id) VALUES (?)", (note_id,)
                )
            self._index.delete([note_id])
            self._index.purge_deleted()
            with self._store.write() as conn:
                conn.execute("DELETE FROM index_tombstones WHERE note_id = ?", (note_id,))
            for _attempt in range(50):  # a reader mid-statement delays the truncation briefly
                if self._store.checkpoint_truncate():
                    break
                time.sleep(0.02)
            else:
                log.warning("WAL could not be truncated after a delete; it will be at close")

    # ======================================================================== search

    def search(
        self,
        query: str,
        case_id: str | None = None,
        k: int = 5,
        include_inactive: bool = False,
    ) -> list[Hit]:
        """Hybrid search within ``case_id`` plus the global notes — never another case.

        Returns up to ``k`` ranked hits, then up to ``config.link_budget`` notes linked
        one hop from the strongest hits (their own budget, so truncation cannot drop them)
        and the case's pinned notes if not already present.

        Ranking (see retrieval.py and tests/benchmarks/README.md for the measurements):
        score fusion of the vector and full-text candidates, plus recency, plus a context
        bonus for the notes written just before/after a strong hit (reported in
        ``parts.link_bonus``: a time-adjacency link; such a note may have no ranks).
        """
        # A pasted judgment is not a query: only its start is used (and regexes stay fast).
        query = (query or "").strip()[:2000]
        if not query or k <= 0:
            return []
        cfg = self.config
        where = scope_filter(case_id, include_inactive=include_inactive)
        depth = max(k * 4, cfg.candidate_depth)
        # The full-text search needs no embedding: it runs beside the embedding and the
        # vector search (both wait in native code without the GIL), saving ~5 ms a search.
        text_future = _SEARCH_POOL.submit(self._index.text_search, fts_text(query), where, depth)
        qvec = self._embedder.embed([query])[0]
        vector_hits = self._index.vector_search(qvec, where, depth)
        text_hits = text_future.result()
        fused = fuse(vector_hits, text_hits, params_for_query(self.fusion, query))
        # Score on narrow rows (scope, status, time); full notes only for the final top k:
        # materialising every candidate cost ~4 ms per search at depth 100.
        rows = self._search_rows(list(fused))
        rows = {i: r for i, r in rows.items() if self._row_visible(r, case_id, include_inactive)}
        # Context bonus from the best hits by fused score (recency must not propagate).
        strongest = sorted(rows, key=lambda i: -fused[i].score)[: max(0, cfg.context_hits)]
        neighbours = self._context_neighbours([rows[i] for i in strongest], include_inactive)
        bonus = context_bonus(
            {i: fused[i].score for i in strongest}, neighbours, cfg.context_weight
        )
        missing = [i for i in bonus if i not in rows]
        for note_id, r in self._search_rows(missing).items():
            if self._row_visible(r, case_id, include_inactive):
                rows[note_id] = r
        now = time.time()
        ranked: list[tuple[float, str, ScoreParts]] = []
        for note_id, r in rows.items():
            f = fused.get(note_id)
            age_days = (now - _epoch(from_iso(r["created_at"]))) / 86400
            recency = cfg.recency_weight * recency_decay(age_days, cfg.recency_half_life_days)
            extra = bonus.get(note_id, 0.0)
            base = f.score if f is not None else 0.0
            parts = ScoreParts(
                f.vector_rank if f else None,
                f.text_rank if f else None,
                f.vector_similarity if f else None,
                base,
                recency,
                extra,
                bool(r["pinned"]),
            )
            ranked.append((base + recency + extra, note_id, parts))
        ranked.sort(key=lambda t: -t[0])
        top: list[Hit] = []
        for start in range(0, len(ranked), k):  # refill if the double check drops a note
            window = ranked[start : start + k]
            notes = {n.id: n for n in self._notes_by_ids([i for _s, i, _p in window])}
            for score, note_id, parts in window:
                note = notes.get(note_id)
                if note is not None and self._visible(note, case_id, include_inactive):
                    top.append(Hit(note, score, parts))
            if len(top) >= k:
                break
        top = top[:k]
        top += self._link_expansion(top, case_id, include_inactive)
        top += self._pinned_extras(top, case_id)
        return top

    def _context_neighbours(
        self, hits: Sequence[sqlite3.Row], include_inactive: bool
    ) -> dict[str, list[str]]:
        """For each note: the notes of its own scope written just before and just after it
        (by created_at, ties by insertion order) within ``config.context_window_seconds``.

        Generic on purpose: for chat-derived notes these are the neighbouring turns or the
        facts extracted from the same exchange; for an imported case file, its adjacent lines.
        """
        cfg = self.config
        if not hits or cfg.context_weight <= 0:
            return {}
        rows = hits  # narrow rows from _search_rows: id, rowid, case_id, created_at
        status = "" if include_inactive else " AND status = 'active'"
        window = timedelta(seconds=max(cfg.context_window_seconds, 0.0))
        out: dict[str, list[str]] = {}
        conn = self._store.reader()
        for r in rows:
            at = from_iso(r["created_at"])
            lo, hi = to_iso(at - window), to_iso(at + window)
            found = []
            # ISO-8601 UTC strings compare in time order; (created_at, rowid) breaks ties
            # between notes written in the same instant (one batch) in insertion order.
            for cmp, bound, order in (("<", ">= ?", "DESC"), (">", "<= ?", "ASC")):
                row = conn.execute(
                    f"SELECT id FROM notes WHERE case_id IS ?{status} "
                    f"AND (created_at, rowid) {cmp} (?, ?) AND created_at {bound} "
                    f"ORDER BY created_at {order}, rowid {order} LIMIT 1",
                    (r["case_id"], r["created_at"], r["rowid"], lo if cmp == "<" else hi),
                ).fetchone()
                if row is not None:
                    found.append(row[0])
            out[r["id"]] = found
        return out

    def _search_rows(self, ids: Sequence[str]) -> dict[str, sqlite3.Row]:
        """The few columns ranking needs, by id (no JSON decoding, no full Note)."""
        out: dict[str, sqlite3.Row] = {}
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            for r in self._store.query(
                "SELECT id, rowid, case_id, status, created_at, pinned FROM notes "
                f"WHERE id IN ({','.join('?' * len(chunk))})",
                chunk,
            ):
                out[r["id"]] = r
        return out

    @staticmethod
    def _row_visible(row: sqlite3.Row, case_id: str | None, include_inactive: bool) -> bool:
        # the rule of _visible on a narrow row; _visible re-checks the notes returned
        if row["case_id"] is not None and row["case_id"] != case_id:
            return False
        return include_inactive or row["status"] == "active"

    @staticmethod
    def _visible(note: Note, case_id: str | None, include_inactive: bool) -> bool:
        # Defence in depth: the index filter already scoped the search; re-check here.
        if note.case_id is not None and note.case_id != case_id:
            return False
        return include_inactive or note.status == "active"

    def _link_expansion(
        self, top: list[Hit], case_id: str | None, include_inactive: bool
    ) -> list[Hit]:
        budget = self.config.link_budget
        if not top or budget <= 0:
            return []
        strong = top[: max(1, min(3, len(top)))]
        present = {h.note.id for h in top}
        candidates: dict[str, tuple[float, float]] = {}
        for hit in strong:
            for link in self.links_of(hit.note.id):
                if link.dst in present or link.kind == "supersedes":
                    continue
                bonus = hit.score * link.strength * 0.5
                if bonus > candidates.get(link.dst, (0.0, 0.0))[0]:
                    candidates[link.dst] = (bonus, link.strength)
        extra: list[Hit] = []
        ranked = sorted(candidates.items(), key=lambda kv: -kv[1][0])
        notes = {n.id: n for n in self._notes_by_ids([i for i, _ in ranked])}
        for note_id, (bonus, _s) in ranked:
            note = notes.get(note_id)
            if note is None or not self._visible(note, case_id, include_inactive):
                continue
            extra.append(
                Hit(note, bonus, ScoreParts(None, None, None, 0.0, 0.0, bonus, note.pinned))
            )
            if len(extra) >= budget:
                break
        return extra

    def _pinned_extras(self, hits: list[Hit], case_id: str | None) -> list[Hit]:
        present = {h.note.id for h in hits}
        where = "case_id IS NULL" if case_id is None else "case_id = ?"
        rows = self._store.query(
            # the partial index holds only pinned notes: no scan of the whole case per search
            f"SELECT {NOTE_COLUMNS} FROM notes INDEXED BY notes_pinned "
            f"WHERE {where} AND pinned = 1 AND status = 'active'",
            () if case_id is None else (case_id,),
        )
        return [
            Hit(row_to_note(r), 0.0, ScoreParts(None, None, None, 0.0, 0.0, 0.0, True))
            for r in rows
            if r["id"] not in present
        ]

    def recall_for_chat(self, query: str, case_id: str | None) -> Recall:
        """The memories injected into one chat reply: pinned notes of the case first, then
        the best hits above ``recall_threshold``; superseded notes never; at most
        ``max_memories``.  Recalled notes count as retrieved (retrieval_count, last_accessed)."""
        cfg = self.config
        hits = self.search(query, case_id, k=cfg.max_memories)
        chosen: list[Hit] = [h for h in hits if h.parts.pinned and h.note.case_id == case_id]
        sims = self._similarities(query, hits)
        for hit in hits:
            if len(chosen) >= cfg.max_memories:
                break
            if hit in chosen or hit.note.status != "active":
                continue
            # Either the meaning is close, or the exact words matched well (a full-text hit
            # near the top) while the meaning is at least loosely related.
            sim = sims.get(hit.note.id, 0.0)
            words_match = hit.parts.text_rank is not None and hit.parts.text_rank <= 3
            if sim >= cfg.recall_threshold or (words_match and sim >= cfg.recall_threshold / 2):
                chosen.append(hit)
        chosen = chosen[: cfg.max_memories]
        if chosen:
            now = to_iso(utcnow())
            with self._store.write() as conn:
                conn.executemany(
                    "UPDATE notes SET retrieval_count = retrieval_count + 1, last_accessed = ? WHERE id = ?",
                    [(now, h.note.id) for h in chosen],
                )
        return Recall(tuple(chosen), format_memories([h.note for h in chosen]))

    def _similarities(self, query: str, hits: Sequence[Hit]) -> dict[str, float]:
        """Cosine similarity of each hit to the query: the search already measured it for
        its vector candidates; only the others (full-text, context, pinned) need the query
        embedded again."""
        sims = {
            h.note.id: h.parts.vector_similarity
            for h in hits
            if h.parts.vector_similarity is not None
        }
        missing = [h.note.id for h in hits if h.note.id not in sims]
        if missing:
            qvec = self._embedder.embed([query[:2000]])[0]
            sims |= {i: float(v @ qvec) for i, v in self._index.vectors_for(missing).items()}
        return sims

    def _neighbour_notes(self, note: Note, k: int | None = None) -> list[Note]:
        """The nearest active notes in the note's own scope (never another case, never the
        global notes for a case note), best first, without the note itself."""
        k = k or self.config.neighbours
        vectors = self._index.vectors_for([note.id])
        vector = vectors.get(note.id)
        if vector is None:
            vector = self._embedder.embed([self._embedding_text(note)])[0]
        where = f"case_id = '{note.case_id or ''}' AND status = 'active'"
        found = [i for i, _sim in self._index.vector_search(vector, where, k + 1) if i != note.id]
        return [
            n for n in self._notes_by_ids(found[:k]) if (n.case_id or "") == (note.case_id or "")
        ]

    def _touch(self, note_id: str) -> None:
        with self._store.write() as conn:
            conn.execute(
                "UPDATE notes SET updated_at = ?, retrieval_count = retrieval_count + 1 WHERE id = ?",
                (to_iso(utcnow()), note_id),
            )

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
    ) -> list[AddResult]:
        """Queue knowledge extraction for one chat turn (a durable job; the chat never
        waits).  ``wait=True`` runs it now, then enriches each new note, and returns the
        results; otherwise (or if the LLM is unavailable) it returns [] and the job runs
        later.  Small talk yields nothing."""
        import hashlib

        if not (user_text or "").strip() and not (assistant_text or "").strip():
            return []
        self._check_case(case_id)
        message_time = message_time or utcnow()
        digest = hashlib.sha256(f"{case_id}|{user_text}|{assistant_text}".encode()).hexdigest()[:32]
        key = f"{EXTRACT}:{conversation_id or '-'}:{digest}"
        payload = {
            "user_text": user_text or "",
            "assistant_text": assistant_text or "",
            "case_id": case_id,
            "conversation_id": conversation_id,
            "message_time": to_iso(message_time),
            "source": source,
        }
        with self._store.write() as conn:
            self._jobs.enqueue(conn, EXTRACT, payload, key)
        if not wait or self.llm is None:
            return []
        added = self._pipeline.run_inline(key) or []
        results = []
        for result in added:
            if result.action == "added":
                upgraded = self._pipeline.run_inline(f"{ENRICH}:{result.note.id}")
                results.append(upgraded or result)
            else:
                results.append(result)
        return results

    def run_pending_jobs(self, max_jobs: int | None = None) -> JobReport:
        """Run the due LLM jobs now (the UI calls this from a worker, or uses JobRunner)."""
        return self._pipeline.run_pending(max_jobs)

    def job_counts(self) -> JobCounts:
        return self._jobs.counts()

    def retry_jobs_now(self) -> int:
        """Make waiting jobs due immediately (e.g. after the user fixed the API key)."""
        return self._jobs.retry_now()

    def set_config(self, config: MemoryConfig) -> None:
        """Apply new memory parameters (Settings) without reopening."""
        self.config = config

    def set_llm(self, llm: Any | None) -> None:
        """Switch the LLM (settings changed); pending jobs run with the new one."""
        self.llm = llm
        if llm is not None:
            self._jobs.retry_now()

    # ========================================================================= graph

    def graph(self, case_id: str | None, include_global: bool = False) -> Graph:
        where, params = self._filter_sql(case_id, include_global, None, None)
        rows = self._store.query(
            f"SELECT id, content, category, status, pinned, retrieval_count, tags FROM notes WHERE {where}",
            params,
        )
        ids = {r["id"] for r in rows}
        edges: dict[tuple[str, str, str], GraphEdge] = {}
        degree: dict[str, int] = dict.fromkeys(ids, 0)
        link_rows = self._store.query(
            "SELECT l.src, l.dst, l.kind, l.strength FROM links l JOIN notes n ON n.id = l.src "
            f"WHERE {where.replace('case_id', 'n.case_id')}",
            params,
        )
        for r in link_rows:
            if r["dst"] not in ids:
                continue
            a, b = r["src"], r["dst"]
            key = (
                (min(a, b), max(a, b), r["kind"])
                if r["kind"] in SYMMETRIC_KINDS
                else (a, b, r["kind"])
            )
            if key in edges:
                continue
            edges[key] = GraphEdge(a, b, r["kind"], r["strength"])
            degree[a] += 1
            degree[b] += 1
        nodes = tuple(
            GraphNode(
                id=r["id"],
                label=_summary(r["content"]),
                category=r["category"],
                status=r["status"],
                pinned=bool(r["pinned"]),
                retrieval_count=r["retrieval_count"],
                degree=degree[r["id"]],
                tags=tuple(json.loads(r["tags"])),
            )
            for r in rows
        )
        return Graph(nodes, tuple(edges.values()))

    def graph_positions(self, case_id: str | None) -> dict[str, tuple[float, float]]:
        where = "n.case_id IS NULL" if case_id is None else "n.case_id = ?"
        rows = self._store.query(
            f"SELECT p.note_id, p.x, p.y FROM graph_positions p JOIN notes n ON n.id = p.note_id WHERE {where}",
            () if case_id is None else (case_id,),
        )
        return {r[0]: (r[1], r[2]) for r in rows}

    def save_graph_positions(
        self, case_id: str | None, positions: dict[str, tuple[float, float]]
    ) -> None:
        allowed = {n.id for n in self.list_notes(case_id)}
        with self._store.write() as conn:
            conn.executemany(
                "INSERT INTO graph_positions (note_id, x, y) VALUES (?, ?, ?) "
                "ON CONFLICT(note_id) DO UPDATE SET x = excluded.x, y = excluded.y",
                [
                    (i, float(x), float(y))
                    for i, (x, y) in positions.items()
                    # a diverged layout may hand over NaN: keep the last good position
                    if i in allowed and math.isfinite(x) and math.isfinite(y)
                ],
            )

    # ================================================================= conversations

    def create_conversation(self, case_id: str | None, title: str = "") -> Conversation:
        self._check_case(case_id)
        now = utcnow()
        conv = Conversation(_new_id(), case_id, (title or "").strip() or "新对话", now, now, True)
        with self._store.write() as conn:
            conn.execute(
                "INSERT INTO conversations (id, case_id, title, created_at, updated_at, memory_enabled) "
                "VALUES (?, ?, ?, ?, ?, 1)",
                (conv.id, case_id, conv.title, to_iso(now), to_iso(now)),
            )
        return conv

    def get_conversation(self, conversation_id: str) -> Conversation:
        row = self._store.query_one("SELECT * FROM conversations WHERE id = ?", (conversation_id,))
        if row is None:
            raise NotFoundError(f"conversation {conversation_id!r} not found")
        return row_to_conversation(row)

    def list_conversations(self, case_id: str | None, query: str = "") -> list[Conversation]:
        where = "case_id IS NULL" if case_id is None else "case_id = ?"
        params: list[Any] = [] if case_id is None else [case_id]
        if query.strip():
            where += (
                " AND (title LIKE ? ESCAPE '\\' OR id IN (SELECT conversation_id FROM messages "
                "WHERE content LIKE ? ESCAPE '\\'))"
            )
            pattern = (
                "%"
                + query.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                + "%"
            )
            params += [pattern, pattern]
        rows = self._store.query(
            f"SELECT * FROM conversations WHERE {where} ORDER BY updated_at DESC", params
        )
        return [row_to_conversation(r) for r in rows]

    def rename_conversation(self, conversation_id: str, title: str) -> Conversation:
        title = (title or "").strip()
        if not title:
            raise InvalidInputError(
                "empty title", user_message="标题不能为空。 / The title cannot be empty."
            )
        self.get_conversation(conversation_id)
        with self._store.write() as conn:
            conn.execute(
                "UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id)
            )
        return self.get_conversation(conversation_id)

    def set_conversation_memory(self, conversation_id: str, enabled: bool) -> Conversation:
        self.get_conversation(conversation_id)
        with self._store.write() as conn:
            conn.execute(
                "UPDATE conversations SET memory_enabled = ? WHERE id = ?",
                (int(enabled), conversation_id),
            )
        return self.get_conversation(conversation_id)

    def delete_conversation(self, conversation_id: str) -> None:
        self.get_conversation(conversation_id)
        with self._store.write() as conn:
            conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
            # its turns may still wait for extraction, text included: they go with it
            conn.execute(
                "DELETE FROM jobs WHERE kind = ? AND status != 'running' "
                "AND json_extract(payload, '$.conversation_id') = ?",
                (EXTRACT, conversation_id),
            )
        self._store.checkpoint_truncate()

    def add_message(
        self,
        conversation_id: str,
        role: str,
        content: str,
        injected_note_ids: Sequence[str] = (),
    ) -> Message:
        if role not in {"user", "assistant", "system"}:
            raise InvalidInputError(f"unknown role {role!r}")
        self.get_conversation(conversation_id)
        now = utcnow()
        msg = Message(_new_id(), conversation_id, role, content, now, tuple(injected_note_ids))
        with self._store.write() as conn:
            conn.execute(
                "INSERT INTO messages (id, conversation_id, role, content, created_at, injected_note_ids) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    msg.id,
                    conversation_id,
                    role,
                    content,
                    to_iso(now),
                    json.dumps(list(injected_note_ids)),
                ),
            )
            conn.execute(
                "UPDATE conversations SET updated_at = ? WHERE id = ?",
                (to_iso(now), conversation_id),
            )
        return msg

    def delete_message(self, message_id: str) -> None:
        """Remove one message (Retry replaces the last reply)."""
        with self._store.write() as conn:
            if conn.execute("DELETE FROM messages WHERE id = ?", (message_id,)).rowcount == 0:
                raise NotFoundError(f"message {message_id!r} not found")
        self._store.checkpoint_truncate()

    def list_messages(self, conversation_id: str) -> list[Message]:
        rows = self._store.query(
            "SELECT * FROM messages WHERE conversation_id = ? ORDER BY created_at, rowid",
            (conversation_id,),
        )
        return [row_to_message(r) for r in rows]

    # ================================================================ import / export

    def import_jsonl(
        self, path: str | os.PathLike[str], case_id: str | None = None
    ) -> list[AddResult]:
        """Load notes from JSON Lines, all or nothing.  An optional first line
        ``{"case": {"name": ..., "description": ...}}`` creates the case when ``case_id`` is
        not given.  A bad line raises InvalidInputError naming its line number."""
        from desktop_app.memory.io import parse_jsonl

        header, items = parse_jsonl(Path(path))
        created_case = None
        if case_id is None and header is not None:
            created_case = self.create_case(header.get("name", ""), header.get("description", ""))
            case_id = created_case.id
        self._check_case(case_id)
        for item in items:
            item["case_id"] = None if item.pop("scope", "case") == "global" else case_id
        try:
            return self.add_notes(items)
        except Exception:
            if created_case is not None:  # all or nothing: no empty case left behind
                with self._store.write() as conn:
                    conn.execute("DELETE FROM cases WHERE id = ?", (created_case.id,))
            raise

    def export_jsonl(self, path: str | os.PathLike[str], case_id: str | None) -> int:
        from desktop_app.memory.io import write_jsonl

        case = self.get_case(case_id) if case_id is not None else None
        return write_jsonl(Path(path), case, self.list_notes(case_id))

    def export_markdown(self, path: str | os.PathLike[str], case_id: str | None) -> int:
        from desktop_app.memory.io import write_markdown

        case = self.get_case(case_id) if case_id is not None else None
        return write_markdown(Path(path), case, self.list_notes(case_id))

    # ========================================================================= misc

    def backup(self, target: str | os.PathLike[str]) -> Path:
        """A consistent copy of the SQLite database (online backup API)."""
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        self._store.backup_to(target)
        return target

    def pending_jobs(self) -> int:
        counts = self._jobs.counts()
        return counts.pending + counts.running

    def stats(self) -> EngineStats:
        q = self._store.query_one
        return EngineStats(
            notes_total=q("SELECT COUNT(*) FROM notes")[0],
            notes_active=q("SELECT COUNT(*) FROM notes WHERE status = 'active'")[0],
            cases=q("SELECT COUNT(*) FROM cases")[0],
            links=q("SELECT COUNT(*) FROM links")[0],
            pending_jobs=self.pending_jobs(),
            index_rows=self._index.count(),
            embedder_id=self._embedder.id,
        )


def _top_indices(values: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest values (unordered): argpartition, O(n) instead of a sort."""
    if k <= 0 or len(values) == 0:
        return np.zeros(0, dtype=np.intp)
    if len(values) <= k:
        return np.arange(len(values))
    return np.argpartition(-values, k - 1)[:k]


def _summary(content: str, limit: int = 28) -> str:
    first = content.strip().split("\n", 1)[0]
    return first if len(first) <= limit else first[: limit - 1] + "…"


def format_memories(notes: Sequence[Note]) -> str:
    """One separate system message holding the recalled notes (empty if there are none)."""
    if not notes:
        return ""
    lines = [MEMORY_PREAMBLE]
    for n, note in enumerate(notes, start=1):
        date = note.created_at.strftime("%Y-%m-%d") if note.created_at else ""
        lines.append(
            f"{n}. [{note.category}] {note.content}" + (f"（记录于 {date}）" if date else "")
        )
    return "\n".join(lines)
