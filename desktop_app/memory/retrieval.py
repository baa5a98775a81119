"""Pure ranking functions: fusion of the vector and full-text candidate lists, recency.

Kept free of I/O so the benchmark can try settings without touching the engine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fused:
    score: float
    vector_rank: int | None
    text_rank: int | None
    vector_similarity: float | None


@dataclass(frozen=True, slots=True)
class FusionParams:
    #: RRF constant; smaller values trust the top of each list more
    rrf_k: float = 60.0
    vector_weight: float = 1.0
    text_weight: float = 1.0


def fuse(
    vector_hits: list[tuple[str, float]],
    text_hits: list[tuple[str, float]],
    params: FusionParams = FusionParams(),
) -> dict[str, Fused]:
    """Weighted reciprocal-rank fusion, normalised so that rank 1 in both lists scores 1.0."""
    top = params.vector_weight / (params.rrf_k + 1) + params.text_weight / (params.rrf_k + 1)
    vranks = {note_id: rank for rank, (note_id, _sim) in enumerate(vector_hits, start=1)}
    vsims = dict(vector_hits)
    tranks = {note_id: rank for rank, (note_id, _s) in enumerate(text_hits, start=1)}
    fused: dict[str, Fused] = {}
    for note_id in vranks.keys() | tranks.keys():
        vr, tr = vranks.get(note_id), tranks.get(note_id)
        score = 0.0
        if vr is not None:
            score += params.vector_weight / (params.rrf_k + vr)
        if tr is not None:
            score += params.text_weight / (params.rrf_k + tr)
        fused[note_id] = Fused(score / top, vr, tr, vsims.get(note_id))
    return fused


def recency_decay(age_days: float, half_life_days: float) -> float:
    """1.0 for a note written now, 0.5 after one half-life; never negative."""
    if half_life_days <= 0:
        return 0.0
    return math.exp(-math.log(2) * max(age_days, 0.0) / half_life_days)
