"""The Chinese legal check set: three cases (data/legal_zh*.jsonl) of notes and paraphrased
queries, each query with the one note it should find, and pairs of notes that say different
values about one thing over time (an update: 月薪8000元 → 月薪调整为9500元; a negation: 同意调解
→ 不同意调解), each with a query whose answer is the current note.  Shared by bench_legal_zh
and tests/memory/test_retrieval_quality.py (which uses the first case only)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "legal_zh.jsonl"
#: the three cases: a consumer dispute, a labour dispute, a lease
DATA_FILES = (DATA, DATA.with_name("legal_zh_labour.jsonl"), DATA.with_name("legal_zh_lease.jsonl"))


@dataclass(frozen=True, slots=True)
class Pair:
    """Two notes on one matter: ``current`` must rank above ``outdated`` for ``query``."""

    current: str
    outdated: str
    kind: str  # "update" or "negation"
    query: str


@dataclass(frozen=True, slots=True)
class CheckSet:
    case_name: str
    notes: list[dict]  # add_notes items; "source" holds the note's id in the set
    queries: list[tuple[str, str]]  # (query, expected note id), pair queries included
    pairs: list[Pair] = field(default_factory=list)


def load(path: Path = DATA) -> CheckSet:
    case_name, notes, queries, pairs = "", [], [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if "case" in row:
            case_name = row["case"]["name"]
        elif "query" in row:
            queries.append((row["query"], row["expected"]))
        elif "pair" in row:
            pair = Pair(**row["pair"])
            pairs.append(pair)
            queries.append((pair.query, pair.current))
        else:
            notes.append(
                {
                    "content": row["content"],
                    "category": row["category"],
                    "created_at": row["created_at"],
                    "source": row["id"],
                }
            )
    return CheckSet(case_name, notes, queries, pairs)


def load_all() -> list[CheckSet]:
    return [load(path) for path in DATA_FILES]


def ingest(engine, check: CheckSet) -> str:
    case = engine.create_case(check.case_name)
    engine.add_notes([{**n, "case_id": case.id} for n in check.notes])
    return case.id


def _sources(engine, case_id: str, query: str, k: int) -> list[str]:
    return [h.note.source for h in engine.search(query, case_id, k=k)[:k]]


def ranks(engine, case_id: str, check: CheckSet, k: int = 10) -> list[int | None]:
    """1-based rank of each query's expected note among the first k hits (None: absent)."""
    out: list[int | None] = []
    for query, expected in check.queries:
        sources = _sources(engine, case_id, query, k)
        out.append(sources.index(expected) + 1 if expected in sources else None)
    return out


def current_first(engine, case_id: str, check: CheckSet, k: int = 10) -> list[bool]:
    """For each pair: the current note is among the first k hits of its query and above
    the outdated one (an outdated note missing from the hits counts as below)."""
    out = []
    for pair in check.pairs:
        sources = _sources(engine, case_id, pair.query, k)
        if pair.current not in sources:
            out.append(False)
            continue
        outdated = sources.index(pair.outdated) if pair.outdated in sources else k
        out.append(sources.index(pair.current) < outdated)
    return out


def recall(found: list[int | None], k: int) -> float:
    return sum(1 for r in found if r is not None and r <= k) / len(found)
