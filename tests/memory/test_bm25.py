"""A kept scope's full-text search runs in Python (bm25.py): it must analyse words as the
LanceDB index does, score as it does, stay exact after every kind of write, and never let a
case see another case's note."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_app.memory import bm25
from desktop_app.memory.index import IndexRow, NoteIndex
from desktop_app.memory.scope import index_filter
from desktop_app.memory.text import fts_text

#: words whose fate in the index is worth pinning: stop words (some only after stemming),
#: words that stem, tokens at the length limit, accents, numbers and CJK bigrams
PROBES = sorted(
    bm25.STOP_WORDS
    | {
        "above", "because", "before", "during", "only", "very", "why", "could", "would",
        "having", "does", "doing", "contracts", "contract", "payments", "agreed", "running",
        "landlord", "tenants", "deposit", "café", "cafe", "naïve", "2023", "amt8999",
        "x" * 63, "y" * 64, "原告", "押金", "合同", "ourselves", "yourselves",
        # named here too, so a word dropped from the module's list is still probed
        "a", "the", "m", "d", "s", "t", "ll", "o", "re", "ve", "y", "ma", "k", "x", "z",
    }
)  # fmt: skip


@pytest.fixture(autouse=True)
def _kept_by_searches_only(monkeypatch):
    """These tests are about a search keeping its scope (and the whole table with it); a
    write keeps the cases it wrote to as well (test_index_upkeep), which would be there
    first."""
    monkeypatch.setattr(NoteIndex, "_keeps_on_write", lambda self: False)


def _lance_text(index: NoteIndex, terms: str, where: str, limit: int):
    """The same search straight from LanceDB (no kept copy)."""
    kept, index._vectors = index._vectors, None
    try:
        return index.text_search(terms, where, limit)
    finally:
        index._vectors = kept


def _keep(index: NoteIndex, where: str) -> None:
    index.vector_search(np.ones(index.dim, dtype=np.float32), where, 1)  # a miss: kept
    index._filler.submit(lambda: None).result()
    assert index._vectors.holds(where)


def _same_ranking(a, b):
    """Equal scores in the same order; ids compared per score (ties may come in any order)."""
    assert np.allclose([s for _, s in a], [s for _, s in b], rtol=1e-5)
    groups_a, groups_b = {}, {}
    for (i, s), (j, _t) in zip(a, b, strict=True):
        groups_a.setdefault(round(s, 4), set()).add(i)
        groups_b.setdefault(round(s, 4), set()).add(j)
    last = round(a[-1][1], 4) if a else None  # the cut may split the last tie differently
    assert {s: g for s, g in groups_a.items() if s != last} == {
        s: g for s, g in groups_b.items() if s != last
    }


def test_the_analysis_keeps_and_drops_the_words_lancedbs_index_does(tmp_path):
    index = NoteIndex(tmp_path / "index", dim=8)
    rows = [
        IndexRow(f"p{n}", None, "active", f"{word} zzmark", np.ones(8, np.float32), 0.0)
        for n, word in enumerate(PROBES)
    ]
    index.upsert(rows, new=True)
    index.optimize()
    where = index_filter(None)
    dropped = 0
    for word in PROBES:
        found = {i for i, _s in _lance_text(index, word, where, 10)}
        kept = bm25.analyse(word)
        # every probe the analysis maps to the same term is found ("café" and "cafe" too)
        expected = {
            f"p{m}" for m, other in enumerate(PROBES) if kept and bm25.analyse(other) == kept
        }
        assert found == expected, word
        dropped += not kept
    assert 100 < dropped < len(PROBES) - 20  # both fates were probed
    # stems meet: the query "contracts" finds the note that says "contract" and vice versa
    assert bm25.analyse("contracts") == bm25.analyse("contract") == ["contract"]
    assert {i for i, _ in _lance_text(index, "contracts", where, 5)} == {
        f"p{PROBES.index('contract')}",
        f"p{PROBES.index('contracts')}",
    }
    index.close()


NOTES = [
    "The landlord kept the deposit of 3,000 yuan after the tenants moved out",
    "Tenants paid rent monthly; the contract says payments are due on the 5th",
    "原告于2023年5月支付押金3000元，被告拒绝退还押金",
    "合同约定每月5日前支付房租，逾期支付的按日加收违约金",
    "The court agreed the contract was signed on 2023-05-01",
    "用户喜欢简洁的回复，先给结论再给理由",
    "Deposit deposit deposit: the landlord repeated the word in a letter",
    "被告称押金已用于维修空调，但没有提供维修发票",
]
#: NOTES three times over, each copy marked (a duplicate would be merged): enough rows for a
#: read in several chunks
NOTES_THRICE = [f"{t} ({n})" for n in range(3) for t in NOTES]
QUERIES = [
    "deposit",
    "landlord deposit tenants",
    "contracts payments",
    "押金 退还",
    "支付房租违约金",
    "deposit deposit",
    "维修发票在哪里",
    "nothing matches this",
]


def test_kept_text_search_scores_like_lancedb(engine):
    case = engine.create_case("押金纠纷")
    engine.add_notes([{"content": text, "case_id": case.id} for text in NOTES])
    engine._index.optimize()  # every row in LanceDB's index: one set of statistics
    where = index_filter(case.id)
    index = engine._index
    expected = {q: _lance_text(index, fts_text(q), where, 20) for q in QUERIES}
    _keep(index, where)
    for query in QUERIES:
        got = index.text_search(fts_text(query), where, 20)
        _same_ranking(got, expected[query])
    assert index.text_search(fts_text("deposit"), where, 20)  # the check above saw hits
    assert index.text_search(fts_text("nothing matches this"), where, 20) == []


def test_kept_text_search_stays_exact_after_every_kind_of_write(engine):
    case = engine.create_case("写入")
    notes = [r.note for r in engine.add_notes([{"content": t, "case_id": case.id} for t in NOTES])]
    index = engine._index
    wheres = [index_filter(case.id), index_filter(case.id, include_inactive=True)]
    for where in wheres:
        _keep(index, where)

    def check():
        kept = {(w, q): index.text_search(fts_text(q), w, 20) for w in wheres for q in QUERIES}
        index._vectors.clear()  # the same scopes read afresh from the index
        for where in wheres:
            _keep(index, where)
        for (where, query), got in kept.items():
            _same_ranking(got, index.text_search(fts_text(query), where, 20))

    check()
    engine.update_note(notes[0].id, content="The landlord returned half of the deposit")
    check()
    engine.expire_note(notes[1].id)  # leaves the active filter, stays in the other
    check()
    engine.delete_note(notes[2].id)
    check()
    engine.add_notes(
        [{"content": f"补充：第{n}笔押金 deposit {n}", "case_id": case.id} for n in range(40)]
    )  # enough rows to repack the kept arrays
    check()
    engine.supersede_note(notes[3].id, notes[4].id)
    check()
    found = {i for i, _ in index.text_search(fts_text("押金 deposit"), wheres[0], 100)}
    assert notes[2].id not in found and notes[1].id not in found


def test_one_read_keeps_every_case_and_each_sees_only_its_own_notes(engine):
    cases = [engine.create_case(f"案件{n}") for n in range(3)]
    own = {
        c.id: engine.add_notes([{"content": f"案件{n}的押金 deposit secret{n}", "case_id": c.id}])[
            0
        ].note.id
        for n, c in enumerate(cases)
    }
    shared = engine.add_notes([{"content": "全局：押金的一般规则 deposit", "case_id": None}])[0]
    index = engine._index
    _keep(index, index_filter(cases[0].id))  # the first search of the first case
    for n, c in enumerate(cases):
        where = index_filter(c.id)
        assert index._vectors.holds(where)  # no read of its own was needed
        found = {i for i, _ in index.text_search(fts_text("押金 deposit"), where, 20)}
        assert found == {own[c.id], shared.note.id}
        assert index.text_search(fts_text(f"secret{(n + 1) % 3}"), where, 20) == []
        vector_ids = {
            i for i, _ in index.vector_search(engine.embedder.embed(["押金"])[0], where, 20)
        }
        assert vector_ids == {own[c.id], shared.note.id}


@pytest.mark.parametrize("terms", ["", "   ", "the of and"])
def test_a_query_of_stop_words_or_nothing_finds_nothing(engine, terms):
    case = engine.create_case("空")
    engine.add_notes([{"content": "the landlord and the tenant", "case_id": case.id}])
    where = index_filter(case.id)
    _keep(engine._index, where)
    assert engine._index.text_search(terms, where, 10) == []


def test_a_large_scope_keeps_only_its_text_and_it_stays_exact(engine, monkeypatch):
    from desktop_app.memory import index as index_module

    monkeypatch.setattr(index_module, "ANN_MIN_SCOPE", 5)  # "large": through the ANN index
    case = engine.create_case("大案")
    notes = [r.note for r in engine.add_notes([{"content": t, "case_id": case.id} for t in NOTES])]
    index = engine._index
    index.optimize()
    where = index_filter(case.id)
    expected = {q: _lance_text(index, fts_text(q), where, 20) for q in QUERIES}
    index.text_search(fts_text("deposit"), where, 20)  # a miss: kept at the next idle round
    index._filler.submit(lambda: None).result()
    assert not index._texts.holds(where)  # not beside the first search
    engine.wait_for_index_upkeep(flush=True)
    assert index._texts.holds(where) and not index._vectors.holds(where)
    for query in QUERIES:
        _same_ranking(index.text_search(fts_text(query), where, 20), expected[query])
    engine.delete_note(notes[0].id)
    engine.add_notes([{"content": "A new deposit receipt from the landlord", "case_id": case.id}])
    kept = index.text_search(fts_text("deposit landlord"), where, 20)
    index._texts.clear()
    index.text_search(fts_text("deposit"), where, 20)
    index._filler.submit(lambda: None).result()
    engine.wait_for_index_upkeep(flush=True)
    _same_ranking(kept, index.text_search(fts_text("deposit landlord"), where, 20))
    assert notes[0].id not in {i for i, _ in kept}


def test_a_write_while_a_scope_is_read_is_not_lost(engine, monkeypatch):
    """The rows are analysed outside the index's write lock: a note written meanwhile must
    still be in the kept scope (it is read again, under the lock)."""
    case = engine.create_case("并发")
    engine.add_notes([{"content": t, "case_id": case.id} for t in NOTES[:4]])
    index = engine._index
    cache = index._vectors
    real_build_cases = cache.build_cases
    written = []

    def build_cases_during_a_write(*args, **kwargs):
        if not written:  # the first build: a note lands before it is kept
            written.append(
                engine.add_notes([{"content": "late deposit note", "case_id": case.id}])[0].note
            )
        return real_build_cases(*args, **kwargs)

    monkeypatch.setattr(cache, "build_cases", build_cases_during_a_write)
    where = index_filter(case.id)
    _keep(index, where)
    assert written
    found = {i for i, _ in index.text_search(fts_text("late deposit"), where, 20)}
    assert written[0].id in found
    vector = engine.embedder.embed(["late deposit note"])[0]
    assert index.vector_search(vector, where, 1)[0][0] == written[0].id


def test_cases_evicted_from_a_full_budget_are_read_alone_not_with_the_whole_table(
    engine, monkeypatch
):
    """With more cases than the memory holds, each case's first search after an eviction
    read the whole table again (every case, analysed) and evicted others: at 100 cases the
    searches beside it took 600-800 ms at p95."""
    cases = [engine.create_case(f"案{n}") for n in range(6)]
    engine.add_notes(
        [
            {"content": f"案{n}：押金 deposit 第{m}条", "case_id": c.id}
            for n, c in enumerate(cases)
            for m in range(3)
        ]
    )
    index = engine._index
    cache = index._vectors
    calls = []
    real_build_cases = cache.build_cases

    def counted_build_cases(*args, **kwargs):
        calls.append(args[0])
        return real_build_cases(*args, **kwargs)

    monkeypatch.setattr(cache, "build_cases", counted_build_cases)
    _keep(index, index_filter(cases[0].id))  # every case fits: all kept by this one read
    assert all(cache.holds(index_filter(c.id)) for c in cases) and len(calls) == 1
    cache._budget = int(cache._scopes[index_filter(cases[0].id)].nbytes * 2.5)
    cache.clear()  # from now on the memory holds about two cases
    for _round in range(2):
        for case in cases:
            where = index_filter(case.id)
            _keep(index, where)
            found = {i for i, _ in index.text_search(fts_text("押金"), where, 20)}
            assert len(found) == 3
    # one more read of every case (it no longer fits), then each case alone
    assert len(calls) == 2


def test_a_scope_is_read_into_memory_only_after_the_search_that_asked(engine):
    """A new process's first search also warms the embedder: the read and analysis of the
    scope must not run beside it."""
    import time

    case = engine.create_case("首搜")
    engine.add_notes([{"content": t, "case_id": case.id} for t in NOTES])
    index = engine._index
    where = index_filter(case.id)
    index.begin_search()
    try:
        index.text_search(fts_text("deposit"), where, 5)  # a miss: a read is scheduled
        time.sleep(0.3)
        assert not index._vectors.holds(where)
    finally:
        index.end_search()
    index._filler.submit(lambda: None).result()
    assert index._vectors.holds(where)


def test_a_scope_too_large_for_the_memory_is_not_read_again_at_every_idle_round(
    engine, monkeypatch
):
    from desktop_app.memory import index as index_module

    monkeypatch.setattr(index_module, "ANN_MIN_SCOPE", 5)
    monkeypatch.setattr(index_module, "TEXT_BUDGET_BYTES", 5 * index_module.TEXT_BYTES_PER_NOTE)
    case = engine.create_case("太大")
    engine.add_notes([{"content": t, "case_id": case.id} for t in NOTES])
    index = engine._index
    where = index_filter(case.id)
    scans = []
    real_scan = index._scan

    def counted_scan(table, columns, where_=None):
        scans.append(columns)
        return real_scan(table, columns, where_)

    monkeypatch.setattr(index, "_scan", counted_scan)
    for _ in range(3):
        found = index.text_search(fts_text("deposit"), where, 20)  # LanceDB answers
        assert found
        index._filler.submit(lambda: None).result()
        engine.wait_for_index_upkeep(flush=True)
    assert not index._texts.holds(where) and not index._texts_wanted
    assert not [c for c in scans if "terms" in c]  # never read only to be dropped


def test_a_search_that_starts_while_a_scope_is_analysed_does_not_wait_for_the_analysis(
    engine, monkeypatch
):
    """The analysis of a read scope is pure Python: a search beside it waited for the
    interpreter lock at each step (1.2-2.0 s instead of ~30 ms at 50k notes).  It yields to
    a search between chunks of rows."""
    import threading
    import time

    from desktop_app.memory import vector_cache

    monkeypatch.setattr(vector_cache, "_BUILD_CHUNK", 4)
    case = engine.create_case("让路")
    engine.add_notes([{"content": t, "case_id": case.id} for t in NOTES_THRICE])
    index = engine._index
    where = index_filter(case.id)
    calls: list[float] = []
    search_over = threading.Event()
    ended_at: list[float] = []
    real_counts = bm25.term_counts

    def end_the_search() -> None:
        time.sleep(0.6)
        ended_at.append(time.monotonic())
        index.end_search()
        search_over.set()

    def counting(terms: str):
        if threading.current_thread().name.startswith("lexmem-vectors"):
            calls.append(time.monotonic())
            if len(calls) == 6:  # in the second chunk, a search starts
                index.begin_search()
                threading.Thread(target=end_the_search).start()
        return real_counts(terms)

    monkeypatch.setattr(bm25, "term_counts", counting)
    index.text_search(fts_text("deposit"), where, 5)  # a miss: the read is scheduled
    index._filler.submit(lambda: None).result()
    assert search_over.wait(10)
    assert index._vectors.holds(where)
    assert len(calls) >= len(NOTES_THRICE) > 8
    during = [t for t in calls[8:] if t < ended_at[0]]  # after the chunk the search hit
    assert during == [], f"{len(during)} rows analysed while the search ran"


def test_kept_postings_add_nothing_for_the_garbage_collector_to_walk(engine):
    """Every full collection walks every object the collector tracks: with ``array.array``
    postings (tracked) a kept 10k-note table added 77k objects, a collection took ~100 ms
    and a search beside it as long."""
    import gc

    case = engine.create_case("回收")
    engine.add_notes([{"content": t, "case_id": case.id} for t in NOTES_THRICE])
    where = index_filter(case.id)
    index = engine._index
    _keep(index, where)
    gc.collect()  # a tuple of untracked objects is untracked by the first collection
    scope = index._vectors._scopes[where]
    assert len(scope.postings) > 20
    assert [term for term, entry in scope.postings.items() if gc.is_tracked(entry)] == []
    assert not gc.is_tracked(scope.row_of)
    found = index.text_search(fts_text("deposit"), where, 5)
    assert found and all(note_id in scope.row_of for note_id, _ in found)
