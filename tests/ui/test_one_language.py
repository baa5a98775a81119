"""One language at a time, everywhere (issue 15, item 3): the Chinese interface showed
English and internals ("updated", "undo_of: null → 28", "Claim", "links 2 · retrieved 0×",
"事实 Fact", "(本机 / local)", "Look in:", bilingual errors, "_(pinned)_" in the export), and
the English one showed Chinese outside the user's own text.

The guard walks what a lawyer sees after opening each tab and dialog with a case full of
notes, a history, links and a conversation: every visible widget's text, tooltip,
placeholder and window title, the items of combo boxes, lists and tables, the read-only
text panes (history, graph details), plus the Markdown export and an import error. The
user's own words (note text, tags, keywords, case and conversation names, messages) are
taken out first; what is left must be in the interface's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QPainter, QTextDocument
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabBar,
    QTextEdit,
    QToolButton,
    QWidget,
)

from desktop_app.ui import i18n

# Words that are the same in both languages: names, standards, formats, keys.
ALLOWED_ASCII = {
    "lexmem", "api", "url", "http", "https", "json", "jsonl", "sqlite", "sqlite3", "svg", "png",
    "md", "markdown", "deepseek", "openai", "ollama", "lm", "studio", "gpt", "mini", "chat",
    "qwen", "ctrl", "shift", "alt", "esc", "enter", "del", "pgup", "pgdown", "ok", "llm",
    "use", "lancedb", "a-mem", "ai", "pdf", "csv", "txt", "utf", "id", "ui",
    "word", "docx", "ocr", "jpg", "jpeg",  # formats the documents tab names
    "com", "www", "localhost", "v1", "b", "kb", "mb", "gb", "ms", "s", "x",
}
ASCII_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
URL = re.compile(r"(https?://|[\w.-]+@)\S+|[\w.-]+\.(com|org|net|cn|io)\b\S*|\S+:\d+\S*|/[\w./-]+")
MODEL_NAME = re.compile(r"\b[\w.]+[-:][\w.:-]+\b")  # deepseek-chat, gpt-4o-mini, qwen2.5:7b

EN_NOTES = [
    {"content": "The buyer paid CNY 8,999 for the laptop on 15 March 2024", "category": "时间线",
     "tags": ["purchase", "price"], "event_date": "2024-03-15"},
    {"content": "The screen started flickering on 29 March 2024", "category": "事实",
     "tags": ["defect"], "source_kind": "当事人陈述"},
    {"content": "The service centre report names a factory defect in the display cable",
     "category": "证据", "tags": ["report"], "source_kind": "证据显示"},
    {"content": "Consumer Rights Protection Law, Art. 24: defective goods may be returned",
     "category": "法条", "tags": ["statute"]},
    {"content": "Claim a refund first; treble damages need proof of fraud", "category": "诉求",
     "tags": ["strategy"]},
    {"content": "The seller says the buyer dropped the laptop", "category": "事实",
     "tags": ["defence"], "source_kind": "对方主张"},
]


def _plain(text: str) -> str:
    if "<" in text and ">" in text:
        doc = QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()
    return text


def _model_texts(view: QAbstractItemView) -> list[str]:
    model = view.model()
    if model is None:
        return []
    out: list[str] = []
    columns = model.columnCount(QModelIndex()) if hasattr(view, "horizontalHeader") else 1
    for section in range(columns if hasattr(view, "horizontalHeader") else 0):
        value = model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        if isinstance(value, str):
            out.append(value)

    def walk(parent: QModelIndex, depth: int) -> None:
        for row in range(min(model.rowCount(parent), 60)):
            for col in range(columns):
                index = model.index(row, col, parent)
                if hasattr(view, "isColumnHidden") and view.isColumnHidden(col):
                    continue
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    value = model.data(index, role)
                    if isinstance(value, str):
                        out.append(value)
            if depth < 2:
                walk(model.index(row, 0, parent), depth + 1)

    walk(QModelIndex(), 0)
    return out


def _ancestors(w: QWidget):
    while w is not None:
        yield w
        w = w.parentWidget()


def visible_texts() -> list[tuple[str, str]]:
    """(where, text) for everything the visible windows show in words."""
    found: list[tuple[str, str]] = []
    for w in QApplication.allWidgets():
        if not w.isVisible():
            continue
        name = f"{type(w).__name__}#{w.objectName()}"
        texts: list[str] = []
        if w.isWindow():
            texts.append(w.windowTitle())
        texts.append(w.toolTip())
        if isinstance(w, (QLabel, QAbstractButton)):
            texts.append(w.text())
        if isinstance(w, QLineEdit):
            texts.append(w.placeholderText())
        if isinstance(w, QGroupBox):
            texts.append(w.title())
        if isinstance(w, QComboBox) and w.objectName() != "LanguageChoice":
            # (the language choice names each language in itself, on purpose)
            texts += [w.itemText(i) for i in range(w.count())]
            texts += [w.itemData(i, Qt.ItemDataRole.ToolTipRole) or "" for i in range(w.count())]
        if isinstance(w, QTabBar):
            for i in range(w.count()):
                texts += [w.tabText(i), w.tabToolTip(i)]
        if isinstance(w, QTextEdit):
            texts.append(w.placeholderText())
            if w.isReadOnly():
                texts.append(w.toPlainText())
        in_file_dialog = any(isinstance(p, QFileDialog) for p in _ancestors(w))
        if isinstance(w, QAbstractItemView) and not isinstance(w.parent(), QComboBox) and not in_file_dialog:
            texts += _model_texts(w)  # (a file dialog's views list the disk's own names)
        menu = w.menu() if isinstance(w, (QToolButton, QPushButton)) else None
        for action in [*w.actions(), *(menu.actions() if menu is not None else [])]:
            texts += [action.text(), action.toolTip() if action.toolTip() != action.text().replace("&", "") else ""]
        found += [(name, _plain(t)) for t in texts if t]
    return found


def _painted_texts(widget: QWidget) -> list[str]:
    """The words a custom-painted widget draws (the graph's node and edge labels)."""
    painted: list[str] = []
    draw = QPainter.drawText

    def recording(painter, *args):
        painted.extend(a for a in args if isinstance(a, str))
        return draw(painter, *args)

    QPainter.drawText = recording
    try:
        widget.grab()
    finally:
        QPainter.drawText = draw
    return painted


def _user_words(engine, case_id: str) -> list[str]:
    """Everything in the data that the user (or their files) wrote, longest first."""
    words: set[str] = set()
    case = engine.get_case(case_id)
    words |= {case.name, case.description}
    for note in engine.list_notes(case_id, limit=1000) + engine.list_notes(None, limit=1000):
        words |= {note.content, note.context or "", note.source or "", *note.tags, *note.keywords}
        words |= {note.content.replace("\n", " ")[:n] for n in range(8, len(note.content))}
    for conv in engine.list_conversations(case_id):
        words.add(conv.title)
        for m in engine.list_messages(conv.id):
            words |= {m.content, *m.content.splitlines()}
    return sorted((w for w in words if w and len(w) > 1), key=len, reverse=True)


def offenders(texts: list[tuple[str, str]], language: str, user: list[str]) -> list[str]:
    bad = []
    for where, text in texts:
        rest = text
        for w in user:
            if w in rest:
                rest = rest.replace(w, " ")
        if language == "zh_CN":
            rest = MODEL_NAME.sub(" ", URL.sub(" ", rest)).replace("JSON Lines", " ")  # a format's name
            words = [m for m in ASCII_WORD.findall(rest) if m.lower() not in ALLOWED_ASCII]
            if words:
                bad.append(f"{where}: {text!r} -> {words}")
        elif CJK.search(rest):
            bad.append(f"{where}: {text!r}")
    return sorted(set(bad))


@pytest.fixture
def world(qtbot, make_host, tmp_path, no_dialogs, monkeypatch):
    """A window over a case with notes, links, history and a conversation, in one language."""
    from desktop_app.core.resources import demo_path
    from desktop_app.ui.main_window import MainWindow
    from desktop_app.ui.screenshots import _demo_conflict_and_typed_links

    def make(language: str):
        host = make_host()
        eng = host.engine
        if language == "zh_CN":
            results = eng.import_jsonl(demo_path())
            case_id = next(r.note.case_id for r in results if r.note.case_id)
            _demo_conflict_and_typed_links(eng, case_id)
            question, answer = "能要求退货退款吗？", "可以，依据消费者权益保护法第二十四条。"
            title = "退货退款"
        else:
            case_id = eng.create_case("Zhang v. an online shop (sale of goods)").id
            path = tmp_path / "en.jsonl"
            path.write_text("\n".join(json.dumps(n) for n in EN_NOTES) + "\n", encoding="utf-8")
            eng.import_jsonl(path, case_id=case_id)
            notes = eng.list_notes(case_id)
            eng.link_notes(notes[0].id, notes[1].id, kind="manual", reason="linked by hand", label="补充")
            eng.link_notes(notes[2].id, notes[5].id, kind="conflict", reason="they disagree", label="矛盾")
            question, answer = "Can we ask for a refund?", "Yes: Art. 24 of the consumer law."
            title = "Refund"
        note = eng.list_notes(case_id)[1]
        # a history with the entries the lawyer saw: a hand edit, keywords, an undo, an expire
        eng.update_note(note.id, content=note.content + "!", actor="user", reason="edited by hand")
        eng.update_note(note.id, keywords=[*note.keywords[1:], "kw" if language == "en" else "关键"],
                        actor="evolution", reason="evolution after new notes")
        eng.undo_last_change(note.id)
        conv = eng.create_conversation(case_id, title)
        eng.add_message(conv.id, "user", question)
        eng.add_message(conv.id, "assistant", answer, injected_note_ids=(note.id,))
        i18n.install(language)
        host.settings.last_case_id = case_id
        win = MainWindow(host)
        qtbot.addWidget(win)
        win.resize(1280, 800)
        win.show()
        win.sidebar.reload_cases(select=case_id)
        qtbot.waitUntil(lambda: win.sidebar.case_id == case_id, timeout=15_000)
        return host, win, case_id, note.id

    yield make
    i18n.install("en")


def _sweep(qtbot, host, win, case_id, note_id, language, tmp_path, no_dialogs) -> list[str]:
    from desktop_app.ui.main_window import TAB_CHAT, TAB_GRAPH, TAB_NOTES
    from desktop_app.ui.notes.add_dialog import AddNoteDialog
    from desktop_app.ui.settings.dialog import SettingsDialog

    eng = host.engine
    seen: list[tuple[str, str]] = []
    win.tabs.setCurrentIndex(TAB_CHAT)
    qtbot.waitUntil(lambda: win.chat.conversation is not None, timeout=15_000)
    qtbot.wait(300)
    seen += visible_texts()

    win.tabs.setCurrentIndex(TAB_NOTES)
    notes = win.notes
    qtbot.waitUntil(lambda: notes.model.rowCount() > 0, timeout=15_000)
    notes.select_note(note_id)
    qtbot.waitUntil(lambda: notes.detail.note is not None and notes.detail.note.id == note_id, timeout=15_000)
    qtbot.waitUntil(lambda: notes.detail.history.toPlainText().strip() not in ("", "—"), timeout=15_000)
    seen += visible_texts()
    notes.timeline_mode.click()
    qtbot.wait(300)
    seen += visible_texts()
    notes.table_mode.click()

    win.tabs.setCurrentIndex(TAB_GRAPH)
    qtbot.waitUntil(lambda: win.graph.view is not None, timeout=15_000)
    view = win.graph.view
    qtbot.waitUntil(lambda: view._model is not None and note_id in view._model.index, timeout=20_000)
    qtbot.waitUntil(lambda: not view.is_laying_out(), timeout=20_000)
    view.select(note_id)
    content = eng.get_note(note_id).content
    qtbot.waitUntil(lambda: content in view.details.browser.toPlainText(), timeout=15_000)
    painted = _painted_texts(view.canvas)
    assert painted, "the selected note's label is drawn on the map"
    seen += [("graph canvas", t) for t in painted]
    seen += visible_texts()

    settings = SettingsDialog(host, win)
    qtbot.addWidget(settings)
    settings.show()
    for i in range(settings.tabs.count()):
        settings.tabs.setCurrentIndex(i)
        seen += visible_texts()
    settings.close()

    add = AddNoteDialog(True, win)
    qtbot.addWidget(add)
    add.show()
    seen += visible_texts()
    add.close()

    # the memory check-up, after a check (its proposals for the demo case)
    from desktop_app.ui.maintenance import MaintenanceDialog

    check = MaintenanceDialog(host, case_id, win)
    qtbot.addWidget(check)
    check.show()
    check.reload(run=True)
    qtbot.waitUntil(lambda: not check.busy, timeout=30_000)
    seen += visible_texts()
    check.close()

    # Qt's own dialogs (the file dialogs of import and export)
    files = QFileDialog(win, "x")
    files.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    qtbot.addWidget(files)
    files.show()
    seen += [(w, t) for w, t in visible_texts() if w != "QFileDialog#" or t != "x"]
    files.close()

    # the Markdown export
    out = tmp_path / f"export-{language}.md"
    notes.export_to(str(out), "md")
    qtbot.waitUntil(out.exists, timeout=15_000)
    exported = out.read_text(encoding="utf-8")
    seen += [("markdown export", line) for line in exported.splitlines()]

    # an import that fails: its message
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"content": "ok", "category": "事实"}\nnot json\n', encoding="utf-8")
    notes.import_from(str(bad))
    qtbot.waitUntil(lambda: bool(no_dialogs["errors"]), timeout=15_000)
    seen += [("import error", e) for e in no_dialogs["errors"]]
    return offenders(seen, language, _user_words(eng, case_id))


