"""The graph of a scope's notes and links (what the Graph tab draws), and the positions the
user left the nodes in."""

from __future__ import annotations

import json
import math
import re
import unicodedata

from desktop_app.memory.notes_repository import SYMMETRIC_KINDS, NotesRepository
from desktop_app.memory.scope import sql_in_scope
from desktop_app.memory.store import Store
from desktop_app.memory.types import DEFAULT_LINK_TYPE, Graph, GraphEdge, GraphNode

LABEL_CHARS = 28


def summary(content: str, limit: int = LABEL_CHARS) -> str:
    """A node's label: the first line, cut to ``limit`` characters."""
    first = content.strip().split("\n", 1)[0]
    return first if len(first) <= limit else first[: limit - 1] + "…"


#: a title's length: about 12 CJK characters, or 3 English words
TITLE_CJK_CHARS = 12
TITLE_WORDS = 3
#: where a first clause ends
_CLAUSE_END = re.compile(r"[，,。；;：:！!？?\n（(]")
#: a first clause shorter than this says too little ("原告称：…"): the title reads on
_MIN_CLAUSE = 4


def _is_wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def short_title(content: str) -> str:
    """A node's title: the note's first clause, cut to about 12 CJK characters or 3 English
    words, with … when cut ("原告张三于2024年3月15日购买…", "The hearing is…")."""
    text = " ".join(content.split()).rstrip("。.；;，,：: ")
    clause = text
    for m in _CLAUSE_END.finditer(text):
        if m.start() >= _MIN_CLAUSE:
            clause = text[: m.start()]
            break
    wide = sum(_is_wide(ch) for ch in clause)
    if wide * 2 >= len(clause.replace(" ", "")):  # mostly CJK: count characters
        if len(clause) <= TITLE_CJK_CHARS:
            return clause if clause == text else clause + "…"
        return clause[:TITLE_CJK_CHARS] + "…"
    words = clause.split(" ")
    if len(words) <= TITLE_WORDS and len(clause) <= 24:
        return clause if clause == text else clause + "…"
    return " ".join(words[:TITLE_WORDS])[:24].rstrip(" ,.;:") + "…"


class GraphBuilder:
    def __init__(self, store: Store, notes: NotesRepository) -> None:
        self._store = store
        self._notes = notes

    def graph(self, case_id: str | None, include_global: bool = False) -> Graph:
        rows, link_rows = self._notes.graph_rows(case_id, include_global)
        ids = {r["id"] for r in rows}
        edges: dict[tuple[str, str, str], GraphEdge] = {}
        degree: dict[str, int] = dict.fromkeys(ids, 0)
        for r in link_rows:
            if r["dst"] not in ids:
                continue
            a, b = r["src"], r["dst"]
            key = (
                (min(a, b), max(a, b), r["kind"])
                if r["kind"] in SYMMETRIC_KINDS
                else (a, b, r["kind"])
            )
            if key in edges:
                continue
            label = r["label"] or DEFAULT_LINK_TYPE.get(r["kind"], "相关")
            edges[key] = GraphEdge(a, b, r["kind"], r["strength"], label)
            degree[a] += 1
            degree[b] += 1
        nodes = tuple(
            GraphNode(
                id=r["id"],
                label=summary(r["content"]),
                category=r["category"],
                status=r["status"],
                pinned=bool(r["pinned"]),
                retrieval_count=r["retrieval_count"],
                degree=degree[r["id"]],
                tags=tuple(json.loads(r["tags"])),
                event_date=r["event_date"],
                source_kind=r["source_kind"],
                origin=r["origin"],
                conflicted=bool(r["conflicted"]),
                title=short_title(r["content"]),
                content=r["content"],
            )
            for r in rows
        )
        return Graph(nodes, tuple(edges.values()))

    def positions(self, case_id: str | None) -> dict[str, tuple[float, float]]:
        where, params = sql_in_scope(case_id, column="n.case_id")
        rows = self._store.query(
            "SELECT p.note_id, p.x, p.y FROM graph_positions p JOIN notes n ON n.id = p.note_id "
            f"WHERE {where}",
            params,
        )
        return {r[0]: (r[1], r[2]) for r in rows}

    def save_positions(
        self, case_id: str | None, positions: dict[str, tuple[float, float]]
    ) -> None:
        allowed = self._notes.ids_in_scope(case_id)
        with self._store.write() as conn:
            conn.executemany(
                "INSERT INTO graph_positions (note_id, x, y) VALUES (?, ?, ?) "
                "ON CONFLICT(note_id) DO UPDATE SET x = excluded.x, y = excluded.y",
                [
                    (i, float(x), float(y))
                    for i, (x, y) in positions.items()
                    # a diverged layout may hand over NaN: keep the last good position
                    if i in allowed and math.isfinite(x) and math.isfinite(y)
                ],
            )
