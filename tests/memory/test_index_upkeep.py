"""The index stays current and compact without blocking: the background upkeep folds a batch
into the full-text, scalar and vector indices, removes old versions, never breaks a search
that runs meanwhile, and the approximate vector index of a large scope never crosses cases.

Timings live in tests/benchmarks/bench_perf.py; these tests check behaviour."""

from __future__ import annotations

import itertools
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop_app.memory import MemoryEngine
from desktop_app.memory import index as index_module
from desktop_app.memory.scope import index_filter
from desktop_app.memory.text import fts_text

_PEOPLE = ["张三", "李四", "王丽", "赵强", "陈敏", "刘洋"]
_GOODS = ["笔记本电脑", "冰箱", "洗衣机", "手机", "空调", "电动车"]


def _notes(n: int, tag: str) -> list[str]:
    """n distinct notes, half Chinese, half English; ``tag`` makes them unique per call."""
    out = []
    for i in range(n):
        if i % 2 == 0:
            p, g = _PEOPLE[i % len(_PEOPLE)], _GOODS[(i // 6) % len(_GOODS)]
            out.append(f"{p}于2023年{i % 12 + 1}月购买{g}，价款{1000 + i}元（{tag}记录{i}）")
        else:
            out.append(f"The client called about the {_GOODS[i % 6]} invoice number {tag}{i}")
    return out


def _table(engine: MemoryEngine):
    return engine._index._table


def _unindexed(engine: MemoryEngine) -> dict[str, int]:
    table = _table(engine)
    return {ix.name: table.index_stats(ix.name).num_unindexed_rows for ix in table.list_indices()}


def test_a_batch_is_folded_into_every_index_in_the_background(engine):
    case = engine.create_case("导入")
    engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(40, "先")])
    engine.wait_for_index_upkeep(120)
    texts = _notes(300, "Quorvexal")
    engine.add_notes([{"content": c, "case_id": case.id} for c in texts])
    # found at once: LanceDB also searches the rows no index covers yet
    hits = engine.search("invoice Quorvexal299", case_id=case.id, k=3)
    assert hits and hits[0].note.content == texts[299]
    assert engine.wait_for_index_upkeep(120)
    assert set(_unindexed(engine).values()) == {0}, _unindexed(engine)
    hits = engine.search("invoice Quorvexal299", case_id=case.id, k=3)
    assert hits[0].note.content == texts[299]


def test_old_versions_are_removed_once_the_upkeep_is_done(engine):
    case = engine.create_case("版本")
    for n in range(3):
        engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(300, f"v{n}")])
    note = engine.add_note("单独添加的一条记忆", case_id=case.id).note
    engine.update_note(note.id, content="单独添加的一条记忆（已修改）")
    assert len(_table(engine).list_versions()) > 1  # the writes did leave versions behind
    # the background upkeep alone (flushed as on idle), no explicit optimize()
    assert engine.wait_for_index_upkeep(120)
    assert len(_table(engine).list_versions()) == 1
    versions_dir = engine._index.folder / "notes.lance" / "_versions"
    assert len([p for p in versions_dir.iterdir() if p.suffix == ".manifest"]) == 1
    hits = engine.search("单独添加的一条记忆", case_id=case.id, k=1)
    assert hits[0].note.content == "单独添加的一条记忆（已修改）"


def test_searches_never_fail_while_the_upkeep_compacts_and_prunes(engine):
    case = engine.create_case("并发")
    engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(60, "起")])
    errors: list[BaseException] = []
    stop = threading.Event()

    def search_all_the_time() -> None:
        while not stop.is_set():
            try:
                for hit in engine.search("购买 invoice", case_id=case.id, k=10):
                    assert hit.note.case_id == case.id
            except BaseException as exc:  # anything at all is a failure here
                errors.append(exc)
                return

    reader = threading.Thread(target=search_all_the_time)
    reader.start()
    try:
        for n in range(4):
            engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(300, f"b{n}")])
        doomed = engine.add_note("即将删除的记忆 Zorblatt", case_id=case.id).note
        engine.delete_note(doomed.id)  # the purge rewrites the table and drops every version
        engine.wait_for_index_upkeep(120)
    finally:
        stop.set()
        reader.join()
    assert errors == []


