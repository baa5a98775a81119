"""Finding notes: hybrid search (vector + full text, fused and ranked), the memories recalled
for a chat reply, and a note's nearest neighbours (for the agentic decision step).

The pure ranking math lives in ranking.py; the wording of the recalled memories for the
model lives in the chat layer (desktop_app/chat/memory_message.py).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import numpy as np

from desktop_app.core.clock import local_date
from desktop_app.memory.current_first import newer, order_current_first
from desktop_app.memory.embedder import Embedder
from desktop_app.memory.fallback_search import search_sqlite
from desktop_app.memory.index import NoteIndex
from desktop_app.memory.index_sync import IndexSync, epoch
from desktop_app.memory.notes_repository import NotesRepository
from desktop_app.memory.ranking import (
    FusionParams,
    context_bonus,
    fuse,
    is_relevant,
    params_for_query,
    recency_decay,
)
from desktop_app.memory.scope import index_filter, same_scope, visible_from
from desktop_app.memory.store import from_iso, to_iso
from desktop_app.memory.text import fts_text
from desktop_app.memory.types import Hit, MemoryConfig, Note, Recall, ScoreParts

#: runs a search's full-text half beside its vector half (see Search.search)
_SEARCH_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="lexmem-search")
#: a pasted judgment is not a query: only its start is used (and regexes stay fast)
MAX_QUERY_CHARS = 2000


def effective_date(row: sqlite3.Row) -> str:
    """A ranking row's date: its event date, else the user's local day it was recorded."""
    return row["event_date"] or local_date(from_iso(row["created_at"])).isoformat()


def _visible(
    case_id: str | None, note_case_id: str | None, status: str, include_inactive: bool
) -> bool:
    # Defence in depth: the index filter already scoped the search; re-check on SQLite's rows.
    return visible_from(note_case_id, case_id) and (include_inactive or status == "active")


class Search:
    def __init__(
        self,
        notes: NotesRepository,
        index: NoteIndex,
        sync: IndexSync,
        embedder: Embedder,
        config: Callable[[], MemoryConfig],
        fusion: Callable[[], FusionParams],
    ) -> None:
        self._notes = notes
        self._index = index
        self._sync = sync
        self._embedder = embedder
        self._config = config
        self._fusion = fusion
        #: the last query and its vector: one chat recall asks for it up to three times (the
        #: search, the similarities of its other hits, the case's passages)
        self._last_query: tuple[str, np.ndarray] | None = None

    def query_vector(self, query: str) -> np.ndarray:
        """The vector of ``query`` (stripped, at most MAX_QUERY_CHARS of it), embedded once
        per query in a row."""
        query = (query or "").strip()[:MAX_QUERY_CHARS]
        last = self._last_query  # one tuple: a concurrent search swaps it whole
        if last is not None and last[0] == query:
            return last[1]
        vector = self._embedder.embed([query])[0]
        self._last_query = (query, vector)
        return vector

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

        Ranking (see ranking.py and tests/benchmarks/README.md for the measurements):
        score fusion of the vector and full-text candidates, plus recency, plus a context
        bonus for the notes written just before/after a strong hit (reported in
        ``parts.link_bonus``: a time-adjacency link; such a note may have no ranks).
        """
        query = (query or "").strip()[:MAX_QUERY_CHARS]
        if not query or k <= 0:
            return []
        if self._index.broken is not None:  # waiting for its rebuild: SQLite answers
            return search_sqlite(self._notes, self._config(), query, case_id, k, include_inactive)
        self._index.begin_search()
        try:
            return self._search(query, case_id, k, include_inactive)
        finally:
            self._index.end_search()

    def _search(
        self, query: str, case_id: str | None, k: int, include_inactive: bool
    ) -> list[Hit]:
        cfg = self._config()
        where = index_filter(case_id, include_inactive=include_inactive)
        depth = max(k * 4, cfg.candidate_depth)
        # The full-text search needs no embedding: it runs beside the embedding and the
        # vector search (both wait in native code without the GIL), saving ~5 ms a search.
        text_future = _SEARCH_POOL.submit(self._index.text_search, fts_text(query), where, depth)
        qvec = self.query_vector(query)
        vector_hits = self._index.vector_search(qvec, where, depth)
        text_hits = text_future.result()
        if self._index.broken is not None:  # it failed just now (and returned nothing)
            return search_sqlite(self._notes, cfg, query, case_id, k, include_inactive)
        fused = fuse(vector_hits, text_hits, params_for_query(self._fusion(), query))
        # Score on narrow rows (scope, status, time); full notes only for the final top k:
        # materialising every candidate cost ~4 ms per search at depth 100.
        rows = self._visible_rows(list(fused), case_id, include_inactive)
        # Context bonus from the best hits by fused score (recency must not propagate).
        strongest = sorted(rows, key=lambda i: -fused[i].score)[: max(0, cfg.context_hits)]
        neighbours = self._context_neighbours([rows[i] for i in strongest], include_inactive)
        bonus = context_bonus(
            {i: fused[i].score for i in strongest}, neighbours, cfg.context_weight
        )
        rows |= self._visible_rows([i for i in bonus if i not in rows], case_id, include_inactive)
        now = time.time()
        ranked: list[tuple[float, str, ScoreParts]] = []
        for note_id, r in rows.items():
            f = fused.get(note_id)
            age_days = (now - epoch(from_iso(r["created_at"]))) / 86400
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
        if cfg.current_first and not include_inactive:  # history: by the words alone
            ranked = self._current_first(ranked, rows, k, case_id)
        top: list[Hit] = []
        for start in range(0, len(ranked), k):  # refill if the double check drops a note
            window = ranked[start : start + k]
            notes = {n.id: n for n in self._notes.by_ids([i for _s, i, _p in window])}
            for score, note_id, parts in window:
                note = notes.get(note_id)
                if note is not None and self._note_visible(note, case_id, include_inactive):
                    top.append(Hit(note, score, parts))
            if len(top) >= k:
                break
        top = top[:k]
        top += self._link_expansion(top, case_id, include_inactive)
        top += self._pinned_extras(top, case_id)
        return top

    def _current_first(
        self,
        ranked: list[tuple[float, str, ScoreParts]],
        rows: dict[str, sqlite3.Row],
        k: int,
        case_id: str | None,
    ) -> list[tuple[float, str, ScoreParts]]:
        """Of two active notes about one thing (linked as possible duplicates), the later
        one ranks first; a newer partner the candidates missed is brought in beside it.
        (A superseded note is not among them: searches for the current facts skip it.)"""
        head = ranked[: 3 * k]
        partners = self._notes.matter_partners([i for _s, i, _p in head])
        if not partners:
            return ranked
        score = {i: s for s, i, _p in head}
        missing = {o for i in score for o in partners.get(i, ()) if o not in rows}
        rows |= self._visible_rows(list(missing), case_id, False)
        dates = {i: effective_date(rows[i]) for i in [*score, *(missing & rows.keys())]}
        for note_id in missing & rows.keys():
            paired = [i for i in partners.get(note_id, ()) if i in score]
            recorded = {i: rows[i]["created_at"] for i in (note_id, *paired)}
            if not any(
                newer((dates[note_id], recorded[note_id]), (dates[i], recorded[i])) > 0
                for i in paired
            ):
                continue  # only a newer value is worth bringing in
            best = max(score[i] for i in paired)
            head.append((best, note_id, ScoreParts(None, None, None, 0.0, 0.0, best, False)))
        recorded = {i: rows[i]["created_at"] for i in dates}
        return order_current_first(head, dates, partners, recorded) + ranked[3 * k :]
    def find(
        self,
        query: str,
        case_id: str | None,
        include_inactive: bool = False,
        limit: int = 200,
    ) -> list[Hit]:
        """The notes that match ``query`` (see ranking.is_relevant), best first: what the
        memory search shows.  Unlike :meth:`search` (which ranks everything it is given, for
        the chat to choose from), an unrelated query finds nothing here."""
        cfg = self._config()
        hits = self.search(query, case_id, k=limit, include_inactive=include_inactive)
        matches = [
            h
            for h in hits
            if is_relevant(
                h.parts.vector_similarity,
                h.parts.text_rank,
                cfg.search_threshold,
                cfg.search_text_threshold,
            )
        ]
        return sorted(matches, key=lambda h: -h.score)

    @staticmethod
    def _note_visible(note: Note, case_id: str | None, include_inactive: bool) -> bool:
        return _visible(case_id, note.case_id, note.status, include_inactive)

    def _visible_rows(
        self, ids: Sequence[str], case_id: str | None, include_inactive: bool
    ) -> dict[str, sqlite3.Row]:
        return {
            i: r
            for i, r in self._notes.ranking_rows(ids).items()
            if _visible(case_id, r["case_id"], r["status"], include_inactive)
        }

    def _context_neighbours(
        self, hits: Sequence[sqlite3.Row], include_inactive: bool
    ) -> dict[str, list[str]]:
        """For each note: the notes of its own scope written just before and just after it
        (by created_at, ties by insertion order) within ``config.context_window_seconds``.

        Generic on purpose: for chat-derived notes these are the neighbouring turns or the
        facts extracted from the same exchange; for an imported case file, its adjacent lines.
        """
        cfg = self._config()
        if not hits or cfg.context_weight <= 0:
            return {}
        window = timedelta(seconds=max(cfg.context_window_seconds, 0.0))
        out: dict[str, list[str]] = {}
        for r in hits:
            at = from_iso(r["created_at"])
            lo, hi = to_iso(at - window), to_iso(at + window)
            out[r["id"]] = self._notes.written_next_to(r, lo, hi, include_inactive)
        return out

    def _link_expansion(
        self, top: list[Hit], case_id: str | None, include_inactive: bool
    ) -> list[Hit]:
        budget = self._config().link_budget
        if not top or budget <= 0:
            return []
        strong = top[: max(1, min(3, len(top)))]
        present = {h.note.id for h in top}
        candidates: dict[str, tuple[float, float]] = {}
        for hit in strong:
            for link in self._notes.links_of(hit.note.id):
                if link.dst in present or link.kind == "supersedes":
                    continue
                bonus = hit.score * link.strength * 0.5
                if bonus > candidates.get(link.dst, (0.0, 0.0))[0]:
                    candidates[link.dst] = (bonus, link.strength)
        extra: list[Hit] = []
        ranked = sorted(candidates.items(), key=lambda kv: -kv[1][0])
        notes = {n.id: n for n in self._notes.by_ids([i for i, _ in ranked])}
        for note_id, (bonus, _s) in ranked:
            note = notes.get(note_id)
            if note is None or not self._note_visible(note, case_id, include_inactive):
                continue
            extra.append(
                Hit(note, bonus, ScoreParts(None, None, None, 0.0, 0.0, bonus, note.pinned))
            )
            if len(extra) >= budget:
                break
        return extra

    def _pinned_extras(self, hits: list[Hit], case_id: str | None) -> list[Hit]:
        present = {h.note.id for h in hits}
        return [
            Hit(note, 0.0, ScoreParts(None, None, None, 0.0, 0.0, 0.0, True))
            for note in self._notes.pinned(case_id)
            if note.id not in present
        ]

    # -- recall for a chat reply ---------------------------------------------------------

    def recall(self, query: str, case_id: str | None) -> Recall:
        """The memories injected into one chat reply: pinned notes of the case first, then
        the best hits above ``recall_threshold``; superseded notes never; at most
        ``max_memories``.  Recalled notes count as retrieved (retrieval_count, last_accessed)."""
        cfg = self._config()
        hits = self.search(query, case_id, k=cfg.max_memories)
        chosen: list[Hit] = [h for h in hits if h.parts.pinned and h.note.case_id == case_id]
        sims = self._similarities(query, hits)
        qualifies = set()
        for hit in hits:
            # Either the meaning is close, or the exact words matched well (a full-text hit
            # near the top) while the meaning is at least loosely related.
            sim = sims.get(hit.note.id, 0.0)
            words_match = hit.parts.text_rank is not None and hit.parts.text_rank <= 3
            if sim >= cfg.recall_threshold or (words_match and sim >= cfg.recall_threshold / 2):
                qualifies.add(hit.note.id)
        qualifies |= self._newer_partners(hits, qualifies)
        for hit in hits:
            if len(chosen) >= cfg.max_memories:
                break
            if hit in chosen or hit.note.status != "active" or hit.note.id not in qualifies:
                continue
            chosen.append(hit)
        chosen = chosen[: cfg.max_memories]
        if chosen:
            self._notes.mark_recalled([h.note.id for h in chosen])
        return Recall(tuple(chosen))

    def _newer_partners(self, hits: Sequence[Hit], qualifies: set[str]) -> set[str]:
        """The notes search put just above a qualifying note of the same matter (its newer
        value): an outdated value is never injected without the current one."""
        if not qualifies:
            return set()
        partners = self._notes.matter_partners([h.note.id for h in hits])
        order = [h.note.id for h in hits]
        newer = set()
        for position, note_id in enumerate(order):
            if note_id in qualifies:
                newer |= set(partners.get(note_id, ())) & set(order[:position])
        return newer

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
            qvec = self.query_vector(query)
            sims |= {i: float(v @ qvec) for i, v in self._index.vectors_for(missing).items()}
        return sims

    # -- neighbours of a note ------------------------------------------------------------

    def neighbours_of(self, note: Note, k: int) -> list[Note]:
        """The nearest active notes in the note's own scope (never another case, never the
        global notes for a case note), best first, without the note itself."""
        vector = self._sync.vector_of(note)
        where = index_filter(note.case_id, include_global=False)
        found = [i for i, _sim in self._index.vector_search(vector, where, k + 1) if i != note.id]
        return [n for n in self._notes.by_ids(found[:k]) if same_scope(n.case_id, note.case_id)]
