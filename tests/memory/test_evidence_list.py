"""The 证据目录 (evidence list): the lawyer's order kept per case, and the Word file a court
gets — read back with python-docx, cell by cell (issue 17)."""

from __future__ import annotations

from datetime import date

import pytest
from docx import Document

from desktop_app.core.errors import InvalidInputError
from desktop_app.memory.evidence_docx import write_evidence_docx
from desktop_app.memory.evidence_list import EvidenceRow, split_name_and_purpose


def _table(path):
    doc = Document(str(path))
    assert len(doc.tables) == 1
    return [[cell.text for cell in row.cells] for row in doc.tables[0].rows], doc


@pytest.fixture
def case_with_evidence(engine):
    case = engine.create_case("张三诉某电商买卖合同纠纷")
    receipt = engine.add_note(
        "购物小票一张，证明原告于2024年3月15日购买笔记本电脑", case.id, category="证据"
    ).note
    chat = engine.add_note(
        "与客服的聊天记录截图，证明被告承认屏幕存在质量问题", case.id, category="证据",
        source_kind="当事人陈述",
    ).note
    repair = engine.add_note("维修中心出具的检测报告", case.id, category="证据").note
    fact = engine.add_note("笔记本电脑屏幕在使用两周后出现闪烁", case.id, category="事实").note
    engine.link_notes(repair.id, fact.id, kind="manual", label="证明")
    return engine, case, receipt, chat, repair, fact


def test_split_name_and_purpose_reads_the_usual_wordings():
    assert split_name_and_purpose("购物小票，证明原告购买了电脑") == ("购物小票", "证明原告购买了电脑")
    assert split_name_and_purpose("银行流水；用以证明已付款8999元。") == ("银行流水", "证明已付款8999元")
    assert split_name_and_purpose("Bank statement, proving the price was paid") == (
        "Bank statement",
        "proving the price was paid",
    )
    assert split_name_and_purpose("维修中心出具的检测报告") == ("维修中心出具的检测报告", "")
    # the demo case's wording: a label before a colon, or a clause saying what it shows
    assert split_name_and_purpose("品牌官方售后网点出具的检测报告：屏幕排线存在出厂缺陷，非人为损坏") == (
        "品牌官方售后网点出具的检测报告",
        "屏幕排线存在出厂缺陷，非人为损坏",
    )
    assert split_name_and_purpose("与客服的三次聊天记录截图，完整记录了客服推诿的过程") == (
        "与客服的三次聊天记录截图",
        "完整记录了客服推诿的过程",
    )
    assert split_name_and_purpose("电子发票一张，开票方为杭州极速数码科技有限公司，金额8999元") == (
        "电子发票一张，开票方为杭州极速数码科技有限公司，金额8999元",
        "",
    )


def test_export_writes_the_court_table_in_the_lawyers_order(case_with_evidence, tmp_path):
    engine, case, receipt, chat, repair, _fact = case_with_evidence
    engine.set_evidence_order(case.id, [repair.id, receipt.id, chat.id])

    out = tmp_path / "证据目录.docx"
    assert engine.export_evidence_list(out, case.id) == 3
    rows, doc = _table(out)

    assert doc.paragraphs[0].text == "证据目录"
    assert any(p.text == "案件：张三诉某电商买卖合同纠纷" for p in doc.paragraphs)
    assert rows[0] == ["序号", "证据名称", "证据来源", "证明目的", "页码"]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3"]
    # the order the lawyer chose, not the order they were recorded in
    assert [r[1] for r in rows[1:]] == [
        "维修中心出具的检测报告",
        "购物小票一张",
        "与客服的聊天记录截图",
    ]
    # a purpose written in the note, or what the note is linked to as proving
    assert rows[1][3] == "笔记本电脑屏幕在使用两周后出现闪烁"
    assert rows[2][3] == "证明原告于2024年3月15日购买笔记本电脑"
    assert rows[3][3] == "证明被告承认屏幕存在质量问题"
    # who provided it when the note says so; blank (for the lawyer) when nothing says
    assert rows[3][2] == "当事人提供"
    assert rows[1][2] == ""


