"""The Documents tab over a real engine: background import with progress and Cancel, errors
worded per reason (never the file's text or Python's message), the table's columns, delete
with the derived notes the lawyer checks, files dropped on the window, and the viewer's
plain-text highlight (issue 17)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from desktop_app.memory import document_source
from desktop_app.ui import i18n
from desktop_app.ui.documents import view as documents_view
from desktop_app.ui.documents.model import (
    COL_EXTRACTION,
    COL_IMPORTED,
    COL_KIND,
    COL_NAME,
    COL_NOTES,
    COL_PAGES,
)
from desktop_app.ui.documents.view import DocumentsView
from desktop_app.ui.documents.viewer import PassageViewer
from desktop_app.ui.documents.wording import SUFFIX_KINDS
from desktop_app.ui.main_window import TAB_DOCUMENTS, MainWindow

COMPLAINT = (
    "民事起诉状\n\n原告张三，男，1990年5月1日出生。\n\n"
    "诉讼请求：判令被告退还购机款8999元。<b>加粗</b>\n\n"
    "事实与理由：原告于2024年3月15日在被告网店购买笔记本电脑一台。\n"
)


def _view(qtbot, host, case_id):
    view = DocumentsView(host)
    qtbot.addWidget(view)
    view.resize(900, 500)
    view.show()
    view.set_case(case_id)
    return view


def _documents_folder(host) -> list[Path]:
    folder = host.data_dir / "documents"
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


def test_supported_types_mirror_the_engine():
    from desktop_app.memory.readers import KIND_BY_SUFFIX

    assert SUFFIX_KINDS == KIND_BY_SUFFIX


def test_import_shows_the_document_with_its_columns(qtbot, make_host, tmp_path):
    host = make_host()
    case = host.engine.create_case("张三诉某电商")
    source = tmp_path / "起诉状.txt"
    source.write_text(COMPLAINT, encoding="utf-8")
    view = _view(qtbot, host, case.id)
    reports = []
    view.importer.progressed.connect(lambda job, d, t, phase: reports.append(phase))

    view.import_files([source])
    assert view.progress_panel.isVisible() and view.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: view.model.rowCount() == 1 and not view.importer.busy, timeout=30_000)
    assert not view.progress_panel.isVisible()
    assert "embed" in reports  # progress came to the UI thread while the import ran
    cells = [view.model.index(0, c).data() for c in range(6)]
    assert cells[COL_NAME] == "起诉状.txt"
    assert cells[COL_KIND] == "Text"
    assert cells[COL_PAGES] == "—"  # a text file has paragraphs, not pages
    assert cells[COL_NOTES] == "0"
    assert cells[COL_EXTRACTION] == "—" or cells[COL_EXTRACTION] == "Waiting for a model"
    doc = host.engine.list_documents(case.id)[0]
    assert cells[COL_IMPORTED] == doc.imported_at.astimezone().strftime("%Y-%m-%d %H:%M")


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("空白.txt", b"", "is empty"),
        ("程序.exe", b"MZ\x90\x00secret-binary", "is not a type LexMem can import"),
    ],
)
def test_a_bad_file_is_refused_in_words_and_leaves_nothing(
    qtbot, make_host, tmp_path, no_dialogs, name, content, expected
):
    host = make_host()
    case = host.engine.create_case("案")
    bad = tmp_path / name
    bad.write_bytes(content)
    view = _view(qtbot, host, case.id)
    view.import_files([bad])
    qtbot.waitUntil(lambda: bool(no_dialogs["errors"]) and not view.importer.busy, timeout=20_000)
    message = no_dialogs["errors"][0]
    assert expected in message and name in message and "Nothing of it was kept" in message
    assert "secret" not in message and "Error" not in message and "reason" not in message
    assert host.engine.list_documents(case.id) == [] and _documents_folder(host) == []


def test_the_error_is_chinese_in_a_chinese_ui(qtbot, make_host, tmp_path, no_dialogs):
    i18n.install("zh_CN")
    try:
        host = make_host()
        case = host.engine.create_case("案")
        bad = tmp_path / "空.txt"
        bad.write_bytes(b"")
        view = _view(qtbot, host, case.id)
        view.import_files([bad])
        qtbot.waitUntil(lambda: bool(no_dialogs["errors"]), timeout=20_000)
        assert "空.txt" in no_dialogs["errors"][0]
        assert "没有" in no_dialogs["errors"][0] and "empty" not in no_dialogs["errors"][0]
    finally:
        i18n.install("en")


def test_cancel_stops_a_long_import_and_keeps_nothing(qtbot, make_host, tmp_path):
    host = make_host()
    case = host.engine.create_case("长文件")
    big = tmp_path / "卷宗.txt"
    paragraph = "原告于二零二四年三月在被告网店购买笔记本电脑，屏幕出现闪烁，多次联系客服未果。"
    big.write_text("\n\n".join(f"{i}. {paragraph}" for i in range(6000)), encoding="utf-8")
    view = _view(qtbot, host, case.id)
    cancelled = []
    view.importer.cancelled.connect(cancelled.append)
    view.import_files([big])
    qtbot.waitUntil(lambda: view.progress_bar.maximum() > 0, timeout=30_000)  # embedding
    view.cancel_button.click()
    qtbot.waitUntil(lambda: not view.importer.busy, timeout=60_000)
    assert [job.name for job in cancelled] == ["卷宗.txt"]
    assert host.engine.list_documents(case.id) == []
    assert _documents_folder(host) == []


def test_delete_forgets_only_the_checked_notes(qtbot, make_host, tmp_path, monkeypatch):
    host = make_host()
    eng = host.engine
    case = eng.create_case("删除")
    source = tmp_path / "合同.txt"
    source.write_text("甲方应于2024年4月1日前交付货物。\n\n乙方支付货款五万元。", encoding="utf-8")
    doc = eng.import_document(case.id, source)
    keep = eng.add_note("甲方交付期限为2024年4月1日", case.id, source=document_source(doc.id, 1), origin="import").note
    forget = eng.add_note("乙方应支付货款五万元", case.id, source=document_source(doc.id, 2), origin="import").note
    view = _view(qtbot, host, case.id)
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=10_000)
    assert view.model.index(0, COL_NOTES).data() == "2"

    shown = {}

    def answer(dialog):
        shown["items"] = [dialog.notes_list.item(i).text() for i in range(dialog.notes_list.count())]
        # unchecked unless the lawyer checks them
        assert dialog.checked_note_ids() == []
        for i in range(dialog.notes_list.count()):
            item = dialog.notes_list.item(i)
            if item.data(Qt.ItemDataRole.UserRole) == forget.id:
                item.setCheckState(Qt.CheckState.Checked)
        return True

    monkeypatch.setattr(documents_view, "_exec", answer)
    view.table.selectRow(0)
    view.delete_button.click()
    qtbot.waitUntil(lambda: view.model.rowCount() == 0 and view.empty.isVisible(), timeout=30_000)
    assert len(shown["items"]) == 2
    assert eng.get_note(keep.id).content == keep.content
    assert eng.notes_by_ids([forget.id]) == []
    assert _documents_folder(host) == []


def _drop(win, paths):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(
        QPointF(QPoint(200, 200)), Qt.DropAction.CopyAction, mime,
        Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
    )
    win.dropEvent(event)
    return event


def test_files_dropped_on_the_window(qtbot, make_host, tmp_path, no_dialogs):
    host = make_host()
    win = MainWindow(host)
    qtbot.addWidget(win)
    win.show()
    good = tmp_path / "聊天记录.md"
    good.write_text("客服：屏幕问题属于质量问题，可以退货。", encoding="utf-8")
    folder = tmp_path / "卷宗"
    folder.mkdir()
    odd = tmp_path / "表格.xlsx"
    odd.write_bytes(b"PK\x03\x04")

    _drop(win, [good])  # no case open
    qtbot.waitUntil(lambda: bool(no_dialogs["errors"]), timeout=5000)
    assert "Open a case first" in no_dialogs["errors"][0]
    no_dialogs["errors"].clear()

    case = host.engine.create_case("拖放")
    win.sidebar.reload_cases(select=case.id)
    qtbot.waitUntil(lambda: win.sidebar.case_id == case.id, timeout=10_000)
    event = _drop(win, [good, folder, odd])
    assert event.isAccepted()
    qtbot.waitUntil(lambda: bool(no_dialogs["errors"]), timeout=5000)
    refusal = no_dialogs["errors"][0]
    assert "卷宗" in refusal and "Folders" in refusal and "表格.xlsx" in refusal
    assert win.tabs.currentIndex() == TAB_DOCUMENTS
    qtbot.waitUntil(lambda: win.documents.model.rowCount() == 1, timeout=30_000)
    assert [d.name for d in host.engine.list_documents(case.id)] == ["聊天记录.md"]


def test_a_drop_on_the_composer_imports_instead_of_pasting_the_path(qtbot, make_host, tmp_path, no_dialogs):
    host = make_host()
    win = MainWindow(host)
    qtbot.addWidget(win)
    win.show()
    from PySide6.QtWidgets import QWidget

    editors = [w for w in win.findChildren(QWidget) if w.acceptDrops()]
    assert win.chat.composer in editors or any(win.chat.composer.isAncestorOf(w) for w in editors)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path / "x.txt"))])
    event = QDropEvent(
        QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    for editor in editors:
        assert win.eventFilter(editor, event) is True  # handled by the window, not the child


def test_viewer_highlights_the_passage_as_plain_text(qtbot, make_host, tmp_path):
    host = make_host()
    eng = host.engine
    case = eng.create_case("查看")
    source = tmp_path / "起诉状.txt"
    source.write_text(COMPLAINT, encoding="utf-8")
    doc = eng.import_document(case.id, source)
    passage = next(p for p in eng.passages_of(doc.id) if "8999" in p.text)
    viewer = PassageViewer(host, doc.id, passage.id)
    qtbot.addWidget(viewer)
    viewer.show()
    qtbot.waitUntil(lambda: viewer.loaded, timeout=10_000)
    assert viewer.stack.currentWidget() is viewer.text
    assert viewer.marked_text() == passage.text
    assert "<b>加粗</b>" in viewer.text.toPlainText()  # the file's markup is text
    assert viewer.passage_label.text().startswith("起诉状.txt para. ")


def _tinted(image, x, y) -> bool:
    """Yellow-ish (the highlight), not the page's white or black."""
    c = image.pixelColor(int(x), int(y))
    return c.red() > 200 and c.green() > 170 and c.blue() < 200


