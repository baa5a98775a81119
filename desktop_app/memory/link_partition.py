"""Link candidates of a large scope from a coarse partition of its vectors (an IVF in numpy).

A batch added to a scope is linked to the scope's notes by a matrix product: every new note
against every stored one.  At 50k notes in one case those products are ~34 s of CPU over a
bulk import of 100 batches, on the core the construction helper and the index writes also
need, and the embedding beside them slows down (tests/benchmarks/README.md, issue 18).

Above PARTITION_FROM stored notes the scope's vectors are grouped around centroids (a few
rounds of k-means on a sample); a new note is compared only with the notes of its PROBE
nearest groups.  Links are the few strongest neighbours above ``link_threshold`` (0.55):
such neighbours sit in the nearest groups, so the links found are almost all the exact ones
(recall measured in tests and in the benchmark README), for about a tenth of the product.
Below PARTITION_FROM the product is exact, as before.

The partition orders the scope copy's rows by group (a contiguous slice per group, no
gather per batch).  Rows added later form a tail compared exactly; the tail is folded into
the groups once it grows past TAIL_FRACTION of them, and the centroids are computed again
once the scope has doubled since they were.
"""

from __future__ import annotations

import math

import numpy as np

from desktop_app.memory.blas import one_blas_thread

#: (row, col, sim) arrays of the pairs found
Pairs = tuple[np.ndarray, np.ndarray, np.ndarray]

#: from this many stored vectors a scope's link candidates come from the partition
PARTITION_FROM = 16_384
#: groups probed per new note, and the number of groups: ~sqrt(n) groups of ~sqrt(n) notes
PROBE = 16
MIN_GROUPS, MAX_GROUPS = 64, 1024
#: the tail is folded into the groups once it holds this fraction of them (each fold
#: copies the scope in group order: 0.1-0.4 s at 50k notes)
TAIL_FRACTION = 0.25
#: k-means rounds, on at most SAMPLE_PER_GROUP vectors per group
KMEANS_ROUNDS = 6
SAMPLE_PER_GROUP = 48


class Partition:
    """Groups of a scope's rows ``0 .. sorted_upto`` (row order is by group: group g holds
    rows ``offsets[g] .. offsets[g + 1]``), plus the groups of the tail rows after them."""

    def __init__(self, centroids: np.ndarray, offsets: np.ndarray, built_for: int) -> None:
        self.centroids = centroids
        self.offsets = offsets
        #: the scope's size when the centroids were computed
        self.built_for = built_for
        self.tail_groups = np.zeros(0, dtype=np.int32)

    @property
    def sorted_upto(self) -> int:
        return int(self.offsets[-1])

    @property
    def groups(self) -> int:
        return len(self.centroids)

    def nearest(self, vectors: np.ndarray) -> np.ndarray:
        with one_blas_thread():
            return np.argmax(vectors @ self.centroids.T, axis=1).astype(np.int32)

    def add_tail(self, vectors: np.ndarray) -> None:
        self.tail_groups = np.concatenate([self.tail_groups, self.nearest(vectors)])

    def due(self, rows: int) -> bool:
        """Whether the tail should be folded in (or the centroids computed again)."""
        return (
            len(self.tail_groups) > TAIL_FRACTION * self.sorted_upto or rows >= 2 * self.built_for
        )

    def strongest(self, block: np.ndarray, matrix: np.ndarray, threshold: float, cap: int) -> Pairs:
        """:func:`strongest` of ``block`` x ``matrix``, the ``matrix`` rows taken from the
        PROBE groups nearest each block row, and every tail row: up to ``cap`` pairs per
        block row and group (the caller keeps the strongest ``cap`` of each row)."""
        probe = min(PROBE, self.groups)
        with one_blas_thread():
            scores = block @ self.centroids.T
        nearest = np.argpartition(-scores, probe - 1, axis=1)[:, :probe]
        groups = nearest.ravel()
        block_rows = np.repeat(np.arange(len(block)), probe)
        order = np.argsort(groups, kind="stable")
        groups, block_rows = groups[order], block_rows[order]
        bounds = np.searchsorted(groups, np.arange(self.groups + 1))
        found_rows, found_cols, found_sims = [], [], []
        with one_blas_thread():
            for group in np.flatnonzero(np.diff(bounds)):
                start, end = self.offsets[group], self.offsets[group + 1]
                if start == end:
                    continue
                rows = block_rows[bounds[group] : bounds[group + 1]]
                hit_rows, hit_cols, sims = strongest(
                    block[rows] @ matrix[start:end].T, threshold, cap
                )
                found_rows.append(rows[hit_rows])
                found_cols.append(hit_cols + start)
                found_sims.append(sims)
            tail = matrix[self.sorted_upto :]
            if len(tail):
                hit_rows, hit_cols, sims = strongest(block @ tail.T, threshold, cap)
                found_rows.append(hit_rows)
                found_cols.append(hit_cols + self.sorted_upto)
                found_sims.append(sims)
        if not found_rows:
            return _no_pairs()
        return np.concatenate(found_rows), np.concatenate(found_cols), np.concatenate(found_sims)


