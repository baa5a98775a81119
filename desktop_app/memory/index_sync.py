"""Keeping the LanceDB index in step with SQLite (the truth).

- :func:`embedding_text` and :func:`terms_text`: what a note's vector and its full-text terms
  are built from — the one place that says so (the add path and every re-index use it);
- :func:`stamp`: a digest of everything an index row was built from, so stale rows are found
  without re-embedding everything;
- :class:`IndexSync`: reconcile at open (crash repair, restored databases, a changed
  embedder), rebuild, re-index, write the current version of notes, remove deleted ones.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

import numpy as np

from desktop_app.core.errors import StorageError
from desktop_app.memory import bm25
from desktop_app.memory.dates import date_terms
from desktop_app.memory.embedder import Embedder, TokensElsewhere
from desktop_app.memory.index import IndexRow, IndexUnavailableError, NoteIndex
from desktop_app.memory.notes_repository import NotesRepository
from desktop_app.memory.scope import scope_key
from desktop_app.memory.store import Store, to_iso, utcnow
from desktop_app.memory.text import fts_text
from desktop_app.memory.types import Note

log = logging.getLogger(__name__)

ProgressCallback = Callable[[int, int], None]  # (done, total)
#: set in meta when the index failed: the next open rebuilds it (the promise the message makes)
NEEDS_REBUILD = "index_needs_rebuild"
REINDEX_BATCH = 512
REMOVE_BATCH = 1000
EMBED_BATCH = 256


def embedding_text(note: Note) -> str:
    """What a note's vector is computed from: its content, context and tags."""
    parts = [note.content]
    if note.context:
        parts.append(note.context)
    if note.tags:
        parts.append(" ".join(note.tags))
    return "\n".join(parts)


#: what the full-text terms are built from; a folder indexed under another version gets its
#: terms (not its vectors) rebuilt at open
TERMS_VERSION = "2"  # 2: normalised amounts, articles and dates; the event date


def terms_text(note: Note, written: str | None = None) -> str:
    """The full-text terms of a note (content, context, keywords, tags, its event date).
    ``written``: the terms of its content and context, when the caller has them already."""
    if written is None:
        written = fts_text(f"{note.content}\n{note.context}")
    return " ".join([written, _label_terms(note)])


def _label_terms(note: Note) -> str:
    labels = fts_text(" ".join([*note.keywords, *note.tags]), values=False)
    return " ".join([labels, *date_terms(note.event_date)])


#: a new note's written terms (content and context) and their counts, computed beside its
#: embedding (construction_pool.Built)
WrittenTerms = tuple[str, bm25.Counted]


def _counted(labels: str, written: WrittenTerms) -> bm25.Counted:
    """The counts of the row's terms (``written`` terms, then ``labels``): terms are
    analysed one by one, so the counts of the two parts add up."""
    counts, length = written[1]
    extra = bm25.analyse(labels)
    # a copy updated in place: ``Counter + Counter`` went through every term in Python
    # (21 against 6 us a row: ~0.8 s of a 50k import's writer thread)
    merged = Counter(counts)
    merged.update(extra)
    return merged, length + len(extra)


def epoch(value: datetime) -> float:
    return value.timestamp()


def stamp(note: Note, terms: str | None = None) -> str:
    """``terms``: the note's terms_text when the caller has it already."""
    basis = "\x00".join(
        (
            embedding_text(note),
            terms_text(note) if terms is None else terms,
            note.status,
            scope_key(note.case_id),
            str(epoch(note.created_at)),
        )
    )
    return hashlib.blake2b(basis.encode("utf-8"), digest_size=12).hexdigest()


def index_row(note: Note, vector: np.ndarray, written: WrittenTerms | None = None) -> IndexRow:
    if written is None:
        terms, counted = terms_text(note), None
    else:
        labels = _label_terms(note)
        terms, counted = " ".join([written[0], labels]), _counted(labels, written)
    return IndexRow(
        id=note.id,
        case_id=note.case_id,
        status=note.status,
        terms=terms,
        vector=vector,
        created_at=epoch(note.created_at),
        stamp=stamp(note, terms),
        counted=counted,
    )


