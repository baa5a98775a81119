"""Offline links made by the add path: only the few strongest above the threshold, the same
whether notes come one by one or in a batch, never to a note that is gone or in another scope
(the add path keeps a copy of a scope's vectors between batches: it must never be stale)."""

from __future__ import annotations

import numpy as np

from desktop_app.memory.ingest import _chunks

_RENT = [
    "房东扣留押金{n}元，租客要求退还押金",
    "租客搬走后房东不退押金{n}元",
    "押金{n}元被房东扣下，理由是墙面有污渍",
    "房东以卫生问题为由拒绝退还{n}元押金",
    "退租时房东没有退还押金{n}元",
    "租客催促房东退还押金{n}元未果",
    "房东说押金{n}元要抵扣维修费",
    "合同约定退租后七日内退还押金{n}元",
]


def _semantic_targets(engine, note_id: str) -> list[tuple[str, float]]:
    """The note's own offline links (it is the source), strongest first."""
    return [
        (link.dst, link.strength)
        for link in engine.links_of(note_id)
        if link.kind in ("semantic", "duplicate")
    ]


def _brute_force(engine, new_id: str, earlier: list[str], threshold: float, cap: int):
    vectors = engine._index.vectors_for([new_id, *earlier])
    me = vectors[new_id]
    sims = sorted(((float(me @ vectors[i]), i) for i in earlier), reverse=True)
    return [i for s, i in sims if s >= threshold][:cap]


def _in_batches(engine, case_id: str, sizes: tuple[int, ...]):
    """Rent notes added in batches of ``sizes``: (ids of all batches but the last, the last
    batch's results)."""
    order: list[str] = []
    results = []
    for batch_no, size in enumerate(sizes):
        items = [
            {"content": _RENT[i % len(_RENT)].format(n=1000 * batch_no + i), "case_id": case_id}
            for i in range(size)
        ]
        results = engine.add_notes(items)
        if batch_no < len(sizes) - 1:
            order += [r.note.id for r in results]
    return order, results


def test_a_note_links_only_to_its_few_strongest_neighbours(engine):
    case = engine.create_case("押金")
    earlier = [engine.add_note(t.format(n=3000), case_id=case.id).note.id for t in _RENT]
    new = engine.add_note("房东一直不退还押金3000元", case_id=case.id).note
    cfg = engine.config
    expected = _brute_force(engine, new.id, earlier, cfg.link_threshold, 99)
    assert len(expected) > cfg.max_semantic_links  # more qualify than the cap allows
    got = [dst for dst, _s in _semantic_targets(engine, new.id)]
    assert len(got) <= cfg.max_semantic_links
    assert set(got) == set(expected[: cfg.max_semantic_links])


def test_a_batch_links_like_notes_added_one_after_another(engine):
    case = engine.create_case("批量")
    first = engine.add_notes(
        [{"content": t.format(n=n), "case_id": case.id} for n in (100, 200) for t in _RENT]
    )
    batch = engine.add_notes(
        [{"content": t.format(n=n), "case_id": case.id} for n in (300, 400) for t in _RENT]
    )
    cfg = engine.config
    order = [r.note.id for r in first] + [r.note.id for r in batch]
    for position, result in enumerate(batch, start=len(first)):
        expected = _brute_force(
            engine, result.note.id, order[:position], cfg.link_threshold, cfg.max_semantic_links
        )
        # (links_of also lists the links later notes made to this one: stored both ways)
        assert set(result.linked) == set(expected), result.note.content


def test_the_kept_copy_grows_over_many_batches_and_stays_exact(engine):
    """Each batch appends to the kept copy of the scope (in room kept for it, reallocated
    when full): the fourth batch links exactly as a brute force over all earlier notes."""
    case = engine.create_case("多批")
    order, results = _in_batches(engine, case.id, (10, 30, 50, 20))
    kept = engine._ingestion._scope_copy
    assert kept is not None and len(kept.ids) == 110 and kept.matrix.shape == (110, 512)
    _assert_linked_like_brute_force(engine, order, results)


def _assert_linked_like_brute_force(engine, order: list[str], results) -> None:
    """Each of ``results`` linked to its strongest neighbours among the notes of ``order``
    and the results before it."""
    cfg = engine.config
    for position, result in enumerate(results):
        earlier = order + [r.note.id for r in results[:position]]
        vectors = engine._index.vectors_for([result.note.id, *earlier])
        sims = {i: float(vectors[result.note.id] @ vectors[i]) for i in earlier}
        expected = _brute_force(
            engine, result.note.id, earlier, cfg.link_threshold, cfg.max_semantic_links
        )
        # these notes differ only in an amount: near ties, and the index stores float16, so
        # an equally strong neighbour may stand in for another
        assert len(result.linked) == len(expected), result.note.content
        if expected:
            weakest = min(sims[i] for i in expected)
            assert all(sims[i] >= weakest - 2e-3 for i in result.linked), result.note.content


def test_a_batch_embedded_in_chunks_links_across_them_like_a_brute_force(engine):
    """A one-scope batch is embedded in chunks, the last one small (the batch waits for its
    links, which can only be found once it is embedded); every item still links to its
    strongest earlier neighbours, in its own chunk and in the ones before."""
    assert _chunks(500) == [(0, 256), (256, 436), (436, 500)]
    assert _chunks(200) == [(0, 136), (136, 200)] and _chunks(100) == [(0, 100)]
    case = engine.create_case("分块")
    order, results = _in_batches(engine, case.id, (30, 200))
    assert len(results) == 200 and {r.action for r in results} == {"added"}
    _assert_linked_like_brute_force(engine, order, results)


