"""Case documents end to end with TXT/Markdown: import, passages, search, scope, reopen."""

from __future__ import annotations

import stat

import pytest

from desktop_app.core.errors import DocumentImportError
from desktop_app.memory import MemoryEngine, parse_document_source

COMPLAINT = """起诉状

原告：张三，男，1985年出生，住北京市海淀区。
被告：某电商平台有限公司。

诉讼请求：判令被告退还货款人民币12800元，并赔偿损失3000元。

事实与理由：原告于2024年3月15日在被告平台购买笔记本电脑一台，收货后发现屏幕存在坏点。
原告多次联系客服要求退货，被告客服三次推诿，拒绝维修。
"""


def test_text_import_end_to_end(engine, tmp_path):
    case = engine.create_case("张三诉某电商")
    source = tmp_path / "起诉状.txt"
    source.write_text(COMPLAINT, encoding="utf-8")
    phases = []
    doc = engine.import_document(case.id, source, progress=lambda d, t, p: phases.append(p))
    assert doc.name == "起诉状.txt"
    assert doc.kind == "text" and doc.case_id == case.id and not doc.ocr
    assert doc.passages >= 4 and doc.pages == doc.passages
    assert doc.extraction == "waiting"  # no model: the extraction job waits
    assert {"embed", "index"} <= set(phases)
    stored = engine.document_file(doc.id)
    assert stored.read_bytes() == source.read_bytes()
    assert stored.parent.name == case.id
    assert stat.S_IMODE(stored.stat().st_mode) & 0o077 == 0  # owner-only, like the rest
    assert [d.id for d in engine.list_documents(case.id)] == [doc.id]
    hits = engine.search_passages("退还货款多少钱", case.id, k=3)
    assert "12800" in hits[0].passage.text
    assert hits[0].document_name == "起诉状.txt"
    assert hits[0].citation == f"起诉状.txt p{hits[0].passage.page}"
    passages = engine.passages_of(doc.id)
    assert [p.ordinal for p in passages] == list(range(len(passages)))
    assert engine.get_passage(hits[0].passage.id) == hits[0].passage


def test_passages_never_cross_cases(engine, tmp_path):
    a = engine.create_case("案件甲")
    b = engine.create_case("案件乙")
    source = tmp_path / "a.txt"
    source.write_text(COMPLAINT, encoding="utf-8")
    engine.import_document(a.id, source)
    assert engine.search_passages("退还货款", a.id)
    assert engine.search_passages("退还货款", b.id) == []
    assert engine.recall_for_chat("被告退还货款多少钱", b.id).passages == ()
    assert engine.recall_for_chat("被告退还货款多少钱", None).passages == ()
    recalled = engine.recall_for_chat("被告应退还货款多少钱", a.id).passages
    assert recalled and all(h.passage.case_id == a.id for h in recalled)
    assert any("12800" in h.passage.text for h in recalled)
    # global notes are not passages: a global search never sees a document
    assert all(h.note.case_id is None for h in engine.search("退还货款", None))


def test_documents_survive_reopen_and_index_repairs_itself(tmp_path, embedder):
    data = tmp_path / "data"
    source = tmp_path / "notes.md"
    source.write_text("# 合同要点\n\n合同约定月租金为人民币8500元。\n\n押金两个月。\n", "utf-8")
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("租赁纠纷")
        doc = eng.import_document(case.id, source)
        # a crash after the commit, before the index write: rows stay unindexed
        eng._store.query("SELECT 1")
        with eng._store.write() as conn:
            conn.execute("UPDATE passages SET index_dirty = 1")
        eng._passages().index.delete([p.id for p in eng.passages_of(doc.id)])
    with MemoryEngine.open(data, embedder=embedder) as eng:
        hits = eng.search_passages("月租金是多少", case.id)
        assert hits and "8500" in hits[0].passage.text
        dirty = eng._store.query_one("SELECT COUNT(*) FROM passages WHERE index_dirty = 1")[0]
        assert dirty == 0


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "gb18030"])
def test_text_encodings(engine, tmp_path, encoding):
    case = engine.create_case("编码")
    source = tmp_path / f"{encoding}.txt"
    source.write_bytes("被告客服三次推诿，拒绝维修。\n原告要求退货。".encode(encoding))
    doc = engine.import_document(case.id, source)
    texts = [p.text for p in engine.passages_of(doc.id)]
    assert texts == ["被告客服三次推诿，拒绝维修。", "原告要求退货。"]


def test_empty_file_is_refused_and_nothing_kept(engine, tmp_path):
    case = engine.create_case("空文件")
    for name, data in (("empty.txt", b""), ("blank.txt", b"  \n\n \r\n")):
        source = tmp_path / name
        source.write_bytes(data)
        with pytest.raises(DocumentImportError) as info:
            engine.import_document(case.id, source)
        assert info.value.reason == "empty"
    assert engine.list_documents(case.id) == []
    assert not (engine.data_dir / "documents" / case.id).exists() or not any(
        (engine.data_dir / "documents" / case.id).iterdir()
    )


def test_unsupported_kind(engine, tmp_path):
    case = engine.create_case("c")
    source = tmp_path / "x.xlsx"
    source.write_bytes(b"PK\x03\x04")
    with pytest.raises(DocumentImportError) as info:
        engine.import_document(case.id, source)
    assert info.value.reason == "unsupported"


def test_parse_document_source():
    assert parse_document_source("doc:abc123#p3") == ("abc123", 3)
    assert parse_document_source("chat:x") is None
    assert parse_document_source(None) is None


def test_a_chat_recall_embeds_its_query_once(tmp_path, embedder):
    """The notes' search, the similarities of its other hits and the case's passages share
    one embedding of the query (it was embedded two or three times per reply)."""

    class Counting:
        id, dim = embedder.id, embedder.dim

        def __init__(self) -> None:
            self.calls: list[list[str]] = []

        def embed(self, texts):
            self.calls.append(list(texts))
            return embedder.embed(texts)

    counting = Counting()
    source = tmp_path / "contract.md"
    source.write_text("合同约定被告应退还货款12800元。\n\n押金两个月。\n", "utf-8")
    with MemoryEngine.open(tmp_path / "data", embedder=counting) as eng:
        case = eng.create_case("退款纠纷")
        eng.add_notes(
            [{"content": f"客户第{n}次要求退还货款", "case_id": case.id} for n in range(12)]
        )
        eng.import_document(case.id, source)
        query = "被告应退还货款多少钱"
        counting.calls.clear()
        recall = eng.recall_for_chat(query, case.id)
        assert recall.passages and recall.hits
        assert [c for c in counting.calls if query in c] == [[query]]
