"""Keeping the passages' LanceDB table in step with SQLite (the truth), as index_sync.py
does for notes: rows written after their SQLite commit, tombstones for deleted ones, and a
reconcile at open that repairs what a crash or a changed embedder left behind.

The passages live in their own table ("passages"), not in the notes' table: a note search
never scans (or pre-filters away) 50k passage rows, the notes' vector index and its tuning
stay as measured, and a document's rows are purged without rewriting the notes' table."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

import numpy as np

from desktop_app.memory.documents_repository import DocumentsRepository
from desktop_app.memory.embedder import Embedder
from desktop_app.memory.index import IndexRow, IndexUnavailableError, NoteIndex
from desktop_app.memory.store import Store
from desktop_app.memory.text import fts_text
from desktop_app.memory.types import Passage

log = logging.getLogger(__name__)

PASSAGES_TABLE = "passages"
EMBEDDER_KEY = "passages_embedder_id"
EMBED_BATCH = 64
REINDEX_BATCH = 512

ProgressCallback = Callable[[int, int], None]


def passage_row(passage: Passage, vector: np.ndarray) -> IndexRow:
    return IndexRow(
        id=passage.id,
        case_id=passage.case_id,
        status="active",
        terms=fts_text(passage.text),
        vector=vector,
        created_at=time.time(),
    )


class PassageIndexSync:
    def __init__(
        self, store: Store, repo: DocumentsRepository, index: NoteIndex, embedder: Embedder
    ) -> None:
        self._store = store
        self._repo = repo
        self.index = index
        self._embedder = embedder

    def embed(
        self,
        texts: Sequence[str],
        progress: ProgressCallback | None = None,
        cancel: Callable[[], bool] | None = None,
    ) -> np.ndarray:
        """Vectors of ``texts`` in batches; ``cancel`` is asked between batches (it raises)."""
        chunks = []
        for start in range(0, len(texts), EMBED_BATCH):
            if cancel is not None:
                cancel()
            chunks.append(self._embedder.embed(list(texts[start : start + EMBED_BATCH])))
            if progress:
                progress(min(start + EMBED_BATCH, len(texts)), len(texts))
        if not chunks:
            return np.zeros((0, self._embedder.dim), dtype=np.float32)
        return np.vstack(chunks)

    def write(self, passages: Sequence[Passage], vectors: np.ndarray | None = None) -> bool:
        """Index ``passages`` (just committed); False if the index is unavailable (they stay
        marked dirty and are indexed at the next open)."""
        if not passages:
            return True
        if vectors is None:
            vectors = self.embed([p.text for p in passages])
        try:
            self.index.upsert([passage_row(p, v) for p, v in zip(passages, vectors, strict=True)])
        except IndexUnavailableError:
            return False
        self._repo.mark_indexed([p.id for p in passages])
        return True

    def remove(self, passage_ids: Sequence[str]) -> None:
        """Drop deleted passages from the index physically (no old version keeps their
        terms), then their tombstones."""
        try:
            for start in range(0, len(passage_ids), 1000):
                self.index.delete(passage_ids[start : start + 1000])
            self.index.purge_deleted()
        except IndexUnavailableError:
            return
        self._repo.clear_tombstones(passage_ids)

    def reindex(self, ids: Sequence[str], progress: ProgressCallback | None = None) -> None:
        for start in range(0, len(ids), REINDEX_BATCH):
            self.write(self._repo.by_ids(list(ids[start : start + REINDEX_BATCH])))
            if progress:
                progress(min(start + REINDEX_BATCH, len(ids)), len(ids))

    def reconcile(self, progress: ProgressCallback | None = None) -> None:
        """At open: O(1) when in step; rebuild on a new embedder; otherwise repair what a
        crash left (tombstones, dirty rows, and — only when the counts differ — extra or
        missing rows)."""
        total = self._repo.total_passages()
        same_embedder = self._store.get_meta(EMBEDDER_KEY) in (None, self._embedder.id)
        if not same_embedder or (total and not self.index.is_open):
            self.rebuild(progress)
            return
        tombstones = self._repo.tombstones()
        if tombstones:
            self.remove(tombstones)
        dirty = self._repo.dirty_passage_ids()
        if dirty:
            self.reindex(dirty, progress)
        if self.index.is_open and self.index.count() != total:
            indexed = set(self.index.stamps())
            stored = self._repo.all_passage_ids()
            extra = sorted(indexed - set(stored))
            missing = [i for i in stored if i not in indexed]
            log.info("passage index repair: %d missing, %d extra", len(missing), len(extra))
            if extra:
                self.remove(extra)
            if missing:
                self.reindex(missing, progress)
        self._record_embedder()

    def rebuild(self, progress: ProgressCallback | None = None) -> None:
        try:
            self.index.reset()
            self.reindex(self._repo.all_passage_ids(), progress)
            self.index.purge_deleted()
        except Exception as exc:
            self.index.mark_broken(exc)
            return
        with self._store.write() as conn:
            conn.execute("DELETE FROM passage_tombstones")
        self._record_embedder()

    def _record_embedder(self) -> None:
        if self._store.get_meta(EMBEDDER_KEY) != self._embedder.id:
            with self._store.write() as conn:
                Store.set_meta(conn, EMBEDDER_KEY, self._embedder.id)
