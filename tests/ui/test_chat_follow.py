"""The chat follows a streamed answer while the reader is at the end, and stops following
(offering "jump to latest") once they scroll up (issue 15, item 1)."""

from __future__ import annotations

import pytest
from fakes.llm_server import Reply
from PySide6.QtCore import Qt

from desktop_app.ui.chat.view import ChatView


@pytest.fixture
def long_chat(qtbot, make_host, llm_client):
    """A conversation already longer than the window, opened in a small chat view."""
    host = make_host(llm=llm_client)
    eng = host.engine
    case = eng.create_case("张三诉星辰科技")
    conv = eng.create_conversation(case.id, "旧对话")
    for i in range(8):
        eng.add_message(conv.id, "user", f"第{i}个问题")
        eng.add_message(
            conv.id, "assistant", "\n\n".join(f"第{i}个回答的第{j}段。" for j in range(6))
        )
    view = ChatView(host)
    qtbot.addWidget(view)
    view.resize(800, 500)
    view.show()
    view.set_case(case.id)
    view.set_conversation(eng.get_conversation(conv.id))
    qtbot.waitUntil(lambda: len(view._messages) == 16, timeout=10_000)
    return view


def _bar(view):
    return view.scroll.verticalScrollBar()


def _at_end(view) -> bool:
    bar = _bar(view)
    return bar.maximum() > 0 and bar.value() == bar.maximum()


def _send(qtbot, view, text):
    view.composer.set_text(text)
    view.composer.input.setFocus()
    qtbot.keyClick(view.composer.input, Qt.Key.Key_Return)


def test_history_opens_at_the_newest_message(qtbot, long_chat):
    qtbot.waitUntil(lambda: _at_end(long_chat), timeout=5000)
    assert not long_chat.follower.jump_button.isVisible()


def test_streamed_answer_stays_in_view_while_at_the_bottom(qtbot, long_chat, ui_model):
    view = long_chat
    qtbot.waitUntil(lambda: _at_end(view), timeout=5000)
    long_answer = "".join(f"第{j}点：张三的笔记本电脑在保修期内出现故障。\n\n" for j in range(30))
    ui_model.chat_replies.append(Reply.text(long_answer, chunk_delay=0.01))
    _send(qtbot, view, "请逐点说明")
    # while it streams, every re-render leaves the end of the answer on screen
    seen_growing_at_end = []

    def check():
        if view._turn is not None and view._turn.buffer:
            seen_growing_at_end.append(_at_end(view))
        return not view.streaming

    qtbot.waitUntil(check, timeout=20_000)
    qtbot.waitUntil(lambda: _at_end(view), timeout=2000)
    assert view._messages[-1].text() == long_answer
    assert seen_growing_at_end and seen_growing_at_end.count(False) <= 2  # a frame of lag at most
    assert not view.follower.jump_button.isVisible()


def test_scrolling_up_stops_following_and_offers_jump_to_latest(qtbot, long_chat, ui_model):
    view = long_chat
    qtbot.waitUntil(lambda: _at_end(view), timeout=5000)
    ui_model.chat_replies.append(Reply.text("乙" * 600, chunks=["乙" * 6] * 100, chunk_delay=0.03))
    _send(qtbot, view, "请详细说明")
    qtbot.waitUntil(lambda: view._turn is not None and len(view._turn.buffer) > 30, timeout=10_000)
    _bar(view).setValue(0)  # the reader goes back to an older answer
    qtbot.waitUntil(lambda: view.follower.jump_button.isVisible(), timeout=2000)
    qtbot.waitUntil(lambda: not view.streaming, timeout=20_000)
    assert _bar(view).value() == 0  # the stream did not pull the reader away
    qtbot.mouseClick(view.follower.jump_button, Qt.MouseButton.LeftButton)
    assert _at_end(view)
    assert not view.follower.jump_button.isVisible()