def test_a_reader_beside_the_app_follows_the_pruned_index(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as writer:
        case = writer.create_case("旁路")
        writer.add_notes([{"content": c, "case_id": case.id} for c in _notes(300, "一")])
        writer.wait_for_index_upkeep(120)
        reader = MemoryEngine.open(data, embedder=embedder, read_only=True)
        try:
            assert reader.search("购买", case_id=case.id, k=3)
            # the app writes on and prunes the version the reader opened
            writer.add_notes([{"content": c, "case_id": case.id} for c in _notes(300, "Plimsq")])
            writer.optimize()
            writer.wait_for_index_upkeep(120)
            hits = reader.search("invoice Plimsq7", case_id=case.id, k=3)
            assert hits and hits[0].note.content.endswith("Plimsq7")
        finally:
            reader.close()


def test_the_upkeep_thread_ends_with_the_engine(tmp_path, embedder):
    with MemoryEngine.open(tmp_path / "data", embedder=embedder) as eng:
        case = eng.create_case("关闭")
        eng.add_notes([{"content": c, "case_id": case.id} for c in _notes(300, "c")])
        thread = eng._index._upkeep._thread
        assert thread is not None and thread.is_alive()
    assert not thread.is_alive()
    with MemoryEngine.open(tmp_path / "data", embedder=embedder) as eng:
        assert eng.stats().index_rows == 300


# -- the approximate vector index of a large scope ----------------------------------------


@pytest.fixture(scope="module")
def ann_engine(tmp_path_factory, embedder):
    """A case large enough for the vector index (its size threshold scaled down), a small
    case whose notes copy the large one's wording, and global notes."""
    patch = pytest.MonkeyPatch()
    patch.setattr(index_module, "ANN_MIN_SCOPE", 400)
    patch.setattr(index_module, "ANN_ROWS_PER_PARTITION", 25)
    eng = MemoryEngine.open(tmp_path_factory.mktemp("ann") / "data", embedder=embedder)
    big = eng.create_case("大案").id
    small = eng.create_case("小案").id
    texts = _notes(480, "甲")
    eng.add_notes([{"content": c, "case_id": big} for c in texts])
    eng.add_notes([{"content": c + "（小案副本）", "case_id": small} for c in texts[:60]])
    eng.add_notes([{"content": "用户希望文书都附上法条原文", "case_id": None}])
    assert eng.wait_for_index_upkeep(300)
    yield eng, big, small, texts
    eng.close()
    patch.undo()


def _drop_kept(index) -> None:
    """Nothing in memory any more, wherever the reads so far left the large case: its
    import's first batch kept it exactly, as a small scope, until the upkeep hands it over,
    and a whole-table read for the small case keeps it with every other case (in this
    scaled-down table only; a large scope never fits that read)."""
    if index._filler is not None:
        index._filler.submit(lambda: None).result()
    index._vectors.clear()
    index._texts.clear()


def _keep_large(index, where: str) -> None:
    """Keep the large case as the upkeep keeps it (text and float16 vectors)."""
    _drop_kept(index)
    index._keep(where, large_now=True)
    assert index._texts.refines(where)


def _act_at_pause(index, monkeypatch, n: int, action) -> list[int]:
    """Run ``action`` at this thread's ``n``-th pause of a read into memory (before the
    read, then between chunks); returns the count of those pauses, in a one-item list.  The
    pauses of other threads (the filler reading what a write wrote) are not counted."""
    pauses = [0]
    real_pause = index._let_searches_finish
    caller = threading.current_thread()

    def pause() -> None:
        if threading.current_thread() is caller:
            pauses[0] += 1
            if pauses[0] == n:
                action()
        real_pause()

    monkeypatch.setattr(index, "_let_searches_finish", pause)
    return pauses


def test_a_large_scope_is_searched_through_the_vector_index(ann_engine):
    eng, big, small, _texts = ann_engine
    index = eng._index
    assert index._ann_partitions is not None
    assert index.uses_ann_for(index_filter(big))
    assert not index.uses_ann_for(index_filter(small))  # a small scope stays exact


def test_searches_of_a_large_scope_query_the_vector_index_and_small_ones_scan(
    ann_engine, monkeypatch
):
    """What each search asks LanceDB for: probes of the vector index for the large case,
    a flat scan (index bypassed) for the small case — recorded on LanceDB's own builder."""
    eng, big, small, texts = ann_engine
    index = eng._index
    _keep_large(index, index_filter(big))
    asked = _record_vector_queries(monkeypatch)
    vector = eng.embedder.embed([texts[5]])[0]
    with index._lock:  # the small scope's kept copy (vector_cache) would answer from memory
        kept, index._vectors = index._vectors, None
    try:
        ids = [i for i, _ in index.vector_search(vector, index_filter(big), 10)]
        assert asked == ["ann"]
        assert eng._notes.by_ids(ids[:1])[0].content == texts[5]  # the note itself comes first
        asked.clear()
        index.vector_search(vector, index_filter(small), 10)
        assert asked == ["flat"]
        asked.clear()
        index.vector_search(vector, index_filter(big), 10, exact=True)
        assert asked == ["flat"]
    finally:
        with index._lock:
            index._vectors = kept


def _record_vector_queries(monkeypatch) -> list[str]:
    """What each vector query asks LanceDB for ("ann" probes, "flat", "refine" by LanceDB),
    recorded on LanceDB's own query builder (the one the index runs in LanceDB's event
    loop: its synchronous builder calls this one too)."""
    from lancedb.query import AsyncVectorQuery

    asked: list[str] = []

    def recording(real, label):
        def record(self, *args):
            asked.append(label)
            return real(self, *args)

        return record

    for method, label in (
        ("nprobes", "ann"),
        ("bypass_vector_index", "flat"),
        ("refine_factor", "refine"),
    ):
        monkeypatch.setattr(
            AsyncVectorQuery, method, recording(getattr(AsyncVectorQuery, method), label)
        )
    return asked


def test_a_large_scope_kept_with_its_vectors_reranks_the_candidates_in_memory(
    ann_engine, monkeypatch
):
    """A large scope kept in memory holds its float16 vectors beside its text: the vector
    index's candidates are re-ranked there (LanceDB is not asked to read each candidate's
    vector), with the same result as LanceDB's own re-ranking; a candidate that is not kept
    (written or removed since LanceDB's read) leaves it to LanceDB."""
    from desktop_app.memory.index import _nearest

    eng, big, _small, texts = ann_engine
    index = eng._index
    where = index_filter(big)
    _keep_large(index, where)
    asked = _record_vector_queries(monkeypatch)
    for text in texts[3:120:13]:
        vector = eng.embedder.embed([text + " 查询"])[0]
        asked.clear()
        here = index.vector_search(vector, where, 10)
        assert asked == ["ann"]
        with index._files.shared():
            table = index._table
            lance = _nearest(table, vector, where, 10, *index._ann_params(table, where))
        assert [i for i, _ in here] == lance.column("id").to_pylist()
        assert [s for _, s in here] == pytest.approx(
            [1.0 - d for d in lance.column("_distance").to_pylist()], abs=1e-4
        )
    vector = eng.embedder.embed([texts[40]])[0]
    first = index.vector_search(vector, where, 10)
    scope = index._texts._scopes[where]
    scope.remove([first[1][0]])  # as if rewritten after LanceDB's read
    asked.clear()
    again = index.vector_search(vector, where, 10)
    assert [i for i, _ in again] == [i for i, _ in first]
    assert [s for _, s in again] == pytest.approx([s for _, s in first], abs=1e-4)
    assert asked == ["ann", "ann", "refine"]
    index._texts.clear()


def test_a_large_scope_whose_vectors_would_not_fit_keeps_its_text_alone(ann_engine, monkeypatch):
    eng, big, _small, texts = ann_engine
    index = eng._index
    where = index_filter(big)
    rows = index._scope_size(index._table, where)
    monkeypatch.setattr(
        index_module, "TEXT_BUDGET_BYTES", int(rows * (index_module.TEXT_BYTES_PER_NOTE + 500))
    )
    _drop_kept(index)
    index._keep(where, large_now=True)
    assert index._texts.holds(where) and not index._texts.refines(where)
    asked = _record_vector_queries(monkeypatch)
    vector = eng.embedder.embed([texts[7]])[0]
    ids = [i for i, _ in index.vector_search(vector, where, 10)]
    assert asked == ["ann", "refine"]
    assert eng._notes.by_ids(ids[:1])[0].content == texts[7]
    index._texts.clear()


def test_a_large_scope_is_kept_between_searches_that_never_pause(ann_engine, monkeypatch):
    """A reopened 50k-note case searched one query after another never had the second of
    quiet the heavy idle steps wait for, so its text stayed in LanceDB (p95 40-44 ms in
    bench_perf's phase).  Its read into memory runs between the searches instead."""
    from desktop_app.memory import index_upkeep

    eng, big, _small, texts = ann_engine
    index = eng._index
    where = index_filter(big)
    monkeypatch.setattr(index._upkeep, "_idle_seconds", 0.2)
    _drop_kept(index)
    runs = _record_upkeep_steps(index, monkeypatch)
    searched_at: list[float] = []
    until = time.monotonic() + 20.0
    while not index._texts.holds(where) and time.monotonic() < until:
        searched_at.append(time.monotonic())
        assert eng.search(texts[10], case_id=big, k=5)
        time.sleep(0.05)
    since_last_search = time.monotonic() - searched_at[-1]
    assert index._texts.holds(where)
    # kept while the searching never paused for the quiet the heavy steps wait for
    gaps = [b - a for a, b in itertools.pairwise(searched_at)]
    assert max([since_last_search, *gaps]) < index_upkeep.SEARCH_QUIET_SECONDS
    assert "keep" in [task for task, _ in runs]
    found = index.text_search(fts_text("invoice number 甲479"), where, 3)  # from memory
    assert eng.get_note(found[0][0]).content == texts[479]


def test_a_write_during_a_large_scopes_read_abandons_it_until_the_writes_pause(
    ann_engine, monkeypatch
):
    """The read of a large scope runs between searches for seconds; a write meanwhile made
    it stale.  It gives way (the upkeep's own work comes first) and is read again later,
    with the write."""
    eng, big, _small, _texts = ann_engine
    index = eng._index
    where = index_filter(big)
    _drop_kept(index)
    written = []
    pauses = _act_at_pause(  # the third: within the analysis
        index,
        monkeypatch,
        3,
        lambda: written.append(eng.add_note("中途写入的一条记忆 Zorbquant", case_id=big).note),
    )
    index._keep(where, large_now=True)
    assert written and not index._texts.holds(where)
    assert where in index._texts_wanted  # for the next idle round
    assert pauses == [3]  # the analysis stopped at the write
    monkeypatch.undo()
    assert eng.wait_for_index_upkeep(120)
    assert index._texts.holds(where)
    found = index.text_search(fts_text("Zorbquant"), where, 3)
    assert [i for i, _ in found] == [written[0].id]
    eng.delete_note(written[0].id)


def test_closing_does_not_wait_for_a_large_scopes_read(engine, monkeypatch):
    """Closing waits for the upkeep's running step; a read of 50k notes between searches
    would have held it for seconds.  It gives up at its next pause."""
    monkeypatch.setattr(index_module, "ANN_MIN_SCOPE", 60)
    case = engine.create_case("关闭")
    engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(200, "闭")])
    index = engine._index
    index._filler.submit(lambda: None).result()  # the import's own read, then the upkeep's
    assert engine.wait_for_index_upkeep(120)
    where = index_filter(case.id)
    _drop_kept(index)
    # the second: read, before the first chunk's analysis; stop() is what close does first
    pauses = _act_at_pause(index, monkeypatch, 2, index._upkeep.stop)
    index._keep(where, large_now=True)
    assert pauses == [2]  # 200 rows are 7 chunks: none was analysed
    assert not index._texts.holds(where)


