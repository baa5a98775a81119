"""The memory search finds only relevant notes, most relevant first (issue 15, item 2):
an unrelated query on the demo case used to return every note, re-ordered."""

from __future__ import annotations

import pytest

from desktop_app.core.resources import demo_path
from desktop_app.memory.ranking import is_relevant


@pytest.fixture
def demo(engine):
    results = engine.import_jsonl(demo_path())
    case_id = next(r.note.case_id for r in results if r.note.case_id)
    return engine, case_id


@pytest.mark.parametrize("query", ["离婚抚养权", "房屋租赁押金"])
def test_an_unrelated_query_finds_nothing(demo, query):
    engine, case_id = demo
    assert engine.count_notes(case_id, True, "active", None) > 20
    # the ranking alone still orders every note: that is what the view used to list
    assert len(engine.search(query, case_id=case_id, k=200)) > 20
    assert engine.find_notes(query, case_id) == []


def test_a_related_query_finds_its_notes_most_relevant_first(demo):
    engine, case_id = demo
    hits = engine.find_notes("屏幕花屏", case_id)
    contents = [h.note.content for h in hits]
    assert 0 < len(hits) < 10
    assert "花屏" in contents[0]
    assert all("花屏" in c or "屏幕" in c for c in contents[:3])
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


def test_a_question_finds_the_purchase_by_its_words(demo):
    engine, case_id = demo
    contents = [h.note.content for h in engine.find_notes("电脑是什么时候买的", case_id)]
    assert any("下单购买" in c and "8999" in c for c in contents)
    assert len(contents) < 8


def test_filters_apply_to_the_matches(demo):
    engine, case_id = demo
    timeline = engine.find_notes("屏幕花屏", case_id, category="时间线")
    assert timeline and all(h.note.category == "时间线" for h in timeline)
    assert all(h.note.case_id == case_id for h in engine.find_notes("偏好", case_id, include_global=False))


def test_is_relevant_needs_meaning_or_words_with_some_meaning():
    assert is_relevant(0.31, None, 0.3, 0.2)  # close meaning alone
    assert not is_relevant(0.26, None, 0.3, 0.2)  # loose meaning, no shared words
    assert is_relevant(0.23, 4, 0.3, 0.2)  # loose meaning and the words match
    assert not is_relevant(0.1, 1, 0.3, 0.2)  # words only (a common bigram such as 原告)
    assert not is_relevant(None, 1, 0.3, 0.2)  # pulled in by a link or a pin, not a match