class IndexSync:
    def __init__(
        self, store: Store, notes: NotesRepository, index: NoteIndex, embedder: Embedder
    ) -> None:
        self._store = store
        self._notes = notes
        self._index = index
        self._embedder = embedder
        index.on_broken = self._record_broken

    def _record_broken(self, reason: str) -> None:
        try:
            with self._store.write() as conn:
                Store.set_meta(conn, NEEDS_REBUILD, reason)
        except StorageError:  # read-only, or the database failed too: the writer will see it
            log.warning("could not record that the index needs a rebuild", exc_info=True)

    # -- at open -------------------------------------------------------------------------

    def reconcile(self, progress: ProgressCallback | None) -> None:
        """Bring the index in step at open: O(1) when it is, O(changes) after a crash,
        O(n) only when database and index may no longer belong together."""
        stored_id = self._store.get_meta("embedder_id")
        stored_dim = self._store.get_meta("embedder_dim")
        same_embedder = stored_id == self._embedder.id and stored_dim == str(self._embedder.dim)
        failed_before = self._store.get_meta(NEEDS_REBUILD)
        if not self._index.is_open or not same_embedder or failed_before:
            if stored_id and not same_embedder:
                log.info("embedder changed (%s -> %s): re-embedding", stored_id, self._embedder.id)
            if failed_before:
                log.info("the index failed last time (%s): rebuilding it", failed_before)
            self.rebuild(progress)
            if self._index.broken is None:
                self.record_version(self._index.version)
            return
        # Crash repair, O(changes): rows deleted from SQLite but maybe not from the index,
        # and notes whose newest version may not have reached the index.
        tombstones = self._notes.tombstones()
        if tombstones:
            self.remove(tombstones)
        dirty = self._notes.unindexed_ids()
        if dirty:
            self.reindex(dirty)
        # The index version recorded with the last write says whether index and database
        # still belong together; a restored database or a replaced index breaks that, and
        # only then are the id sets compared (O(n)); otherwise opening stays O(1).
        recorded = self._store.get_meta("index_version")
        if self._index.count() != self._notes.total() or recorded != str(self._index.version):
            self.repair(progress)
        if self._store.get_meta("terms_version") != TERMS_VERSION:
            self.refresh_terms(progress)
        if self._index.broken is None:
            self.record_version(self._index.version)

    def refresh_terms(self, progress: ProgressCallback | None = None) -> None:
        """Rebuild every row's full-text terms, keeping its vector (the text the vectors
        were computed from did not change): an upgrade costs no re-embedding."""
        ids = self._notes.all_ids()
        for start in range(0, len(ids), REINDEX_BATCH):
            notes = self._notes.by_ids(ids[start : start + REINDEX_BATCH])
            stored = self._index.vectors_for([n.id for n in notes])
            with_vectors = [n for n in notes if n.id in stored]
            if with_vectors:
                self._index.upsert([index_row(n, stored[n.id]) for n in with_vectors])
            missing = [n for n in notes if n.id not in stored]
            if missing:
                self.write_notes(missing)
            if progress:
                progress(min(start + REINDEX_BATCH, len(ids)), len(ids))
        self._index.optimize()
        with self._store.write() as conn:
            Store.set_meta(conn, "terms_version", TERMS_VERSION)

    def record_version(self, version: int) -> None:
        """Remember which index version matches the data (called after every index write)."""
        if self._store.get_meta("index_version") == str(version):
            return
        with self._store.write() as conn:
            Store.set_meta(conn, "index_version", str(version))

    def repair(self, progress: ProgressCallback | None) -> None:
        """Bring the index back in step with SQLite (only run when they may disagree): rows
        missing on either side, and rows built from an older version of their note (after a
        database restored from a backup), found by comparing stamps — only those re-embed."""
        index_stamps = self._index.stamps()
        sql_ids = self._notes.all_ids()
        stale = []
        for start in range(0, len(sql_ids), 2000):
            for note in self._notes.by_ids(sql_ids[start : start + 2000]):
                if index_stamps.get(note.id) != stamp(note):
                    stale.append(note.id)
        extra = sorted(index_stamps.keys() - set(sql_ids))
        log.info("index repair: %d stale or missing, %d extra", len(stale), len(extra))
        if extra:
            self.remove(extra)
        if stale:
            self.reindex(stale, progress)

    def rebuild(self, progress: ProgressCallback | None = None) -> int:
        """Recreate the index from SQLite (re-embedding every note); returns the row count.
        If the index cannot be written (a full disk), it stays marked for a rebuild and
        search reads SQLite meanwhile: the data is safe, only slower to search."""
        ids = self._notes.all_ids(oldest_first=True)
        try:
            self._index.reset()
            self.reindex(ids, progress)
            self._index.purge_deleted()
        except Exception as exc:
            self._index.mark_broken(exc)
            return 0
        if self._index.broken is not None:
            return 0
        with self._store.write() as conn:
            Store.set_meta(conn, "embedder_id", self._embedder.id)
            Store.set_meta(conn, "embedder_dim", str(self._embedder.dim))
            Store.set_meta(conn, "index_built_at", to_iso(utcnow()))
            Store.set_meta(conn, "terms_version", TERMS_VERSION)
            conn.execute("DELETE FROM meta WHERE key = ?", (NEEDS_REBUILD,))
            conn.execute("DELETE FROM index_tombstones")  # the fresh table never held them
        return len(ids)

    def reindex(
        self,
        ids: Sequence[str],
        progress: ProgressCallback | None = None,
        batch: int = REINDEX_BATCH,
    ) -> None:
        total = len(ids)
        if not total:
            return
        if progress:
            progress(0, total)
        for start in range(0, total, batch):
            self.write_notes(self._notes.by_ids(list(ids[start : start + batch])))
            if progress:
                progress(min(start + batch, total), total)
        self.optimize()

    # -- as notes change -----------------------------------------------------------------

    def embed(
        self,
        notes: Sequence[Note],
        progress: ProgressCallback | None = None,
        tokens: TokensElsewhere | None = None,
    ) -> np.ndarray:
        """The vectors of ``notes`` (in batches, reporting ``progress``); ``tokens``: their
        token ids computed elsewhere (:meth:`tokenizer` made them), where ready."""
        texts = [embedding_text(n) for n in notes]
        if not texts:
            return np.zeros((0, self._embedder.dim), dtype=np.float32)
        chunks = []
        for start in range(0, len(texts), EMBED_BATCH):
            part = texts[start : start + EMBED_BATCH]
            if tokens is None:
                chunks.append(self._embedder.embed(part))
            else:
                chunks.append(self._embedder.embed(part, tokens=tokens.shifted(start)))
            if progress:
                progress(min(start + EMBED_BATCH, len(texts)), len(texts))
        return np.vstack(chunks)

    @property
    def tokenizer(self) -> Callable[[list[str]], list[list[int]]] | None:
        """The embedder's tokenizer when it can be run elsewhere and its token ids given
        back to :meth:`embed` (a module-level function); None when it cannot."""
        return getattr(self._embedder, "tokenize", None)

    def vector_of(self, note: Note) -> np.ndarray:
        """The note's stored vector, or a fresh one when the index has none."""
        vector = self._index.vectors_for([note.id]).get(note.id)
        return vector if vector is not None else self._embedder.embed([embedding_text(note)])[0]

    def write_notes(
        self,
        notes: Sequence[Note],
        vectors: np.ndarray | None = None,
        *,
        new: bool = False,
        written_terms: Mapping[str, WrittenTerms | None] | None = None,
    ) -> None:
        """Write the notes' current versions to the index.

        Under the write lock, from SQLite as it is now: an edit or a delete that committed
        after the caller's snapshot wins (an older version written last would serve stale
        text, and a deleted note would come back).  ``vectors`` are reused when the text
        they were computed from is still the note's.  ``new``: notes the caller inserted
        under the write lock it still holds, so none can be in the index yet (a plain append);
        ``written_terms`` (only with ``new``): their written text's terms and counts,
        computed already."""
        if not notes:
            return
        with self._store.write_lock:
            # new notes were inserted under the lock the caller still holds: as they are
            current = {
                n.id: n for n in (notes if new else self._notes.by_ids([n.id for n in notes]))
            }
            rows: list[tuple[Note, np.ndarray | None]] = []
            for i, note in enumerate(notes):
                now = current.get(note.id)
                if now is None:
                    continue  # deleted meanwhile: nothing to write
                same_text = embedding_text(now) == embedding_text(note)
                rows.append((now, vectors[i] if vectors is not None and same_text else None))
            if not rows:
                return
            todo = [i for i, (_n, v) in enumerate(rows) if v is None]
            if todo:
                fresh = self._embedder.embed([embedding_text(rows[i][0]) for i in todo])
                for i, vector in zip(todo, fresh, strict=True):
                    rows[i] = (rows[i][0], vector)
            try:
                known = written_terms if new and written_terms else {}
                self._index.upsert(
                    [index_row(n, v, known.get(n.id)) for n, v in rows], new=new
                )
            except IndexUnavailableError:
                return  # the notes stay marked dirty: indexed when the index is back
            self._notes.mark_indexed([n.id for n, _v in rows])

    def remove(self, note_ids: Sequence[str]) -> None:
        """Drop deleted notes from the index, physically (no old version keeps their
        terms), then forget their tombstones."""
        try:
            for start in range(0, len(note_ids), REMOVE_BATCH):  # a deleted case: many ids
                self._index.delete(note_ids[start : start + REMOVE_BATCH])
            self._index.purge_deleted()
        except IndexUnavailableError:
            return  # the tombstones stay: the rows go when the index is rebuilt
        self._notes.clear_tombstones(note_ids)

    def optimize(self) -> None:
        try:
            self._index.optimize()
        except IndexUnavailableError:
            pass  # marked for a rebuild; search reads SQLite meanwhile
