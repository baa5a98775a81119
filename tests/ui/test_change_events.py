"""One signal carries what changed; views refresh only when it concerns them, and never
call the engine on the UI thread."""

from __future__ import annotations

import threading

from desktop_app.core.settings import Settings
from desktop_app.ui.graph_tab import GraphTab
from desktop_app.ui.notes.view import NotesView


def test_views_refresh_only_for_changes_that_concern_them(qtbot, make_host):
    host = make_host()
    eng = host.engine
    a, b = eng.create_case("A"), eng.create_case("B")
    eng.add_note("A案的第一条记录", case_id=a.id)
    notes = NotesView(host)
    qtbot.addWidget(notes)
    with qtbot.waitSignal(notes.model.loaded, timeout=10_000):
        notes.set_case(a.id)
    graph = GraphTab(host)
    qtbot.addWidget(graph)
    graph.set_case(a.id)
    reloads: list[int] = []
    notes.model.loaded.connect(lambda: reloads.append(1))
    marked: list[int] = []
    graph._mark_dirty = lambda: marked.append(1)

    # another case changes: neither view of case A reloads
    with qtbot.waitSignal(host.operationDidExecute, timeout=10_000) as said:
        host.call(lambda e: e.add_note("B案的记录", case_id=b.id))
    assert said.args[0].note_scopes == {b.id}
    qtbot.wait(300)
    assert reloads == [] and marked == []

    # case A changes: both refresh, and the table shows the new note
    with qtbot.waitSignal(notes.model.loaded, timeout=10_000):
        host.call(lambda e: e.add_note("A案的第二条记录", case_id=a.id))
    assert notes.model.rowCount() == 2 and marked == [1]

    # a global note concerns the notes table (it can show global notes), not the case graph
    reloads.clear()
    with qtbot.waitSignal(notes.model.loaded, timeout=10_000):
        host.call(lambda e: e.add_note("回复先给结论"))
    assert marked == [1]

    # the view's own operation does not reload it a second time
    reloads.clear()
    with qtbot.waitSignal(notes.statusMessage, timeout=10_000):
        notes.add_note_values("A案的第三条记录", a.id)
    qtbot.waitUntil(lambda: notes.model.rowCount() == 3, timeout=10_000)
    qtbot.wait(300)
    assert len(reloads) == 1  # its own refresh, not one more for the signal


def test_graph_details_load_in_a_worker(qtbot, make_host, monkeypatch):
    host = make_host()
    eng = host.engine
    case = eng.create_case("A")
    note = eng.add_note("微信聊天记录显示房东承认收到押金", case_id=case.id).note
    eng.update_note(note.id, context="房东在聊天中自认收款")  # shown only with the full note
    threads: list[threading.Thread] = []
    real = type(eng).get_note

    def spying(self, note_id):
        threads.append(threading.current_thread())
        return real(self, note_id)

    monkeypatch.setattr(type(eng), "get_note", spying)
    tab = GraphTab(host)
    qtbot.addWidget(tab)
    tab.show()
    tab.set_case(case.id)
    qtbot.waitUntil(lambda: tab.view is not None and len(tab.view.positions()) == 1, timeout=20_000)
    tab.view.select(note.id)
    qtbot.waitUntil(lambda: "房东在聊天中自认收款" in tab.view.details.browser.toPlainText(), timeout=10_000)
    assert threads and threading.main_thread() not in threads


def test_a_new_model_reaches_the_engine_through_its_api_in_a_worker(qtbot, make_host, monkeypatch):
    host = make_host()
    eng = host.engine
    handed: list[tuple[object, threading.Thread]] = []
    real = type(eng).set_llm

    def spying(self, llm):
        handed.append((llm, threading.current_thread()))
        return real(self, llm)

    monkeypatch.setattr(type(eng), "set_llm", spying)

    class FakeLLM:
        closed = False

        def close(self) -> None:
            self.closed = True

    new = FakeLLM()
    host._use_llm(new, Settings(language="en", max_memories=7))
    qtbot.waitUntil(lambda: bool(handed), timeout=10_000)
    assert handed[0][0] is new and handed[0][1] is not threading.main_thread()
    qtbot.waitUntil(lambda: eng.config.max_memories == 7, timeout=10_000)
    assert eng.llm is new
    eng.set_llm(None)
