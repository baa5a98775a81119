"""Exact vector and full-text search of small scopes from memory, kept in step with the
index's writes.

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

Each entry also keeps its rows' full-text postings (bm25.py), so a kept scope's text search
never reaches LanceDB either: its fixed ~4–6 ms was the critical path of a search at 1k
notes, while the postings answer in well under a millisecond.  The postings change in place,
so text readers and writers of one entry take its ``text_lock`` (held for a fraction of a
millisecond).
"""

from __future__ import annotations

import re
import struct
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol

import numpy as np

from desktop_app.memory import bm25
from desktop_app.memory.blas import one_blas_thread
from desktop_app.memory.scope import index_filter, scope_key

#: memory for all kept scopes together: their vectors (2 KB a note) and postings; 10k notes
#: in 100 cases take ~58 MB (estimated 73), so every case of a 10k library fits in half of it
BUDGET_BYTES = 160 * 1024 * 1024
_FILTER = re.compile(r"^case_id IN \(((?:'[^']*'(?:, )?)+)\)( AND status = 'active')?$")


#: rows analysed at a time when a scope is read (their term counts are transient); between
#: two chunks the build lets running searches finish first (``pause``): ~1 ms of analysis,
#: which a search that starts meanwhile may wait for (128 rows were ~5 ms)
_BUILD_CHUNK = 32


class Written(Protocol):
    """What the cache needs of a row the index wrote (``index.IndexRow`` has it)."""

    id: str
    case_id: str | None
    status: str
    terms: str
    vector: np.ndarray
    #: ``terms`` counted, or None (counted here)
    counted: bm25.Counted | None


def parse_filter(where: str) -> tuple[frozenset[str], bool] | None:
    """(scope keys, active only) of a filter written by ``scope.index_filter``; None for any
    other filter (never cached)."""
    match = _FILTER.match(where)
    if match is None:
        return None
    keys = frozenset(k.strip("'") for k in match.group(1).split(", "))
    return keys, match.group(2) is not None


_ROW = struct.Struct("<i").pack
_TF = struct.Struct("<H").pack


def _chunks(rows: int, pause: Callable[[], None] | None) -> Iterator[slice]:
    """Slices of ``_BUILD_CHUNK`` rows, ``pause`` called before each (see VectorCache.build)."""
    for start in range(0, rows, _BUILD_CHUNK):
        if pause is not None:
            pause()
        yield slice(start, start + _BUILD_CHUNK)


def _rows(packed: bytearray) -> np.ndarray:
    # a copy: a view would pin the byte array, and the next append to it would fail
    return np.frombuffer(packed, dtype="<i4").astype(np.int64)


