"""LoCoMo evidence retrieval through the real engine (no LLM).

One case per conversation, one note per turn (``speaker: text``, created_at = session
date + turn number in seconds, source = dia_id), ingested with ``engine.add_notes`` into a
temp folder.  For every question of categories 1-4: recall@k = the fraction of the
question's (cleaned, deduplicated) evidence dia_ids whose turn is among the first k hits
returned by ``engine.search(question, case, k)`` — only those first k: the link-expansion
and pinned extras search appends after k are not counted.  Averaged over questions
(macro), per category and overall.

Baselines in the same run: the engine's own vector-only and full-text-only rankings (the
index queried directly, same scope filter).  Ablation: the same engine with other fusion
settings.  Usage: ``python -m tests.benchmarks.bench_locomo [--quick]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.common import OUT, git_rev, machine, write_section
from tests.benchmarks.harness import MemoEmbedder
from tests.benchmarks.locomo_data import CATEGORY_NAMES, Question, load

KS = (5, 10)
QUICK_CONVERSATIONS = 3


@dataclasses.dataclass
class Variant:
    name: str
    fusion: dict  # FusionParams overrides
    config: dict  # MemoryConfig overrides


def variants(quick: bool) -> list[Variant]:
    no_ctx = {"context_weight": 0.0}
    rows = [
        Variant(
            "RRF k=60, equal weights, depth 40 (previous engine default)",
            {"method": "rrf", "text_weight": 1.0, "vector_weight": 1.0},
            {**no_ctx, "candidate_depth": 40},
        ),
        Variant(
            "RRF, text weight 3 : vector 1, depth 100",
            {"method": "rrf", "text_weight": 3.0, "vector_weight": 1.0},
            no_ctx,
        ),
        Variant(
            "score fusion 0.7 BM25/max + 0.3 cosine (CJK query: 0.3/0.7), depth 40",
            {},
            {**no_ctx, "candidate_depth": 40},
        ),
        Variant("score fusion, depth 100", {}, no_ctx),
        Variant("score fusion, depth 100 + context bonus 0.3 (chosen)", {}, {}),
    ]
    if not quick:
        rows += [
            Variant("chosen, text weight 0.5", {"text_weight": 0.5}, {}),
            Variant("chosen, text weight 0.85", {"text_weight": 0.85}, {}),
            Variant("chosen, vector floor 0.2", {"vector_floor": 0.2}, {}),
            Variant("chosen, no CJK rule (CJK text weight 0.7)", {"text_weight_cjk": 0.7}, {}),
            Variant("chosen, context weight 0.15", {}, {"context_weight": 0.15}),
            Variant("chosen, context weight 0.5", {}, {"context_weight": 0.5}),
            Variant("chosen, no recency (recency_weight 0)", {}, {"recency_weight": 0.0}),
        ]
    return rows


def recall_at(sources: list[str | None], question: Question, k: int) -> float:
    got = set(sources[:k])
    return sum(e in got for e in question.evidence) / len(question.evidence)


def score(
    ranker: Callable[[Question], list[str | None]], questions: list[Question]
) -> dict[str, dict[int, float]]:
    """{category name or "all": {k: mean recall}}"""
    sums: dict[str, dict[int, float]] = defaultdict(lambda: dict.fromkeys(KS, 0.0))
    counts: dict[str, int] = defaultdict(int)
    for q in questions:
        sources = ranker(q)
        for key in (CATEGORY_NAMES[q.category], "all"):
            counts[key] += 1
            for k in KS:
                sums[key][k] += recall_at(sources, q, k)
    return {key: {k: sums[key][k] / counts[key] for k in KS} for key in sums} | {
        "_n": {k: counts["all"] for k in KS}
    }


def run(quick: bool = False, write: bool = True) -> dict:
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.embedder import default_embedder
    from desktop_app.memory.ranking import FusionParams
    from desktop_app.memory.scope import index_filter as scope_filter
    from desktop_app.memory.text import fts_text
    from desktop_app.memory.types import MemoryConfig

    conversations, questions, dropped = load()
    if quick:
        conversations = conversations[:QUICK_CONVERSATIONS]
        questions = [q for q in questions if q.sample < QUICK_CONVERSATIONS]
    embedder = MemoEmbedder(default_embedder())
    OUT.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="locomo-", dir=OUT))
    try:
        engine = MemoryEngine.open(folder / "data", embedder=embedder)
        cases: list[str] = []
        t0 = time.perf_counter()
        for n, items in enumerate(conversations):
            case = engine.create_case(f"LoCoMo conversation {n}")
            engine.add_notes([{**it, "case_id": case.id} for it in items])
            cases.append(case.id)
        engine.optimize()
        ingest_s = time.perf_counter() - t0
        source_of = {note.id: note.source for cid in cases for note in engine.list_notes(cid)}
        embedder.prime([q.text for q in questions])
        base_config = engine.config

        def engine_ranker(q: Question) -> list[str | None]:
            hits = engine.search(q.text, cases[q.sample], k=max(KS))
            return [h.note.source for h in hits[: max(KS)]]  # extras after k are not counted

        def vector_ranker(q: Question) -> list[str | None]:
            qvec = embedder.embed([q.text])[0]
            hits = engine._index.vector_search(qvec, scope_filter(cases[q.sample]), max(KS))
            return [source_of.get(i) for i, _ in hits]

        def text_ranker(q: Question) -> list[str | None]:
            hits = engine._index.text_search(
                fts_text(q.text), scope_filter(cases[q.sample]), max(KS)
            )
            return [source_of.get(i) for i, _ in hits]

        results: dict[str, dict] = {}
        timings: dict[str, float] = {}
        for name, ranker in (
            ("vector only (engine index)", vector_ranker),
            ("full-text only (engine index, BM25)", text_ranker),
        ):
            t = time.perf_counter()
            results[name] = score(ranker, questions)
            timings[name] = time.perf_counter() - t
        default_fusion = engine.fusion
        for v in variants(quick):
            engine.fusion = dataclasses.replace(FusionParams(), **v.fusion)
            engine.config = dataclasses.replace(base_config, **v.config)
            t = time.perf_counter()
            results[v.name] = score(engine_ranker, questions)
            timings[v.name] = time.perf_counter() - t
        engine.fusion, engine.config = default_fusion, base_config
        t = time.perf_counter()
        results["engine defaults (what ships)"] = score(engine_ranker, questions)
        timings["engine defaults (what ships)"] = time.perf_counter() - t
        engine.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    defaults = MemoryConfig()
    summary = {
        "quick": quick,
        "questions": len(questions),
        "notes": len(source_of),
        "dropped": dropped,
        "ingest_seconds": ingest_s,
        "results": results,
        "timings": timings,
        "settings": {
            "fusion": dataclasses.asdict(FusionParams()),
            "candidate_depth": defaults.candidate_depth,
            "context_weight": defaults.context_weight,
            "context_hits": defaults.context_hits,
            "context_window_seconds": defaults.context_window_seconds,
            "recency_weight": defaults.recency_weight,
        },
    }
    (OUT / f"locomo{'-quick' if quick else ''}.json").write_text(json.dumps(summary, indent=1))
    md = markdown(summary)
    print(md)
    if write:
        write_section("locomo-quick" if quick else "locomo", md)
    return summary


def markdown(s: dict) -> str:
    cats = [CATEGORY_NAMES[c] for c in sorted(CATEGORY_NAMES)]
    lines = [
        f"### LoCoMo evidence recall{' (QUICK: first 3 conversations)' if s['quick'] else ''}",
        "",
        f"{s['questions']} scored questions (categories 1-4), {s['notes']} notes; ingest through "
        f"`add_notes` {s['ingest_seconds']:.1f} s. Machine: {machine()}; commit {git_rev()}.",
        "",
        "| ranking | "
        + " | ".join(f"{c} @5/@10" for c in cats)
        + " | **all @5** | **all @10** | s/1k q |",
        "|---|" + "---|" * (len(cats) + 3),
    ]
    n = s["questions"]
    for name, r in s["results"].items():
        cells = [f"{r[c][5]:.3f} / {r[c][10]:.3f}" if c in r else "-" for c in cats]
        lines.append(
            f"| {name} | "
            + " | ".join(cells)
            + f" | **{r['all'][5]:.3f}** | **{r['all'][10]:.3f}** | "
            f"{s['timings'][name] / n * 1000:.1f} |"
        )
    lines += ["", f"Settings that ship: `{json.dumps(s['settings'])}`"]
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="first 3 conversations, fewer variants"
    )
    parser.add_argument("--no-write", action="store_true", help="do not update README.md")
    args = parser.parse_args()
    run(quick=args.quick, write=not args.no_write)