def strongest(sims: np.ndarray, threshold: float, cap: int) -> Pairs:
    """(row, col, sim) of the ``cap`` largest entries of each row of the similarity matrix
    ``sims`` that are >= ``threshold``.  Overwrites ``sims`` (a product made for this).

    A few argmax passes over the matrix: listing every pair above the threshold and sorting
    them was the link thread's largest cost at 50k notes (~1,200 pairs above 0.55 per new
    note among chat turns, 50 ms a block of 256 notes)."""
    n_rows, n_cols = sims.shape
    if n_rows == 0 or n_cols == 0 or cap <= 0:
        return _no_pairs()
    every_row = np.arange(n_rows)
    found_rows, found_cols, found_sims = [], [], []
    for _pass in range(min(cap, n_cols)):
        best = np.argmax(sims, axis=1)
        values = sims[every_row, best]
        kept = values >= threshold
        if not kept.any():
            break
        found_rows.append(every_row[kept])
        found_cols.append(best[kept])
        found_sims.append(values[kept])
        sims[every_row, best] = -np.inf
    if not found_rows:
        return _no_pairs()
    return np.concatenate(found_rows), np.concatenate(found_cols), np.concatenate(found_sims)


def _no_pairs() -> Pairs:
    empty = np.zeros(0, dtype=np.intp)
    return empty, empty, np.zeros(0, dtype=np.float32)


def group_count(rows: int) -> int:
    return int(min(MAX_GROUPS, max(MIN_GROUPS, round(math.sqrt(rows)))))


def build(matrix: np.ndarray, seed: int = 0) -> tuple[Partition, np.ndarray]:
    """A partition of ``matrix``'s rows and the order that puts them by group (the caller
    reorders its rows and ids by it)."""
    rows = len(matrix)
    groups = group_count(rows)
    rng = np.random.default_rng(seed)
    sample = matrix[np.sort(rng.choice(rows, min(rows, groups * SAMPLE_PER_GROUP), replace=False))]
    centroids = sample[rng.choice(len(sample), groups, replace=False)].copy()
    with one_blas_thread():
        for _round in range(KMEANS_ROUNDS):
            labels = np.argmax(sample @ centroids.T, axis=1)
            sums = np.zeros_like(centroids)
            np.add.at(sums, labels, sample)
            counts = np.bincount(labels, minlength=groups)
            filled = counts > 0
            centroids[filled] = sums[filled] / counts[filled, None]
            # spherical k-means: the vectors are unit length, so are the centroids
            centroids /= np.maximum(np.linalg.norm(centroids, axis=1, keepdims=True), 1e-12)
    partition = Partition(centroids.astype(np.float32), np.zeros(groups + 1, np.int64), rows)
    return partition, _fold(partition, partition.nearest(matrix))


def refold(partition: Partition, matrix: np.ndarray) -> tuple[Partition, np.ndarray]:
    """The tail folded into the groups (or new centroids once the scope has doubled);
    returns the partition and the row order, as :func:`build` does."""
    if len(matrix) >= 2 * partition.built_for:
        return build(matrix)
    sorted_groups = np.repeat(
        np.arange(partition.groups, dtype=np.int32), np.diff(partition.offsets)
    )
    labels = np.concatenate([sorted_groups, partition.tail_groups])
    partition.tail_groups = np.zeros(0, dtype=np.int32)
    return partition, _fold(partition, labels)


def _fold(partition: Partition, labels: np.ndarray) -> np.ndarray:
    order = np.argsort(labels, kind="stable")
    counts = np.bincount(labels, minlength=partition.groups)
    partition.offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return order
