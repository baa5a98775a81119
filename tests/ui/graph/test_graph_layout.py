"""The pure numpy layout: convergence, determinism, stability, the grid approximation."""

from __future__ import annotations

import numpy as np

from desktop_app.ui.graph import layout as L
from desktop_app.ui.graph.demo import synthetic_graph
from desktop_app.ui.graph.model import GraphModel


def _arrays(n: int, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    m = GraphModel(synthetic_graph(n, seed=seed))
    return m.edges, m.strength


def test_layout_module_has_no_qt() -> None:
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(L))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [x for x in names if "PySide" in x or "Qt" in x]


def test_converges_and_is_finite() -> None:
    edges, s = _arrays(150)
    steps = list(L.run_layout(150, edges, s, params=L.LayoutParams(iterations=120)))
    assert steps[-1].done and np.isfinite(steps[-1].positions).all()
    first = np.mean([st.mean_move for st in steps[:5]])
    assert steps[-1].mean_move < 0.05 * first  # cooled down
    pos = steps[-1].positions
    a, b = edges[:, 0], edges[:, 1]
    linked = np.sqrt(((pos[a] - pos[b]) ** 2).sum(1)).mean()
    rng = np.random.default_rng(0)
    i, j = rng.integers(0, 150, 500), rng.integers(0, 150, 500)
    random_pairs = np.sqrt(((pos[i] - pos[j]) ** 2).sum(1)).mean()
    assert linked < 0.6 * random_pairs  # linked notes end up closer than random pairs


def test_deterministic_with_seed() -> None:
    edges, s = _arrays(500)  # above EXACT_LIMIT: the grid path
    p = L.LayoutParams(iterations=40, seed=7)
    a = L.layout(500, edges, s, params=p)
    b = L.layout(500, edges, s, params=p)
    c = L.layout(500, edges, s, params=L.LayoutParams(iterations=40, seed=8))
    assert np.array_equal(a, b)
    assert not np.allclose(a, c)


def test_grid_repulsion_matches_exact() -> None:
    pos = np.random.default_rng(1).uniform(0, 2000, (1200, 2))
    exact = L._exact_repulsion(pos, 3600.0, 9.0)
    grid = L._grid_repulsion(pos, 3600.0, 9.0, 0)
    err = np.linalg.norm(exact - grid, axis=1).mean() / np.linalg.norm(exact, axis=1).mean()
    assert err < 0.05


def test_saved_positions_stay_and_new_note_lands_near_its_links() -> None:
    edges, s = _arrays(120)
    old = L.layout(120, edges, s, params=L.LayoutParams(iterations=80))
    # one new note (index 120) linked to notes 3 and 4
    edges2 = np.vstack([edges, [[120, 3], [120, 4]]])
    s2 = np.concatenate([s, [1.0, 1.0]])
    known = np.vstack([old, [np.nan, np.nan]])
    new = L.layout(121, edges2, s2, known=known)
    assert np.abs(new[:120] - old).max() < 1e-9  # the map does not move
    near = np.linalg.norm(new[120] - (old[3] + old[4]) / 2)
    assert near < 3 * L.LayoutParams().k


def test_degenerate_inputs() -> None:
    assert L.layout(0, np.zeros((0, 2))).shape == (0, 2)
    assert L.layout(1, np.zeros((0, 2))).shape == (1, 2)
    pos = L.layout(3, np.array([[0, 0], [0, 1], [5, 1]]), np.array([1.0, 1.0, 1.0]))
    assert pos.shape == (3, 2) and np.isfinite(pos).all()