def test_the_vector_index_finds_what_exact_search_finds(ann_engine):
    eng, big, _small, texts = ann_engine
    index = eng._index
    where = index_filter(big)
    found = total = 0
    for text in texts[1:200:8]:
        vector = eng.embedder.embed([text + " 查询"])[0]
        approx = {i for i, _ in index.vector_search(vector, where, 10)}
        exact = {i for i, _ in index.vector_search(vector, where, 10, exact=True)}
        found += len(approx & exact)
        total += len(exact)
    assert found / total >= 0.98


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    which=st.integers(min_value=0, max_value=59),
    k=st.integers(min_value=1, max_value=30),
    include_inactive=st.booleans(),
)
def test_the_vector_index_never_returns_another_cases_note(ann_engine, which, k, include_inactive):
    eng, big, small, texts = ann_engine
    # the small case holds copies of exactly these words: the nearest notes overall are there
    query = texts[which] + "（小案副本）"
    for hit in eng.search(query, case_id=big, k=k, include_inactive=include_inactive):
        assert hit.note.case_id in (big, None)
    for hit in eng.search(query, case_id=small, k=k, include_inactive=include_inactive):
        assert hit.note.case_id in (small, None)
    vector = eng.embedder.embed([query])[0]
    ids = [i for i, _ in eng._index.vector_search(vector, index_filter(big), k)]
    assert all(n.case_id == big for n in eng._notes.by_ids(ids) if n.case_id is not None)


