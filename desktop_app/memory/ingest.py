"""Adding notes: prepare and check each item, drop exact duplicates, embed in batches, link
to same-scope neighbours, write everything in one transaction, then index it.

The offline A-MEM steps happen here (construction by rules, semantic and possible-duplicate
links); the agentic ones are queued as ``enrich`` jobs in the same transaction
(job_steps.py runs them).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, NamedTuple

import numpy as np

from desktop_app.core.clock import local_date, to_utc
from desktop_app.core.errors import InvalidInputError
from desktop_app.memory import construction, construction_pool, link_partition
from desktop_app.memory.blas import one_blas_thread
from desktop_app.memory.cases import Cases
from desktop_app.memory.changes import ChangeRecorder
from desktop_app.memory.dates import parse_event_date
from desktop_app.memory.embedder import TokensElsewhere
from desktop_app.memory.ids import new_id
from desktop_app.memory.index import NoteIndex
from desktop_app.memory.index_sync import (
    IndexSync,
    ProgressCallback,
    WrittenTerms,
    embedding_text,
)
from desktop_app.memory.jobs import ENRICH, JobQueue
from desktop_app.memory.notes_repository import NotesRepository
from desktop_app.memory.sameness import remember, same_matter
from desktop_app.memory.scope import index_filter, scope_key
from desktop_app.memory.store import Store, utcnow
from desktop_app.memory.text import clean_content, content_hash
from desktop_app.memory.types import (
    CATEGORIES,
    DEFAULT_CATEGORY,
    ORIGINS,
    SOURCE_KINDS,
    AddResult,
    MemoryConfig,
    Note,
)

#: items per block of the neighbour matrix product (see Ingestion._neighbour_links)
_BLOCK = 256
#: items of the last chunk a one-scope batch embeds (see _chunks)
_LAST_CHUNK = 64
#: up to this many new notes, neighbours come from one vector search each; above, from
#: one scan of the scope's vectors (kept for the next batch, see _ScopeVectors)
_SEARCH_PER_ITEM_UP_TO = 8
#: a kept copy of a scope's vectors older than this is read again (and its memory freed)
_SCOPE_COPY_SECONDS = 120.0
DUPLICATE_REASON = "可能重复 / possible duplicate"
SAME_MATTER_REASON = "同一事项、说法不同 / same matter, different values"
#: compares each embedded chunk of a one-scope batch with the scope while the next chunk is
#: embedded: its matrix products release the GIL, so on 2 cores the two overlap
_LINK_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lexmem-links")

LinkRow = tuple[str, str, str, float, str]  # src, dst, kind, strength, reason


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
    origin: str = "manual"
    event_date: str | None = None
    source_kind: str | None = None
    #: a construction already made (by the model that extracted the item): kept as given
    keywords: tuple[str, ...] = ()
    context: str = ""
    result: AddResult | None = None
    note: Note | None = None
    vector: np.ndarray | None = None
    note_id: str = ""
    #: the full-text terms of its written text, from the construction (see construction_pool)
    written_terms: WrittenTerms | None = None


def prepare(item: dict[str, Any], number: int) -> _Pending:
    """Check one item (``number`` names it in errors) and normalise its fields."""
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
    created_at = to_utc(created_at)  # a naive time is the user's local time
    event_date = item.get("event_date")
    if event_date:
        event_date = parse_event_date(event_date)
        if event_date is None:
            raise InvalidInputError(
                f"item {number}: bad event_date {item.get('event_date')!r}",
                user_message=(
                    f"无法识别的日期：{item.get('event_date')}（例如 2024-07-15）。 / "
                    f"Unrecognised date: {item.get('event_date')} (e.g. 2024-07-15)."
                ),
            )
    source_kind = item.get("source_kind") or None
    if source_kind is not None and source_kind not in SOURCE_KINDS:
        raise InvalidInputError(f"item {number}: unknown source kind {source_kind!r}")
    origin = item.get("origin") or origin_of(item.get("source"))
    if origin not in ORIGINS:
        raise InvalidInputError(f"item {number}: unknown origin {origin!r}")
    tags = tuple(str(t).strip() for t in (item.get("tags") or ()) if str(t).strip())
    keywords = tuple(str(k).strip() for k in (item.get("keywords") or ()) if str(k).strip())
    return _Pending(
        content=content,
        case_id=item.get("case_id"),
        hash=content_hash(content),
        category=category,
        created_at=created_at,
        source=item.get("source"),
        pinned=bool(item.get("pinned", False)),
        tags=tags,
        origin=origin,
        event_date=event_date,
        source_kind=source_kind,
        keywords=keywords,
        context=str(item.get("context") or "").strip(),
    )


def _given_fields(p: _Pending) -> list[str]:
    """The fields the caller chose (a category picked, a date typed): the model's
    construction leaves them as they are."""
    given = {"category": p.category, "event_date": p.event_date, "source_kind": p.source_kind}
    return [name for name, value in given.items() if value]


def origin_of(source: str | None) -> str:
    """Where a note came from, by its source reference: a conversation ("chat:…"), the
    user's hand (None, "manual") or an imported file (anything else)."""
    if source is None or source == "manual":
        return "manual"
    return "message" if source.startswith("chat:") else "import"


