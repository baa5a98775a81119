"""Pure ranking functions: fusion of the vector and full-text candidate lists, the context
(neighbour) bonus, recency.

Kept free of I/O so the benchmark can try settings without touching the engine.

Why score fusion and not reciprocal-rank fusion (measured on LoCoMo, see
tests/benchmarks/README.md): the USE vectors are weak on English chat turns (evidence
recall@10 0.35 against BM25's 0.61), and RRF gives both lists the same say at every rank,
so the weak list pushes good text hits down (RRF 0.53).  Score fusion keeps the *strength*
of each match: BM25 normalised by the best BM25 score of the query, cosine rescaled above a
floor (0 by default; see ``FusionParams.vector_floor``).
A note found by both lists still adds both parts, which rewards agreement.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal


@dataclass(frozen=True, slots=True)
class Fused:
    score: float
    vector_rank: int | None
    text_rank: int | None
    vector_similarity: float | None


@dataclass(frozen=True, slots=True)
class FusionParams:
    #: "score": weighted sum of normalised BM25 and rescaled cosine (the default);
    #: "rrf": weighted reciprocal-rank fusion (kept for comparison in the benchmark)
    method: Literal["score", "rrf"] = "score"
    #: share of the full-text part in score fusion; the vector part gets the rest.  In RRF
    #: mode this and ``vector_weight`` are the two lists' weights.
    text_weight: float = 0.7
    vector_weight: float = 0.3
    #: the full-text share for a query written mostly in CJK script.  Character-bigram
    #: matches are weak evidence for Chinese paraphrases ("显示器坏了" vs "屏幕出现花屏"):
    #: on the Chinese legal check set BM25 alone finds 0.37 at rank 1, the vectors 0.59,
    #: while on English LoCoMo word BM25 is the strong signal.  See :func:`params_for_query`.
    text_weight_cjk: float = 0.3
    #: cosine at or below this counts as no match.  0 by default: a floor at USE's
    #: "unrelated" level (0.2) gained 0.003 on LoCoMo but erased the order of weak vector
    #: hits, which is all a short Chinese query with no shared bigram has to go on.
    vector_floor: float = 0.0
    #: RRF constant; smaller values trust the top of each list more
    rrf_k: float = 60.0


_CJK_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]")
_LETTER = re.compile(r"[^\W\d_]")


def is_relevant(
    vector_similarity: float | None,
    text_rank: int | None,
    threshold: float,
    text_threshold: float,
) -> bool:
    """Whether a search hit is worth showing as a match, from the engine's own scores.

    The ranking alone cannot say: fusion scores are relative to the query's best hit, so an
    unrelated query still ranks every note.  The cosine is absolute: close meaning counts on
    its own; a looser meaning counts when the full-text search also found the query's words
    in the note.  A hit without a cosine (only pulled in by a link or for being pinned) is no
    match by itself.
    """
    if vector_similarity is None:
        return False
    if vector_similarity >= threshold:
        return True
    return text_rank is not None and vector_similarity >= text_threshold


def params_for_query(params: FusionParams, query: str) -> FusionParams:
    """The fusion settings for one query: ``text_weight_cjk`` replaces ``text_weight`` when
    at least half of the query's letters are CJK (score fusion only)."""
    if params.method != "score":
        return params
    letters = len(_LETTER.findall(query))
    if letters and len(_CJK_CHAR.findall(query)) * 2 >= letters:
        return replace(params, text_weight=params.text_weight_cjk)
    return params


def fuse(
    vector_hits: list[tuple[str, float]],
    text_hits: list[tuple[str, float]],
    params: FusionParams = FusionParams(),
) -> dict[str, Fused]:
    """Fuse (id, cosine) and (id, BM25) lists, each best first, into scores in [0, 1]
    (1.0: the best text hit of the query that is also a perfect vector match)."""
    vranks = {note_id: rank for rank, (note_id, _sim) in enumerate(vector_hits, start=1)}
    vsims = dict(vector_hits)
    tranks = {note_id: rank for rank, (note_id, _s) in enumerate(text_hits, start=1)}
    tscores = dict(text_hits)
    fused: dict[str, Fused] = {}
    if params.method == "rrf":
        top = (params.vector_weight + params.text_weight) / (params.rrf_k + 1)
        for note_id in vranks.keys() | tranks.keys():
            vr, tr = vranks.get(note_id), tranks.get(note_id)
            score = 0.0
            if vr is not None:
                score += params.vector_weight / (params.rrf_k + vr)
            if tr is not None:
                score += params.text_weight / (params.rrf_k + tr)
            fused[note_id] = Fused(score / top, vr, tr, vsims.get(note_id))
        return fused

    best_text = max((s for _i, s in text_hits), default=0.0)
    floor = min(max(params.vector_floor, 0.0), 0.99)
    wt = min(max(params.text_weight, 0.0), 1.0)
    for note_id in vranks.keys() | tranks.keys():
        text_part = tscores[note_id] / best_text if note_id in tscores and best_text > 0 else 0.0
        sim = vsims.get(note_id)
        vector_part = max(0.0, (sim - floor) / (1.0 - floor)) if sim is not None else 0.0
        score = wt * text_part + (1.0 - wt) * vector_part
        fused[note_id] = Fused(score, vranks.get(note_id), tranks.get(note_id), sim)
    return fused


def context_bonus(
    scores: Mapping[str, float],
    neighbours: Mapping[str, Iterable[str]],
    weight: float,
) -> dict[str, float]:
    """Bonus for the context neighbours of strong hits: ``weight * score(hit)`` for each
    neighbour (the best one if several hits share it).

    Why: a fact is often split over adjacent notes (a question and its answer in a chat,
    "the screen failed" then "customer service refused three times").  On LoCoMo the
    evidence turn is often the reply to the turn that matches the query; lifting the
    neighbours of the top hits raised evidence recall@10 by ~4 points.
    """
    bonus: dict[str, float] = {}
    if weight <= 0:
        return bonus
    for note_id, others in neighbours.items():
        base = scores.get(note_id, 0.0)
        if base <= 0:
            continue
        for other in others:
            if other != note_id:
                bonus[other] = max(bonus.get(other, 0.0), weight * base)
    return bonus


def recency_decay(age_days: float, half_life_days: float) -> float:
    """1.0 for a note written now, 0.5 after one half-life; never negative."""
    if half_life_days <= 0:
        return 0.0
    return math.exp(-math.log(2) * max(age_days, 0.0) / half_life_days)