def test_the_kept_copy_of_a_scope_never_links_to_a_gone_or_changed_note(engine):
    case = engine.create_case("缓存")
    other = engine.create_case("别的案件")
    seed = engine.add_notes(
        [
            {"content": f"被告于2023年{m}月拖欠工资共计{m}万元", "case_id": case.id}
            for m in range(1, 13)
        ]
    )
    doomed, expired, edited = (r.note for r in seed[:3])
    engine.delete_note(doomed.id)
    engine.expire_note(expired.id)
    engine.update_note(edited.id, content="原告的猫名叫花花，喜欢晒太阳")
    engine.add_note(doomed.content + "（另案）", case_id=other.id)
    batch = engine.add_notes(
        [
            {"content": f"被告于2023年{m}月拖欠工资共计{m}万元整", "case_id": case.id}
            for m in range(1, 13)
        ]
    )
    linked = {dst for r in batch for dst in r.linked}
    assert doomed.id not in linked and expired.id not in linked
    # the edited note's vector is its new text's: a wage claim no longer comes near it
    vectors = engine._index.vectors_for([edited.id, batch[2].note.id])
    assert float(vectors[edited.id] @ vectors[batch[2].note.id]) < engine.config.link_threshold
    assert edited.id not in {dst for dst, _s in _semantic_targets(engine, batch[2].note.id)}
    in_scope = {r.note.id for r in seed[3:]} | {r.note.id for r in batch}
    assert linked <= in_scope  # nothing of another case, nothing global


def test_offline_construction_lands_in_the_note_and_its_vector(engine):
    case = engine.create_case("构建")
    results = engine.add_notes(
        [
            {"content": "原告张三于2024年3月15日购买笔记本电脑，价格8999元", "case_id": case.id},
            {"content": "The plaintiff kept the original invoice", "case_id": case.id},
            {"content": "用户希望以后回复都简洁", "case_id": None, "tags": ["风格"]},
        ]
    )
    laptop, invoice, preference = (engine.get_note(r.note.id) for r in results)
    assert "笔记本电脑" in laptop.keywords and laptop.category == "时间线"
    assert "invoice" in invoice.keywords and invoice.category == "证据"
    assert preference.category == "偏好" and preference.tags == ("风格",)
    # the stored vector is the one of the note's final embedding text
    from desktop_app.memory.index_sync import embedding_text

    vector = engine._index.vectors_for([preference.id])[preference.id]
    expected = engine.embedder.embed([embedding_text(preference)])[0]
    assert np.allclose(vector, expected, atol=1e-4)  # stored as float16: ~3e-5 a component


def test_a_large_scope_links_through_its_partition_with_ids_and_vectors_kept_aligned(
    engine, monkeypatch
):
    """Past PARTITION_FROM the kept copy is put in group order (and again as batches fold
    in): probing every group must then link exactly as the brute force, which it only does
    if each id still sits beside its own vector."""
    from desktop_app.memory import link_partition

    monkeypatch.setattr(link_partition, "PARTITION_FROM", 40)
    monkeypatch.setattr(link_partition, "MIN_GROUPS", 4)
    monkeypatch.setattr(link_partition, "PROBE", 99)  # every group: exact
    case = engine.create_case("分组")
    order, results = _in_batches(engine, case.id, (45, 30, 50, 20))
    kept = engine._ingestion._scope_copy
    assert kept is not None and kept.partition is not None
    # grouped at 45 notes, the next 30 folded in at 75, grouped anew at 125 (> 2 x 45)
    assert kept.partition.built_for == 125
    stored = engine._index.vectors_for(kept.ids)
    assert len(kept.ids) == 145 and set(kept.ids) == set(order) | {r.note.id for r in results}
    for row, note_id in enumerate(kept.ids):
        np.testing.assert_allclose(kept.matrix[row], stored[note_id], atol=2e-3)
    cfg = engine.config
    for position, result in enumerate(results):
        earlier = order + [r.note.id for r in results[:position]]
        expected = _brute_force(
            engine, result.note.id, earlier, cfg.link_threshold, cfg.max_semantic_links
        )
        assert len(result.linked) == len(expected), result.note.content


def test_a_large_batch_flags_the_same_matter_as_a_stored_note_says_it(engine):
    """A batch of one scope checks its close pairs for the same matter in the link thread,
    reading the stored note's text there: the changed salary is flagged against it."""
    from desktop_app.memory.ingest import SAME_MATTER_REASON

    case = engine.create_case("同一事项")
    stored = engine.add_note("原告月薪8000元", case_id=case.id).note
    items = [{"content": "原告月薪调整为9500元", "case_id": case.id}]
    items += [{"content": t.format(n=n), "case_id": case.id} for n, t in enumerate(_RENT)]
    changed = engine.add_notes(items)[0].note
    flagged = {
        link.dst
        for link in engine.links_of(changed.id)
        if link.kind == "duplicate" and link.reason == SAME_MATTER_REASON
    }
    assert flagged == {stored.id}
