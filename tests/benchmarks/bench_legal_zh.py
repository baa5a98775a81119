"""Chinese legal check: recall@1/@3/@5 of paraphrased queries over three cases
(data/legal_zh*.jsonl) and "current ranked above outdated" for pairs of notes that change over
time — with the shipped settings, the ranking variants of the LoCoMo bench (an overfitting
check: settings tuned on English chat must also serve Chinese case notes), and without the
parts that put the current value first.  No LLM.

Usage: ``python -m tests.benchmarks.bench_legal_zh [--no-write]`` (about a minute).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.common import OUT, write_section
from tests.benchmarks.legal_zh import current_first, ingest, load_all, ranks, recall


def _measure(engine, cases) -> dict:
    found, ordered = [], []
    for case_id, check in cases:
        found += ranks(engine, case_id, check)
        ordered += current_first(engine, case_id, check)
    return {
        "r@1": recall(found, 1),
        "r@3": recall(found, 3),
        "r@5": recall(found, 5),
        "current_first": sum(ordered),
        "pairs": len(ordered),
    }


def _open(folder: Path, embedder, **config):
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.types import MemoryConfig

    engine = MemoryEngine.open(folder, embedder=embedder, config=MemoryConfig(**config))
    checks = load_all()
    return engine, [(ingest(engine, check), check) for check in checks]


def run(write: bool = True) -> dict:
    from desktop_app.memory.embedder import default_embedder
    from desktop_app.memory.ranking import FusionParams
    from tests.benchmarks.bench_locomo import variants
    from tests.benchmarks.harness import MemoEmbedder

    embedder = MemoEmbedder(default_embedder())
    OUT.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="legal-", dir=OUT))
    results: dict[str, dict] = {}
    misses: list[str] = []
    pair_rows: list[str] = []
    try:
        engine, cases = _open(folder / "data", embedder)
        embedder.prime([q for _c, check in cases for q, _e in check.queries])
        base_config, base_fusion = engine.config, engine.fusion
        for v in variants(quick=False):
            engine.fusion = dataclasses.replace(FusionParams(), **v.fusion)
            engine.config = dataclasses.replace(base_config, **v.config)
            results[v.name] = _measure(engine, cases)
        engine.fusion = base_fusion
        engine.config = dataclasses.replace(base_config, current_first=False)
        results["shipped, no current-first ordering"] = _measure(engine, cases)
        engine.config = base_config
        shipped = "engine defaults (what ships)"
        results[shipped] = _measure(engine, cases)
        for case_id, check in cases:
            for (q, e), r in zip(check.queries, ranks(engine, case_id, check), strict=True):
                if r != 1:
                    misses.append(f"{q} → expected {e}, rank {r or '>10'}")
            for pair, ok in zip(check.pairs, current_first(engine, case_id, check), strict=True):
                hits = [h.note.source for h in engine.search(pair.query, case_id, k=10)]
                where = {
                    n: (hits.index(n) + 1 if n in hits else ">10")
                    for n in (pair.current, pair.outdated)
                }
                pair_rows.append(
                    f"| {pair.kind} | {pair.query} | {pair.current} @{where[pair.current]} | "
                    f"{pair.outdated} @{where[pair.outdated]} | {'yes' if ok else '**no**'} |"
                )
        engine.close()
        # without the same-matter links (only near-duplicates above 0.85 are linked)
        engine, cases = _open(folder / "dup-only", embedder, same_matter_threshold=1.01)
        results["shipped, near-duplicate links only (no same-matter rule)"] = _measure(
            engine, cases
        )
        engine.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    checks = load_all()
    summary = {
        "cases": len(checks),
        "notes": sum(len(c.notes) for c in checks),
        "queries": sum(len(c.queries) for c in checks),
        "pairs": {
            k: sum(p.kind == k for c in checks for p in c.pairs) for k in ("update", "negation")
        },
        "results": results,
        "misses": misses,
    }
    (OUT / "legal_zh.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1))
    pairs = summary["pairs"]
    n_pairs = pairs["update"] + pairs["negation"]
    lines = [
        "### Chinese legal check set (tests/benchmarks/data/legal_zh*.jsonl)",
        "",
        f"{summary['cases']} cases (a consumer dispute, a labour dispute, a lease), "
        f"{summary['notes']} notes, {summary['queries']} paraphrased queries (2 in English), each "
        "with one expected note; among them "
        f"{pairs['update']} update pairs and {pairs['negation']} negation pairs (two notes on one "
        "matter at different times; the query's answer is the current one). recall@k = share of "
        "queries whose note is among the first k hits; *current first* = pairs whose current note "
        "is in the first 10 hits and above the outdated one. No LLM: the engine has only its own "
        "links (near-duplicates, same matter with different values) and the dates.",
        "",
        f"| ranking | recall@1 | recall@3 | recall@5 | current first (of {n_pairs}) |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {n} | {r['r@1']:.3f} | {r['r@3']:.3f} | {r['r@5']:.3f} | {r['current_first']} |"
        for n, r in results.items()
    ]
    lines += ["", "Pairs with the shipped settings (rank among the first 10 hits):", ""]
    lines += ["| kind | query | current | outdated | current first |", "|---|---|---|---|---|"]
    lines += pair_rows
    lines += ["", "Queries not answered at rank 1 with the shipped settings:", ""]
    lines += [f"- {m}" for m in misses] or ["- none"]
    md = "\n".join(lines)
    print(md)
    if write:
        write_section("legal_zh", md)
    return summary


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-write", action="store_true", help="do not update README.md")
    run(write=not parser.parse_args().no_write)