def test_the_order_is_kept_per_case_and_new_evidence_comes_last(case_with_evidence):
    engine, case, receipt, chat, repair, _fact = case_with_evidence
    engine.set_evidence_order(case.id, [chat.id, repair.id, receipt.id])
    later = engine.add_note("发票原件一份", case.id, category="证据").note

    ids = [e.note.id for e in engine.evidence_list(case.id)]
    assert ids == [chat.id, repair.id, receipt.id, later.id]

    other = engine.create_case("李四劳动争议")
    other_evidence = engine.add_note("劳动合同一份", other.id, category="证据").note
    assert [e.note.id for e in engine.evidence_list(other.id)] == [other_evidence.id]
    # another case's evidence is refused, never stored in this case's order
    with pytest.raises(InvalidInputError):
        engine.set_evidence_order(case.id, [other_evidence.id, chat.id])
    assert [e.note.id for e in engine.evidence_list(case.id)] == ids


def test_a_forgotten_note_leaves_the_order(case_with_evidence):
    engine, case, receipt, chat, repair, _fact = case_with_evidence
    engine.set_evidence_order(case.id, [chat.id, repair.id, receipt.id])
    engine.forget_note(repair.id)
    assert [e.note.id for e in engine.evidence_list(case.id)] == [chat.id, receipt.id]
    left = engine._store.query("SELECT note_id FROM evidence_order WHERE case_id = ?", (case.id,))
    assert {r[0] for r in left} == {chat.id, receipt.id}


def test_english_interface_gets_an_english_document(case_with_evidence, tmp_path):
    engine, case, *_ = case_with_evidence
    out = tmp_path / "evidence.docx"
    engine.export_evidence_list(out, case.id, english=True)
    rows, doc = _table(out)
    assert doc.paragraphs[0].text == "Evidence List"
    assert rows[0] == ["No.", "Evidence", "Source", "Purpose of proof", "Pages"]
    assert "Provided by the client" in [r[2] for r in rows[1:]]


def test_markup_in_a_note_stays_literal_text(tmp_path):
    rows = [
        EvidenceRow(1, "<b>合同</b> & <img src=x>", "证据显示", "证明<i>付款</i>\x0b", "3"),
    ]
    out = write_evidence_docx(tmp_path / "x.docx", "案<script>", rows, today=date(2025, 1, 2))
    table, doc = _table(out)
    assert table[1] == ["1", "<b>合同</b> & <img src=x>", "证据显示", "证明<i>付款</i>", "3"]
    assert any(p.text == "案件：案<script>" for p in doc.paragraphs)
    assert any(p.text == "日期：2025年1月2日" for p in doc.paragraphs)


def test_a_failed_export_leaves_no_file(tmp_path, monkeypatch):
    import docx.document

    def broken_save(self, path):
        raise OSError("disk full")

    monkeypatch.setattr(docx.document.Document, "save", broken_save)
    target = tmp_path / "list.docx"
    with pytest.raises(OSError):
        write_evidence_docx(target, "案", [EvidenceRow(1, "a", "b", "c", "")])
    assert list(tmp_path.iterdir()) == []


def test_evidence_from_an_imported_document_names_it_and_its_page(engine, tmp_path):
    from desktop_app.memory import document_source

    case = engine.create_case("赵六诉某物业")
    source = tmp_path / "物业合同.txt"
    source.write_text("第一条 物业费每月300元。\n\n第二条 物业公司负责电梯维修。\n", encoding="utf-8")
    doc = engine.import_document(case.id, source)
    engine.add_note(
        "物业服务合同，证明物业公司负有电梯维修义务", case.id, category="证据",
        source=document_source(doc.id, 2), origin="import",
    )
    out = tmp_path / "list.docx"
    engine.export_evidence_list(out, case.id)
    rows, _doc = _table(out)
    assert rows[1][1:] == ["物业服务合同", "物业合同.txt", "证明物业公司负有电梯维修义务", "2"]

    # the document deleted (the note kept): the row no longer names a file that is gone
    engine.delete_document(doc.id)
    engine.export_evidence_list(out, case.id)
    rows, _doc = _table(out)
    assert rows[1][2] != "物业合同.txt" and rows[1][4] == ""