def _strongest_per_row(
    rows: np.ndarray, cols: np.ndarray, sims: np.ndarray, cap: int
) -> list[tuple[int, int, float]]:
    """Of the (row, col, sim) triples, the ``cap`` largest sims of each row, best first."""
    if cap <= 0 or len(rows) == 0:
        return []
    order = np.lexsort((-sims, rows))  # by row, then strongest first
    rows, cols, sims = rows[order], cols[order], sims[order]
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    rank = np.arange(len(rows)) - np.repeat(starts, np.diff(np.r_[starts, len(rows)]))
    keep = rank < cap
    return list(zip(rows[keep].tolist(), cols[keep].tolist(), sims[keep].tolist(), strict=True))


@dataclass(slots=True)
class _ScopeVectors:
    """The active vectors of one scope, kept between batch adds: a bulk import of 20 batches
    read the whole scope from LanceDB 20 times (0.3 s at 10k notes, ~1.5 s at 50k).  Valid
    while the index has seen no write but this one's own (``NoteIndex.generation``)."""

    scope: str
    generation: int
    ids: list[str]
    #: rows 0 .. len(ids) hold the vectors; the rest is room for the next batches (a
    #: vstack per batch copied the whole scope: 100 MB per batch at 50k notes)
    buffer: np.ndarray
    used_at: float
    #: the groups of a large scope's rows (rows are kept in group order): link candidates
    #: come from the groups nearest each new note (see link_partition.py)
    partition: link_partition.Partition | None = None

    @property
    def matrix(self) -> np.ndarray:
        return self.buffer[: len(self.ids)]

    def extend(self, ids: list[str], vectors: np.ndarray) -> None:
        """Append rows; earlier ``matrix`` views stay valid (a grown buffer is a new one)."""
        have, need = len(self.ids), len(self.ids) + len(ids)
        if need > len(self.buffer):
            grown = np.empty((max(need, 2 * len(self.buffer)), self.buffer.shape[1]), np.float32)
            grown[:have] = self.buffer[:have]
            self.buffer = grown
        self.buffer[have:need] = vectors
        self.ids = [*self.ids, *ids]
        if self.partition is not None:
            self.partition.add_tail(vectors)

    def keep_partition(self) -> None:
        """Group the rows of a large scope, or fold the rows added since into the groups,
        when due: rows and ids are put in group order (a new buffer: views handed out
        earlier stay valid)."""
        rows = len(self.ids)
        if self.partition is None:
            if rows < link_partition.PARTITION_FROM:
                return
            self.partition, order = link_partition.build(self.matrix)
        elif self.partition.due(rows):
            self.partition, order = link_partition.refold(self.partition, self.matrix)
        else:
            return
        buffer = np.empty_like(self.buffer)
        buffer[:rows] = self.matrix[order]
        self.buffer = buffer
        self.ids = [self.ids[i] for i in order.tolist()]


