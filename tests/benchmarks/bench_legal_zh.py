"""Chinese legal check: recall@1/@3 of paraphrased queries on data/legal_zh.jsonl, with the
shipped settings and the ablation variants of the LoCoMo bench (an overfitting check: the
settings tuned on English chat must also serve Chinese case notes).

Usage: ``python -m tests.benchmarks.bench_legal_zh [--no-write]`` (about 15 s).
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
from tests.benchmarks.legal_zh import ingest, load, ranks, recall


def run(write: bool = True) -> dict:
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.embedder import default_embedder
    from desktop_app.memory.ranking import FusionParams
    from tests.benchmarks.bench_locomo import variants
    from tests.benchmarks.harness import MemoEmbedder

    check = load()
    embedder = MemoEmbedder(default_embedder())
    OUT.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="legal-", dir=OUT))
    results: dict[str, dict] = {}
    misses: list[str] = []
    try:
        engine = MemoryEngine.open(folder / "data", embedder=embedder)
        case_id = ingest(engine, check)
        embedder.prime([q for q, _ in check.queries])
        base_config, base_fusion = engine.config, engine.fusion
        for v in variants(quick=False):
            engine.fusion = dataclasses.replace(FusionParams(), **v.fusion)
            engine.config = dataclasses.replace(base_config, **v.config)
            found = ranks(engine, case_id, check)
            results[v.name] = {"r@1": recall(found, 1), "r@3": recall(found, 3)}
        engine.fusion, engine.config = base_fusion, base_config
        found = ranks(engine, case_id, check)
        results["engine defaults (what ships)"] = {"r@1": recall(found, 1), "r@3": recall(found, 3)}
        misses = [
            f"{q} → expected {e}, rank {r or '>10'}"
            for (q, e), r in zip(check.queries, found, strict=True)
            if r != 1
        ]
        engine.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    summary = {
        "notes": len(check.notes),
        "queries": len(check.queries),
        "results": results,
        "misses": misses,
    }
    (OUT / "legal_zh.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1))
    lines = [
        "### Chinese legal check set (tests/benchmarks/data/legal_zh.jsonl)",
        "",
        f"{summary['notes']} notes of one consumer dispute, {summary['queries']} paraphrased queries "
        "(25 Chinese, 2 English), each with one expected note; recall@k = share of queries whose "
        "note is among the first k hits.",
        "",
        "| ranking | recall@1 | recall@3 |",
        "|---|---|---|",
    ]
    lines += [f"| {n} | {r['r@1']:.3f} | {r['r@3']:.3f} |" for n, r in results.items()]
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