class _Scope:
    """One filter's rows.  ``state`` (ids, matrix, valid) is swapped as one tuple when the
    arrays are reallocated, so a reader never pairs the ids of one with the rows of another;
    in place, a row is written before its id is listed and marked valid last."""

    def __init__(
        self, keys: frozenset[str], active_only: bool, dim: int, dtype: type = np.float32
    ) -> None:
        self.keys = keys
        self.active_only = active_only
        self.row_of: dict[str, int] = {}
        self.state: tuple[list[str], np.ndarray, np.ndarray] = (
            [],
            np.zeros((0, dim), dtype=dtype),
            np.zeros(0, dtype=bool),
        )
        self.used_at = time.monotonic()
        #: guards the text part below and every change of ``row_of`` and ``state``
        self.text_lock = threading.Lock()
        #: term -> (rows as int32, term frequencies as uint16); rows of removed notes stay
        #: until a repack (``valid`` masks them).  Byte arrays, not ``array.array``: those are
        #: tracked by the garbage collector, and with 42k of them (10k notes kept) each full
        #: collection took ~100 ms, a search beside it as long
        self.postings: dict[str, tuple[bytearray, bytearray]] = {}
        self.postings_count = 0
        #: tokens per row (parallel to the matrix) and the totals over the valid rows
        self.lengths = np.zeros(0, dtype=np.int32)
        self.live_rows = 0
        self.live_length = 0

    @property
    def nbytes(self) -> int:
        # measured: a term (its key, entry and two arrays) ~350 bytes in small scopes (10k
        # notes in 100 cases: 58 MB) and ~620 in large ones (50k notes: 65 MB); a posting 6,
        # a row ~200 (id, row_of, length)
        return (
            self.state[1].nbytes
            + 6 * self.postings_count
            + 550 * len(self.postings)
            + 200 * len(self.row_of)
        )

    def admits(self, row: Written) -> bool:
        return scope_key(row.case_id) in self.keys and (
            not self.active_only or row.status == "active"
        )

    def remove(self, ids: Iterable[str]) -> None:
        with self.text_lock:
            valid = self.state[2]
            for note_id in ids:
                row = self.row_of.pop(note_id, None)
                if row is not None:
                    valid[row] = False
                    self.live_rows -= 1
                    self.live_length -= int(self.lengths[row])

    def append(self, new_ids: Sequence[str], vectors: np.ndarray, terms: Sequence[str]) -> None:
        if not len(new_ids):
            return
        self.append_counted(new_ids, vectors, [bm25.term_counts(t) for t in terms])

    def append_counted(
        self,
        new_ids: Sequence[str],
        vectors: np.ndarray,
        counted: Sequence[tuple[Counter[str], int]],
    ) -> None:
        """``append`` with each row's terms already counted (``bm25.term_counts``)."""
        if not len(new_ids):
            return
        with self.text_lock:
            ids, matrix, valid = self.state
            n = len(ids)
            if n + len(new_ids) > len(matrix) or int(valid[:n].sum()) < n // 2:
                ids, matrix, valid = self._repack(n + len(new_ids))
                n = len(ids)
            matrix[n : n + len(new_ids)] = vectors
            for row, (counts, length) in enumerate(counted, start=n):
                self.lengths[row] = length
                self.live_length += length
                for term, tf in counts.items():
                    rows_tfs = self.postings.get(term)
                    if rows_tfs is None:
                        rows_tfs = self.postings[term] = (bytearray(), bytearray())
                    rows_tfs[0].extend(_ROW(row))
                    rows_tfs[1].extend(_TF(min(tf, 0xFFFF)))
                self.postings_count += len(counts)
            self.live_rows += len(new_ids)
            self.row_of.update((note_id, n + i) for i, note_id in enumerate(new_ids))
            ids.extend(new_ids)
            valid[n : n + len(new_ids)] = True

    @property
    def width(self) -> int:
        """The dimension of the vectors kept (0: the text alone)."""
        return self.state[1].shape[1]

    def as_large(self, half_vectors: bool) -> _Scope:
        """This scope as a large one is kept (see index.NoteIndex._hand_over_large): its
        text, and with ``half_vectors`` its vectors as float16 (to re-rank the vector
        index's candidates, :meth:`similarities`), else none.  It shares the postings and
        their lock with this one, so a search still reading this one and a write appending
        to that one exclude each other."""
        with self.text_lock:
            ids, matrix, valid = self.state
            kept = matrix.astype(np.float16) if half_vectors else matrix[:, :0]
            other = _Scope(self.keys, self.active_only, 0)
            other.text_lock = self.text_lock
            other.state = (ids, kept, valid)
            other.row_of, other.postings, other.postings_count = (
                self.row_of, self.postings, self.postings_count
            )  # fmt: skip
            other.lengths, other.live_rows, other.live_length = (
                self.lengths, self.live_rows, self.live_length
            )  # fmt: skip
            return other

    def reserve(self, rows: int) -> None:
        """Room for ``rows`` more rows, made now."""
        with self.text_lock:
            self._repack(rows)

    def _repack(self, needed: int) -> tuple[list[str], np.ndarray, np.ndarray]:
        """New arrays (vector readers keep the old ones): live rows packed, room for 25 %
        more; the postings renumbered to match (under ``text_lock``)."""
        ids, matrix, valid = self.state
        keep = np.flatnonzero(valid[: len(ids)])
        capacity = max(16, int((len(keep) + needed - len(ids)) * 1.25))
        new_matrix = np.zeros((capacity, matrix.shape[1]), dtype=matrix.dtype)
        new_matrix[: len(keep)] = matrix[keep]
        new_valid = np.zeros(capacity, dtype=bool)
        new_valid[: len(keep)] = True
        new_lengths = np.zeros(capacity, dtype=np.int32)
        new_lengths[: len(keep)] = self.lengths[keep]
        if len(keep) == len(ids):
            # nothing to drop (a scope growing by an import): every row keeps its number, so
            # the postings stay as they are; renumbering them (a Python loop over every
            # term) at each growth took 2.4 s of a 50k-note import's main thread
            new_ids = list(ids)
        else:
            new_ids = [ids[i] for i in keep]
            self._renumber_postings(keep, len(ids))
            self.row_of = {note_id: i for i, note_id in enumerate(new_ids)}
        self.lengths = new_lengths
        self.state = (new_ids, new_matrix, new_valid)
        return self.state

    def _renumber_postings(self, keep: np.ndarray, rows: int) -> None:
        new_row = np.full(max(rows, 1), -1, dtype=np.int64)
        new_row[keep] = np.arange(len(keep))
        postings: dict[str, tuple[bytearray, bytearray]] = {}
        count = 0
        for term, (old_rows, tfs) in self.postings.items():
            renumbered = new_row[_rows(old_rows)]
            kept = renumbered >= 0
            if kept.any():
                postings[term] = (
                    bytearray(renumbered[kept].astype("<i4").tobytes()),
                    bytearray(np.frombuffer(tfs, dtype="<u2")[kept].tobytes()),
                )
                count += int(kept.sum())
        self.postings = postings
        self.postings_count = count

    def text_search(self, terms: str, limit: int) -> list[tuple[str, float]]:
        """(id, BM25 score) best first, like the index's full-text search (see bm25.py)."""
        query = bm25.query_counts(terms)
        with self.text_lock:
            ids, _matrix, valid = self.state
            docs = self.live_rows
            if not query or docs <= 0 or limit <= 0:
                return []
            average = max(self.live_length / docs, 1e-9)
            scores = np.zeros(len(ids), dtype=np.float64)
            for term, times in query:
                posted = self.postings.get(term)
                if posted is None:
                    continue
                rows = _rows(posted[0])
                live = valid[rows]
                rows = rows[live]
                if not len(rows):
                    continue
                tf = np.frombuffer(posted[1], dtype="<u2").astype(np.float64)[live]
                norm = bm25.K1 * (1.0 - bm25.B + bm25.B * self.lengths[rows] / average)
                weight = times * bm25.idf(docs, len(rows))
                scores[rows] += weight * tf * (bm25.K1 + 1.0) / (tf + norm)
        found = np.flatnonzero(scores > 0)
        if len(found) > limit:
            found = found[np.argpartition(-scores[found], limit - 1)[:limit]]
        found = found[np.argsort(-scores[found], kind="stable")]
        return [(ids[i], float(scores[i])) for i in found]

    def similarities(self, vector: np.ndarray, ids: Sequence[str]) -> np.ndarray | None:
        """The cosine similarity of ``vector`` to each kept row of ``ids``; None when a row
        is not kept (written or removed since the caller's read) or the scope keeps no
        vectors.  Computed as LanceDB's cosine distance is, norms included: float16 rows
        are not exactly of unit length."""
        with self.text_lock:  # row numbers move only under it (a repack)
            _ids, matrix, _valid = self.state
            rows = [self.row_of.get(note_id) for note_id in ids]
        if not matrix.shape[1] or None in rows:
            return None
        chosen = matrix[rows].astype(np.float32)
        norms = np.linalg.norm(chosen, axis=1) * max(float(np.linalg.norm(vector)), 1e-12)
        with one_blas_thread():
            return (chosen @ vector) / np.maximum(norms, 1e-12)

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
    """Kept scopes by filter.  Each keeps the vectors it was built with, as ``dtype``: the
    small scopes all of them as float32 (searched here), the large scopes, whose vectors
    go through the ANN index, their text with float16 vectors (to re-rank its candidates)
    or with none (``build`` given a matrix of width 0)."""

    def __init__(self, budget_bytes: int = BUDGET_BYTES, dtype: type = np.float32) -> None:
        self._dtype = dtype
        self._budget = budget_bytes
        self._scopes: OrderedDict[str, _Scope] = OrderedDict()
        self._lock = threading.Lock()

    def search(self, where: str, vector: np.ndarray, limit: int) -> list[tuple[str, float]] | None:
        """Exact (id, cosine) best first, or None when this filter is not kept."""
        scope = self._used(where)
        return None if scope is None else scope.search(np.asarray(vector, np.float32), limit)

    def text_search(self, where: str, terms: str, limit: int) -> list[tuple[str, float]] | None:
        """(id, BM25 score) best first, or None when this filter is not kept."""
        scope = self._used(where)
        return None if scope is None else scope.text_search(terms, limit)

    def refines(self, where: str) -> bool:
        """Whether this filter is kept with its vectors (see :meth:`refine`)."""
        with self._lock:
            scope = self._scopes.get(where)
        return scope is not None and scope.width > 0

    def refine(
        self, where: str, vector: np.ndarray, candidates: Sequence[str], limit: int
    ) -> list[tuple[str, float]] | None:
        """The best ``limit`` of ``candidates`` by exact cosine to ``vector``, best first;
        None when one of them (or the filter, or its vectors) is not kept."""
        scope = self._used(where)
        if scope is None:
            return None
        sims = scope.similarities(np.asarray(vector, np.float32), candidates)
        if sims is None:
            return None
        order = np.argsort(-sims, kind="stable")[:limit]
        return [(candidates[i], float(sims[i])) for i in order]

    def _used(self, where: str) -> _Scope | None:
        """The kept entry of ``where``, marked as the most recently used."""
        with self._lock:
            scope = self._scopes.get(where)
            if scope is not None:
                self._scopes.move_to_end(where)
                scope.used_at = time.monotonic()
            return scope

    def holds(self, where: str) -> bool:
        with self._lock:
            return where in self._scopes

    def take_large(self, min_rows: int) -> list[tuple[str, _Scope]]:
        """Remove and return the kept scopes of at least ``min_rows`` live rows."""
        with self._lock:
            large = [(w, s) for w, s in self._scopes.items() if s.live_rows >= min_rows]
            for where, _scope in large:
                del self._scopes[where]
        return large

    def build(
        self,
        where: str,
        ids: list[str],
        matrix: np.ndarray,
        terms: Sequence[str],
        pause: Callable[[], None] | None = None,
    ) -> list[tuple[str, _Scope]]:
        """The entry of ``where`` for these rows, not kept yet (see :meth:`install`); empty
        if the filter cannot be kept.  ``pause`` is called between chunks of the analysis
        (pure Python, seconds at 50k notes): a search beside it waited for the interpreter
        lock at every step and took 1.2-2.0 s instead of 30 ms."""
        parsed = parse_filter(where)
        if parsed is None or matrix.nbytes > self._budget:
            return []
        scope = _Scope(*parsed, matrix.shape[1], self._dtype)
        scope.reserve(len(ids))  # room for all at once: no renumbering while it grows
        for part in _chunks(len(ids), pause):  # a chunk's counts at a time
            scope.append(ids[part], matrix[part], terms[part])
        return [(where, scope)]

    def build_cases(
        self,
        where: str,
        ids: list[str],
        case_keys: Sequence[str],
        statuses: Sequence[str],
        matrix: np.ndarray,
        terms: Sequence[str],
        pause: Callable[[], None] | None = None,
    ) -> tuple[list[tuple[str, _Scope]], bool]:
        """The entries of ``where`` and of the search filter of every other case in these
        rows (the whole table), as far as half the budget allows, and whether that was all
        of them: one read instead of one per case, so a lawyer moving between many small
        cases finds each in memory from its first search on.  ``where`` comes first."""
        wanted = [where, *sorted({index_filter(key) for key in set(case_keys) if key} - {where})]
        counted: list[tuple[Counter[str], int]] = []
        for part in _chunks(len(terms), pause):
            counted.extend(bm25.term_counts(t) for t in terms[part])
        keys = np.array([scope_key(k or None) for k in case_keys], dtype=object)
        active = np.array([status == "active" for status in statuses], dtype=bool)
        built: list[tuple[str, _Scope]] = []
        spent = 0
        for candidate in wanted:
            parsed = parse_filter(candidate)
            if parsed is None:
                continue
            scope_keys, active_only = parsed
            rows = np.flatnonzero(
                np.isin(keys, list(scope_keys)) & (active if active_only else True)
            )
            scope = _Scope(scope_keys, active_only, matrix.shape[1], self._dtype)
            scope.reserve(len(rows))  # room for all at once: no renumbering while it grows
            for part in _chunks(len(rows), pause):
                chosen = rows[part]
                scope.append_counted(
                    [ids[i] for i in chosen], matrix[chosen], [counted[i] for i in chosen]
                )
            spent += scope.nbytes
            if spent > self._budget // 2 and built:
                return built, False  # the rest are read one by one when they are searched
            built.append((candidate, scope))
        return built, True

    def install(self, built: Sequence[tuple[str, _Scope]]) -> None:
        """Keep entries made by :meth:`build` or :meth:`build_cases` (from rows read with no
        write since: the caller checks), the first one as the most recently used."""
        if not built:
            return
        with self._lock:
            for where, scope in reversed(built):
                self._scopes[where] = scope
                self._scopes.move_to_end(where)
            while sum(s.nbytes for s in self._scopes.values()) > self._budget:
                self._scopes.popitem(last=False)

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
                vectors = np.vstack([r.vector for r in mine])[:, : scope.width]
                scope.append_counted(
                    [r.id for r in mine],
                    vectors,
                    [r.counted or bm25.term_counts(r.terms) for r in mine],
                )

    def clear(self) -> None:
        with self._lock:
            self._scopes.clear()
