"""PDF (text layer and scans), DOCX, images through OCR, and bad input: each with a clear
reason and nothing half-imported."""

from __future__ import annotations

import pytest
from fakes.documents import (
    make_blank_png,
    make_corrupt_pdf,
    make_docx,
    make_encrypted_pdf,
    make_pdf,
    make_png,
    make_scanned_pdf,
)

from desktop_app.core.errors import DocumentImportError


def _write(path, data):
    path.write_bytes(data)
    return path


def _nothing_kept(engine, case_id):
    assert engine.list_documents(case_id) == []
    assert engine._store.query_one("SELECT COUNT(*) FROM passages")[0] == 0
    assert engine._store.query_one("SELECT COUNT(*) FROM jobs")[0] == 0
    folder = engine.data_dir / "documents" / case_id
    assert not folder.exists() or not any(folder.iterdir())


def test_pdf_text_layer_pages_and_boxes(engine, tmp_path):
    case = engine.create_case("买卖合同纠纷")
    source = make_pdf(
        tmp_path / "起诉状.pdf",
        [
            ["民事起诉状", "原告：张三。被告：某电商平台有限公司。"],
            ["诉讼请求：判令被告退还货款人民币12800元。"],
            ["事实与理由：原告于2024年3月15日购买笔记本电脑，屏幕存在坏点。"],
        ],
    )
    doc = engine.import_document(case.id, source)
    assert (doc.kind, doc.pages, doc.ocr) == ("pdf", 3, False)
    hit = engine.search_passages("退还货款多少", case.id, k=1)[0]
    assert hit.passage.page == 2 and "12800" in hit.passage.text
    (box,) = hit.passage.boxes
    left, top, right, bottom = box
    assert 50 < left < right < 595 and 60 < top < bottom < 120  # near the top of the page
    png = engine.render_page(doc.id, 2, 300)
    assert png.startswith(b"\x89PNG")
    assert engine.render_page(doc.id, 9, 300) is None


def test_docx_paragraphs_and_tables_embedded_image_ignored(engine, tmp_path):
    case = engine.create_case("租赁")
    source = make_docx(
        tmp_path / "租赁合同.docx",
        ["第一条 月租金为人民币8500元，每月5日前支付。", "第二条 押金为两个月租金。"],
        table=[["项目", "金额"], ["违约金", "20000元"]],
        image=True,
    )
    doc = engine.import_document(case.id, source)
    texts = [p.text for p in engine.passages_of(doc.id)]
    assert "违约金 | 20000元" in texts
    assert not any("图片里的文字" in t for t in texts)
    assert all(p.boxes is None for p in engine.passages_of(doc.id))
    assert engine.render_page(doc.id, 1, 300) is None


def test_image_through_ocr(engine, tmp_path):
    case = engine.create_case("网购")
    source = make_png(
        tmp_path / "客服聊天 截图#1.png",
        ["客服：您好，您的退款申请已驳回", "用户：订单号A20240315，屏幕有坏点"],
    )
    doc = engine.import_document(case.id, source)
    assert (doc.kind, doc.pages, doc.ocr) == ("image", 1, True)
    assert doc.name == "客服聊天 截图#1.png"
    text = " ".join(p.text for p in engine.passages_of(doc.id))
    assert "退款申请已驳回" in text and "A20240315" in text
    assert engine.passages_of(doc.id)[0].boxes
    assert engine.render_page(doc.id, 1, 200).startswith(b"\x89PNG")


def test_scanned_pdf_through_ocr(engine, tmp_path):
    case = engine.create_case("借款")
    source = make_scanned_pdf(
        tmp_path / "借条扫描.pdf", [["借条：今借到人民币五万元整", "借款人李四"]]
    )
    doc = engine.import_document(case.id, source)
    assert doc.ocr and doc.pages == 1
    assert "五万元" in " ".join(p.text for p in engine.passages_of(doc.id))


