"""The LanceDB index: a derived, rebuildable copy of the notes for vector and full-text search.

It holds no note text, only ids, scope, status, the full-text *terms* and the vector;
SQLite stays the source of truth.  ``lancedb`` is imported lazily (≈1.4 s): the window
paints first.

Speed at every moment (see tests/benchmarks/README.md, "Performance against the floor"):

- writes only append or merge rows; the indices are brought up to date by a background
  upkeep (index_upkeep.py) as soon as a write leaves more than a few hundred rows unindexed,
  because LanceDB searches unindexed rows flat;
- old versions are removed after each upkeep, while no search is reading (a shared/exclusive
  guard), so the folder holds one version, not a day of them;
- a scope of at least ``ANN_MIN_SCOPE`` notes is searched through an approximate vector index
  (IVF with scalar quantisation, built in the background and rebuilt as one segment when
  writes have split it; exact re-ranking of the candidates, from float16 copies of the
  scope's vectors kept in memory beside its text when they fit, else by LanceDB);
  smaller scopes are searched exactly, since with a prefilter the index would miss their notes.
"""

from __future__ import annotations

import functools
import logging
import math
import re
import shutil
import threading
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from desktop_app.core.errors import StorageError
from desktop_app.memory import bm25
from desktop_app.memory.index_upkeep import IndexUpkeep
from desktop_app.memory.prefetch import Planned, files_under
from desktop_app.memory.scope import GLOBAL_KEY, index_filter, quote_ids, scope_key
from desktop_app.memory.vector_cache import VectorCache

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])

TABLE = "notes"
#: the upkeep runs once this many rows were written since the last one: the full-text search
#: scans unindexed rows flat (~15 µs a row here), so a few hundred cost a few milliseconds
UPKEEP_ROWS = 256
#: ... or this share of the table, if more: one upkeep costs O(rows) (LanceDB rewrites the
#: full-text index: ~2 s at 50k notes), so a large table folds in two batches at a time
UPKEEP_SHARE = 0.02
#: ... or after this many writes (each small write leaves a fragment and a version).  Rows of
#: a case kept in memory, or that the write starts keeping, count only here: its searches
#: never scan them (_flat_rows), and they are folded in at the next quiet moment.  Counting
#: them against the row budget made a bulk import optimize after every batch or two (O(rows)
#: each: ~2 ms of CPU per note added at 50k notes, more than the embedding of the note, on a
#: machine of two cores)
UPKEEP_WRITES = 16
#: while writes keep coming, old versions are removed at every this-many-th upkeep; an idle
#: upkeep (IndexUpkeep.IDLE_SECONDS after the last write), close and every true delete remove
#: them all.  Removing them is a second LanceDB optimize (more than half of an upkeep's time
#: at 10k notes): pruning after each of a bulk import's 20 upkeeps cost ~2.5 s of its ~40 s
UPKEEP_PRUNE_EVERY = 4
#: scopes with at least this many active notes are searched through the vector index.  Below,
#: exact search is fast (≈ 10–25 ms at 10k notes) and an index with a prefilter misses notes
#: (recall@10 0.87–0.94 at 10k); measured in tests/benchmarks/bench_perf.py.
ANN_MIN_SCOPE = 20_000
#: up to this many rows, the first search of a small scope reads the whole table once and
#: keeps every case's scope (vector_cache.VectorCache.build_cases): 10k rows take ~0.1 s to
#: read and ~20 MB to keep, where each case's first search through LanceDB costs ~20 ms
KEEP_ALL_CASES_ROWS = 20_000
#: the longest a read of a scope into memory waits for the searches running to end
KEEP_WAIT_SECONDS = 2.0
#: memory for the kept text of large scopes (~65 MB for 50k notes in one case)
TEXT_BUDGET_BYTES = 160 * 1024 * 1024
#: a large scope's kept text per note, to leave out scopes that could not fit (measured at
#: 50k notes: 1.3 KB; each idle round would otherwise read and drop them again)
TEXT_BYTES_PER_NOTE = 1_500
#: and its float16 vectors, kept with the text when both fit (room for a quarter more rows
#: included): the vector index's candidates are re-ranked from them instead of LanceDB
#: reading each candidate's vector from its data file, ~200 reads a search.  At 50k notes
#: in one case, LanceDB's part of a search took 13.7 ms with its own re-ranking and 10.4 ms
#: without it (p50 of 400 queries; the re-ranking here adds ~0.2 ms)
HALF_VECTOR_BYTES_PER_NOTE = 1_300
#: IVF partitions: one per this many rows (at least 16); rebuilt when the table doubles
ANN_ROWS_PER_PARTITION = 400
#: share of the partitions probed for a scope holding the whole table (more for a smaller
#: scope, see ``_ann_params``), and the candidates re-ranked on the exact vectors
ANN_PROBE_SHARE = 0.375
#: (issue 18, 50k one case, 200 queries: refine 1 was 0.6-2.0 ms faster p50 than 2, but the
#: final top 10's recall@10 vs exact fell to 0.957 on a freshly built index (0.9965 on
#: another build); without refine it is 0.61, since the fusion scores quantised distances)
ANN_REFINE_FACTOR = 2
#: k-means effort of the build: LanceDB's defaults (50 iterations on 256 rows a partition)
#: took 112 s at 50k notes on these machines, 5 iterations on 32 rows a partition 13 s, with
#: the same recall@10 against exact at the probes above (0.9995 on the benchmark's queries)
ANN_KMEANS_ITERATIONS = 5
ANN_SAMPLE_RATE = 32
#: LanceDB's optimize adds each batch of new rows to the vector index as one more segment (a
#: delta index) and every search probes each one: after bench_perf's 50k ingest the index had
#: 10, and LanceDB's vector search alone took 19.0 / 21.9 ms (p50 / p95) against 12.1 / 19.5
#: once rebuilt as one (200 queries, nprobes 3/8, refine 2; recall@10 1.000 both); the whole
#: engine search, A/B in one process under load 3.3-3.7: 36.9 / 48.4 → 31.0 / 41.3 ms.  The
#: rebuild costs 1.5 s of background CPU at 50k, so the upkeep does it on idle (more than one
#: segment) and, while writes keep coming, only past this many
ANN_MAX_SEGMENTS = 4
_ANN_NAME = re.compile(r"^vector_ivf_sq_p(\d+)$")


