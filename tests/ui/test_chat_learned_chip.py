"""The "记忆已更新 · N" chip stays with its reply (issue 15, item 9): it disappeared after
switching case and back, and after a restart; the reply now keeps the ids of the notes its
turn taught (messages.learned_note_ids, migration 0010) and the chip comes back from them."""

from __future__ import annotations

from fakes.llm_server import Reply
from PySide6.QtCore import Qt

from desktop_app.ui.chat.message import MessageWidget
from desktop_app.ui.main_window import MainWindow


def _replies(win):
    return [w for w in win.chat._messages if isinstance(w, MessageWidget) and w.role == "assistant"]


def _window(qtbot, host, case_id, conv_id=None):
    win = MainWindow(host)
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    win.sidebar.reload_cases(select=case_id)
    qtbot.waitUntil(lambda: win.sidebar.case_id == case_id, timeout=15_000)
    if conv_id is not None:
        win.sidebar.reload_conversations(select=conv_id)
        qtbot.waitUntil(
            lambda: win.chat.conversation is not None and win.chat.conversation.id == conv_id,
            timeout=15_000,
        )
    return win


def _chip_comes_back(qtbot, win, n):
    qtbot.waitUntil(lambda: len(_replies(win)) == 1, timeout=15_000)
    reply = _replies(win)[0]
    qtbot.waitUntil(lambda: reply.learned_chip.isVisible(), timeout=10_000)
    assert str(n) in reply.learned_chip.text()
    assert "张三要求支付加班费" in [note.content for note in reply.learned]


def test_the_learned_chip_survives_a_case_switch_and_a_restart(
    qtbot, make_host, llm_client, ui_model, tmp_path
):
    data = tmp_path / "data"
    host = make_host(llm=llm_client, data_dir=data)
    case = host.engine.create_case("张三诉星辰科技")
    other = host.engine.create_case("李四诉某公司")
    host.engine.add_note("委托人张三的月工资为25000元", case_id=case.id, category="事实")
    win = _window(qtbot, host, case.id)

    ui_model.chat_replies.append(Reply.text("张三的月工资为 25000元。"))
    ui_model.extract_items = [
        {"content": "张三要求支付加班费", "category": "诉求", "scope": "case"},
        {"content": "张三每周加班约十小时", "category": "事实", "scope": "case"},
    ]
    win.chat.composer.set_text("张三的月工资是多少？")
    win.chat.composer.input.setFocus()
    qtbot.keyClick(win.chat.composer.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not win.chat.streaming and len(_replies(win)) == 1, timeout=20_000)
    reply = _replies(win)[0]
    qtbot.waitUntil(lambda: reply.learned_chip.isVisible(), timeout=20_000)
    learned = len(reply.learned)
    assert learned == 2
    conv_id = win.chat.conversation.id

    # another case, then back to the conversation
    win.sidebar.reload_cases(select=other.id)
    qtbot.waitUntil(lambda: win.sidebar.case_id == other.id, timeout=15_000)
    qtbot.waitUntil(lambda: not _replies(win), timeout=15_000)
    win.sidebar.reload_cases(select=case.id)
    qtbot.waitUntil(lambda: win.sidebar.case_id == case.id, timeout=15_000)
    win.sidebar.reload_conversations(select=conv_id)
    _chip_comes_back(qtbot, win, learned)

    # a restart: a new engine and window on the same data folder
    win.close()
    host.close()
    host2 = make_host(llm=None, data_dir=data)
    win2 = _window(qtbot, host2, case.id, conv_id)
    _chip_comes_back(qtbot, win2, learned)


def test_a_deleted_note_leaves_the_reply(engine):
    """Delete means gone: the reply no longer names a deleted note among what it taught."""
    case = engine.create_case("c")
    conv = engine.create_conversation(case.id, "t")
    reply = engine.add_message(conv.id, "assistant", "答")
    kept = engine.add_note("张三要求支付加班费", case_id=case.id).note
    gone = engine.add_note("张三每周加班约十小时", case_id=case.id).note
    assert engine.record_learned(reply.id, [kept.id, gone.id])
    engine.forget_note(gone.id)  # what the notes view's Delete does
    assert engine.list_messages(conv.id)[0].learned_note_ids == (kept.id,)
