"""Synthetic memory graphs for tests, benchmarks and a standalone preview.

``python -m desktop_app.ui.graph.demo [n]`` opens the graph view on a synthetic case, so
the view can be tried without the engine.
"""

from __future__ import annotations

import sys

import numpy as np

from desktop_app.memory.types import CATEGORIES, Graph, GraphEdge, GraphNode

_SUBJECTS = (
    "租赁合同",
    "押金",
    "房东",
    "维修",
    "违约金",
    "转账记录",
    "微信聊天",
    "证人",
    "民法典第五百七十七条",
    "解除合同",
    "损害赔偿",
    "起诉时间",
    "调解",
    "律师费",
)
_VERBS = ("约定", "证明", "要求", "发生于", "偏好", "涉及", "支持", "否认")


def _label(rng: np.random.Generator) -> str:
    a, b = rng.choice(len(_SUBJECTS), 2, replace=False)
    return f"{_SUBJECTS[a]}{_VERBS[rng.integers(len(_VERBS))]}{_SUBJECTS[b]}"


def synthetic_graph(
    n: int, m: int | None = None, *, seed: int = 0, clusters: int | None = None
) -> Graph:
    """A clustered graph shaped like a case's memory: topics of semantically linked notes,
    evolution chains, superseded notes with their replacements, a few manual links."""
    rng = np.random.default_rng(seed)
    m = 3 * n if m is None else m
    clusters = clusters or max(1, int(np.sqrt(n) / 2))
    topic = rng.integers(0, clusters, n)
    members = [np.flatnonzero(topic == c) for c in range(clusters)]
    edges: dict[tuple[int, int], GraphEdge] = {}
    ids = [f"n{i:05d}" for i in range(n)]
    status = np.array(["active"] * n, dtype=object)
    kinds = ("semantic",) * 14 + ("evolution",) * 3 + ("supersedes", "manual", "duplicate")
    tries = 0
    while len(edges) < m and tries < 10 * m + 100 and n > 1:
        tries += 1
        a = int(rng.integers(n))
        pool = members[topic[a]] if rng.random() < 0.97 and len(members[topic[a]]) > 1 else None
        b = int(rng.choice(pool)) if pool is not None else int(rng.integers(n))
        if a == b or (a, b) in edges or (b, a) in edges:
            continue
        kind = kinds[int(rng.integers(len(kinds)))]
        if kind == "supersedes":
            status[b] = "superseded"
        edges[(a, b)] = GraphEdge(ids[a], ids[b], kind, float(rng.uniform(0.5, 1.0)))
    archived = rng.random(n) < 0.03
    status[archived] = "archived"
    degree = np.zeros(n, dtype=np.int64)
    for a, b in edges:
        degree[a] += 1
        degree[b] += 1
    cats = rng.choice(len(CATEGORIES), n, p=[0.3, 0.25, 0.15, 0.12, 0.12, 0.06])
    nodes = tuple(
        GraphNode(
            id=ids[i],
            label=_label(rng),
            category=CATEGORIES[int(cats[i])],
            status=str(status[i]),
            pinned=bool(rng.random() < 0.03),
            retrieval_count=int(rng.poisson(2)),
            degree=int(degree[i]),
            tags=(f"主题{topic[i]}", CATEGORIES[int(cats[i])]),
        )
        for i in range(n)
    )
    return Graph(nodes=nodes, edges=tuple(edges.values()))


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - manual preview
    from PySide6.QtWidgets import QApplication

    from desktop_app.ui.graph import GraphView

    args = sys.argv[1:] if argv is None else argv
    n = int(args[0]) if args else 60
    app = QApplication.instance() or QApplication(sys.argv)
    view = GraphView()
    view.resize(1200, 800)
    view.set_graph(synthetic_graph(n, seed=1))
    view.show()
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