class Ingestion:
    def __init__(
        self,
        store: Store,
        notes: NotesRepository,
        cases: Cases,
        sync: IndexSync,
        index: NoteIndex,
        jobs: JobQueue,
        config: Callable[[], MemoryConfig],
        changes: ChangeRecorder,
    ) -> None:
        self._store = store
        self._notes = notes
        self._cases = cases
        self._sync = sync
        self._index = index
        self._jobs = jobs
        self._config = config
        self._changes = changes
        self._scope_copy: _ScopeVectors | None = None

    def add_notes(
        self,
        items: Iterable[dict[str, Any]],
        progress: ProgressCallback | None,
        enrich: bool,
        also: Callable[[sqlite3.Connection, list[AddResult]], None] | None = None,
    ) -> list[AddResult]:
        """Add many notes: embedded in batches, written in ONE SQLite transaction (all or
        nothing) and one index write.  Each result says what happened to its item;
        ``enrich`` queues the agentic steps for each new note in the same transaction, and
        ``also(conn, results)`` writes whatever else must commit with them (a job's record
        of what it added, so a retry never adds twice)."""
        pending = [prepare(item, n) for n, item in enumerate(items, start=1)]
        if not pending:
            return []
        for case_id in {p.case_id for p in pending}:
            self._cases.check(case_id)

        with self._store.write_lock:  # one writer: dedupe, decide and write atomically
            new, twins = self._dedupe(pending)
            now = utcnow()
            for p in new:
                p.note_id = new_id()
                p.note = self._new_note(p, now, None)
            # The embedded text (content, context, tags) is the caller's, known already: a
            # large batch's token ids, then its construction, are computed in a helper process
            # beside the embedding
            tokens = None
            if self._sync.tokenizer is not None:
                tokens = construction_pool.tokens(
                    [embedding_text(p.note) for p in new], self._sync.tokenizer
                )
            built = construction_pool.start(
                construction_pool.Draft(p.content, p.category, local_date(p.created_at), p.context)
                for p in new
            )
            if len({p.case_id for p in new}) == 1 and len(new) > _SEARCH_PER_ITEM_UP_TO:
                found_links = self._embed_and_link(new, progress, tokens)
            else:
                vectors = self._sync.embed([p.note for p in new], progress, tokens)
                for p, v in zip(new, vectors, strict=True):
                    p.vector = v
                found_links = _ready(
                    self._same_matter_links(self._neighbour_links(new), new, self._config())
                )
            self._apply_construction(new, built(), now)

            def finish(conn: sqlite3.Connection) -> None:
                for twin, first in twins:
                    twin.result = AddResult(note=first.result.note, action="unchanged")
                if also is not None:
                    also(conn, [p.result for p in pending])

            links = self._write_new(new, found_links, enrich, finish)
            notes = [p.note for p in new]
            # still under the write lock: no edit can have indexed these notes yet, so the
            # index appends them (no join on the id column, no conflict with its upkeep)
            vectors = np.vstack([p.vector for p in new]) if new else None
            self._sync.write_notes(
                notes, vectors, new=True, written_terms={p.note_id: p.written_terms for p in new}
            )
            self._keep_scope_copy(new)
        self._changes.notes_added((n.case_id, n.id) for n in notes)
        self._changes.notes_changed(
            (p.result.note.case_id, p.result.note.id)
            for p in pending
            if p.result is not None and p.result.action == "unchanged"
        )
        if links:
            for scope in {n.case_id for n in notes}:
                self._changes.links_changed(scope)
        if enrich and new:
            self._changes.jobs_changed()
        return [p.result for p in pending]

    def _apply_construction(
        self, new: list[_Pending], built: list[construction_pool.Built], now: datetime
    ) -> None:
        """The embedded notes get their offline construction.  It never changes the embedded
        text (it adds no context and no tags); a note whose text it did change is embedded
        again rather than stored with a vector of other text."""
        changed: list[_Pending] = []
        for p, b in zip(new, built, strict=True):
            note = self._new_note(p, now, b.construction)
            if embedding_text(note) != embedding_text(p.note):
                changed.append(p)
            p.note, p.written_terms = note, (b.written_terms, b.written_counts)
        remember((p.content, b.matter) for p, b in zip(new, built, strict=True))
        if changed:
            vectors = self._sync.embed([p.note for p in changed])
            for p, v in zip(changed, vectors, strict=True):
                p.vector = v

    @staticmethod
    def _new_note(p: _Pending, now: datetime, built: construction.Construction | None) -> Note:
        """``built`` None: the note as it is embedded, before its construction arrives."""
        if built is None:
            built = construction.Construction(
                keywords=(), context="", tags=(), category=p.category or DEFAULT_CATEGORY
            )
        given = {
            "tags": p.tags,
            "keywords": p.keywords,
            "context": p.context,
            "event_date": p.event_date,
            "source_kind": p.source_kind,
        }
        built = replace(built, **{k: v for k, v in given.items() if v})
        return Note(
            id=p.note_id,
            case_id=p.case_id,
            content=p.content,
            category=built.category,
            keywords=built.keywords,
            context=built.context,
            tags=p.tags or built.tags,
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
            event_date=built.event_date,
            source_kind=built.source_kind,
            origin=p.origin,
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
        stored = self._notes.active_twins([(p.case_id, p.hash) for p in pending])
        for p in pending:
            key = (scope_key(p.case_id), p.hash)
            if key in seen:
                first = seen[key]
                if first.result is not None:
                    p.result, p.note_id = first.result, first.note_id
                else:
                    twins.append((p, first))
                continue
            existing = stored.get(key)
            seen[key] = p
            if existing is not None:
                p.result = AddResult(note=existing, action="unchanged")
                p.note_id = existing.id
            else:
                new.append(p)
        known = [p.note_id for p in seen.values() if p.result is not None]
        if known:
            self._notes.mark_reused(known)
        return new, twins

    def _neighbour_links(self, new: list[_Pending]) -> list[LinkRow]:
        """Semantic links (and possible-duplicate flags) to same-scope neighbours, both
        earlier notes and earlier items of this batch: the ``max_semantic_links`` strongest
        above ``link_threshold``.  Neighbours never cross scopes."""
        cfg = self._config()
        links: list[LinkRow] = []
        by_scope: dict[str | None, list[_Pending]] = {}
        for p in new:
            by_scope.setdefault(p.case_id, []).append(p)
        for case_id, group in by_scope.items():
            batch = np.vstack([p.vector for p in group])
            scope = self._scope_vectors(case_id, batch)
            found = [
                _block_links(batch, start, scope, cfg) for start in range(0, len(group), _BLOCK)
            ]
            links += _link_rows(group, scope.ids, found, cfg)
        return links

    def _same_matter_links(
        self, links: list[LinkRow], new: list[_Pending], cfg: MemoryConfig
    ) -> list[LinkRow]:
        """Close pairs that say different values about one thing ("月薪8000元" / "月薪调整为
        9500元") become possible duplicates too: search then puts the newer one first."""
        close = [
            (i, link) for i, link in enumerate(links)
            if link[2] == "semantic" and link[3] >= cfg.same_matter_threshold
        ]  # fmt: skip
        if not close:
            return links
        texts = {p.note_id: p.content for p in new}
        unknown = [dst for _i, (_s, dst, *_r) in close if dst not in texts]
        texts |= {n.id: n.content for n in self._notes.by_ids(list(dict.fromkeys(unknown)))}
        for i, (src, dst, _kind, sim, _reason) in close:
            if dst in texts and same_matter(texts[src], texts[dst]):
                links[i] = (src, dst, "duplicate", sim, SAME_MATTER_REASON)
        return links

    def _embed_and_link(
        self,
        new: list[_Pending],
        progress: ProgressCallback | None,
        tokens: TokensElsewhere | None,
    ) -> Callable[[], list[LinkRow]]:
        """:meth:`_neighbour_links` for a batch of one scope, pipelined: chunk k is compared
        with the scope in the link thread while chunk k+1 is embedded here (on 2 cores the
        links of a 500-note batch into a 50k case cost about what its embedding costs).
        Returns a call that waits for the links: the last chunk's comparison, and the
        same-matter checks of them all, run while the batch's notes are written (0.1-0.3 s
        a batch at 50k notes)."""
        cfg = self._config()
        case_id = new[0].case_id
        scope: Future = _LINK_POOL.submit(self._scope_matrix, case_id)
        found: list[Future] = []
        for start, end in _chunks(len(new)):
            chunk = new[start:end]
            chunk_tokens = tokens.shifted(start) if tokens is not None else None
            vectors = self._sync.embed([p.note for p in chunk], tokens=chunk_tokens)
            for p, v in zip(chunk, vectors, strict=True):
                p.vector = v
            batch = np.vstack([p.vector for p in new[: start + len(chunk)]])
            found.append(
                _LINK_POOL.submit(
                    lambda b=batch, s=start: _block_links(b, s, scope.result(), cfg)
                )
            )
            if progress:
                progress(start + len(chunk), len(new))
        # after the chunks' comparisons in the one link thread, so their results are ready
        rows = _LINK_POOL.submit(
            lambda: self._same_matter_links(
                _link_rows(new, scope.result().ids, [f.result() for f in found], cfg), new, cfg
            )
        )
        return rows.result

    def _scope_vectors(self, case_id: str | None, batch_vectors: np.ndarray) -> _Candidates:
        """Neighbour candidates among stored notes: the kept copy of the scope when it is
        still exact, a vector search per item for small batches, else one scan of the scope's
        vectors (kept for the next batch)."""
        if len(batch_vectors) > _SEARCH_PER_ITEM_UP_TO or self._scope_copy_valid(case_id):
            return self._scope_matrix(case_id)
        where = index_filter(case_id, include_global=False)
        found: dict[str, None] = {}
        for vector in batch_vectors:
            for note_id, _sim in self._index.vector_search(
                vector, where, self._config().neighbours
            ):
                found[note_id] = None
        ids = list(found)
        vectors = self._index.vectors_for(ids)
        ids = [i for i in ids if i in vectors]
        return _Candidates(ids, np.vstack([vectors[i] for i in ids]) if ids else None)

    def _scope_copy_valid(self, case_id: str | None) -> bool:
        kept = self._scope_copy
        return (
            kept is not None
            and kept.scope == scope_key(case_id)
            and kept.generation == self._index.generation
            and time.monotonic() - kept.used_at < _SCOPE_COPY_SECONDS
        )

    def _scope_matrix(self, case_id: str | None) -> _Candidates:
        """The scope's active vectors: the kept copy while it is exact, else one scan (kept
        for the next batch); a large scope's come with their partition."""
        if self._scope_copy_valid(case_id):
            kept = self._scope_copy
            kept.used_at = time.monotonic()
        else:
            self._scope_copy = None  # stale: free its memory before reading anew
            ids, matrix = self._index.scope_matrix(index_filter(case_id, include_global=False))
            if matrix is None:
                return _Candidates(ids, None)
            kept = self._scope_copy = _ScopeVectors(
                scope_key(case_id),
                self._index.generation,
                ids,
                np.asarray(matrix, dtype=np.float32),
                time.monotonic(),
            )
        kept.keep_partition()
        return _Candidates(kept.ids, kept.matrix, kept.partition)

    def _keep_scope_copy(self, new: list[_Pending]) -> None:
        """After this batch's own index write: the kept copy gains its notes and stays exact."""
        kept = self._scope_copy
        if kept is None:
            return
        mine = [p for p in new if scope_key(p.case_id) == kept.scope]
        if len(mine) != len(new) or kept.generation + 1 != self._index.generation:
            self._scope_copy = None  # another scope or another write: read anew next time
            return
        kept.extend([p.note_id for p in mine], np.vstack([p.vector for p in mine]))
        kept.generation = self._index.generation

    def _write_new(
        self,
        new: list[_Pending],
        found_links: Callable[[], list[LinkRow]],
        enrich: bool,
        finish: Callable[[sqlite3.Connection], None],
    ) -> list[LinkRow]:
        """Write the notes, then their links (``found_links`` waits for them: the notes are
        written meanwhile), in one transaction; returns the links."""
        notes = [p.note for p in new]
        with self._store.write() as conn:
            self._notes.insert_many(conn, notes)
            # A created row keeps no copy of the note: the note itself (or the next row's
            # ``before``) is that copy, and a second one was 20 % of the database at 50k notes.
            # NotesRepository.history fills ``after`` back in when it is read.
            self._notes.add_history_many(
                conn, ((n.id, "construction", "created", None, None, "") for n in notes)
            )
            links = found_links()
            # links grouped by source once: scanning the whole list per note was quadratic
            # (7.7 s of 20 s when adding 2,000 notes to a 10k case)
            linked_by_src: dict[str, list[str]] = {}
            for src, dst, *_ in links:
                linked_by_src.setdefault(src, []).append(dst)
            for p in new:
                note = p.note
                if enrich:
                    payload = {"note_id": note.id, "keep": _given_fields(p)}
                    self._jobs.enqueue(conn, ENRICH, payload, f"{ENRICH}:{note.id}")
                linked = tuple(linked_by_src.get(note.id, ()))
                p.result = AddResult(note=note, action="added", linked=linked)
            self._notes.insert_links(conn, links)
            finish(conn)
        return links


def _chunks(items: int) -> list[tuple[int, int]]:
    """(start, end) of the embedded chunks of a one-scope batch: blocks of _BLOCK, the last
    one at most _LAST_CHUNK.  Its links can only be found once it is embedded, so the batch
    waits for them: a small last chunk makes that wait short."""
    if items <= 2 * _LAST_CHUNK:
        return [(0, items)]
    body = items - _LAST_CHUNK
    starts = [*range(0, body, _BLOCK), body]
    return list(zip(starts, [*starts[1:], items], strict=True))


def _ready(links: list[LinkRow]) -> Callable[[], list[LinkRow]]:
    return lambda: links


class _Candidates(NamedTuple):
    """A scope's stored notes a batch may link to: ids, vectors in the same order, and the
    partition of those rows when the scope is large."""

    ids: list[str]
    matrix: np.ndarray | None
    partition: link_partition.Partition | None = None


def _block_links(
    batch: np.ndarray, start: int, scope: _Candidates, cfg: MemoryConfig
) -> list[tuple[int, int, float]]:
    """For the items ``start .. start+_BLOCK`` of a one-scope batch (``batch`` holds the
    vectors of items 0 .. end): (item, target, sim) of their strongest neighbours above the
    link threshold, targets numbered stored notes first, then the batch's own items (each
    item sees only the items before it)."""
    block = batch[start : start + _BLOCK]
    existing = scope.matrix
    n_existing = 0 if existing is None else len(existing)
    cap = max(0, min(cfg.max_semantic_links, cfg.neighbours))
    if scope.partition is not None and existing is not None:
        rows, cols, sims = scope.partition.strongest(block, existing, cfg.link_threshold, cap)
    else:
        rows, cols, sims = _strongest_of_product(block, existing, cfg.link_threshold, cap)
    with one_blas_thread():
        own = block @ batch[: start + len(block)].T
    own[np.arange(len(block))[:, None] <= np.arange(own.shape[1]) - start] = -1.0
    r2, c2, s2 = link_partition.strongest(own, cfg.link_threshold, cap)
    rows = np.concatenate([rows, r2])
    cols = np.concatenate([cols, c2 + n_existing])
    sims = np.concatenate([sims, s2])
    return [(start + r, c, s) for r, c, s in _strongest_per_row(rows, cols, sims, cap)]


def _link_rows(
    group: list[_Pending],
    existing_ids: list[str],
    found: list[list[tuple[int, int, float]]],
    cfg: MemoryConfig,
) -> list[LinkRow]:
    targets = [*existing_ids, *(p.note_id for p in group)]
    links: list[LinkRow] = []
    for block in found:
        for item, target, sim in block:
            src, dst = group[item].note_id, targets[target]
            if sim >= cfg.duplicate_threshold:
                links.append((src, dst, "duplicate", sim, DUPLICATE_REASON))
            else:
                links.append((src, dst, "semantic", sim, ""))
    return links


def _strongest_of_product(
    block: np.ndarray, matrix: np.ndarray | None, threshold: float, cap: int
) -> link_partition.Pairs:
    """(row, col, sim) of the ``cap`` strongest pairs of each ``block`` row with the
    ``matrix`` rows, above ``threshold`` (argmax passes: a top-k partition per row cost more
    than the matrix product itself at 50k notes)."""
    if matrix is None or len(matrix) == 0:
        return link_partition.strongest(np.zeros((len(block), 0), np.float32), threshold, cap)
    sims = block @ matrix.T  # a large product: here a second BLAS thread pays off
    return link_partition.strongest(sims, threshold, cap)