def test_full_text_terms_of_the_queries_exist(ann_engine):
    """Guard for the property test above: its queries really match notes of both cases."""
    eng, big, small, texts = ann_engine
    terms = fts_text(texts[0] + "（小案副本）")
    assert eng._index.text_search(terms, index_filter(small), 5)
    assert eng._index.text_search(terms, index_filter(big), 5)


def _segments(eng: MemoryEngine) -> int:
    index = eng._index
    return _table(eng).index_stats(f"vector_ivf_sq_p{index._ann_partitions}").num_indices


def _large_case(eng: MemoryEngine, monkeypatch) -> str:
    """A case large enough for the vector index (its size threshold scaled down)."""
    monkeypatch.setattr(index_module, "ANN_MIN_SCOPE", 400)
    monkeypatch.setattr(index_module, "ANN_ROWS_PER_PARTITION", 25)
    case = eng.create_case("大案").id
    eng.add_notes([{"content": c, "case_id": case} for c in _notes(440, "甲")])
    assert eng.wait_for_index_upkeep(300)
    assert eng._index.uses_ann_for(index_filter(case))
    return case


def test_the_vector_index_is_kept_in_one_segment(tmp_path, embedder, monkeypatch):
    """Each upkeep that indexes new rows adds a segment to the vector index, which every
    search then probes (10 of them after the 50k benchmark's ingest: the vector search took
    7 ms longer); the upkeep rebuilds the index as one on idle, and past the cap meanwhile."""
    with MemoryEngine.open(tmp_path / "data", embedder=embedder) as eng:
        case = _large_case(eng, monkeypatch)
        assert _segments(eng) == 1
        # idle after each write: the new rows' segment is merged at once
        for n in range(3):
            texts = _notes(20, f"乙{n}")
            eng.add_notes([{"content": c, "case_id": case} for c in texts])
            assert eng.wait_for_index_upkeep(300)
            assert _segments(eng) == 1
            assert _table(eng).stats()["fragment_stats"]["num_fragments"] == 1  # compacted
            hits = eng.search(texts[6], case_id=case, k=3)
            assert texts[6] in [h.note.content for h in hits]
        # writes without a pause: segments pile up to the cap, not beyond
        monkeypatch.setattr(index_module, "ANN_MAX_SEGMENTS", 2)
        for n in range(4):
            eng.add_notes([{"content": c, "case_id": case} for c in _notes(20, f"丙{n}")])
            eng._index.optimize()  # folds the rows in, as a busy upkeep does
            eng._index.run_upkeep("ann")
            assert _segments(eng) <= 2


