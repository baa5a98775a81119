"""Memory search on the demo case, as the lawyer met it (issue 15, item 2): an unrelated
query listed every note as "24 条匹配的记忆" with the arrow still on 日期."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop_app.core.resources import demo_path
from desktop_app.ui.notes.model import COL_CONTENT, COL_CREATED
from desktop_app.ui.notes.view import NotesView


@pytest.fixture
def demo_view(qtbot, make_host):
    host = make_host()
    results = host.engine.import_jsonl(demo_path())
    case_id = next(r.note.case_id for r in results if r.note.case_id)
    view = NotesView(host)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    view.set_case(case_id)
    qtbot.waitUntil(lambda: view.model.rowCount() > 20 and not view.model.loading, timeout=10_000)
    return view


def _search(qtbot, view, text):
    view.search.setText(text)
    view.apply_filters()  # what the debounce timer does
    qtbot.waitUntil(lambda: not view.model.loading and view.model.query.text == text, timeout=10_000)


def _header(view, col):
    return view.model.headerData(col, Qt.Orientation.Horizontal)


def test_unrelated_query_says_no_match(qtbot, demo_view):
    view = demo_view
    _search(qtbot, view, "离婚抚养权")
    assert view.model.rowCount() == 0
    assert view.no_match.isVisible() and "离婚抚养权" in view.no_match.text()
    assert view.count_label.text() == "No match"
    assert not view.stack.isVisible()
    view.search.clear()
    view.apply_filters()
    qtbot.waitUntil(lambda: view.model.rowCount() > 20, timeout=10_000)
    assert view.stack.isVisible() and not view.no_match.isVisible()


def test_related_query_lists_matches_by_relevance_and_says_so(qtbot, demo_view):
    view = demo_view
    header = view.table.horizontalHeader()
    assert header.isSortIndicatorShown() and header.sortIndicatorSection() == COL_CREATED
    _search(qtbot, view, "屏幕花屏")
    n = view.model.rowCount()
    assert 0 < n < 10
    assert "花屏" in view.model.note_at(0).content
    assert "relevant" in _header(view, COL_CONTENT)
    assert not header.isSortIndicatorShown()  # no column claims the order
    assert "most relevant first" in view.count_label.text()
    # sorting by a column takes over, and the header stops claiming relevance
    view.table.sortByColumn(COL_CREATED, Qt.SortOrder.AscendingOrder)
    assert header.isSortIndicatorShown()
    assert "relevant" not in _header(view, COL_CONTENT)
    dates = [(x.valid_from or x.created_at) for x in view.model.notes()]
    assert dates == sorted(dates)
