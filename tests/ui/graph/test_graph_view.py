"""GraphView interactions under pytest-qt (offscreen)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage

from desktop_app.memory.types import LINK_KINDS
from desktop_app.ui.graph import GraphView
from desktop_app.ui.graph.demo import synthetic_graph


def _screen(view: GraphView, note_id: str) -> QPoint:
    i = view._model.index[note_id]
    return view.canvas.to_screen(view.canvas.frame.pos[i]).toPoint()


def test_click_selects_and_shows_details(qtbot, view, small_graph) -> None:
    node = small_graph.nodes[7]
    with qtbot.waitSignal(view.noteSelected) as sig:
        qtbot.mouseClick(view.canvas, Qt.MouseButton.LeftButton, pos=_screen(view, node.id))
    assert sig.args == [node.id]
    assert view.selected_note() == node.id
    assert node.label in view.details.browser.toPlainText()
    # clicking empty space clears the selection
    with qtbot.waitSignal(view.noteSelected) as sig:
        qtbot.mouseClick(view.canvas, Qt.MouseButton.LeftButton, pos=QPoint(2, 2))
    assert sig.args == [""]


def test_hit_testing_picks_the_node_under_the_cursor(view, small_graph) -> None:
    for node in small_graph.nodes[::5]:
        assert view.canvas.node_at(_screen(view, node.id)) == view._model.index[node.id]
    assert view.canvas.node_at(QPoint(1, 1)) == -1


def test_double_click_emits_note_activated(qtbot, view, small_graph) -> None:
    node = small_graph.nodes[3]
    with qtbot.waitSignal(view.noteActivated) as sig:
        qtbot.mouseDClick(view.canvas, Qt.MouseButton.LeftButton, pos=_screen(view, node.id))
    assert sig.args == [node.id]


def test_detail_panel_uses_providers(qtbot, view, small_graph) -> None:
    asked: list[str] = []

    def boom(note_id: str):
        asked.append(note_id)
        raise KeyError(note_id)  # a vanished note: the panel still shows the node

    view.set_providers(boom, lambda _nid: [])
    node = small_graph.nodes[2]
    view.select(node.id)
    assert asked == [node.id]
    assert node.label in view.details.browser.toPlainText()


def test_filters_hide_nodes_and_edges(view, small_graph) -> None:
    view.set_filters(categories={"事实", "证据"})
    f = view.canvas.frame
    cats = np.array([nd.category for nd in small_graph.nodes])
    assert (f.node_visible == np.isin(cats, ["事实", "证据"])).all()
    ends = view._model.edges[f.edge_visible]
    assert f.node_visible[ends].all()
    assert view.controls.filters().categories == {"事实", "证据"}
    view.set_filters(categories=set(), statuses=None)
    assert not view.canvas.frame.node_visible.any()
    # status and link kind
    view.set_filters(
        categories={"事实", "证据", "法条", "诉求", "时间线", "偏好"},
        statuses={"active"},
        kinds={"semantic"},
    )
    f = view.canvas.frame
    status = np.array([nd.status for nd in small_graph.nodes])
    assert (f.node_visible == (status == "active")).all()
    assert (view._model.kind[f.edge_visible] == LINK_KINDS.index("semantic")).all()
    assert f.edge_visible.any()


def test_legend_button_filters(view) -> None:
    view.controls.category_buttons["事实"].click()
    assert "事实" not in view.filters().categories
    assert not view.canvas.frame.node_visible[view._model.category == 0].any()


def test_search_highlights_matches(view, small_graph) -> None:
    word = small_graph.nodes[0].label[:2]
    count = view.set_search(word)
    want = [word in nd.label or word in " ".join(nd.tags) for nd in small_graph.nodes]
    f = view.canvas.frame
    assert count == sum(want) > 0
    assert f.highlighted.tolist() == want
    assert (f.dimmed == ~f.highlighted).all()
    assert view.set_search("") == 0 and not view.canvas.frame.dimmed.any()


def test_focus_neighbourhood(view, small_graph) -> None:
    m = view._model
    hub = int(np.argmax(m.degree))
    view.focus_on(m.ids[hub], hops=1)
    f = view.canvas.frame
    e = m.edges
    nbrs = set(e[e[:, 0] == hub, 1]) | set(e[e[:, 1] == hub, 0]) | {hub}
    assert set(np.flatnonzero(f.node_visible)) == nbrs
    view.focus_on(m.ids[hub], hops=2)
    assert view.canvas.frame.node_visible.sum() >= len(nbrs)
    view.clear_focus()
    assert view.canvas.frame.node_visible.all()


def test_zoom_level_of_detail(qtbot, view) -> None:
    c = view.canvas
    total = int(c.frame.edge_visible.sum())
    c.zoom_by(0.05 / c.scale)  # far out
    c.repaint()
    assert c.lod == "far" and c.renderer.last_labels_drawn == 0
    assert c.renderer.last_edges_drawn < total
    c.zoom_by(2.0 / c.scale)  # close in
    c.repaint()
    assert c.lod == "near" and c.renderer.last_labels_drawn > 0
    assert c.renderer.last_edges_drawn == total
    # wheel zoom goes through the same path
    before = c.scale
    qtbot.wait(1)
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent

    ev = QWheelEvent(
        QPointF(100, 100),
        QPointF(100, 100),
        QPoint(0, 0),
        QPoint(0, -120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    c.wheelEvent(ev)
    assert c.scale < before


def test_drag_moves_node_and_reports_positions(qtbot, view, small_graph) -> None:
    nid = small_graph.nodes[4].id
    start = _screen(view, nid)
    old = view.positions()[nid]
    with qtbot.waitSignal(view.positionsChanged) as sig:
        qtbot.mousePress(view.canvas, Qt.MouseButton.LeftButton, pos=start)
        for dx in (5, 20, 40):
            qtbot.mouseMove(view.canvas, start + QPoint(dx, 0))
        qtbot.mouseRelease(view.canvas, Qt.MouseButton.LeftButton, pos=start + QPoint(40, 0))
    assert sig.args[0][nid][0] > old[0]


def test_export_png_and_svg(view, tmp_path) -> None:
    png = tmp_path / "g.png"
    assert view.export_image(png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = QImage(str(png))
    assert not img.isNull() and img.width() >= 400
    svg = tmp_path / "g.svg"
    assert view.export_image(svg)
    assert b"<svg" in svg.read_bytes()[:2000]


def test_layout_runs_in_worker_and_animates(qtbot) -> None:
    g = synthetic_graph(600, 1800, seed=2)
    v = GraphView()
    qtbot.addWidget(v)
    v.resize(800, 600)
    v.show()
    seen: list[int] = []
    v.runner.progressed.connect(lambda pos: seen.append(len(pos)))
    with qtbot.waitSignal(v.positionsChanged, timeout=20000) as sig:
        v.set_graph(g)
        assert v.is_laying_out()
    assert set(sig.args[0]) == {nd.id for nd in g.nodes}
    assert seen and set(seen) == {600}  # intermediate frames reached the UI thread
    assert not v.is_laying_out()


def test_saved_positions_are_kept_and_only_new_notes_placed(qtbot, grid_positions) -> None:
    g = synthetic_graph(80, 200, seed=4)
    saved = grid_positions(g)
    new_id = g.nodes[-1].id
    del saved[new_id]
    v = GraphView()
    qtbot.addWidget(v)
    with qtbot.waitSignal(v.positionsChanged, timeout=20000) as sig:
        v.set_graph(g, saved)
    got = sig.args[0]
    assert all(np.allclose(got[k], saved[k]) for k in saved)
    assert new_id in got
    # with every position known no layout runs at all
    v.set_graph(g, got)
    assert not v.is_laying_out()
