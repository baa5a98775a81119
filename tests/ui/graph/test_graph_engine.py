"""The graph view on a real MemoryEngine graph (real SQLite, LanceDB and embedder)."""

from __future__ import annotations

from desktop_app.ui.graph import GraphView


def test_view_on_engine_graph_round_trips_positions(qtbot, engine) -> None:
    case = engine.create_case("租赁纠纷")
    texts = [
        "房东拒绝退还押金 5000 元",
        "租赁合同约定押金在退租后七日内退还",
        "微信聊天记录显示房东承认收到押金",
        "民法典第五百七十七条：违约责任",
        "客户希望先调解再起诉",
    ]
    ids = [engine.add_note(t, case_id=case.id).note.id for t in texts]
    engine.link_notes(ids[0], ids[1], "manual", 1.0)
    graph = engine.graph(case.id)
    view = GraphView(note_provider=engine.get_note, history_provider=engine.note_history)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.positionsChanged, timeout=20000) as sig:
        view.set_graph(graph, engine.graph_positions(case.id))
    engine.save_graph_positions(case.id, sig.args[0])
    saved = engine.graph_positions(case.id)
    assert set(saved) == {n.id for n in graph.nodes}
    # reopening with saved positions needs no layout and keeps the map where it was
    view.set_graph(engine.graph(case.id), saved)
    assert not view.is_laying_out()
    assert view.positions()[ids[0]] == saved[ids[0]]
    # the detail panel shows the engine's note (content, history)
    view.select(ids[2])
    assert "微信聊天记录" in view.details.browser.toPlainText()
