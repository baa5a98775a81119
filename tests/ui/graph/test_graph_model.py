"""Hit-testing grid, filters, search and neighbourhoods of the numpy model."""

from __future__ import annotations

import numpy as np

from desktop_app.memory.types import Graph, GraphEdge, GraphNode
from desktop_app.ui.graph.model import Filters, GraphModel
from desktop_app.ui.graph.spatial import SpatialGrid


def test_grid_agrees_with_brute_force() -> None:
    rng = np.random.default_rng(0)
    pos = rng.uniform(-500, 500, (3000, 2))
    rad = rng.uniform(2, 9, 3000)
    grid = SpatialGrid(pos, rad)
    for x, y in rng.uniform(-500, 500, (300, 2)):
        d2 = ((pos - (x, y)) ** 2).sum(1)
        inside = d2 <= rad**2
        want = int(np.flatnonzero(inside)[np.argmin(d2[inside])]) if inside.any() else -1
        assert grid.query(x, y) == want


def test_grid_skips_hidden_nodes() -> None:
    pos = np.array([[0.0, 0.0], [1.0, 0.0]])
    grid = SpatialGrid(pos, np.array([5.0, 5.0]), np.array([False, True]))
    assert grid.query(0.0, 0.0) == 1


def _node(i: int, cat: str = "事实", status: str = "active", label: str = "") -> GraphNode:
    return GraphNode(f"n{i}", label or f"note {i}", cat, status, False, 0, 0, ("t",))


def test_filters_search_neighbourhood() -> None:
    g = Graph(
        nodes=(
            _node(0, label="押金 deposit"),
            _node(1, "证据"),
            _node(2, status="superseded"),
            _node(3, "法条", label="第五百七十七条"),
            _node(4, "未知"),
        ),
        edges=(
            GraphEdge("n0", "n1", "semantic", 0.9),
            GraphEdge("n1", "n2", "supersedes", 1.0),
            GraphEdge("n2", "n3", "evolution", 0.7),
            GraphEdge("n3", "nX", "semantic", 0.7),  # dangling: dropped
        ),
    )
    m = GraphModel(g)
    assert len(m.edges) == 3
    f = Filters(categories={"事实"})
    nodes = m.node_mask(f)
    assert nodes.tolist() == [True, False, True, False, True]  # unknown category stays
    assert not m.edge_mask(f, nodes).any()
    f = Filters(statuses={"active"}, kinds={"semantic"})
    nodes = m.node_mask(f)
    assert nodes.tolist() == [True, True, False, True, True]
    assert m.edge_mask(f, nodes).tolist() == [True, False, False]
    assert m.search("押金").tolist() == [True, False, False, False, False]
    assert m.search("DEPOSIT 押金").sum() == 1
    assert not m.search("   ").any()
    assert m.neighbourhood([0], 1).tolist() == [True, True, False, False, False]
    assert m.neighbourhood([0], 2).tolist() == [True, True, True, False, False]