def test_the_chinese_interface_speaks_chinese(qtbot, world, tmp_path, no_dialogs):
    host, win, case_id, note_id = world("zh_CN")
    bad = _sweep(qtbot, host, win, case_id, note_id, "zh_CN", tmp_path, no_dialogs)
    assert not bad, "English or internals in the Chinese interface:\n" + "\n".join(bad)


def test_the_english_interface_speaks_english(qtbot, world, tmp_path, no_dialogs):
    host, win, case_id, note_id = world("en")
    bad = _sweep(qtbot, host, win, case_id, note_id, "en", tmp_path, no_dialogs)
    assert not bad, "Chinese in the English interface:\n" + "\n".join(bad)


def test_the_sweep_catches_both_directions():
    """The guard itself: it sees English in Chinese chrome and Chinese in English chrome,
    and lets the user's own words and shared names through."""
    user = ["被告在答辩状中称", "Zhang v. shop"]
    zh = [("a", "被告在答辩状中称 · 已失效"), ("b", "DeepSeek · gpt-4o-mini"), ("c", "事实 Fact")]
    assert offenders(zh, "zh_CN", user) == ["c: '事实 Fact' -> ['Fact']"]
    en = [("a", "Zhang v. shop · Expired"), ("b", "Ollama（本机 / local）")]
    assert offenders(en, "en", user) == ["b: 'Ollama（本机 / local）'"]


