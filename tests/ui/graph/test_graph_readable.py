"""The graph says something (issue 15, item 15): each node is labelled with a short title of
its note (the category is its colour and its grid's heading), the whole text is in the
tooltip as plain text, and notes without links sit in a grid per category beside the
force-laid-out linked ones instead of drifting apart as scattered dots."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage, QPainter

from desktop_app.memory.graph import short_title
from desktop_app.memory.types import CATEGORIES, Graph, GraphEdge, GraphNode
from desktop_app.ui.graph import GraphView
from desktop_app.ui.graph import layout as L
from desktop_app.ui.graph.model import GraphModel
from desktop_app.ui.graph.text import tooltip_html


def test_short_titles():
    assert short_title("原告张三于2024年3月15日在被告网店购买笔记本电脑一台") == "原告张三于2024年3月…"
    assert short_title("被告为某电商平台，住所地在杭州市余杭区") == "被告为某电商平台…"
    assert short_title("月薪8000元。") == "月薪8000元"
    assert short_title("原告称：屏幕出现花屏") == "原告称：屏幕出现花屏"  # a 3-character clause says too little
    assert short_title("The hearing is on 15 July 2024 at 9:30.") == "The hearing is…"
    assert short_title("Client prefers short replies") == "Client prefers short…"
    assert short_title("OK") == "OK"


def _case_graph(n_linked_pairs: int = 6, lone_per_category: int = 3) -> Graph:
    """Like the demo case: 25 notes, 12 links, most of the notes linked to nothing."""
    nodes, edges = [], []
    k = 0
    for c, cat in enumerate(CATEGORIES):
        for j in range(lone_per_category + (2 if c < n_linked_pairs else 0)):
            text = f"{cat}事项{j}：第{k}条记忆的完整内容，比标题长得多，<b>不是标记</b>"
            month = None if k % 4 == 0 else f"2024-0{k % 3 + 1}-15"
            nodes.append(GraphNode(f"n{k:03d}", text[:28], cat, "active", False, 0, 0, (),
                                   event_date=month, title=short_title(text), content=text))  # fmt: skip
            k += 1
    by_cat = {cat: [n for n in nodes if n.category == cat] for cat in CATEGORIES}
    for c, cat in enumerate(CATEGORIES[:n_linked_pairs]):
        a, b = by_cat[cat][0], by_cat[cat][1]
        edges.append(GraphEdge(a.id, b.id, "semantic", 0.8, "相关"))
        other = by_cat[CATEGORIES[(c + 1) % n_linked_pairs]][0]
        edges.append(GraphEdge(b.id, other.id, "manual", 1.0, "证明"))
    return Graph(tuple(nodes), tuple(edges))


def test_unlinked_notes_sit_in_a_grid_per_category_beside_the_linked_ones():
    m = GraphModel(_case_graph())
    pos = L.layout(m.n, m.edges, m.strength, groups=m.category, order=m.order)
    assert np.isfinite(pos).all()
    lone = ~m.linked
    assert lone.sum() == 18 and m.linked.sum() == 12
    # right of every linked note: the grid never covers the linked map
    assert pos[lone, 0].min() > pos[m.linked, 0].max()
    k = L.LayoutParams().k
    cw, ch = L.GRID_CELL_W * k, L.GRID_CELL_H * k
    for cat in np.unique(m.category[lone]):
        members = np.flatnonzero(lone & (m.category == cat))
        xs, ys = pos[members, 0], pos[members, 1]
        # a lattice: columns cw apart, rows ch apart, from the grid's top-left corner
        assert np.allclose((xs - xs.min()) / cw, np.round((xs - xs.min()) / cw))
        assert np.allclose((ys - ys.min()) / ch, np.round((ys - ys.min()) / ch))
        assert len(set(zip(xs.round(3), ys.round(3), strict=True))) == len(members)
    # grids of different categories do not overlap
    boxes = []
    for cat in np.unique(m.category[lone]):
        members = np.flatnonzero(lone & (m.category == cat))
        boxes.append((pos[members, 0].min(), pos[members, 1].min() - ch,
                      pos[members, 0].max() + cw / 2, pos[members, 1].max()))  # fmt: skip
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    # the linked notes are still force-laid-out: linked pairs closer than unlinked ones
    d = np.linalg.norm(pos[m.edges[:, 0]] - pos[m.edges[:, 1]], axis=1)
    assert d.max() < 4 * k


def test_saved_scattered_positions_of_unlinked_notes_do_not_scatter_them(qtbot):
    graph = _case_graph()
    m = GraphModel(graph)
    rng = np.random.default_rng(1)
    saved = {nid: tuple(rng.uniform(-900, 900, 2)) for nid in m.ids}  # an old, scattered map
    view = GraphView()
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    view.set_graph(graph, saved)
    pos = view._pos
    lone = ~view._model.linked
    k = L.LayoutParams().k
    for cat in np.unique(view._model.category[lone]):
        members = np.flatnonzero(lone & (view._model.category == cat))
        assert np.ptp(pos[members, 0]) <= (L.GRID_COLUMNS - 1) * L.GRID_CELL_W * k + 1e-6
    # linked notes keep where the lawyer left them
    for i in np.flatnonzero(view._model.linked):
        assert tuple(pos[i]) == saved[view._model.ids[i]]


def test_nodes_are_labelled_with_titles_and_grids_with_their_category(qtbot):
    graph = _case_graph()
    view = GraphView()
    qtbot.addWidget(view)
    view.resize(1400, 900)
    view.show()
    view.set_graph(graph)
    qtbot.waitUntil(lambda: not view.is_laying_out(), timeout=20_000)
    view.fit()
    drawn: list[str] = []
    renderer = view.canvas.renderer
    original = QPainter.drawText

    image = QImage(1400, 900, QImage.Format.Format_ARGB32)
    painter = QPainter(image)

    class Recorder:
        def __getattr__(self, name):
            return getattr(painter, name)

        def drawText(self, *args):
            drawn.append(args[-1])
            return original(painter, *args)

    c = view.canvas
    renderer.paint(Recorder(), c.frame, c.scale, (float(c.offset[0]), float(c.offset[1])), (1400, 900))
    painter.end()
    titles = {n.title for n in graph.nodes}
    assert renderer.last_lod != "far"
    assert len(titles & set(drawn)) >= 15, drawn  # most nodes carry their title
    assert not any(t in CATEGORIES for t in drawn)  # never the bare category any more
    headings = [t for t in drawn if "·" in t and "(" in t]
    assert len(headings) == len(CATEGORIES) == renderer.last_headings_drawn
    # the tooltip holds the whole text, escaped
    node = graph.nodes[0]
    tip = tooltip_html(node)
    assert "完整内容，比标题长得多" in tip and "<b>不是标记</b>" not in tip and "&lt;b&gt;" in tip


def test_the_unlinked_notes_can_be_grouped_by_month(qtbot):
    graph = _case_graph()
    view = GraphView()
    qtbot.addWidget(view)
    view.resize(1400, 900)
    view.show()
    view.set_graph(graph)
    qtbot.waitUntil(lambda: not view.is_laying_out(), timeout=20_000)
    linked_before = view._pos[view._model.linked].copy()
    view.controls.group_by.setCurrentIndex(view.controls.group_by.findData("time"))
    m, pos = view._model, view._pos
    assert m.group_by == "time"
    assert np.array_equal(pos[m.linked], linked_before)  # the linked map does not move
    lone = np.flatnonzero(~m.linked)
    month = {i: (m.node(i).event_date or "")[:7] for i in lone}
    assert len(set(month.values())) == 4  # three months and "no date"
    # one grid per month: notes of a month share a column, another month is elsewhere
    columns: dict[str, set[float]] = {}
    for i in lone:
        columns.setdefault(month[i], set()).add(round(float(pos[i, 0]), 3))
    assert all(len(xs) <= L.GRID_COLUMNS for xs in columns.values())
    cells = {(round(float(pos[i, 0]), 3), round(float(pos[i, 1]), 3)) for i in lone}
    assert len(cells) == len(lone)
    view.canvas.repaint()
    assert view.canvas.renderer.last_headings_drawn == 4


def test_components_match_a_plain_search():
    from desktop_app.ui.graph.demo import synthetic_graph

    m = GraphModel(synthetic_graph(300, 320, seed=4))
    comp = L.components(m.n, m.edges)
    neighbours: dict[int, list[int]] = {i: [] for i in range(m.n)}
    for a, b in m.edges.tolist():
        neighbours[a].append(b)
        neighbours[b].append(a)
    found, count = [-1] * m.n, 0
    for start in range(m.n):
        if found[start] >= 0:
            continue
        stack, found[start] = [start], count
        while stack:
            for y in neighbours[stack.pop()]:
                if found[y] < 0:
                    found[y] = count
                    stack.append(y)
        count += 1
    assert int(comp.max()) + 1 == count > 1
    assert len(set(zip(comp.tolist(), found, strict=True))) == count  # the same partition


def test_the_footer_says_how_many_of_the_notes_are_current(qtbot):
    # the map shows replaced and expired notes too (greyed): "26 notes" beside a list of 25
    # current notes read as a disagreement (issue 15, item 12)
    from dataclasses import replace

    graph = _case_graph()
    nodes = list(graph.nodes)
    nodes[0] = replace(nodes[0], status="superseded")
    nodes[1] = replace(nodes[1], status="archived")
    view = GraphView()
    qtbot.addWidget(view)
    view.set_graph(Graph(tuple(nodes), graph.edges), {})
    text = view.status.text()
    total = len(nodes)
    assert str(total) in text and str(total - 2) in text, text
