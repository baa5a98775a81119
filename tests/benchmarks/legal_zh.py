"""The Chinese legal check set (data/legal_zh.jsonl): 40 notes of one consumer dispute and
paraphrased queries, each with the one note it should find.  Shared by bench_legal_zh and
tests/memory/test_retrieval_quality.py."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "legal_zh.jsonl"


@dataclass(frozen=True, slots=True)
class CheckSet:
    case_name: str
    notes: list[dict]  # add_notes items; "source" holds the note's id in the set
    queries: list[tuple[str, str]]  # (query, expected note id)


def load(path: Path = DATA) -> CheckSet:
    case_name, notes, queries = "", [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if "case" in row:
            case_name = row["case"]["name"]
        elif "query" in row:
            queries.append((row["query"], row["expected"]))
        else:
            notes.append(
                {
                    "content": row["content"],
                    "category": row["category"],
                    "created_at": row["created_at"],
                    "source": row["id"],
                }
            )
    return CheckSet(case_name, notes, queries)


def ingest(engine, check: CheckSet) -> str:
    case = engine.create_case(check.case_name)
    engine.add_notes([{**n, "case_id": case.id} for n in check.notes])
    return case.id


def ranks(engine, case_id: str, check: CheckSet, k: int = 10) -> list[int | None]:
    """1-based rank of each query's expected note among the first k hits (None: absent)."""
    out: list[int | None] = []
    for query, expected in check.queries:
        sources = [h.note.source for h in engine.search(query, case_id, k=k)[:k]]
        out.append(sources.index(expected) + 1 if expected in sources else None)
    return out


def recall(found: list[int | None], k: int) -> float:
    return sum(1 for r in found if r is not None and r <= k) / len(found)