def test_after_open_the_upkeep_warms_the_index_once_unless_a_search_came_first(
    tmp_path, embedder, monkeypatch
):
    """A reopened index loads its vector partitions and full-text index on the first search
    (100+ ms at 50k notes): the upkeep's first idle round runs a throwaway search of each,
    once; a search that comes first has loaded them already."""
    from lancedb.query import AsyncFTSQuery, AsyncVectorQuery

    asked: list[str] = []
    fts = AsyncFTSQuery.to_arrow

    def recording_probes(nprobes):
        def record_probes(self, n):
            asked.append(f"ann {threading.current_thread().name}")
            return nprobes(self, n)

        return record_probes

    def record_fts(self, *args, **kwargs):
        asked.append(f"fts {threading.current_thread().name}")
        return fts(self, *args, **kwargs)

    with MemoryEngine.open(tmp_path / "data", embedder=embedder) as eng:
        case = _large_case(eng, monkeypatch)
    monkeypatch.setattr(AsyncVectorQuery, "nprobes", recording_probes(AsyncVectorQuery.nprobes))
    monkeypatch.setattr(AsyncFTSQuery, "to_arrow", record_fts)
    with MemoryEngine.open(tmp_path / "data", embedder=embedder) as eng:
        assert eng.wait_for_index_upkeep(120)
        assert asked == ["ann lexmem-index-upkeep", "fts lexmem-index-upkeep"]
        assert eng.wait_for_index_upkeep(120)
        eng.search("购买冰箱的价款", case_id=case, k=5)
        assert eng.wait_for_index_upkeep(120)
        assert sorted(a.split()[0] for a in asked[2:]) == ["ann", "fts"]  # the search's own
        assert all("upkeep" not in a for a in asked[2:]), asked
    asked.clear()
    with MemoryEngine.open(tmp_path / "data", embedder=embedder) as eng:
        eng.search("购买冰箱的价款", case_id=case, k=5)
        assert eng.wait_for_index_upkeep(120)
        assert all("upkeep" not in a for a in asked), asked


# -- storage ------------------------------------------------------------------------------


class _Counting:
    def __init__(self, inner) -> None:
        self.inner, self.id, self.dim, self.texts = inner, inner.id, inner.dim, 0

    def embed(self, texts):
        self.texts += len(texts)
        return self.inner.embed(texts)


def test_an_index_of_float32_vectors_is_converted_without_re_embedding(tmp_path, embedder):
    import lancedb
    import pyarrow as pa

    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("升级")
        eng.add_notes([{"content": c, "case_id": case.id} for c in _notes(30, "旧")])
    # the table as the previous version wrote it: float32 vectors
    db = lancedb.connect(str(data / "index"))
    old = db.open_table("notes").to_arrow()
    vectors = old.column("vector").combine_chunks()
    as_f32 = pa.FixedSizeListArray.from_arrays(vectors.flatten().cast(pa.float32()), 512)
    at = old.schema.get_field_index("vector")
    schema = old.schema.set(at, pa.field("vector", pa.list_(pa.float32(), 512), nullable=False))
    old = old.set_column(at, schema.field("vector"), as_f32)
    db.create_table("notes", data=old, schema=schema, mode="overwrite")
    counting = _Counting(embedder)
    with MemoryEngine.open(data, embedder=counting) as eng:
        assert counting.texts == 0
        field = eng._index._table.schema.field("vector")
        assert field.type.value_type == pa.float16()
        hits = eng.search("invoice 旧29", case_id=case.id, k=3)
        assert hits and hits[0].note.content.endswith("旧29")
    assert counting.texts == 1  # the query only


