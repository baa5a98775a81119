"""Hostile text in the real widgets (pytest-qt, offscreen): model output and note text never
render as HTML, a link opens only a web address and only after showing it, every message box
shows its text as written; and a case is deleted from the window after a confirmation that
names what goes (issue 14, items 14 and 5)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QObject, QPoint, Qt, QTimer, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from desktop_app.ui import dialogs, excepthook
from desktop_app.ui.chat.message import ErrorCard, MessageWidget

SCHEMES = ("file", "javascript", "http", "https", "data")


class _Opened(QObject):
    """Registered for every scheme with QDesktopServices: records what would have opened
    (Qt's own calls from C++ included), opening nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url.toString())


@pytest.fixture
def opened(qtbot) -> Iterator[_Opened]:
    catcher = _Opened()
    for scheme in SCHEMES:
        QDesktopServices.setUrlHandler(scheme, catcher, "open")
    yield catcher
    for scheme in SCHEMES:
        QDesktopServices.unsetUrlHandler(scheme)


@pytest.fixture
def asked(monkeypatch) -> list[str]:
    """dialogs.confirm answers yes and records the question."""
    questions: list[str] = []

    def confirm(_parent, _title, text, **_kw):
        questions.append(text)
        return True

    monkeypatch.setattr(dialogs, "confirm", confirm)
    return questions


def _reply(qtbot, markdown: str) -> MessageWidget:
    widget = MessageWidget("assistant", markdown)
    qtbot.addWidget(widget)
    widget.resize(700, 300)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _click_link(qtbot, widget: MessageWidget, href: str) -> None:
    """A real mouse click on the link (found where the view lays it out)."""
    body = widget.body
    port = body.viewport()
    for y in range(2, port.height(), 3):
        for x in range(2, port.width(), 3):
            if body.anchorAt(QPoint(x, y)) == href:
                qtbot.mouseClick(port, Qt.MouseButton.LeftButton, pos=QPoint(x, y))
                qtbot.wait(50)
                return
    raise AssertionError(f"link {href} not found in the bubble")


@pytest.mark.parametrize(
    "href", ["file:///etc/passwd", "javascript:alert(document.cookie)", "data:text/html,<b>x</b>"]
)
def test_a_click_on_a_local_or_script_link_does_nothing(qtbot, opened, asked, href):
    widget = _reply(qtbot, f"请查看[证据清单]({href})，其余见附件。")
    before = widget.body.toPlainText()
    _click_link(qtbot, widget, href)
    assert widget.body.toPlainText() == before  # the bubble still shows the reply
    assert "root:" not in widget.body.toPlainText()
    assert opened.urls == [] and asked == []  # nothing opened, nothing even offered


def test_a_web_link_opens_only_after_its_address_was_shown(qtbot, opened, asked):
    href = "https://example.com/判决书?id=1"
    widget = _reply(qtbot, f"判决书全文见[这里]({href})。")
    _click_link(qtbot, widget, QUrl(href).toString())
    assert len(asked) == 1 and "https://example.com/" in asked[0]  # the address, shown first
    assert [QUrl(u).host() for u in opened.urls] == ["example.com"]


def test_a_web_link_the_user_declines_stays_closed(qtbot, opened, monkeypatch):
    monkeypatch.setattr(dialogs, "confirm", lambda *a, **k: False)
    widget = _reply(qtbot, "见[这里](https://example.com/x)。")
    _click_link(qtbot, widget, "https://example.com/x")
    assert opened.urls == []


def test_raw_html_in_a_reply_is_shown_as_text(qtbot, opened):
    reply = (
        '**要点**：<b>加粗</b> <img src="file:///etc/passwd"> '
        '<a href="file:///etc/passwd">点我</a>\n\n<script>alert(1)</script>'
    )
    widget = _reply(qtbot, reply)
    shown = widget.body.toPlainText()
    assert "要点" in shown and "**" not in shown  # Markdown still renders
    for raw in ("<b>加粗</b>", '<img src="file:///etc/passwd">', "<script>"):
        assert raw in shown  # shown as written, not interpreted
    assert "file:///etc/passwd" not in widget.body.document().toHtml().split("<body")[0]
    assert widget.body.anchorAt(QPoint(5, 5)) == ""


def _capture_box(action: Callable[[], object]) -> dict:
    """Run ``action`` (which opens a modal message box), grab the box while it is shown,
    record how its text is shown, and close it."""
    seen: dict = {}

    def grab() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, grab)
            return
        label = box.findChild(QLabel, "qt_msgbox_label")
        seen.update(format=label.textFormat(), text=label.text())
        box.reject()

    QTimer.singleShot(20, grab)
    action()
    return seen


