"""Small scopes are searched from memory: the kept vectors must answer exactly what LanceDB
answers, after every kind of write, and never hold another scope's note."""

from __future__ import annotations

import numpy as np

from desktop_app.memory.scope import index_filter


def _lance_exact(index, vector, where, limit):
    """The same search straight from LanceDB (no kept copy)."""
    kept, index._vectors = index._vectors, None
    try:
        return index.vector_search(vector, where, limit)
    finally:
        index._vectors = kept


def _same(a, b):
    assert [i for i, _ in a] == [i for i, _ in b]
    assert np.allclose([s for _, s in a], [s for _, s in b], atol=1e-4)


def test_kept_vectors_answer_like_lancedb_after_every_kind_of_write(engine):
    case = engine.create_case("内存")
    other = engine.create_case("他案")
    notes = [
        r.note
        for r in engine.add_notes(
            [
                {"content": f"原告于2023年{m}月支付房租{m * 300}元", "case_id": case.id}
                for m in range(1, 13)
            ]
            + [{"content": "用户喜欢简洁的回复", "case_id": None}]
        )
    ]
    engine.add_notes([{"content": "他案的房租纠纷，原告支付房租", "case_id": other.id}])
    index = engine._index
    queries = [engine.embedder.embed([q])[0] for q in ("支付房租", "回复风格", "rent paid")]
    wheres = [index_filter(case.id), index_filter(case.id, include_inactive=True)]
    for where in wheres:
        index.vector_search(queries[0], where, 5)  # a miss: kept from now on
    engine._index._filler.submit(lambda: None).result()  # the background read is done
    assert all(index._vectors.holds(w) for w in wheres)

    def check():
        for where in wheres:
            for q in queries:
                _same(index.vector_search(q, where, 8), _lance_exact(index, q, where, 8))

    check()
    engine.update_note(notes[0].id, content="原告的狗叫旺财")  # a new vector
    check()
    engine.expire_note(notes[1].id)  # leaves the active filter, stays in the other
    check()
    engine.delete_note(notes[2].id)  # gone from both (and the table is rewritten)
    check()
    engine.add_notes([{"content": f"补充：房租第{n}笔", "case_id": case.id} for n in range(30)])
    check()
    engine.supersede_note(notes[3].id, notes[4].id)
    check()
    kept_ids = {i for where in wheres for i, _ in index.vector_search(queries[0], where, 200)}
    scopes = {n.case_id for n in engine._notes.by_ids(list(kept_ids))}
    assert scopes <= {case.id, None}


def test_a_reset_forgets_the_kept_vectors(engine):
    case = engine.create_case("重建")
    engine.add_notes(
        [{"content": f"事实{n}：合同约定违约金{n}万元", "case_id": case.id} for n in range(10)]
    )
    where = index_filter(case.id)
    vector = engine.embedder.embed(["违约金"])[0]
    engine._index.vector_search(vector, where, 5)
    engine._index._filler.submit(lambda: None).result()
    assert engine._index._vectors.holds(where)
    before = engine._index._vectors._scopes[where]
    engine.rebuild_index()
    # the old copy is gone; the refill writes the case again, which keeps it afresh
    engine._index._filler.submit(lambda: None).result()
    assert engine._index._vectors._scopes.get(where) is not before
    _same(
        engine._index.vector_search(vector, where, 5),
        _lance_exact(engine._index, vector, where, 5),
    )


def test_a_scope_without_its_vectors_answers_the_same_text_searches_and_grows():
    from desktop_app.memory.vector_cache import VectorCache

    where = index_filter("c1")
    vectors = np.eye(4, dtype=np.float32)
    terms = ["rent paid march", "rent unpaid april", "deposit returned", "invoice sent"]
    cache = VectorCache()
    cache.install(cache.build(where, ["a", "b", "c", "d"], vectors, terms))
    ((taken_where, scope),) = cache.take_large(4)
    assert taken_where == where and not cache.holds(where)
    texts = VectorCache(dtype=np.float16)
    texts.install([(where, scope.as_large(half_vectors=False))])
    assert not texts.refines(where) and texts.refine(where, vectors[0], ["a"], 1) is None
    assert texts.text_search(where, "rent", 5) == scope.text_search("rent", 5)
    assert [i for i, _ in texts.text_search(where, "rent", 5)] == ["a", "b"]
    assert scope.search(vectors[2], 1)[0][0] == "c"  # a search that held the old one still works

    class Row:
        def __init__(self, note_id, terms):
            self.id, self.case_id, self.status, self.terms = note_id, "c1", "active", terms
            self.vector, self.counted = np.zeros(4, dtype=np.float32), None

    texts.apply(written=[Row("e", "rent reminder"), Row("a", "lease signed")])
    assert {i for i, _ in texts.text_search(where, "rent", 5)} == {"b", "e"}
    assert [i for i, _ in texts.text_search(where, "lease", 5)] == ["a"]
    assert VectorCache().take_large(1) == []


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_a_large_scope_kept_with_half_vectors_reranks_candidates_by_exact_cosine():
    """The vector index's candidates of a large scope are re-ranked from its float16 vectors
    kept in memory: by cosine (norms included, as LanceDB computes it), best first, and
    not at all when a candidate is not kept (then LanceDB re-ranks)."""
    from desktop_app.memory.vector_cache import VectorCache

    rng = np.random.default_rng(7)
    where = index_filter("big")
    vectors = _unit(rng.normal(size=(40, 16)))
    ids = [f"n{i}" for i in range(40)]
    small = VectorCache()
    small.install(small.build(where, ids, vectors, ["term"] * 40))
    ((_where, scope),) = small.take_large(40)
    texts = VectorCache(dtype=np.float16)
    texts.install([(where, scope.as_large(half_vectors=True))])
    assert texts.refines(where)
    query = _unit(rng.normal(size=(1, 16)))[0]
    candidates = ids[::2]
    refined = texts.refine(where, query, candidates, 5)
    half = vectors[::2].astype(np.float16).astype(np.float32)
    cosine = (half @ query) / np.linalg.norm(half, axis=1)
    expected = [candidates[i] for i in np.argsort(-cosine)[:5]]
    assert [i for i, _ in refined] == expected
    assert np.allclose([s for _, s in refined], np.sort(cosine)[::-1][:5], atol=1e-6)
    assert np.allclose(
        [s for _, s in refined], [float(vectors[ids.index(i)] @ query) for i in expected], atol=2e-3
    )

    class Row:
        def __init__(self, note_id, vector):
            self.id, self.case_id, self.status, self.terms = note_id, "big", "active", "new"
            self.vector, self.counted = vector, None

    newcomer = _unit(rng.normal(size=(1, 16)))[0]
    texts.apply(written=[Row("n40", newcomer)], deleted=["n2"])
    assert texts.refine(where, newcomer, ["n40", "n0"], 1)[0][0] == "n40"  # written: kept
    assert texts.refine(where, query, ["n0", "n2"], 2) is None  # removed: LanceDB re-ranks
    assert texts.refine(where, query, ["n0", "unknown"], 2) is None
    assert texts.refine(index_filter("other"), query, ["n0"], 1) is None
