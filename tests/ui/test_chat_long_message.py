"""A 20,000-character paste (issue 15, item 14): it went through with no warning and became
one huge bubble. Long messages collapse; one larger than the model's context is questioned."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fakes.llm_server import Reply
from PySide6.QtCore import Qt

from desktop_app.chat.context_fit import DEFAULT_CONTEXT_TOKENS, check_message, context_tokens
from desktop_app.ui.chat.message import MessageWidget
from desktop_app.ui.chat.view import ChatView

PASTE = "".join(f"第{i}条：原告张三于2024年3月15日购买笔记本电脑，屏幕花屏，客服推诿。\n" for i in range(600))


@pytest.fixture
def chat(qtbot, make_host, llm_client):
    host = make_host(llm=llm_client)
    case = host.engine.create_case("张三诉某电商平台")
    view = ChatView(host)
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    view.set_case(case.id)
    return host, view


def _send(qtbot, view, text):
    view.composer.set_text(text)
    view.composer.input.setFocus()
    qtbot.keyClick(view.composer.input, Qt.Key.Key_Return)


def test_the_paste_is_long():
    assert len(PASTE) > 20_000


def test_a_message_larger_than_the_context_is_questioned(qtbot, chat, no_dialogs, monkeypatch, llm_server):
    host, view = chat
    host.settings = replace(host.settings, provider="ollama", chat_model="qwen2.5:7b")
    asked = []
    from desktop_app.ui import dialogs

    monkeypatch.setattr(dialogs, "confirm", lambda parent, title, text, **k: asked.append(text) or False)
    _send(qtbot, view, PASTE)
    assert asked and "qwen2.5:7b" in asked[0] and "4,096" in asked[0]
    assert view.composer.input.toPlainText() == PASTE  # kept, to be shortened
    assert view._messages == [] and not view.streaming
    assert not any(r.stream for r in llm_server.requests)


def test_a_short_message_is_not_questioned_and_a_long_one_collapses(qtbot, chat, ui_model, monkeypatch):
    _host, view = chat
    from desktop_app.ui import dialogs

    asked = []
    monkeypatch.setattr(dialogs, "confirm", lambda *a, **k: asked.append(a) or True)
    ui_model.chat_replies += [Reply.text("好的"), Reply.text("收到")]
    _send(qtbot, view, "电脑是什么时候买的？")
    qtbot.waitUntil(lambda: not view.streaming and len(view._messages) == 2, timeout=20_000)
    assert asked == []
    # deepseek-chat reads 64k tokens: the 20,000-character paste fits and is sent
    _send(qtbot, view, PASTE)
    qtbot.waitUntil(lambda: not view.streaming and len(view._messages) == 4, timeout=20_000)
    assert asked == []
    bubble = view._messages[2]
    assert isinstance(bubble, MessageWidget) and bubble.text() == PASTE.strip()
    assert bubble.expand_button.isVisible() and f"{len(PASTE.strip()):,}" in bubble.expand_button.text()
    assert len(bubble.body.toPlainText()) < 500
    assert bubble.height() < 300
    bubble.expand_button.click()
    assert bubble.body.toPlainText() == PASTE.strip() and bubble.expand_button.text() == "Show less"
    bubble.expand_button.click()
    assert len(bubble.body.toPlainText()) < 500
    short = view._messages[0]
    assert not short.expand_button.isVisible() and short.body.toPlainText() == "电脑是什么时候买的？"


def test_context_sizes():
    assert context_tokens("deepseek-chat") == 65_536
    assert context_tokens("gpt-4o-mini") == 128_000
    assert context_tokens("qwen2.5:7b", "ollama") == 4096
    assert context_tokens("my-model", "custom") == DEFAULT_CONTEXT_TOKENS
    assert check_message(PASTE, "deepseek-chat").fits
    assert not check_message(PASTE, "qwen2.5:7b", "ollama").fits
    assert check_message("短问题", "qwen2.5:7b", "ollama").fits