NOTE_HTML = '<b>重要</b>证据<img src="file:///etc/passwd">'


@pytest.mark.parametrize("kind", ["confirm", "error", "inform"])
def test_message_boxes_show_note_text_as_written(qtbot, kind):
    call = {
        "confirm": lambda: dialogs.confirm(
            None, "删除", f"删除这条记忆？\n\n{NOTE_HTML}", danger=True
        ),
        "error": lambda: dialogs.error(None, "导入失败", f"第 3 行：{NOTE_HTML}"),
        "inform": lambda: dialogs.inform(None, "提示", NOTE_HTML),
    }[kind]
    seen = _capture_box(call)
    assert seen["format"] == Qt.TextFormat.PlainText
    assert "<b>重要</b>" in seen["text"]


def test_an_error_card_and_the_crash_dialog_show_text_as_written(qtbot):
    card = ErrorCard(f"模型返回：{NOTE_HTML}", [("retry", "Retry")], details=NOTE_HTML)
    qtbot.addWidget(card)
    assert card.label.textFormat() == Qt.TextFormat.PlainText
    assert "&lt;b&gt;" in card.label.toolTip()  # the tooltip shows the tags, not bold
    assert excepthook.crash_summary(RuntimeError(NOTE_HTML))  # a generic sentence
    assert NOTE_HTML not in excepthook.crash_summary(RuntimeError(NOTE_HTML))


# ---------------------------------------------------------------- the window, end to end


@pytest.fixture
def host(qtbot, tmp_path, embedder):
    from desktop_app.core.settings import Settings
    from desktop_app.memory import MemoryEngine
    from desktop_app.ui.engine_host import EngineHost
    from desktop_app.ui.workers import wait_all

    excepthook.interactive = False
    host = EngineHost(
        tmp_path / "data",
        Settings(language="en"),
        engine_factory=lambda path, llm, s: MemoryEngine.open(path, llm=llm, embedder=embedder),
        llm_factory=lambda s: None,
    )
    with qtbot.waitSignal(
        host.stateChanged, timeout=20_000, check_params_cb=lambda s: s == "ready"
    ):
        host.open()
    yield host
    wait_all(10_000)
    host.close()
    excepthook.interactive = True


def test_deleting_a_note_with_html_asks_in_plain_text(qtbot, host):
    from desktop_app.ui.notes.view import NotesView

    eng = host.engine
    case = eng.create_case("HTML")
    note = eng.add_note(NOTE_HTML, case_id=case.id).note
    view = NotesView(host)
    qtbot.addWidget(view)
    view.show()
    view.set_case(case.id)
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=10_000)
    view.table.selectRow(0)
    qtbot.waitUntil(lambda: view.detail.note is not None, timeout=10_000)
    seen = _capture_box(lambda: view.delete_note(note.id))  # the user cancels
    assert seen["format"] == Qt.TextFormat.PlainText and "<b>重要</b>" in seen["text"]
    assert eng.get_note(note.id).content == NOTE_HTML  # cancelled: kept


def test_a_case_is_deleted_from_the_window_after_naming_what_goes(qtbot, host, asked):
    from desktop_app.ui.sidebar import Sidebar

    eng = host.engine
    doomed = eng.create_case("<b>待删除</b>的案件")
    kept = eng.create_case("保留的案件")
    eng.add_notes([{"content": f"待删除案件的记录{i}", "case_id": doomed.id} for i in range(2)])
    eng.add_note("保留案件的记录", case_id=kept.id)
    conv = eng.create_conversation(doomed.id, "会见")
    eng.add_message(conv.id, "user", "问题")
    eng.add_message(conv.id, "assistant", "回答")
    sidebar = Sidebar(host)
    qtbot.addWidget(sidebar)
    sidebar.show()
    sidebar.reload_cases(select=doomed.id)
    qtbot.waitUntil(lambda: sidebar.case_id == doomed.id, timeout=10_000)
    assert sidebar.act_delete_case.isEnabled()
    sidebar.act_delete_case.trigger()
    qtbot.waitUntil(lambda: [c.id for c in eng.list_cases()] == [kept.id], timeout=20_000)
    question = asked[0]
    assert "<b>待删除</b>的案件" in question  # named as written
    for words in ("2 memories", "1 conversations with 2 messages", "every backup"):
        assert words in question, question
    qtbot.waitUntil(lambda: sidebar.case_id == kept.id, timeout=10_000)
    assert eng.stats().notes_total == 1
