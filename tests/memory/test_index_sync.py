"""The index follows SQLite: one embedding text for every path that writes a vector."""

from __future__ import annotations

import numpy as np

from desktop_app.memory.index_sync import embedding_text, stamp


def _same_vector(stored: np.ndarray, fresh: np.ndarray) -> bool:
    """The index keeps vectors as float16 (half the disk, same neighbours): a component of a
    unit 512-d vector is stored to within ~3e-5, while the vectors of two different texts
    differ by ~0.05 a component."""
    return np.allclose(stored, fresh, atol=1e-4)


def test_added_and_reindexed_vectors_come_from_the_same_text(engine, embedder):
    note = engine.add_note("租赁合同约定押金在退租后七日内退还", tags=["押金", "租赁"]).note
    added = engine._index.vectors_for([note.id])[note.id]
    expected = embedder.embed([embedding_text(note)])[0]
    assert _same_vector(added, expected)
    engine.rebuild_index()  # the re-index path
    rebuilt = engine._index.vectors_for([note.id])[note.id]
    assert np.array_equal(rebuilt, added)
    assert engine._index.stamps()[note.id] == stamp(engine.get_note(note.id))


def test_an_edit_of_the_context_reaches_the_vector_at_once(engine, embedder):
    note = engine.add_note("合同于三月签订").note
    edited = engine.update_note(note.id, context="这是买卖合同，标的为笔记本电脑")
    vector = engine._index.vectors_for([note.id])[note.id]
    assert "笔记本电脑" in embedding_text(edited)
    assert _same_vector(vector, embedder.embed([embedding_text(edited)])[0])


def test_counts_computed_beside_the_embedding_are_those_of_the_row_terms(engine):
    """A batch's written terms are counted in the construction helper; with the labels and
    the event date added here, they must be the counts of the index row's whole terms (the
    in-memory full-text index ranks with them)."""
    from desktop_app.memory import bm25
    from desktop_app.memory.construction_pool import Draft, build
    from desktop_app.memory.index_sync import index_row, terms_text

    for content, tags in (
        (
            "原告于2024年3月5日支付押金3000元，the landlord refused to return it",
            ["押金", "Deposit"],
        ),
        ("The hearing was moved to May 2, 2025", []),
    ):
        note = engine.add_note(content, tags=tags).note
        built = build(Draft(note.content, None, None, note.context))
        row = index_row(
            note, np.zeros(512, np.float32), (built.written_terms, built.written_counts)
        )
        assert row.terms == terms_text(note)
        assert row.counted == bm25.term_counts(row.terms)
        assert note.event_date and note.keywords  # labels and a date were added to the counts