def test_highlight_paints_the_boxes_scaled_to_the_picture():
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QColor, QImage

    from desktop_app.ui.documents.viewer import highlighted

    page = QImage(400, 200, QImage.Format.Format_RGB32)
    page.fill(QColor("white"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    page.save(buffer, "PNG")
    # a page 200 units wide shown 400 pixels wide: a box at x 50-100 lands at 100-200 px
    image = highlighted(bytes(data.data()), [(50.0, 20.0, 100.0, 40.0)], 200.0)
    assert _tinted(image, 150, 60)
    assert not _tinted(image, 300, 150) and not _tinted(image, 60, 60)


def test_viewer_shows_the_pdf_page_with_the_passage_highlighted(qtbot, make_host, tmp_path):
    from fakes.documents import make_pdf

    host = make_host()
    eng = host.engine
    case = eng.create_case("看页面")
    pdf = make_pdf(
        tmp_path / "起诉状.pdf",
        [["第一页：原告张三诉被告某电商买卖合同纠纷。"], ["第二页：请求判令被告退还购机款8999元。"]],
    )
    doc = eng.import_document(case.id, pdf)
    passage = next(p for p in eng.passages_of(doc.id) if "8999" in p.text)
    assert passage.page == 2 and passage.boxes
    viewer = PassageViewer(host, doc.id, passage.id)
    qtbot.addWidget(viewer)
    viewer.show()
    qtbot.waitUntil(lambda: viewer.loaded, timeout=20_000)
    assert viewer.stack.currentWidget() is viewer.scroll
    assert viewer.page_info.text() == "Page 2 of 2"
    assert viewer.passage_label.text().startswith("起诉状.pdf p. 2")
    image = viewer.page_label.pixmap().toImage()
    scale = image.width() / viewer.view.page_width
    left, top, right, bottom = passage.boxes[0]
    assert _tinted(image, (left + right) / 2 * scale, (top + bottom) / 2 * scale + 1) or any(
        _tinted(image, x * scale, (top + bottom) / 2 * scale)
        for x in range(int(left), int(right), 3)
    )
    assert not _tinted(image, 5, 5)
    viewer.prev_button.click()
    qtbot.waitUntil(lambda: viewer.view.page == 1, timeout=20_000)
    assert viewer.passage_label.isHidden()  # the cited passage is on page 2


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_import_failure_reason_has_its_own_wording(qapp, language):
    from desktop_app.core.errors import DOCUMENT_IMPORT_REASONS, DocumentImportError
    from desktop_app.ui.documents.wording import import_error_text

    i18n.install(language)
    try:
        generic = import_error_text(RuntimeError("boom: secret text"), "x.pdf")
        texts = {
            reason: import_error_text(DocumentImportError(reason, "secret text"), "x.pdf")
            for reason in DOCUMENT_IMPORT_REASONS
        }
    finally:
        i18n.install("en")
    assert "secret" not in generic and "boom" not in generic
    for reason, text in texts.items():
        assert "x.pdf" in text and "secret" not in text, reason
        assert not text.startswith(generic), f"{reason} falls back to the generic wording"
    assert len(set(texts.values())) == len(texts)


def test_the_highlight_fits_a_page_that_is_not_a4(qtbot, make_host, tmp_path, monkeypatch):
    import fakes.documents as fake_docs

    monkeypatch.setattr(fake_docs, "PAGE_W", 842.0)  # A4 landscape: 842 x 595 points
    monkeypatch.setattr(fake_docs, "PAGE_H", 595.0)
    host = make_host()
    eng = host.engine
    case = eng.create_case("横向")
    pdf = fake_docs.make_pdf(tmp_path / "清单.pdf", [["第一行文字", "标的物清单：笔记本电脑一台，价款8999元。"]])
    doc = eng.import_document(case.id, pdf)
    assert eng.page_size(doc.id, 1) == (842.0, 595.0)
    passage = next(p for p in eng.passages_of(doc.id) if "8999" in p.text)
    viewer = PassageViewer(host, doc.id, passage.id)
    qtbot.addWidget(viewer)
    viewer.show()
    qtbot.waitUntil(lambda: viewer.loaded, timeout=20_000)
    image = viewer.page_label.pixmap().toImage()
    scale = image.width() / 842.0
    longest = max(passage.boxes, key=lambda b: b[2])  # the line with the price
    right, middle = longest[2], (longest[1] + longest[3]) / 2
    # the highlight reaches the end of the line, and no further
    assert any(_tinted(image, x, middle * scale) for x in range(int((right - 12) * scale), int(right * scale)))
    assert not any(_tinted(image, x, middle * scale) for x in range(int((right + 30) * scale), int((right + 60) * scale)))


def test_a_note_drawn_from_a_document_opens_its_page(qtbot, make_host, tmp_path):
    host = make_host()
    eng = host.engine
    case = eng.create_case("出处")
    source = tmp_path / "合同.txt"
    source.write_text("第一条 甲方交付货物。\n\n第二条 乙方支付货款五万元。", encoding="utf-8")
    doc = eng.import_document(case.id, source)
    page = next(p.page for p in eng.passages_of(doc.id) if "五万元" in p.text)
    note = eng.add_note("乙方应支付货款五万元", case.id, source=document_source(doc.id, page), origin="import").note
    win = MainWindow(host)
    qtbot.addWidget(win)
    win.show()
    win.sidebar.reload_cases(select=case.id)
    qtbot.waitUntil(lambda: win.notes.case_id == case.id, timeout=10_000)
    win.show_notes([note.id])
    qtbot.waitUntil(lambda: win.notes.detail.from_document.isVisible(), timeout=10_000)
    assert win.notes.detail.from_document.text() == f"From 合同.txt para. {page}"
    win.notes.detail.from_document.click()
    viewers = lambda: [d for d in win.documents._dialogs if d.isVisible()]  # noqa: E731
    qtbot.waitUntil(lambda: bool(viewers()) and viewers()[0].loaded, timeout=10_000)
    assert "五万元" in viewers()[0].marked_text() and "甲方交付" not in viewers()[0].marked_text()


def test_a_pdf_whose_copy_is_missing_opens_as_text(qtbot, make_host, tmp_path):
    """An older backup restored without the file: the viewer shows the passages as text (the
    lawyer can still read and delete it), not a crash or an empty page."""
    from fakes.documents import make_pdf

    host = make_host()
    eng = host.engine
    case = eng.create_case("文件丢失")
    pdf = make_pdf(tmp_path / "起诉状.pdf", [["第一页：原告张三。"], ["第二页：退还购机款8999元。"]])
    doc = eng.import_document(case.id, pdf)
    passage = next(p for p in eng.passages_of(doc.id) if "8999" in p.text)
    eng.document_file(doc.id).unlink()
    viewer = PassageViewer(host, doc.id, passage.id)
    qtbot.addWidget(viewer)
    viewer.show()
    qtbot.waitUntil(lambda: viewer.loaded, timeout=20_000)
    assert viewer.stack.currentWidget() is viewer.text
    assert "8999" in viewer.marked_text()