def test_a_bulk_import_prunes_old_versions_every_few_upkeeps_and_all_when_idle(engine, monkeypatch):
    """Removing old versions is a second LanceDB optimize: during an import it runs at every
    UPKEEP_PRUNE_EVERY-th upkeep, and the idle upkeep after the import removes the rest."""
    index = engine._index
    index._upkeep._idle_seconds = 3600  # no idle tick in between on a slow machine
    # no vector index build (its versions) in between, whatever a module fixture patched
    monkeypatch.setattr(index_module, "ANN_MIN_SCOPE", 20_000)
    counts = []
    # global notes: in every case's filter, so searches would scan them flat (rows of a case
    # kept in memory wait for a quiet moment instead, see the test after the next ones)
    for n in range(index_module.UPKEEP_PRUNE_EVERY):
        engine.add_notes([{"content": c, "case_id": None} for c in _notes(300, f"p{n}")])
        assert engine.wait_for_index_upkeep(120, flush=False)
        counts.append(len(_table(engine).list_versions()))
    assert all(c > 1 for c in counts[:-1]), counts  # folded in, old versions kept meanwhile
    assert counts[-1] == 1, counts  # the UPKEEP_PRUNE_EVERY-th upkeep removed them
    engine.add_notes([{"content": c, "case_id": None} for c in _notes(300, "last")])
    assert engine.wait_for_index_upkeep(120, flush=False)
    assert len(_table(engine).list_versions()) > 1
    assert engine.wait_for_index_upkeep(120)  # idle: the rest goes
    assert len(_table(engine).list_versions()) == 1
    assert set(_unindexed(engine).values()) == {0}


def _record_upkeep_steps(index, monkeypatch) -> list[tuple[str, float]]:
    """(task, time.monotonic() at its start) of every upkeep step from now on."""
    runs: list[tuple[str, float]] = []
    real_run = index.run_upkeep

    def run_upkeep(task: str) -> None:
        runs.append((task, time.monotonic()))
        real_run(task)

    monkeypatch.setattr(index, "run_upkeep", run_upkeep)
    return runs


def test_batches_arriving_faster_than_the_idle_delay_are_not_taken_for_idle(engine, monkeypatch):
    """The idle round (fold in what is below the budget, merge, prune, keep, warm) is for
    quiet times.  Once an idle tick had come, the round took every batch that landed while it
    ran for idle too, so a bulk import ran an O(rows) optimize after each batch (72 of them at
    50k notes, ~2 s each).  Batches below the budget coming faster than the idle delay must
    wait for the quiet after the last one."""
    case = engine.create_case("连续导入")
    index = engine._index
    idle = 1.0
    index._upkeep._idle_seconds = idle
    engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(300, "首批")])
    assert engine.wait_for_index_upkeep(120)  # the upkeep thread runs; nothing is pending
    runs = _record_upkeep_steps(index, monkeypatch)
    wrote_at: list[float] = []
    # 12 writes of 20 rows: below UPKEEP_ROWS and UPKEEP_WRITES, so no write makes one due
    assert 12 * 20 < index_module.UPKEEP_ROWS and 12 < index_module.UPKEEP_WRITES
    for n in range(12):
        time.sleep(0.3)  # ~0.5 s between batches: an import's pace, below the idle delay
        engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(20, f"流{n}")])
        wrote_at.append(time.monotonic())
    stream_end = wrote_at[-1]
    early = [
        (task, round(at - max([w for w in wrote_at if w <= at], default=0.0), 2))
        for task, at in runs
        if at < stream_end
        and task in ("optimize", "merge", "prune", "keep", "warm")
        # an idle task may start once the last write before it is ``idle`` seconds old (a slow
        # machine may leave such a gap); the time of a write is taken when add_notes returned
        and at - max([w for w in wrote_at if w <= at], default=0.0) < 0.9 * idle
    ]
    assert early == [], early
    # and the quiet after the last batch is idle: its rows are folded in without being asked
    deadline = time.monotonic() + 60
    while set(_unindexed(engine).values()) != {0} and time.monotonic() < deadline:
        time.sleep(0.2)
    assert set(_unindexed(engine).values()) == {0}, _unindexed(engine)


