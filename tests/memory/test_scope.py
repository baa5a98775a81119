"""The same-scope rule, written once (scope.py), and what it lets through."""

from __future__ import annotations

import pytest

from desktop_app.core.errors import InvalidInputError
from desktop_app.memory.scope import (
    index_filter,
    require_same_scope,
    same_scope,
    sql_in_scope,
    visible_from,
)


def test_same_scope_and_visibility():
    assert same_scope(None, None) and same_scope("a", "a")
    assert not same_scope("a", None) and not same_scope("a", "b")
    assert visible_from(None, "a") and visible_from("a", "a")
    assert not visible_from("b", "a") and not visible_from("a", None)
    with pytest.raises(InvalidInputError) as caught:
        require_same_scope("a", "b", "cross-case", "不能 / cannot")
    assert caught.value.user_message == "不能 / cannot"


def test_sql_and_index_filters():
    assert sql_in_scope(None) == ("case_id IS NULL", [])
    assert sql_in_scope("c1", include_global=True) == ("(case_id = ? OR case_id IS NULL)", ["c1"])
    assert sql_in_scope("c1", column="n.case_id") == ("n.case_id = ?", ["c1"])
    assert index_filter("c1") == "case_id IN ('c1', '') AND status = 'active'"
    assert index_filter("c1", include_global=False) == "case_id IN ('c1') AND status = 'active'"
    assert index_filter(None, include_inactive=True) == "case_id IN ('')"


def test_an_unsafe_id_never_reaches_an_index_filter():
    with pytest.raises(ValueError):
        index_filter("x' OR '1'='1")


def test_neighbours_of_a_note_stay_in_its_scope(engine):
    a, b = engine.create_case("A"), engine.create_case("B")
    mine = engine.add_note("房东拒绝退还押金五千元", case_id=a.id).note
    engine.add_note("房东拒绝退还押金五千元整", case_id=b.id)  # the same words, another case
    engine.add_note("房东拒绝退还押金5000元", case_id=None)  # and a global note
    twin = engine.add_note("房东不肯退押金五千元", case_id=a.id).note
    assert [n.id for n in engine.neighbours_of(mine)] == [twin.id]
