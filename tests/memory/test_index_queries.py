"""The index runs LanceDB's vector and full-text queries through its asynchronous builders
in LanceDB's event loop (one hop instead of several): they must answer exactly what its
synchronous builders answer, filter and all."""

from __future__ import annotations

import numpy as np
import pytest

from desktop_app.memory.index import _full_text, _in_lancedb_loop, _nearest


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    import lancedb
    from lancedb.index import FTS, IvfSq

    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(600, 16)).astype(np.float32)
    words = ["rent", "deposit", "invoice", "lease", "合同", "发票"]
    db = lancedb.connect(str(tmp_path_factory.mktemp("queries")))
    table = db.create_table(
        "notes",
        data=[
            {
                "id": f"n{i}",
                "case_id": "a" if i % 3 else "b",
                "terms": f"{words[i % 6]} {words[(i * 7) % 6]} item{i}",
                "vector": vectors[i],
            }
            for i in range(600)
        ],
    )
    table.create_index("terms", config=FTS(with_position=False, base_tokenizer="whitespace"))
    table.create_index("vector", config=IvfSq(distance_type="cosine", num_partitions=8))
    return table


def test_the_queries_run_in_lancedbs_loop(table):
    inner, loop = _in_lancedb_loop(table)
    assert inner is not None and loop is not None


@pytest.mark.parametrize("probes, refine", [(None, None), (3, None), (3, 2), (8, 1)])
def test_a_vector_query_answers_what_the_synchronous_builder_answers(table, probes, refine):
    rng = np.random.default_rng(11)
    where = "case_id IN ('a')"
    for vector in rng.normal(size=(5, 16)).astype(np.float32):
        query = (
            table.search(vector, vector_column_name="vector")
            .distance_type("cosine")
            .where(where, prefilter=True)
            .select(["id", "_distance"])
            .limit(20)
        )
        query = query.bypass_vector_index() if probes is None else query.nprobes(probes)
        if refine is not None:
            query = query.refine_factor(refine)
        expected = query.to_arrow()
        got = _nearest(table, vector, where, 20, probes, refine)
        assert got.column("id").to_pylist() == expected.column("id").to_pylist()
        assert got.column("_distance").to_pylist() == expected.column("_distance").to_pylist()
        assert all(int(i[1:]) % 3 for i in got.column("id").to_pylist())  # case a only


@pytest.mark.parametrize("terms", ["rent", "invoice lease", "合同 lease", "item9", "absent"])
def test_a_full_text_query_answers_what_the_synchronous_builder_answers(table, terms):
    where = "case_id IN ('b')"
    expected = (
        table.search(terms, query_type="fts", fts_columns="terms")
        .where(where, prefilter=True)
        .select(["id", "_score"])
        .limit(15)
        .to_arrow()
    )
    got = _full_text(table, terms, where, 15)
    assert got.column("id").to_pylist() == expected.column("id").to_pylist()
    assert got.column("_score").to_pylist() == expected.column("_score").to_pylist()
    assert all(int(i[1:]) % 3 == 0 for i in got.column("id").to_pylist())  # case b only
    assert terms == "absent" or got.num_rows > 0
