"""The partition a large scope's link candidates come from (link_partition.py): it finds
almost every link the exact product finds, compares each new note with a few groups only,
and never loses a row when rows are added, folded in, or grouped anew."""

from __future__ import annotations

import numpy as np

from desktop_app.memory import link_partition
from desktop_app.memory.ingest import _strongest_per_row

THRESHOLD = 0.55


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _topics(rows: int, topics: int, seed: int) -> np.ndarray:
    """Notes about ``topics`` matters: each near its matter's direction (sims 0.5-0.9)."""
    rng = np.random.default_rng(seed)
    centres = _unit(rng.normal(size=(topics, 64)))
    spread = rng.uniform(0.5, 1.2, size=(rows, 1))
    return _unit(
        centres[rng.integers(0, topics, rows)] + spread * _unit(rng.normal(size=(rows, 64)))
    )


def _links(found: tuple[np.ndarray, np.ndarray, np.ndarray]) -> set[tuple[int, int]]:
    return {(r, c) for r, c, _s in _strongest_per_row(*found, cap=2)}


def _every_pair_above(block: np.ndarray, matrix: np.ndarray, threshold: float):
    """The plain reference: every pair of the full product above the threshold."""
    sims = block @ matrix.T
    rows, cols = np.nonzero(sims >= threshold)
    return rows, cols, sims[rows, cols]


def test_the_strongest_entries_of_each_row_above_the_threshold():
    rng = np.random.default_rng(7)
    sims = rng.uniform(-1, 1, size=(50, 300)).astype(np.float32)
    sims[3] = -0.5  # a row with nothing above the threshold
    sims[4, :2] = 0.9  # a tie
    for cap in (1, 2, 5):
        rows, cols, values = link_partition.strongest(sims.copy(), 0.6, cap)
        expected = {
            (r, int(c))
            for r in range(50)
            for c in np.argsort(-sims[r], kind="stable")[:cap]
            if sims[r, c] >= 0.6
        }
        assert set(zip(rows.tolist(), cols.tolist(), strict=True)) == expected
        np.testing.assert_array_equal(values, sims[rows, cols])
        assert 3 not in rows.tolist()
    # fewer columns than the cap, and none at all
    rows, cols, _v = link_partition.strongest(np.array([[0.7, 0.1]], np.float32), 0.5, 5)
    assert rows.tolist() == [0] and cols.tolist() == [0]
    assert len(link_partition.strongest(np.zeros((4, 0), np.float32), 0.5, 2)[0]) == 0


def test_partitioned_links_are_almost_all_the_exact_ones(monkeypatch):
    monkeypatch.setattr(link_partition, "PROBE", 8)
    notes = _topics(6400, 120, seed=1)
    stored, new = notes[:6000], notes[6000:]  # new notes about the same matters
    partition, order = link_partition.build(stored)
    stored = stored[order]
    assert partition.groups == link_partition.group_count(6000) == 77
    exact = _links(_every_pair_above(new, stored, THRESHOLD))
    rows, cols, sims = partition.strongest(new, stored, THRESHOLD, cap=2)
    assert len(exact) > 600  # most new notes have two links
    assert len(exact & _links((rows, cols, sims))) / len(exact) >= 0.98
    # the strengths are the exact ones, never an estimate
    np.testing.assert_allclose(sims, np.einsum("ij,ij->i", new[rows], stored[cols]), atol=1e-5)
    # each new note is compared with the notes of its 8 nearest groups: about a fifth of
    # the pairs of the full product here (a tenth at 50k notes, 16 of 212 groups)
    nearest = np.argsort(-(new @ partition.centroids.T), axis=1)[:, :8]
    compared = int(np.diff(partition.offsets)[nearest].sum())
    assert compared < 0.25 * new.shape[0] * stored.shape[0]


def test_rows_added_later_are_compared_exactly_then_folded_into_their_groups():
    stored = _topics(3000, 60, seed=3)
    partition, order = link_partition.build(stored)
    matrix = stored[order]
    tail = _topics(800, 60, seed=4)
    partition.add_tail(tail[:700])
    assert not partition.due(3700)  # 700 rows: under a quarter of 3000
    partition.add_tail(tail[700:])
    matrix = np.vstack([matrix, tail])
    # a copy of a tail row is found there, whatever its group
    _rows, cols, _sims = partition.strongest(tail[[7]], matrix, 0.999, cap=2)
    assert 3000 + 7 in cols.tolist()
    assert partition.due(len(matrix))  # 800: over a quarter
    partition, order = link_partition.refold(partition, matrix)
    assert sorted(order.tolist()) == list(range(3800))  # every row once
    matrix = matrix[order]
    assert partition.sorted_upto == 3800 and len(partition.tail_groups) == 0
    groups = np.repeat(np.arange(partition.groups), np.diff(partition.offsets))
    np.testing.assert_array_equal(groups, partition.nearest(matrix))
    assert partition.built_for == 3000  # folded in, not grouped anew


def test_a_scope_that_doubled_is_grouped_anew():
    stored = _topics(2000, 40, seed=5)
    partition, _order = link_partition.build(stored)
    grown = np.vstack([stored, _topics(2000, 40, seed=6)])
    partition.add_tail(grown[2000:])
    regrouped, order = link_partition.refold(partition, grown)
    assert regrouped is not partition and regrouped.built_for == 4000
    assert regrouped.groups == link_partition.group_count(4000)
    assert sorted(order.tolist()) == list(range(4000))
