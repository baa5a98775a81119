"""Cited document passages under a chat reply (issue 17): chips named like the citation the
model was asked to use, opening the viewer on the passage; shown again when the conversation
is reopened; the case's documents only."""

from __future__ import annotations

from fakes.llm_server import Reply
from PySide6.QtCore import Qt

from desktop_app.ui.chat.message import MessageWidget
from desktop_app.ui.main_window import MainWindow

COMPLAINT = (
    "民事起诉状\n\n"
    "原告张三，被告某电商公司。\n\n"
    "诉讼请求：判令被告退还购机款8999元，并赔偿检测费300元。\n\n"
    "事实与理由：原告于2024年3月15日在被告网店购买笔记本电脑，屏幕两周后出现闪烁。<b>注意</b>\n"
)


def _replies(view):
    return [w for w in view._messages if isinstance(w, MessageWidget) and w.role == "assistant"]


def test_cited_passages_open_the_viewer_and_survive_reopening(
    qtbot, make_host, llm_client, ui_model, llm_server, tmp_path
):
    host = make_host(llm=llm_client)
    eng = host.engine
    case = eng.create_case("张三诉某电商")
    source = tmp_path / "起诉状.txt"
    source.write_text(COMPLAINT, encoding="utf-8")
    eng.import_document(case.id, source)
    win = MainWindow(host)
    qtbot.addWidget(win)
    win.resize(1100, 800)
    win.show()
    win.sidebar.reload_cases(select=case.id)
    qtbot.waitUntil(lambda: win.chat.case_id == case.id, timeout=10_000)

    ui_model.chat_replies.append(Reply.text("被告应退还购机款8999元[起诉状.txt 第3段]。"))
    win.chat.composer.set_text("诉讼请求要求被告退还购机款多少钱？")
    win.chat.composer.input.setFocus()
    qtbot.keyClick(win.chat.composer.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not win.chat.streaming and bool(_replies(win.chat)), timeout=20_000)
    reply = _replies(win.chat)[-1]
    qtbot.waitUntil(lambda: reply.citations.isVisible(), timeout=5000)
    assert reply.citations_label.text() == "Cited:"
    assert [c.text() for c in reply.passage_chips] == ["起诉状.txt para. 3"]
    assert "8999" in reply.passage_chips[0].toolTip()

    # the model was told the same citation (the UI is English here)
    chat_req = next(r for r in llm_server.requests if r.stream)
    memory = " ".join(m["content"] for m in chat_req.messages if m["role"] == "system")
    assert "[起诉状.txt para. 3]" in memory

    reply.passage_chips[0].click()
    viewers = lambda: [d for d in win.documents._dialogs if d.isVisible()]  # noqa: E731
    qtbot.waitUntil(lambda: bool(viewers()) and viewers()[0].loaded, timeout=10_000)
    viewer = viewers()[0]
    assert "8999" in viewer.marked_text() and "<b>" not in viewer.marked_text()
    assert "<b>注意</b>" in viewer.text.toPlainText()
    viewer.close()

    conv = win.chat.conversation
    win.chat.set_conversation(None)
    win.chat.set_conversation(eng.get_conversation(conv.id))
    qtbot.waitUntil(lambda: len(_replies(win.chat)) == 1, timeout=5000)
    again = _replies(win.chat)[0]
    qtbot.waitUntil(lambda: again.citations.isVisible(), timeout=5000)
    assert [c.text() for c in again.passage_chips] == ["起诉状.txt para. 3"]


def test_a_reply_that_cites_nothing_shows_the_sources_it_had(
    qtbot, make_host, llm_client, ui_model, tmp_path
):
    host = make_host(llm=llm_client)
    eng = host.engine
    case = eng.create_case("案")
    source = tmp_path / "起诉状.txt"
    source.write_text(COMPLAINT, encoding="utf-8")
    eng.import_document(case.id, source)
    win = MainWindow(host)
    qtbot.addWidget(win)
    win.show()
    win.sidebar.reload_cases(select=case.id)
    qtbot.waitUntil(lambda: win.chat.case_id == case.id, timeout=10_000)
    ui_model.chat_replies.append(Reply.text("退还8999元。"))
    win.chat.composer.set_text("诉讼请求要求被告退还购机款多少钱？")
    win.chat.composer.input.setFocus()
    qtbot.keyClick(win.chat.composer.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not win.chat.streaming and bool(_replies(win.chat)), timeout=20_000)
    reply = _replies(win.chat)[-1]
    qtbot.waitUntil(lambda: reply.citations.isVisible(), timeout=5000)
    assert reply.citations_label.text() == "Sources given:"
    assert "起诉状.txt para. 3" in [c.text() for c in reply.passage_chips]
