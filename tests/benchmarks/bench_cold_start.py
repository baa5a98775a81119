"""Searches after a cold start: the machine's file cache dropped, a new process opens the data
folder and searches at once, with the open's cache warm-up (memory/prefetch.py) and without.

``python -m tests.benchmarks.bench_cold_start [--notes 50000] [--rounds 4]`` as root on Linux
(it writes 3 to /proc/sys/vm/drop_caches before every run).  The folder is the one
bench_perf's 50k column leaves (tests/benchmarks/out/perf/50k/engine) when --notes is 50000
and it exists; otherwise one is built here once (out/cold/<notes>).  Runs alternate between
the two modes; each figure is the median over the rounds.  Writes the "cold-start" section of
tests/benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from tests.benchmarks import perf_data
from tests.benchmarks.common import OUT, ROOT, git_rev, machine, pct, write_section

QUERIES = 200
K = 10

_CHILD = """
import json, random, sys, time
t0 = time.perf_counter()
from desktop_app.memory import MemoryEngine, prefetch
from tests.benchmarks import perf_data
if sys.argv[2] == "off":
    prefetch.BUDGET_BYTES = 0
engine = MemoryEngine.open(sys.argv[1])
opened = time.perf_counter() - t0
cases = [c.id for c in engine.list_cases()]
rng = random.Random(3)
queries = [(q, rng.choice(cases)) for q in perf_data.queries(int(sys.argv[3]), seed=11)]
ms = []
for q, c in queries:
    t = time.perf_counter()
    engine.search(q, c, k=10)
    ms.append((time.perf_counter() - t) * 1000)
warm = engine.prefetch
print(json.dumps({"open_s": opened, "ms": ms,
                  "prefetched_mb": (warm.bytes_read / 1e6) if warm else 0.0}))
engine.close()
"""


def drop_caches() -> None:
    os.sync()
    Path("/proc/sys/vm/drop_caches").write_text("3\n")


def folder_for(notes: int) -> Path:
    perf = OUT / "perf" / "50k" / "engine"
    if notes == 50_000 and (perf / "lexmem.sqlite3").is_file():
        return perf
    folder = OUT / "cold" / str(notes)
    if not (folder / "lexmem.sqlite3").is_file():
        from desktop_app.memory import MemoryEngine

        texts = perf_data.texts(notes)
        with MemoryEngine.open(folder) as engine:
            case = engine.create_case("case 0").id
            for start in range(0, notes, 500):
                engine.add_notes(
                    [{"content": t, "case_id": case} for t in texts[start : start + 500]]
                )
            engine.wait_for_index_upkeep()
    return folder


def run_once(folder: Path, mode: str) -> dict:
    drop_caches()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(folder), mode, str(QUERIES)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1])


def summary(runs: list[dict]) -> dict:
    def med(f) -> float:
        return statistics.median(f(r) for r in runs)

    return {
        "first_ms": med(lambda r: r["ms"][0]),
        "next5_ms": med(lambda r: statistics.mean(r["ms"][1:6])),
        "p50": med(lambda r: statistics.median(r["ms"])),
        "p95": med(lambda r: pct(r["ms"], 95)),
        "first50_s": med(lambda r: sum(r["ms"][:50]) / 1000),
        "open_s": med(lambda r: r["open_s"]),
        "prefetched_mb": med(lambda r: r["prefetched_mb"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    folder = folder_for(args.notes)
    runs: dict[str, list[dict]] = {"off": [], "on": []}
    for n in range(args.rounds):
        for mode in ("off", "on") if n % 2 == 0 else ("on", "off"):
            runs[mode].append(run_once(folder, mode))
            print(mode, {k: round(v, 1) for k, v in summary(runs[mode][-1:]).items()}, flush=True)
    off, on = summary(runs["off"]), summary(runs["on"])
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6
    rows = [
        ("first search (loads the embedder) ms", "first_ms"),
        ("searches 2–6, mean ms", "next5_ms"),
        ("search p50 ms (200 queries)", "p50"),
        ("search p95 ms", "p95"),
        ("first 50 searches, s", "first50_s"),
        ("open s", "open_s"),
    ]
    lines = [
        "### Searches after a cold start (bench_cold_start.py)",
        "",
        f"`python -m tests.benchmarks.bench_cold_start --notes {args.notes} --rounds "
        f"{args.rounds}` — {machine()}; commit {git_rev()}. {args.notes:,} notes in one case "
        f"({size:.0f} MB folder); before each run the file cache is dropped, then a new "
        f"process opens the folder and runs {QUERIES} queries at once (k={K}, query embedding "
        "included); runs alternate, each figure the median of the rounds. With the warm-up the "
        f"open reads the database and the index once in the background "
        f"({on['prefetched_mb']:.0f} MB).",
        "",
        "| | without warm-up | with warm-up | with ÷ without |",
        "|---|---|---|---|",
    ]
    for label, key in rows:
        ratio = on[key] / off[key] if off[key] else float("nan")
        lines.append(f"| {label} | {off[key]:.2f} | {on[key]:.2f} | {ratio:.2f}× |")
    markdown = "\n".join(lines) + "\n"
    print(markdown)
    (OUT / "cold_start.json").write_text(json.dumps({"off": runs["off"], "on": runs["on"]}))
    if not args.no_write:
        write_section("cold-start", markdown)


if __name__ == "__main__":
    main()