def test_heavy_idle_steps_wait_for_a_pause_in_the_searching(engine, monkeypatch):
    """After an import, a lawyer searching through the case is not quiet time: the heavy idle
    steps (seconds of CPU at 50k notes, or the files locked) made those searches 40-90 ms
    instead of ~25.  The last few rows are still folded in once the writes stop: searches
    gain from that."""
    from desktop_app.memory import index_upkeep

    case = engine.create_case("导入后检索")
    index = engine._index
    idle = 0.3
    index._upkeep._idle_seconds = idle
    engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(300, "底")])
    assert engine.wait_for_index_upkeep(120)
    runs = _record_upkeep_steps(index, monkeypatch)
    # a few rows below the budget: left for the idle round, whose optimize leaves old
    # versions for a prune (a heavy step).  Global notes, which every case's search would
    # scan flat (a kept case's own rows wait for the quiet, see the test below)
    engine.add_notes([{"content": c, "case_id": None} for c in _notes(20, "尾")])
    assert set(_unindexed(engine).values()) != {0}
    searched_at: list[float] = []
    folded_while_searching = False
    until = time.monotonic() + 3.0
    while time.monotonic() < until:  # a search every ~0.1 s, well inside SEARCH_QUIET_SECONDS
        searched_at.append(time.monotonic())
        assert engine.search("购买 invoice", case_id=case.id, k=5)
        folded_while_searching = folded_while_searching or set(_unindexed(engine).values()) == {0}
        time.sleep(0.05)
    gaps = [b - a for a, b in itertools.pairwise(searched_at)]
    assert max(gaps) < index_upkeep.SEARCH_QUIET_SECONDS  # the searching never paused
    assert folded_while_searching
    heavy = [
        task
        for task, at in runs
        # (reading a large scope into memory runs between searches: see the test
        # test_a_large_scope_is_kept_between_searches_that_never_pause)
        if task in ("merge", "prune", "warm") and searched_at[0] < at < searched_at[-1]
    ]
    assert heavy == [], heavy
    assert len(_table(engine).list_versions()) > 1  # the prune waits ...
    deadline = time.monotonic() + 60  # ... for the pause after the searching
    while len(_table(engine).list_versions()) > 1 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(_table(engine).list_versions()) == 1
    assert [task for task, _ in runs].count("prune") >= 1


def _kept(index, where: str) -> bool:
    """Whether ``where`` is searched from memory, once the reads into memory are done."""
    if index._filler is not None:
        index._filler.submit(lambda: None).result()
    return index._vectors.holds(where) or index._texts.holds(where)


def test_an_import_keeps_its_case_in_memory_from_the_first_batch(engine):
    """No search needed: the searches right after an import are answered from memory, not
    by LanceDB's flat scan of the rows its indices have not taken in yet (10k notes in one
    case: p95 33 ms right after, 7 ms once kept)."""
    case = engine.create_case("导入即驻留")
    engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(40, "驻")])
    assert _kept(engine._index, index_filter(case.id))


def test_rows_of_a_kept_case_wait_for_a_quiet_moment_to_be_indexed(engine, monkeypatch):
    """Each index update costs O(rows) (~2 s at 50k notes): a bulk import updated the index
    after every batch or two although the case's searches never scanned the new rows (they
    are answered from memory): about 2 ms of CPU per note added, more than its embedding.
    Rows of a kept case count only toward UPKEEP_WRITES and are folded in when quiet; rows a
    search would scan flat (the global notes, in every case's filter) keep the row budget."""
    case = engine.create_case("批量")
    index = engine._index
    index._upkeep._idle_seconds = 3600  # no idle round in between on a slow machine
    engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(40, "首")])
    assert engine.wait_for_index_upkeep(120)
    assert _kept(index, index_filter(case.id))
    texts = _notes(300, "Zelqorin")
    assert len(texts) >= index_module.UPKEEP_ROWS
    runs = _record_upkeep_steps(index, monkeypatch)
    engine.add_notes([{"content": c, "case_id": case.id} for c in texts])
    assert engine.wait_for_index_upkeep(120, flush=False)
    assert "optimize" not in [task for task, _ in runs]
    assert index.upkeep_due(idle=False) != "optimize"
    assert index.upkeep_due(idle=True, quiet=False) != "optimize"  # a lawyer is searching
    assert set(_unindexed(engine).values()) != {0}
    hits = engine.search("invoice Zelqorin299", case_id=case.id, k=3)  # from memory
    assert hits and hits[0].note.content == texts[299]
    assert index.upkeep_due(idle=True, quiet=True) == "optimize"
    assert engine.wait_for_index_upkeep(120)  # flushed: as when quiet
    assert set(_unindexed(engine).values()) == {0}
    runs.clear()
    engine.add_notes([{"content": c, "case_id": None} for c in _notes(300, "通用")])
    assert engine.wait_for_index_upkeep(120, flush=False)
    assert "optimize" in [task for task, _ in runs]


