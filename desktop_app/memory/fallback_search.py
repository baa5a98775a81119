"""Search from SQLite alone, while the index is broken and waiting for its rebuild.

Slower than the index (a scan of the scope's notes) but correct: the same scope rule (a
case's notes and the global ones, never another case), active notes only unless asked, the
case's pinned notes always.  Notes are ranked by the share of the query's terms they hold
(the same terms the full-text index uses: CJK bigrams, words), then by recency.
"""

from __future__ import annotations

import time

from desktop_app.memory.notes_repository import NotesRepository
from desktop_app.memory.ranking import recency_decay
from desktop_app.memory.scope import visible_from
from desktop_app.memory.text import fts_terms, fts_text, without_surrogates
from desktop_app.memory.types import Hit, MemoryConfig, Note, ScoreParts

#: at most this many candidate notes are ranked (the newest that hold a query term)
CANDIDATES = 2000
MAX_TERMS = 32


def _share(note: Note, terms: list[str]) -> float:
    haystack = fts_text(" ".join([note.content, note.context, *note.keywords, *note.tags]))
    held = set(haystack.split())
    return sum(1 for t in terms if t in held) / len(terms)


def search_sqlite(
    notes: NotesRepository,
    config: MemoryConfig,
    query: str,
    case_id: str | None,
    k: int,
    include_inactive: bool = False,
) -> list[Hit]:
    terms = list(dict.fromkeys(fts_terms(without_surrogates(query or ""))))[:MAX_TERMS]
    if k <= 0 or not terms:
        return []
    now = time.time()
    scored: list[tuple[float, Note, float, float]] = []
    for note in notes.with_any_term(case_id, terms, include_inactive, CANDIDATES):
        if not visible_from(note.case_id, case_id):
            continue  # defence in depth, as the index path does
        share = _share(note, terms)
        if share <= 0:
            continue
        age_days = (now - note.created_at.timestamp()) / 86400
        recency = config.recency_weight * recency_decay(age_days, config.recency_half_life_days)
        scored.append((share + recency, note, share, recency))
    scored.sort(key=lambda t: -t[0])
    hits = [
        Hit(note, score, ScoreParts(None, rank, None, share, recency, 0.0, note.pinned))
        for rank, (score, note, share, recency) in enumerate(scored[:k], start=1)
    ]
    present = {h.note.id for h in hits}
    hits += [
        Hit(note, 0.0, ScoreParts(None, None, None, 0.0, 0.0, 0.0, True))
        for note in notes.pinned(case_id)
        if note.id not in present
    ]
    return hits