@pytest.mark.parametrize(
    ("name", "make", "reason"),
    [
        ("locked.pdf", make_encrypted_pdf, "encrypted"),
        ("broken.pdf", make_corrupt_pdf, "corrupt"),
        ("logo.png", make_blank_png, "no_text"),
        ("empty.pdf", lambda p: _write(p, b""), "empty"),
        ("not-word.docx", lambda p: _write(p, b"plain text, not a zip"), "corrupt"),
        ("garbage.png", lambda p: _write(p, b"\x89PNG\r\n\x1a\nbroken"), "corrupt"),
    ],
)
def test_bad_files_give_a_reason_and_keep_nothing(engine, tmp_path, name, make, reason):
    case = engine.create_case("坏文件")
    source = make(tmp_path / name)
    with pytest.raises(DocumentImportError) as info:
        engine.import_document(case.id, source)
    assert info.value.reason == reason
    _nothing_kept(engine, case.id)


def test_cancel_between_pages_keeps_nothing(engine, tmp_path):
    case = engine.create_case("长文件")
    source = make_pdf(tmp_path / "long.pdf", [[f"Page {n} text."] for n in range(40)], cjk=False)
    seen = []

    def progress(done, total, phase):
        seen.append((done, total, phase))

    with pytest.raises(DocumentImportError) as info:
        engine.import_document(
            case.id,
            source,
            progress=progress,
            cancel=lambda: sum(p == "read" for _d, _t, p in seen) >= 5,
        )
    assert info.value.reason == "cancelled"
    assert max(d for d, _t, p in seen if p == "read") == 5  # stopped between pages
    _nothing_kept(engine, case.id)


def test_failure_after_copy_removes_the_copy(engine, tmp_path, monkeypatch):
    """A failing commit (a full disk, a deleted case) leaves no copy and no rows."""
    case = engine.create_case("失败")
    source = make_pdf(tmp_path / "a.pdf", [["Some text on a page."]], cjk=False)

    def boom(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(engine.documents._repo, "insert", boom)
    with pytest.raises(OSError):
        engine.import_document(case.id, source)
    _nothing_kept(engine, case.id)


def test_large_pdf_and_odd_names(engine, tmp_path):
    case = engine.create_case("大文件")
    # spaces, Chinese, "#", quotes, brackets; 233 bytes (file systems allow 255)
    odd = '起诉状 (最终版) #2 "盖章" ' + "长" * 64 + ".pdf"
    source = make_pdf(
        tmp_path / odd,
        [[f"Page {n}: the defendant delayed delivery by {n} days."] for n in range(1, 501)],
        cjk=False,
    )
    doc = engine.import_document(case.id, source)
    assert doc.pages == 500 and doc.passages == 500
    assert doc.name == source.name
    assert engine.document_file(doc.id).name == f"{doc.id}.pdf"  # the stored name is ours
    hit = engine.search_passages("delayed delivery by 437 days", case.id, k=3)
    assert any(h.passage.page == 437 for h in hit)


def test_too_large_is_refused_before_reading(engine, tmp_path, monkeypatch):
    from desktop_app.memory import readers

    case = engine.create_case("大")
    source = make_pdf(tmp_path / "a.pdf", [["Some text on a page."]], cjk=False)
    monkeypatch.setattr(readers, "MAX_FILE_BYTES", source.stat().st_size - 1)
    with pytest.raises(DocumentImportError) as info:
        engine.import_document(case.id, source)
    assert info.value.reason == "too_large"
    _nothing_kept(engine, case.id)


def test_missing_ocr_model_says_so_and_never_downloads(engine, tmp_path, monkeypatch):
    """A bundle that lost a model file: a clear "no OCR" error, not a silent download."""
    from desktop_app.memory.readers import ocr

    case = engine.create_case("无OCR")
    source = make_png(tmp_path / "shot.png", ["客服：退款申请已驳回"])
    monkeypatch.setattr(ocr, "_engine", None)
    monkeypatch.setitem(ocr.MODEL_FILES, "det", "missing_det.onnx")
    with pytest.raises(DocumentImportError) as info:
        engine.import_document(case.id, source)
    assert info.value.reason == "ocr_unavailable"
    assert "OCR" in info.value.user_message
    _nothing_kept(engine, case.id)