@dataclass(frozen=True, slots=True)
class IndexRow:
    id: str
    case_id: str | None
    status: str
    terms: str
    vector: np.ndarray
    created_at: float  # epoch seconds, for recency without a SQLite round trip
    #: a digest of everything this row was built from (text, scope, status); comparing it
    #: with SQLite's finds stale rows after a restore without re-embedding everything
    stamp: str = ""
    #: ``terms`` counted (bm25.term_counts) when the writer has them already
    counted: bm25.Counted | None = None


class _KeepAbandoned(Exception):
    """A large scope's read into memory gave way (see NoteIndex._large_pause)."""


def _index_error(exc: Exception) -> StorageError:
    return StorageError(
        f"search index: {exc}",
        user_message=(
            "搜索索引读取失败，重新打开 LexMem 时会自动重建。 / "
            "The search index could not be read; it is rebuilt when LexMem reopens."
        ),
    )


class IndexUnavailableError(StorageError):
    """The index failed (damaged files, a full disk).  It is marked for a rebuild at the next
    open; until then search reads SQLite (see fallback_search.py) and writes wait in SQLite
    (notes stay marked dirty)."""

    default_user_message = (
        "搜索索引出错，暂时改用数据库搜索（较慢，结果完整）；重新打开 LexMem 时会自动重建索引。 / "
        "The search index failed; searching the database instead (slower, complete) until it "
        "is rebuilt when LexMem reopens."
    )


def _guarded(empty: Callable[[], Any] | None = None) -> Callable[[F], F]:
    """An index call that must not take the app down with it: on any failure the index is
    marked broken (``on_broken`` persists that, so the next open rebuilds it) and a read
    returns ``empty()``, a write raises IndexUnavailableError.  A broken index is not
    touched again until it is rebuilt."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def call(self: NoteIndex, *args: Any, **kwargs: Any) -> Any:
            if self.broken is None:
                try:
                    return fn(self, *args, **kwargs)
                except IndexUnavailableError:
                    raise
                except Exception as exc:  # lance raises plain RuntimeError/OSError on damage
                    self.mark_broken(exc)  # outside self._lock: on_broken writes SQLite
            if empty is not None:
                return empty()
            raise IndexUnavailableError(f"search index: {self.broken}")

        return call  # type: ignore[return-value]

    return decorate


class _FileGuard:
    """Searches share the index files; removing old versions' files excludes them (a search
    that started on a version must finish before its files go).  Writers come first: once
    a removal waits, new searches wait behind it (it takes milliseconds)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._exclusive = False
        self._waiting = 0

    @contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: not self._exclusive and not self._waiting)
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                if not self._readers:
                    self._cond.notify_all()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        with self._cond:
            self._waiting += 1
            self._cond.wait_for(lambda: not self._exclusive and not self._readers)
            self._waiting -= 1
            self._exclusive = True
        try:
            yield
        finally:
            with self._cond:
                self._exclusive = False
                self._cond.notify_all()


