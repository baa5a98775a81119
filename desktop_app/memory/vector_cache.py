"""Exact vector search of small scopes from memory, kept in step with the index's writes.

Why: LanceDB's flat vector search costs 15–30 ms whatever the scope (17 ms for 1,000 rows on
these machines: fixed costs of planning and scanning), more than the rest of a search
together.  A scope below the ANN threshold holds at most ~20k notes (40 MB of float32
vectors); one matrix-vector product over it takes well under a millisecond to a few.

Each entry is the active rows of one search filter (``scope.index_filter``: a case plus the
global notes, or one scope), filled once from the index and then updated by every write the
index makes (``NoteIndex`` calls :meth:`VectorCache.apply` under its write lock), so it is
exact at all times.  Entries are dropped least recently used beyond a memory budget, and all
at once when the table is reset.  Readers work on a snapshot of an entry's arrays: a write
that lands meanwhile is either fully in a later search or not in this one.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np

from desktop_app.memory.blas import one_blas_thread
from desktop_app.memory.scope import scope_key

#: memory for all kept scopes together (~32k notes of 512 dimensions)
BUDGET_BYTES = 64 * 1024 * 1024
_FILTER = re.compile(r"^case_id IN \(((?:'[^']*'(?:, )?)+)\)( AND status = 'active')?$")


class Written(Protocol):
    """What the cache needs of a row the index wrote (``index.IndexRow`` has it)."""

    id: str
    case_id: str | None
    status: str
    vector: np.ndarray


def parse_filter(where: str) -> tuple[frozenset[str], bool] | None:
    """(scope keys, active only) of a filter written by ``scope.index_filter``; None for any
    other filter (never cached)."""
    match = _FILTER.match(where)
    if match is None:
        return None
    keys = frozenset(k.strip("'") for k in match.group(1).split(", "))
    return keys, match.group(2) is not None


class _Scope:
    """One filter's rows.  ``state`` (ids, matrix, valid) is swapped as one tuple when the
    arrays are reallocated, so a reader never pairs the ids of one with the rows of another;
    in place, a row is written before its id is listed and marked valid last."""

    def __init__(self, keys: frozenset[str], active_only: bool, dim: int) -> None:
        self.keys = keys
        self.active_only = active_only
        self.row_of: dict[str, int] = {}
        self.state: tuple[list[str], np.ndarray, np.ndarray] = (
            [],
            np.zeros((0, dim), dtype=np.float32),
            np.zeros(0, dtype=bool),
        )
        self.used_at = time.monotonic()

    @property
    def nbytes(self) -> int:
        return self.state[1].nbytes

    def admits(self, row: Written) -> bool:
        return scope_key(row.case_id) in self.keys and (
            not self.active_only or row.status == "active"
        )

    def remove(self, ids: Iterable[str]) -> None:
        valid = self.state[2]
        for note_id in ids:
            row = self.row_of.pop(note_id, None)
            if row is not None:
                valid[row] = False

    def append(self, new_ids: Sequence[str], vectors: np.ndarray) -> None:
        if not len(new_ids):
            return
        ids, matrix, valid = self.state
        n = len(ids)
        if n + len(new_ids) > len(matrix) or int(valid[:n].sum()) < n // 2:
            ids, matrix, valid = self._repack(n + len(new_ids))
            n = len(ids)
        matrix[n : n + len(new_ids)] = vectors
        self.row_of.update((note_id, n + i) for i, note_id in enumerate(new_ids))
        ids.extend(new_ids)
        valid[n : n + len(new_ids)] = True

    def _repack(self, needed: int) -> tuple[list[str], np.ndarray, np.ndarray]:
        """New arrays (readers keep the old ones): live rows packed, room for 25 % more."""
        ids, matrix, valid = self.state
        keep = np.flatnonzero(valid[: len(ids)])
        capacity = max(16, int((len(keep) + needed - len(ids)) * 1.25))
        new_matrix = np.zeros((capacity, matrix.shape[1]), dtype=np.float32)
        new_matrix[: len(keep)] = matrix[keep]
        new_ids = [ids[i] for i in keep]
        new_valid = np.zeros(capacity, dtype=bool)
        new_valid[: len(keep)] = True
        self.row_of = {note_id: i for i, note_id in enumerate(new_ids)}
        self.state = (new_ids, new_matrix, new_valid)
        return self.state

    def search(self, vector: np.ndarray, limit: int) -> list[tuple[str, float]]:
        ids, matrix, valid = self.state
        n = min(len(ids), len(matrix))
        if n == 0 or limit <= 0:
            return []
        with one_blas_thread():
            sims = matrix[:n] @ vector
        sims[~valid[:n]] = -np.inf
        k = min(limit, n)
        top = np.argpartition(-sims, k - 1)[:k] if k < n else np.arange(n)
        top = top[np.argsort(-sims[top], kind="stable")]
        return [(ids[i], float(sims[i])) for i in top if np.isfinite(sims[i])]


class VectorCache:
    def __init__(self, dim: int, budget_bytes: int = BUDGET_BYTES) -> None:
        self._dim = dim
        self._budget = budget_bytes
        self._scopes: OrderedDict[str, _Scope] = OrderedDict()
        self._lock = threading.Lock()

    def search(self, where: str, vector: np.ndarray, limit: int) -> list[tuple[str, float]] | None:
        """Exact (id, cosine) best first, or None when this filter is not kept."""
        with self._lock:
            scope = self._scopes.get(where)
            if scope is None:
                return None
            self._scopes.move_to_end(where)
            scope.used_at = time.monotonic()
        return scope.search(np.asarray(vector, dtype=np.float32), limit)

    def holds(self, where: str) -> bool:
        with self._lock:
            return where in self._scopes

    def fill(self, where: str, ids: list[str], matrix: np.ndarray) -> bool:
        """Keep the rows of ``where`` (read from the index with no write in between: the
        caller holds the index's write lock).  False if the filter cannot be kept."""
        parsed = parse_filter(where)
        if parsed is None or matrix.nbytes > self._budget:
            return False
        scope = _Scope(*parsed, self._dim)
        scope.append(ids, matrix)
        with self._lock:
            self._scopes[where] = scope
            self._scopes.move_to_end(where)
            while sum(s.nbytes for s in self._scopes.values()) > self._budget:
                self._scopes.popitem(last=False)
        return True

    def apply(self, written: Sequence[Written] = (), deleted: Sequence[str] = ()) -> None:
        """Bring every kept scope in step with a write of the index (called under its lock):
        rewritten and deleted ids leave, rewritten rows that belong come back."""
        with self._lock:
            scopes = list(self._scopes.values())
        gone = [*deleted, *(row.id for row in written)]
        for scope in scopes:
            scope.remove(gone)
            mine = [row for row in written if scope.admits(row)]
            if mine:
                scope.append([r.id for r in mine], np.vstack([r.vector for r in mine]))

    def clear(self) -> None:
        with self._lock:
            self._scopes.clear()