def test_qt_translations_ship_with_the_bundle():
    """The PyInstaller bundle keeps qtbase_zh_CN.qm (Qt's own dialogs in Chinese)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "packaging"))
    import trim

    kept = "PySide6/Qt/translations/qtbase_zh_CN.qm"
    dropped = "PySide6/Qt/translations/qtbase_de.qm"
    assert trim.filter_toc([(kept, "x", "DATA")]) and not trim.filter_toc([(dropped, "x", "DATA")])


def test_a_language_change_offers_a_restart(qtbot, make_host, no_dialogs, monkeypatch, memory_keyring):
    """The settings said "applies after a restart" and left the restart to the user."""
    from PySide6.QtWidgets import QMainWindow

    from desktop_app.ui import dialogs, restart
    from desktop_app.ui.settings.dialog import SettingsDialog
    from desktop_app.ui.workers import wait_all

    i18n.install("zh_CN")
    try:
        host = make_host()
        window = QMainWindow()
        qtbot.addWidget(window)
        window.show()
        asked: list[str] = []
        monkeypatch.setattr(dialogs, "ask_restart", lambda parent, title, text: asked.append(text) or True)
        monkeypatch.setattr(restart, "_requested", False)
        dlg = SettingsDialog(host, window)  # owned by the window (it deletes itself on close)
        wait_all(10_000)  # the key lookup it started
        qtbot.wait(100)
        dlg.language.setCurrentIndex(dlg.language.findData("en"))
        dlg.save_button.click()
        assert asked and "重启" in asked[0]
        assert restart.requested() and not window.isVisible()
        assert host.settings.language == "en"
    finally:
        restart._requested = False
        i18n.install("en")


def test_the_restart_runs_the_same_program_in_the_new_language():
    from desktop_app.ui import restart

    cmd = restart.command(["--data-dir", "/d", "--lang", "zh_CN", "--quit-after=3"], frozen=False)
    assert cmd[1:] == ["-m", "desktop_app", "--data-dir", "/d"]
    assert restart.command(["--lang=en"], frozen=True)[1:] == []


def test_history_reads_as_plain_sentences(qapp):
    """The history named the engine's bookkeeping: "updated", "edited by hand", "undo #28",
    "undo_of: null → 28" and raw keyword arrays."""
    from datetime import UTC, datetime

    from desktop_app.memory.types import HistoryEntry
    from desktop_app.ui.history_text import describe

    before = {"content": "开庭在七月", "keywords": ["开庭", "七月"], "tags": [], "undo_of": None}
    after = {"content": "开庭在八月", "keywords": ["开庭", "八月"], "tags": [], "undo_of": None}
    now = datetime.now(UTC)
    edit = HistoryEntry(1, "n", "user", "updated", before, after, "edited by hand", now)
    undo = HistoryEntry(2, "n", "user", "undo", after, before | {"undo_of": 1}, "undo #1", now)
    merged = HistoryEntry(3, "n", "decision", "updated", before, before, "合并了新的表述 / merged a newer wording：x", now)
    i18n.install("zh_CN")
    try:
        assert describe(edit) == ("手动修改：开庭在七月 → 开庭在八月", ["关键词：+八月 −七月"])
        assert describe(undo) == ("撤销了上一次修改", [])
        assert describe(merged)[1] == ["合并了新的表述：x"]
    finally:
        i18n.install("en")
    assert describe(edit) == ("Edited by hand: 开庭在七月 → 开庭在八月", ["Keywords: +八月 −七月"])
    assert describe(merged)[1] == ["merged a newer wording：x"]