class NoteIndex:
    def __init__(
        self,
        folder: Path,
        dim: int,
        on_write: Callable[[int], None] | None = None,
        *,
        read_only: bool = False,
        table: str = TABLE,
    ) -> None:
        import lancedb

        self.folder = folder
        #: the LanceDB table: "notes", or "passages" for case documents (same columns)
        self.table_name = table
        self.dim = dim
        #: a reader beside the running app: never writes (not even a missing scalar index)
        self.read_only = read_only
        #: writers (add, merge, delete) and swaps of the table object
        self._lock = threading.RLock()
        #: one upkeep, optimize, purge or reset at a time; always taken BEFORE ``_lock``
        self._upkeep_lock = threading.Lock()
        self._files = _FileGuard()
        # a reader beside the app follows its writes (a version check per query, ~1 ms)
        consistency = timedelta(0) if read_only else None
        self._db = lancedb.connect(str(folder), read_consistency_interval=consistency)
        self._table = None
        self._fts_ready = False
        #: rows since the last index update that a search would scan flat (see _flat_rows),
        #: and writes (the upkeep's budget)
        self._rows_since_upkeep = 0
        self._writes_since_upkeep = 0
        #: upkeeps since old versions were last removed (see UPKEEP_PRUNE_EVERY)
        self._unpruned_upkeeps = 0
        #: IVF partitions of the vector index, None without one
        self._ann_partitions: int | None = None
        #: segments of the vector index (each optimize that indexes new rows adds one)
        self._ann_segments = 0
        #: reconsider building the vector index at the next upkeep (set by writes)
        self._ann_check = True
        self._ann_scanned_at_rows = 0
        self._force_exact = False
        #: filter (None: all rows) -> (stamp, rows matching it): see _scope_size
        self._scope_rows: dict[str | None, tuple[tuple[int, int], int]] = {}
        #: bumped by every change of the rows (write, delete, purge, reset): a copy of some
        #: rows taken at one generation is still exact while it has not moved
        self.generation = 0
        #: called with the table version after every write, so the owner can record which
        #: version of the index matches its data (see IndexSync.reconcile)
        self.on_write = on_write
        self._upkeep = None if read_only else IndexUpkeep(self)
        #: small scopes' vectors in memory, exact and in step with every write (a reader
        #: beside the app cannot see the app's writes: it always asks LanceDB)
        self._vectors = None if read_only else VectorCache()
        #: the text of large scopes (their vectors go through the ANN index): LanceDB's
        #: full-text search costs 4-20 ms at 50k notes, the kept postings ~0.2 ms; and
        #: their float16 vectors where they fit (see HALF_VECTOR_BYTES_PER_NOTE)
        self._texts = None if read_only else VectorCache(TEXT_BUDGET_BYTES, np.float16)
        #: the scopes being read into memory, and the filler thread (under ``_filling_lock``)
        self._filling: set[str] = set()
        self._filling_lock = threading.Lock()
        #: searches running (begin_search / end_search), which a read into memory waits for
        self._searching = 0
        self._searching_cond = threading.Condition()
        #: a read of every case at once did not fit in memory (see _build_kept)
        self._cases_overflow = False
        #: large scopes whose text the upkeep's next idle round keeps in memory
        self._texts_wanted: set[str] = set()
        self._filler: ThreadPoolExecutor | None = None
        #: the owner starts the upkeep once it records versions (after its own reconcile)
        self._upkeep_started = False
        #: why the index failed (None while it works); see _guarded
        self.broken: str | None = None
        #: called once with that reason when the index fails (the owner records it)
        self.on_broken: Callable[[str], None] | None = None
        self._open_existing()
        #: an existing index not searched yet: the upkeep warms it on its first idle round
        self._warm_due = self._upkeep is not None and self._table is not None

    # -- life cycle ----------------------------------------------------------------------

    def _schema(self, vector_type=None):
        """The table's columns.  Vectors are stored as float16: half the disk of float32
        (10 MB less per 10k notes) and the same neighbours (top-10 identical on the
        benchmark's 100 queries; similarities move by ~1e-3)."""
        import pyarrow as pa

        return pa.schema(
            [
                pa.field("id", pa.string(), nullable=False),
                pa.field("case_id", pa.string(), nullable=False),
                pa.field("status", pa.string(), nullable=False),
                pa.field("terms", pa.string(), nullable=False),
                pa.field("vector", pa.list_(vector_type or pa.float16(), self.dim), nullable=False),
                pa.field("created_at", pa.float64(), nullable=False),
                pa.field("stamp", pa.string(), nullable=False),
            ]
        )

    def _open_existing(self) -> None:
        try:
            if self.table_name not in self._db.list_tables().tables:
                return
            table = self._db.open_table(self.table_name)
            if table.schema == self._float32_schema() and not self.read_only:
                table = self._to_float16(table)  # written by an earlier version: once
            elif table.schema not in (self._schema(), self._float32_schema()):
                log.warning("index schema differs from this version's; it will be rebuilt")
                return
            if self._data_files_missing(table):
                log.warning("index data files are missing; it will be rebuilt")
                return
            self._table = table
            indices = table.list_indices()
            self._fts_ready = any(ix.index_type == "FTS" for ix in indices)
            self._ann_partitions = _ann_partitions(indices)
            scalar_missing = not any(ix.columns == ["case_id"] for ix in indices)
            if self._fts_ready and scalar_missing and not self.read_only:
                self._create_scalar_indices()  # an index written by an earlier version
        except Exception:  # a damaged index is rebuilt from SQLite, never trusted
            log.warning(
                "index at %s could not be opened; it will be rebuilt", self.folder, exc_info=True
            )
            self._table = None

    def _float32_schema(self):
        import pyarrow as pa

        return self._schema(pa.float32())

    def _to_float16(self, table):
        """Rewrite an index of float32 vectors as float16 (no re-embedding; O(rows), once)."""
        log.info("storing the index vectors as float16")
        live = table.to_arrow().cast(self._schema())
        table = self._db.create_table(
            self.table_name, data=live, schema=self._schema(), mode="overwrite"
        )
        self._table = table
        if table.count_rows() > 0:
            self._create_fts()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)
        return table

    def _data_files_missing(self, table) -> bool:
        """Each fragment has at least one data file; fewer files than fragments means the
        manifest survived but data was lost (a sync tool, a half-restored folder).  Cheap:
        one directory listing, no data read."""
        fragments = table.stats()["fragment_stats"]["num_fragments"]
        data_dir = self.folder / f"{self.table_name}.lance" / "data"
        files = sum(1 for _ in data_dir.glob("*.lance")) if data_dir.is_dir() else 0
        return files < fragments

    @property
    def is_open(self) -> bool:
        return self._table is not None

    @property
    def version(self) -> int:
        with self._lock:
            return self._table.version if self._table is not None else -1

    def _notify(self) -> None:
        # Called AFTER releasing self._lock (and the upkeep lock): on_write takes the
        # engine's SQLite write lock, while the engine calls into this index holding that
        # lock (add_notes' neighbour search, delete_note).  Calling it under self._lock
        # deadlocked two writers.
        with self._lock:
            version = self._table.version if self._table is not None else None
        if self.on_write is not None and version is not None:
            self.on_write(version)

    def close(self) -> None:
        """Stop the background upkeep (a running step finishes first), then bring the
        indices up to date and drop old versions, so the next open starts compact."""
        if self._upkeep is not None:
            self._upkeep.stop()
        if self._filler is not None:
            self._filler.shutdown(wait=True, cancel_futures=True)
        if not self.read_only:
            self.optimize()

    def start_upkeep(self) -> None:
        """Let the background upkeep run from now on (it catches up at once if due)."""
        if self._upkeep is None:
            return
        self._upkeep_started = True
        if self.upkeep_due(idle=True) is not None:
            self._upkeep.request()

    def wait_for_upkeep(self, timeout: float | None = None, *, flush: bool = True) -> bool:
        """Block until the background upkeep has nothing left to do (tests, benchmarks);
        ``flush``: first fold in what waits below the budget, as on idle."""
        if self._upkeep is None or not self._upkeep_started:
            return True
        if flush and self.upkeep_due(idle=True) is not None:
            self._upkeep.request(flush=True)
        return self._upkeep.wait_idle(timeout)

    def mark_broken(self, exc: BaseException) -> None:
        """The index failed: remember why (the error class only — a message may quote a
        path or a term) and tell the owner, once."""
        if self.broken is not None:
            return
        self.broken = type(exc).__name__
        log.warning("search index failed; searching SQLite until it is rebuilt", exc_info=exc)
        if self.on_broken is not None:
            self.on_broken(self.broken)

    def reset(self) -> None:
        """Drop everything and start an empty table (the caller refills it from SQLite)."""
        with self._upkeep_lock, self._lock:
            self._reset_locked()
        self._notify()

    def _reset_locked(self) -> None:
        self.generation += 1
        if self._vectors is not None:
            self._vectors.clear()
            self._texts.clear()
        self._cases_overflow = False
        self._table = None
        self._fts_ready = False
        self._ann_partitions = None
        self._ann_segments = 0
        self._scope_rows.clear()
        self._rows_since_upkeep = self._writes_since_upkeep = 0
        self.broken = None  # a fresh table: whatever failed before is gone with the old one
        try:
            self._db.drop_table(self.table_name)
        except Exception:
            log.debug("drop_table failed; removing the folder", exc_info=True)
        table_dir = self.folder / f"{self.table_name}.lance"
        if table_dir.exists():
            with self._files.exclusive():
                shutil.rmtree(table_dir, ignore_errors=True)
        mode = (
            "overwrite" if table_dir.exists() else "create"
        )  # overwriting nothing warns on stderr
        self._table = self._db.create_table(self.table_name, schema=self._schema(), mode=mode)

    @_guarded(lambda: -1)
    def count(self) -> int:
        with self._lock:
            return self._table.count_rows() if self._table is not None else -1

    def _scan(self, table, columns: list[str], where: str | None = None):
        """Rows of ``columns`` (optionally filtered), without a vector query.  The caller
        holds the shared file guard."""
        query = table.search().select(columns)
        if where:
            query = query.where(where)
        return query.limit(max(table.count_rows(), 1)).to_arrow()

    def _read(self, run: Callable):
        """Run a read of the current table under the shared file guard.  A reader beside
        the app (read-only) may hold a version whose files the app has since removed: it
        moves to the newest version and tries once more."""
        for attempt in (1, 2):
            with self._files.shared():
                table = self._table
                if table is None:
                    return None
                try:
                    return run(table)
                except Exception as exc:  # lance raises plain RuntimeError/OSError on damage
                    if not self.read_only or attempt == 2:
                        raise _index_error(exc) from exc
            try:
                table.checkout_latest()
            except Exception as exc:
                raise _index_error(exc) from exc
        return None

    @_guarded(dict)
    def stamps(self) -> dict[str, str]:
        """id → stamp of every row (read only when the index may be out of step)."""
        arrow = self._read(lambda t: self._scan(t, ["id", "stamp"]))
        if arrow is None:
            return {}
        return dict(
            zip(arrow.column("id").to_pylist(), arrow.column("stamp").to_pylist(), strict=True)
        )

    # -- writes --------------------------------------------------------------------------

    def _arrow(self, rows: Sequence[IndexRow]):
        import pyarrow as pa

        vectors = np.vstack([np.asarray(r.vector, dtype=np.float32) for r in rows])
        return pa.table(
            {
                "id": [r.id for r in rows],
                "case_id": [scope_key(r.case_id) for r in rows],
                "status": [r.status for r in rows],
                "terms": [r.terms for r in rows],
                "vector": pa.FixedSizeListArray.from_arrays(
                    pa.array(vectors.reshape(-1).astype(np.float16), type=pa.float16()), self.dim
                ),
                "created_at": [r.created_at for r in rows],
                "stamp": [r.stamp for r in rows],
            },
            schema=self._schema(),
        )

    @_guarded()
    def upsert(self, rows: Sequence[IndexRow], *, new: bool = False) -> None:
        """Insert or replace rows by id in one LanceDB write.  ``new``: the caller knows no
        row of these ids is in the index (a note just added): a plain append, which needs no
        join on the id column and never conflicts with a running upkeep."""
        if not rows:
            return
        with self._lock:
            if self._table is None:
                self._reset_locked()
            data = self._arrow(rows)
            table = self._table
            if new or table.count_rows() == 0:
                table.add(data)
            else:
                _retry_conflicts(
                    lambda: (
                        table.merge_insert("id")
                        .when_matched_update_all()
                        .when_not_matched_insert_all()
                        .execute(data)
                    )
                )
            if self._vectors is not None:
                self._vectors.apply(written=rows)
                self._texts.apply(written=rows)
            written = Counter(scope_key(row.case_id) for row in rows)
            unkept = [
                key for key in written if key != GLOBAL_KEY and not self._held(index_filter(key))
            ]
            keeping = self._keeps_on_write()
            self._after_write(self._flat_rows(written, unkept, keeping))
            if keeping:
                self._keep_written(unkept)
        self._notify()

    @_guarded()
    def delete(self, ids: Sequence[str]) -> None:
        if not ids:
            return
        with self._lock:
            table = self._table
            if table is None:
                return
            _retry_conflicts(lambda: table.delete(f"id IN ({quote_ids(ids)})"))
            if self._vectors is not None:
                self._vectors.apply(deleted=ids)
                self._texts.apply(deleted=ids)
            self._after_write(len(ids))
        self._notify()

    def _held(self, where: str) -> bool:
        """Is this search filter answered from memory (see vector_cache.py)?"""
        return self._vectors is not None and (
            self._vectors.holds(where) or self._texts.holds(where)
        )

    @staticmethod
    def _flat_rows(written: Counter[str], unkept: Iterable[str], keeping: bool) -> int:
        """Of the rows just written (counted by scope key), those a search would scan flat
        until the next index update: the global notes (they are in every case's filter), and
        the rows of the ``unkept`` cases (not kept in memory), unless this write starts
        keeping them (each read alone, in the background, they are not scanned flat for
        long; counted, an import into 100 new cases of 100 notes optimized twice a batch)."""
        return written[GLOBAL_KEY] + (0 if keeping else sum(written[key] for key in unkept))

    def _keeps_on_write(self) -> bool:
        """Does a write keep the cases it wrote to in memory (see _keep_written)?"""
        return self._upkeep_started and self._vectors is not None

    def _keep_written(self, keys: Iterable[str]) -> None:
        """Keep the cases just written to in memory (in the background, each alone): their
        searches, right after an import too, then never wait for LanceDB's flat scan of the
        rows not indexed yet, and the upkeep need not update the index after every batch."""
        for key in keys:
            self._keep_later(index_filter(key), alone=True)

    def _after_write(self, rows: int) -> None:
        self.generation += 1
        if not self._fts_ready and self._table.count_rows() > 0:
            self._create_fts()
        self._rows_since_upkeep += rows
        self._writes_since_upkeep += 1
        self._ann_check = True
        if self._upkeep is not None:
            self._upkeep.wrote()
        if self._upkeep_started and self.upkeep_due(idle=False) == "optimize":
            self._upkeep.request()

    def _create_fts(self) -> None:
        from lancedb.index import FTS

        # Terms arrive pre-split (CJK bigrams, words) by text.fts_terms; the index only
        # splits on whitespace, lower-cases and stems the English words.
        self._table.create_index(
            "terms",
            config=FTS(
                with_position=False,
                base_tokenizer="whitespace",
                language="English",
                lower_case=True,
                stem=True,
                remove_stop_words=True,
                ascii_folding=True,
                max_token_length=64,
            ),
            replace=True,
        )
        self._fts_ready = True
        self._create_scalar_indices()

    def _create_scalar_indices(self) -> None:
        """Bitmap indices on the scope and status columns: every search filters on them, and
        with many cases a prefiltered scan drops from ~11 ms to ~3 ms at 10k notes."""
        from lancedb.index import Bitmap

        for column in ("case_id", "status"):
            self._table.create_index(column, config=Bitmap(), replace=True)

    # -- upkeep --------------------------------------------------------------------------

    def upkeep_due(self, idle: bool, quiet: bool | None = None) -> str | None:
        """What the background upkeep should do now: "optimize" (fold unindexed rows into
        the indices, compact, drop old versions), "ann" (consider the vector index), when
        quiet "optimize" (rows that only kept scopes search), "merge", "prune" and "warm",
        when idle "keep" (a large scope's text into memory, between searches), or None.
        ``idle``: nothing was written for a while, so even a few rows are worth folding in;
        ``quiet`` (default: ``idle``): nor searched, so seconds of CPU or a lock on the files
        delay no one."""
        quiet = idle if quiet is None else quiet
        if self.read_only or self._table is None:
            return None
        rows, writes = self._rows_since_upkeep, self._writes_since_upkeep
        budget = max(UPKEEP_ROWS, int(UPKEEP_SHARE * self._table.count_rows()))
        # rows that only kept scopes search (see _flat_rows) are folded in when no one searches
        if rows >= budget or writes >= UPKEEP_WRITES or (idle and rows) or (quiet and writes):
            return "optimize"
        if self._ann_check:
            return "ann"
        if quiet and self._ann_segments > 1:
            return "merge"
        if quiet and self._unpruned_upkeeps:
            return "prune"
        if idle and self._texts_wanted:
            return "keep"
        if quiet and self._warm_due:
            return "warm"
        return None

    def run_upkeep(self, task: str) -> None:
        with self._upkeep_lock:
            if task == "optimize":
                self._optimize_and_prune(prune=self._unpruned_upkeeps + 1 >= UPKEEP_PRUNE_EVERY)
            elif task == "ann":
                self._consider_ann()
                self._hand_over_large()
            elif task == "merge":
                self._consider_ann(merge=True)
            elif task == "prune":
                self._prune()
            elif task == "warm":
                self._warm()
            elif task == "keep":
                with self._filling_lock:
                    wanted, self._texts_wanted = self._texts_wanted, set()
                for where in sorted(wanted):
                    self._keep(where, large_now=True)
        self._notify()

    def prefetch_plan(self) -> list[Planned]:
        """This table's files for the cache warm-up after an open (prefetch.py), each read
        under the file guard (a removal of old versions waits for it)."""
        table_dir = self.folder / f"{self.table_name}.lance"
        return [(p, self._files.shared) for p in files_under(table_dir)]

    def _warm(self) -> None:
        """One throwaway full-text search and one vector search through every partition of
        the vector index, so that the user's first search does not pay for loading them: at
        50k notes it took 103-143 ms after a reopen (then ~30 ms); after this warm-up (~65 ms
        here, in the background) 39-47 ms.  The filter (the global scope) reads the same
        scalar indices as every search.  Only once the upkeep has been idle after the open
        and only if no search came first: run at once, beside a new process's first search,
        it delayed that answer (~0.5 s, six interleaved runs each)."""
        if not self._warm_due:
            return
        self._warm_due = False
        where = index_filter(None)
        partitions = self._ann_partitions
        unit = np.zeros(self.dim, dtype=np.float32)
        unit[0] = 1.0

        def run(table):
            if partitions is not None:
                _nearest(table, unit, where, 1, partitions, ANN_REFINE_FACTOR)
            if self._fts_ready:
                _full_text(table, "warm", where, 1)

        try:
            self._read(run)
        except Exception:  # an optimisation: the first search loads what it needs
            log.debug("could not warm the index", exc_info=True)

    @_guarded()
    def optimize(self) -> None:
        """Fold every unindexed row into the indices, compact, drop old versions — now, in
        the caller's thread (after large re-indexing, at close)."""
        with self._upkeep_lock:
            self._optimize_and_prune()
        self._notify()

    def _optimize_and_prune(self, prune: bool = True) -> None:
        """LanceDB's optimize (compaction, index update) runs beside searches and writes; the
        removal of old versions' files (``prune``) waits until no search reads and no write
        is due."""
        with self._lock:
            table = self._table
            if table is None:
                return
            rows, writes = self._rows_since_upkeep, self._writes_since_upkeep
            self._rows_since_upkeep = self._writes_since_upkeep = 0
        try:
            _retry_conflicts(table.optimize)
        except BaseException:
            with self._lock:  # not done: the next upkeep tries again
                self._rows_since_upkeep += rows
                self._writes_since_upkeep += writes
            raise
        self._unpruned_upkeeps += 1
        if prune:
            self._prune()

    def _prune(self) -> None:
        """Remove every old version's files, once no search reads and no write is due."""
        with self._lock:
            table = self._table
            if table is None or self._writes_since_upkeep:
                return  # rows came in meanwhile: pruning now would index them while searches wait
            with self._files.exclusive(), warnings.catch_warnings():
                # removing every old version is the point (one version on disk); LanceDB warns
                # because other readers of old versions would fail — none reads meanwhile, and
                # a reader in another process moves to the newest version (see _read)
                warnings.simplefilter("ignore", UserWarning)
                _retry_conflicts(lambda: table.optimize(cleanup_older_than=timedelta(0)))
            self._unpruned_upkeeps = 0

    def _consider_ann(self, merge: bool = False) -> None:
        """Build (or rebuild, once the table has doubled or its segments exceed
        ``ANN_MAX_SEGMENTS``; ``merge``: once it has more than one) the vector index when a
        scope has reached ANN_MIN_SCOPE active notes.  Seconds of CPU, in this thread;
        searches use the old index (or stay exact) meanwhile."""
        from lancedb.index import IvfSq

        self._ann_check = False
        table = self._table
        if table is None:
            return
        rows = table.count_rows()
        wanted = max(16, rows // ANN_ROWS_PER_PARTITION)
        if rows < ANN_MIN_SCOPE:
            return
        if self._ann_partitions is not None and 2 * self._ann_partitions > wanted:
            self._ann_segments = self._segments(table, self._ann_partitions)
            if self._ann_segments <= (1 if merge else ANN_MAX_SEGMENTS):
                return
            wanted = self._ann_partitions  # the same index, in one segment
        if self._ann_partitions is None:
            if rows < 1.1 * self._ann_scanned_at_rows:
                return  # scanned the scopes recently: none was large enough
            self._ann_scanned_at_rows = rows
            if self._largest_scope(table) < ANN_MIN_SCOPE:
                return
        old = self._ann_partitions
        name = f"vector_ivf_sq_p{wanted}"
        log.info("building the vector index (%d rows, %d partitions)", rows, wanted)
        table.create_index(
            "vector",
            config=IvfSq(
                distance_type="cosine",
                num_partitions=wanted,
                max_iterations=ANN_KMEANS_ITERATIONS,
                sample_rate=ANN_SAMPLE_RATE,
            ),
            name=name,
            replace=True,
        )
        if old is not None and old != wanted:
            table.drop_index(f"vector_ivf_sq_p{old}")
        self._ann_partitions = wanted
        self._ann_segments = 1
        # One index over all the fragments lets the compaction merge them (the segments kept
        # it from it), and that matters for recall: at 50k, right after a rebuild over 10
        # fragments the final top 10's recall@10 vs exact was 0.95-0.99, compacted 1.000
        self._optimize_and_prune()

    def _hand_over_large(self) -> None:
        """A kept scope that grew large (a case kept from an import's first batch on) keeps
        its text and float16 vectors once the vector index answers for it (float32, they
        would hold 2 KB a note of the memory budget: 100 MB at 50k notes), or its text
        alone when those would not fit."""
        if self._ann_partitions is None or self._vectors is None:
            return
        with self._lock:  # no write applies to the scope while it moves
            large = self._vectors.take_large(ANN_MIN_SCOPE)
            self._texts.install(
                [
                    (where, scope.as_large(_half_vectors_fit(scope.live_rows)))
                    for where, scope in large
                ]
            )

    @staticmethod
    def _segments(table, partitions: int) -> int:
        stats = table.index_stats(f"vector_ivf_sq_p{partitions}")
        return stats.num_indices if stats is not None else 0

    def _largest_scope(self, table) -> int:
        import pyarrow.compute as pc

        arrow = self._read(lambda t: self._scan(t, ["case_id"], "status = 'active'"))
        if arrow is None or arrow.num_rows == 0:
            return 0
        return max(row["counts"] for row in pc.value_counts(arrow.column("case_id")).to_pylist())

    # -- true delete ---------------------------------------------------------------------

    @_guarded()
    def purge_deleted(self) -> None:
        """Make deletions physical: rewrite the live rows as a fresh version, rebuild the
        full-text index and drop every old version and file, so no byte of a deleted note
        stays.  (LanceDB's delete only marks rows; its compaction keeps them below a 10 %
        threshold.  Rewriting needs no ``pylance`` — which would add ~225 MB to the bundle —
        at the price of O(rows) work per purge: ≈0.3 s at 10k notes.  The vector index goes
        with the rewrite; the upkeep builds it again.)"""
        with self._upkeep_lock, self._lock:
            if self._table is None:
                return
            live = self._table.to_arrow()
            self.generation += 1
            self._table = self._db.create_table(
                self.table_name, data=live, schema=self._schema(), mode="overwrite"
            )
            self._fts_ready = False
            self._ann_partitions = None
            self._ann_segments = 0
            self._ann_check = True
            self._ann_scanned_at_rows = 0
            self._scope_rows.clear()
            self._rows_since_upkeep = self._writes_since_upkeep = 0
            self._unpruned_upkeeps = 0
            if self._table.count_rows() > 0:
                self._create_fts()
            else:
                try:
                    self._table.drop_index("terms_idx")
                except Exception:
                    log.debug("no full-text index to drop", exc_info=True)
            with self._files.exclusive(), warnings.catch_warnings():
                # the old versions hold the deleted text: every one goes (see _optimize_and_prune)
                warnings.simplefilter("ignore", UserWarning)
                self._table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)
        self._notify()
        if self._upkeep_started:
            self._upkeep.request()  # the vector index, if a scope still needs one

    # -- reads ---------------------------------------------------------------------------

    def uses_ann_for(self, where: str) -> bool:
        """Would a vector search with this filter go through the approximate index?"""
        table = self._table
        return table is not None and self._ann_params(table, where) is not None

    @contextmanager
    def exact_search(self) -> Iterator[None]:
        """Every vector search inside the block is exact (the benchmark's recall check)."""
        self._force_exact = True
        try:
            yield
        finally:
            self._force_exact = False

    def _scope_size(self, table, where: str | None) -> int:
        """Rows matching ``where`` (all rows with None), counted once per change of the rows.

        The writer keys its counts on ``generation`` (bumped by each of its own changes of
        the rows) and the table object: asking LanceDB for the version is a hop to its
        event loop, which queues behind the full-text search running beside the vector
        search (with the total count, 1.9 ms p50 / 3.5 ms p95 of a 50k-note search).  A
        reader beside the app follows the app's writes through the version."""
        stamp = (id(table), table.version if self.read_only else self.generation)
        cached = self._scope_rows.get(where)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        rows = table.count_rows(where)  # the bitmap indices answer this in about a millisecond
        self._scope_rows[where] = (stamp, rows)
        return rows

    def _ann_params(self, table, where: str) -> tuple[int, int] | None:
        """(nprobes, refine factor) for an indexed search of this scope, None for exact.

        A prefilter keeps only the scope's rows of the probed partitions, so the smaller the
        scope's share of the table, the more partitions are probed (all of them below
        ``ANN_PROBE_SHARE`` of the table)."""
        partitions = self._ann_partitions
        if partitions is None or self._force_exact:
            return None
        scope = self._scope_size(table, where)
        if scope < ANN_MIN_SCOPE:
            return None
        share = scope / max(self._scope_size(table, None), 1)
        probes = min(partitions, math.ceil(partitions * ANN_PROBE_SHARE / max(share, 1e-9)))
        return probes, ANN_REFINE_FACTOR

    @_guarded(list)
    def vector_search(
        self, vector: np.ndarray, where: str, limit: int, *, exact: bool = False
    ) -> list[tuple[str, float]]:
        """(id, cosine similarity), best first.  Exact for small scopes (from memory once
        their vectors are kept, see vector_cache.py) and with ``exact``; through the vector
        index for large ones."""
        if limit <= 0:
            return []
        self._warm_due = False  # this search loads what a warm-up would
        query_vector = np.asarray(vector, dtype=np.float32)
        if self._vectors is not None:
            kept = self._vectors.search(where, query_vector, limit)
            if kept is not None:
                return kept
            self._keep_later(where)

        refine_here = not exact and self._texts is not None and self._texts.refines(where)

        def run(table, candidates_only: bool):
            params = None if exact else self._ann_params(table, where)
            if params is None:
                return _nearest(table, query_vector, where, limit), False
            probes, refine = params
            if candidates_only:  # LanceDB's candidates, re-ranked below from the kept vectors
                return _nearest(table, query_vector, where, limit * refine, probes), True
            return _nearest(table, query_vector, where, limit, probes, refine), False

        read = self._read(lambda table: run(table, refine_here))
        if read is not None and read[1]:
            ids = read[0].column("id").to_pylist()
            refined = self._texts.refine(where, query_vector, ids, limit)
            if refined is not None:
                return refined
            # a candidate written or removed since LanceDB's read: LanceDB re-ranks
            read = self._read(lambda table: run(table, False))
        if read is None:
            return []
        rows = read[0]
        ids = rows.column("id").to_pylist()
        dists = rows.column("_distance").to_pylist()
        return [(i, 1.0 - float(d)) for i, d in zip(ids, dists, strict=True)]

    def begin_search(self) -> None:
        """A search (several reads of this index) starts: reading a scope into memory waits
        until it is over.  The first search of a new process also warms the embedder; a read
        and analysis of 10k notes beside it made its answer ~0.8 s later."""
        with self._searching_cond:
            self._searching += 1
        if self._upkeep is not None:
            self._upkeep.searched()

    def end_search(self) -> None:
        with self._searching_cond:
            self._searching -= 1
            self._searching_cond.notify_all()

    def _keep_later(self, where: str, *, alone: bool = False) -> None:
        """Keep a scope in memory, in the background (see _keep; this search and the ones
        until then ask LanceDB).  ``alone``: read only this scope, never the whole table."""
        # not the write lock: a search must not wait for a write or for a scope being read
        with self._filling_lock:
            if (
                where in self._filling
                or where in self._texts_wanted
                or self._table is None
                or self._texts.holds(where)
            ):
                return
            self._filling.add(where)
            if self._filler is None:
                self._filler = ThreadPoolExecutor(1, thread_name_prefix="lexmem-vectors")
            filler = self._filler
        try:
            filler.submit(self._keep, where, alone=alone)
        except RuntimeError:  # shut down: the index is closing
            with self._filling_lock:
                self._filling.discard(where)

    def _keep(self, where: str, *, large_now: bool = False, alone: bool = False) -> None:
        """Keep a scope in memory: a small one whole (vectors and text, and with it every
        case of a small table), a large one's text only (its vectors are searched through
        the vector index).  Neither the read nor the analysis holds the write lock (reading
        the text of 50k notes takes seconds in a new process); if a write landed meanwhile
        a small scope is read again, and after a few tries under the lock.

        A large scope's text is read by the upkeep (``large_now``) once its first search is
        answered and no write came for a while, between the searches that follow: in a new
        process that first search also loads the embedder, and reading and analysing 50k
        notes beside it made the first answer seconds later.  A write or the index closing
        meanwhile abandons the read (see _large_pause); the next idle round starts again."""
        try:
            self._let_searches_finish()  # not beside the search that asked (see begin_search)
            for _attempt in range(3):
                if self._build_kept(where, locked=False, large_now=large_now, alone=alone):
                    return
            with self._lock:
                self._build_kept(where, locked=True, large_now=large_now, alone=alone)
        except _KeepAbandoned:
            with self._filling_lock:
                self._texts_wanted.add(where)
        except Exception:  # an optimisation: LanceDB keeps answering
            log.debug("could not keep the scope %s in memory", where, exc_info=True)
        finally:
            with self._filling_lock:
                self._filling.discard(where)

    def _let_searches_finish(self) -> None:
        """Wait (at most KEEP_WAIT_SECONDS) until no search runs: reading and analysing a
        scope holds the interpreter lock for most of its time."""
        with self._searching_cond:
            self._searching_cond.wait_for(lambda: self._searching == 0, KEEP_WAIT_SECONDS)

    def _large_pause(self, generation: int) -> None:
        """Between two chunks of a large scope's analysis (seconds of pure Python at 50k
        notes, run between searches that need not be quiet, see IndexUpkeep): let running
        searches finish; give up if a write landed, which would make the read stale (the
        upkeep's own work comes first then, and it reads again once the writes pause), or if
        the index is closing (a close waited seconds for it)."""
        self._check_keep(generation)
        self._let_searches_finish()
        self._check_keep(generation)

    def _check_keep(self, generation: int) -> None:
        if self.generation != generation or (self._upkeep is not None and self._upkeep.stopping):
            raise _KeepAbandoned

    def _build_kept(
        self, where: str, *, locked: bool, large_now: bool = False, alone: bool = False
    ) -> bool:
        """Read, build and keep ``where``'s entries (``alone``: never every case of a small
        table with it).  False when a write landed between the read and the keeping (never
        when ``locked``: the caller holds the write lock)."""
        with self._lock:  # no write is half done once the lock is had: the generation holds
            table = self._table
            if table is None or self._held(where):
                return True
            size = self._scope_size(table, where)
            large = size >= ANN_MIN_SCOPE
            # not once the cases overflowed the memory: then a case evicted is read alone
            # (reading every case again at each eviction kept the machine busy re-reading the
            # table: 600-800 ms at p95 with 100 cases)
            whole = (
                not large
                and not alone
                and not self._cases_overflow
                and table.count_rows() <= KEEP_ALL_CASES_ROWS
            )
            generation = self.generation
        if large and size * TEXT_BYTES_PER_NOTE > TEXT_BUDGET_BYTES:
            return True  # it could not be kept (read, it would be dropped at once): LanceDB
        if large and not large_now:
            with self._filling_lock:
                self._texts_wanted.add(where)
            if self._upkeep_started:
                self._upkeep.request()  # it starts once no search runs (see _large_pause)
            return True
        if large and not locked:
            self._check_keep(generation)  # before the read, the longest step
        columns = ["id", "terms"]
        if not large or _half_vectors_fit(size):
            columns.append("vector")
        if whole:
            columns += ["case_id", "status"]
        arrow = self._read(lambda t: self._scan(t, columns, None if whole else where))
        if arrow is None:
            return True
        ids = arrow.column("id").to_pylist()
        terms = arrow.column("terms").to_pylist()
        # under the write lock a search may be waiting for it: no pause then
        if locked:
            pause = None
        elif large:  # gives way to a write or a close too
            pause = functools.partial(self._large_pause, generation)
        else:
            pause = self._let_searches_finish
        if large:
            cache = self._texts
            matrix = (
                self._vector_matrix(arrow, np.float16)
                if "vector" in columns
                else np.zeros((len(ids), 0), np.float16)
            )
            built = cache.build(where, ids, matrix, terms, pause)
        else:
            cache = self._vectors
            matrix = self._vector_matrix(arrow)
            if whole:
                built, complete = cache.build_cases(
                    where,
                    ids,
                    arrow.column("case_id").to_pylist(),
                    arrow.column("status").to_pylist(),
                    matrix,
                    terms,
                    pause,
                )
            else:
                built = cache.build(where, ids, matrix, terms, pause)
        with self._lock:
            if self.generation != generation or self._table is not table:
                return locked
            cache.install(built)
            if whole and not complete:
                self._cases_overflow = True
        return True

    @_guarded(list)
    def text_search(self, terms: str, where: str, limit: int) -> list[tuple[str, float]]:
        """(id, BM25 score), best first; an empty term list finds nothing.  From memory for
        the scopes whose vectors are kept (see bm25.py), else from LanceDB's index."""
        if not self._fts_ready or not terms.strip() or limit <= 0:
            return []
        self._warm_due = False
        if self._vectors is not None:
            kept = self._vectors.text_search(where, terms, limit)
            if kept is None:
                kept = self._texts.text_search(where, terms, limit)
            if kept is not None:
                return kept
            self._keep_later(where)
        rows = self._read(lambda table: _full_text(table, terms, where, limit))
        if rows is None:
            return []
        ids = rows.column("id").to_pylist()
        scores = rows.column("_score").to_pylist()
        return [(i, float(s)) for i, s in zip(ids, scores, strict=True)]

    @_guarded(lambda: ([], None))
    def scope_matrix(self, where: str) -> tuple[list[str], np.ndarray | None]:
        """All (ids, vectors) matching ``where``, for batch neighbour search in numpy."""
        arrow = self._read(
            lambda table: (
                self._scan(table, ["id", "vector"], where) if table.count_rows() > 0 else None
            )
        )
        if arrow is None or arrow.num_rows == 0:
            return [], None
        return arrow.column("id").to_pylist(), self._vector_matrix(arrow)

    @_guarded(dict)
    def vectors_for(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not ids:
            return {}
        arrow = self._read(
            lambda table: self._scan(table, ["id", "vector"], f"id IN ({quote_ids(ids)})")
        )
        if arrow is None:
            return {}
        if arrow.num_rows == 0:
            return {}
        matrix = self._vector_matrix(arrow)
        return dict(zip(arrow.column("id").to_pylist(), matrix, strict=True))

    def _vector_matrix(self, arrow, dtype: type = np.float32) -> np.ndarray:
        """The ``vector`` column of rows read from the table, as one matrix."""
        flat = arrow.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        return flat.reshape(arrow.num_rows, self.dim).astype(dtype, copy=False)


def _nearest(
    table,
    vector: np.ndarray,
    where: str,
    limit: int,
    probes: int | None = None,
    refine: int | None = None,
):
    """LanceDB's nearest rows to ``vector`` within ``where`` (a prefilter): ids and cosine
    distances, through the vector index with ``probes`` (and its own exact re-ranking of
    ``refine`` times the rows), else exactly.

    Built on LanceDB's asynchronous query and run in its event loop in one step: its
    synchronous ``to_arrow`` asks the loop for the table's schema three times around the
    query (each a hop to that thread and back), ~2 ms of a search at 50k notes (p50 17.8 →
    15.8 ms, alternated in one process).  The synchronous builder remains for a LanceDB
    without that inner table."""
    inner, loop = _in_lancedb_loop(table)
    if loop is None:
        query = (
            table.search(vector, vector_column_name="vector")
            .distance_type("cosine")
            .where(where, prefilter=True)
            .select(["id", "_distance"])
            .limit(limit)
        )
    else:
        query = (
            inner.query()
            .nearest_to(vector)
            .column("vector")
            .distance_type("cosine")
            .where(where)  # a prefilter unless postfilter() is asked for
            .select(["id", "_distance"])
            .limit(limit)
        )
    if probes is None:
        query = query.bypass_vector_index()
    else:
        query = query.nprobes(probes)
        if refine is not None:
            query = query.refine_factor(refine)
    return query.to_arrow() if loop is None else loop.run(query.to_arrow())


def _full_text(table, terms: str, where: str, limit: int):
    """LanceDB's full-text search of ``terms`` within ``where`` (a prefilter): ids and BM25
    scores, in LanceDB's event loop in one step as :func:`_nearest` (p50 5.8 → 4.1 ms at
    50k notes, alternated)."""
    inner, loop = _in_lancedb_loop(table)
    if loop is None:
        query = table.search(terms, query_type="fts", fts_columns="terms")
        query = query.where(where, prefilter=True)
    else:
        query = inner.query().nearest_to_text(terms, columns="terms").where(where)
    query = query.select(["id", "_score"]).limit(limit)
    return query.to_arrow() if loop is None else loop.run(query.to_arrow())


def _in_lancedb_loop(table):
    """(the table's asynchronous inner table, LanceDB's event loop), or (None, None) for a
    LanceDB without them (then its synchronous builders run the query)."""
    inner = getattr(table, "_table", None)
    loop = _lancedb_loop()
    if loop is None or not hasattr(inner, "query"):
        return None, None
    return inner, loop


@functools.lru_cache(maxsize=1)
def _lancedb_loop():
    """LanceDB's own event loop (what its synchronous API runs everything in), or None."""
    try:
        from lancedb.background_loop import LOOP
    except ImportError:
        return None
    return LOOP if hasattr(LOOP, "run") else None


def _half_vectors_fit(notes: int) -> bool:
    """Whether a large scope of this many notes is kept with its float16 vectors."""
    return notes * (TEXT_BYTES_PER_NOTE + HALF_VECTOR_BYTES_PER_NOTE) <= TEXT_BUDGET_BYTES


def _ann_partitions(indices) -> int | None:
    """The partition count of the vector index, from its name (None without one)."""
    for ix in indices:
        match = _ANN_NAME.match(ix.name)
        if match and ix.columns == ["vector"]:
            return int(match.group(1))
    return None


def _retry_conflicts(run: Callable, attempts: int = 5):
    """Run a LanceDB write again when a concurrent commit pre-empted it (the upkeep's
    compaction and a merge or delete may touch the same fragments)."""
    for attempt in range(1, attempts + 1):
        try:
            return run()
        except Exception as exc:
            if attempt == attempts or "commit conflict" not in str(exc).lower():
                raise
            log.debug("LanceDB commit conflict, retrying (%d)", attempt)
    return None
