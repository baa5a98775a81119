"""Fixtures for the graph view tests: synthetic graphs with fixed positions (no worker)."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_app.memory.types import Graph
from desktop_app.ui.graph.compat import guard_none_refcount
from desktop_app.ui.graph.demo import synthetic_graph

# PySide6 6.12 on Python 3.11 leaks references to None (see compat.py): guard first
guard_none_refcount()


def _grid_positions(graph: Graph, step: float = 80.0) -> dict[str, tuple[float, float]]:
    side = int(np.ceil(np.sqrt(max(len(graph.nodes), 1))))
    return {nd.id: ((i % side) * step, (i // side) * step) for i, nd in enumerate(graph.nodes)}


@pytest.fixture
def grid_positions():
    return _grid_positions


@pytest.fixture
def small_graph() -> Graph:
    return synthetic_graph(40, 90, seed=5)


@pytest.fixture
def view(qtbot, small_graph):
    from desktop_app.ui import workers
    from desktop_app.ui.graph import GraphView

    v = GraphView()
    qtbot.addWidget(v)
    v.resize(1000, 700)
    v.set_graph(small_graph, _grid_positions(small_graph))
    v.show()
    qtbot.waitExposed(v)
    v.fit()
    yield v
    v.runner.cancel()
    workers.wait_all(5000)