def test_new_cases_a_write_starts_keeping_do_not_make_an_index_update_due(engine, monkeypatch):
    """An import into many cases writes to cases not kept yet at every batch (100 notes in
    each of 100 cases: five new cases a batch); the write starts keeping them, so their rows
    wait for a quiet moment like a kept case's.  Counted against the row budget, that
    import updated the index twice a batch (41 times for 10k notes)."""
    index = engine._index
    index._upkeep._idle_seconds = 3600  # no idle round in between on a slow machine
    first = engine.create_case("先")
    engine.add_notes([{"content": c, "case_id": first.id} for c in _notes(40, "先")])
    assert engine.wait_for_index_upkeep(120)
    cases = [engine.create_case(f"新案{i}") for i in range(3)]
    texts = _notes(300, "Brindlemoss")
    assert len(texts) >= index_module.UPKEEP_ROWS
    runs = _record_upkeep_steps(index, monkeypatch)
    engine.add_notes([{"content": c, "case_id": cases[i // 100].id} for i, c in enumerate(texts)])
    assert engine.wait_for_index_upkeep(120, flush=False)
    assert "optimize" not in [task for task, _ in runs]
    assert index.upkeep_due(idle=False) != "optimize"
    for i, case in enumerate(cases):
        assert _kept(index, index_filter(case.id))
        hits = engine.search(f"invoice Brindlemoss{100 * i + 99}", case_id=case.id, k=3)
        assert hits and hits[0].note.content == texts[100 * i + 99]
    assert index.upkeep_due(idle=True, quiet=True) == "optimize"  # folded in when quiet


def test_a_kept_case_that_grows_large_keeps_its_text_once_the_vector_index_answers(
    engine, monkeypatch
):
    """A case kept from its first batch on would hold its vectors in memory past the size
    at which the vector index answers for it (100 MB at 50k notes): it moves to the kept
    texts, and its searches still find every note, old and new."""
    monkeypatch.setattr(index_module, "ANN_MIN_SCOPE", 400)
    monkeypatch.setattr(index_module, "ANN_ROWS_PER_PARTITION", 25)
    case = engine.create_case("渐大")
    index = engine._index
    where = index_filter(case.id)
    engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(100, "小")])
    assert _kept(index, where) and index._vectors.holds(where)
    texts = _notes(340, "Vorblen")
    engine.add_notes([{"content": c, "case_id": case.id} for c in texts])
    assert engine.wait_for_index_upkeep(300)
    assert index.uses_ann_for(where)
    assert not index._vectors.holds(where) and index._texts.holds(where)
    assert index._texts.text_search(where, fts_text("invoice Vorblen339"), 3)[0][0] == (
        engine.search("invoice Vorblen339", case_id=case.id, k=1)[0].note.id
    )
    later = engine.add_notes(
        [{"content": "The client called about the Quendrix lease", "case_id": case.id}]
    )
    found = index._texts.text_search(where, fts_text("Quendrix lease"), 3)
    assert found and found[0][0] == later[0].note.id
    hits = engine.search("Quendrix lease", case_id=case.id, k=3)
    assert hits and hits[0].note.id == later[0].note.id


def test_scope_sizes_follow_every_change_of_the_rows_without_asking_lancedbs_version(
    engine, monkeypatch
):
    """The ANN parameters need the scope's and the table's row counts at every search;
    asking LanceDB for its version to key them queued behind the full-text search in
    LanceDB's event loop.  The writer keys them on its own changes, and they stay exact."""
    import lancedb.table

    case = engine.create_case("计数")
    engine.add_notes([{"content": c, "case_id": case.id} for c in _notes(30, "数")])
    index = engine._index
    where = index_filter(case.id)
    asked = []
    caller = threading.current_thread()
    version = lancedb.table.LanceTable.version
    monkeypatch.setattr(
        lancedb.table.LanceTable,
        "version",
        # this thread's questions only: the background upkeep records versions too
        property(
            lambda table: (
                (threading.current_thread() is caller and asked.append(1)) or version.fget(table)
            )
        ),
    )

    def counted() -> tuple[int, int]:
        asked.clear()  # the writes themselves record the version they made
        table = index._table
        sizes = index._scope_size(table, where), index._scope_size(table, None)
        assert asked == []
        return sizes

    with index._lock:
        index._scope_rows.clear()
    assert counted() == (30, 30)
    assert counted() == (30, 30)
    note = engine.add_note("新增的一条记忆", case_id=case.id).note
    assert counted() == (31, 31)
    engine.expire_note(note.id)  # the filter counts active notes only
    assert counted() == (30, 31)
    engine.delete_note(note.id)
    assert counted() == (30, 30)
    other = engine.create_case("别的案件")
    engine.add_note("另一案件的记忆", case_id=other.id)
    assert counted() == (30, 31)
