"""Knowledge extraction over an imported document: a durable job per page, notes whose
source is the document and page, through the same decision step as chat notes (so the
contract's amount and the client's recollection meet as a conflict)."""

from __future__ import annotations

import pytest
from fakes.documents import make_pdf
from fakes.llm_server import FakeLLMServer, Reply
from fakes.scripted_model import ScriptedModel, _constructed, _schema_name, _user

from desktop_app.llm import JsonModeCache, LLMClient
from desktop_app.memory import MemoryEngine, parse_document_source


class PageReader(ScriptedModel):
    """Extracts its items only from the page whose text holds their figure (a model that
    reads the page it is given)."""

    def _answer(self, body: dict) -> Reply:
        if _schema_name(body) == "knowledge_extraction":
            self.asked.append("knowledge_extraction")
            prompt = _user(body)
            items = [
                {**_constructed(i["content"]), **{k: v for k, v in i.items() if k != "figure"}}
                for i in self.extract_items
                if i["figure"] in prompt
            ]
            return Reply.json({"items": items})
        return super()._answer(body)


@pytest.fixture
def model():
    return PageReader()


@pytest.fixture
def llm(model):
    with FakeLLMServer(responder=model) as server:
        yield LLMClient(server.config(), mode_cache=JsonModeCache(), sleep=lambda s: None)


def _contract(tmp_path):
    return make_pdf(
        tmp_path / "买卖合同.pdf",
        [
            ["买卖合同", "甲方：张三。乙方：某电商平台有限公司。"],
            ["第三条 货款总额为人民币12800元。"],
        ],
    )


def test_offline_the_job_waits_then_runs_when_a_model_comes(tmp_path, embedder, llm, model):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("买卖合同纠纷")
        recollection = eng.add_note(
            "委托人回忆合同约定的货款为12000元", case_id=case.id, source_kind="当事人陈述"
        ).note
        doc = eng.import_document(case.id, _contract(tmp_path))
        assert doc.extraction == "waiting"
        assert eng.run_pending_jobs().done == 0  # no model: nothing runs, nothing lost
        assert eng.get_document(doc.id).extraction == "waiting"

    model.extract_items = [
        {"content": "合同约定货款总额为人民币12800元", "category": "证据", "scope": "case",
         "source_kind": "证据显示", "figure": "12800"},
    ]  # fmt: skip
    model.decide_rules.append(
        lambda note, shown: (
            {"action": "SUPERSEDE", "target": next(a for a, t in shown.items() if "12000" in t)}
            if "12800" in note and any("12000" in t for t in shown.values())
            else None
        )
    )
    with MemoryEngine.open(data, embedder=embedder, llm=llm) as eng:
        assert eng.get_document(doc.id).extraction == "running"  # due, a model is there
        eng.run_pending_jobs()
        assert eng.get_document(doc.id).extraction == "done"
        derived = eng.notes_from_document(doc.id)
        assert [n.content for n in derived] == ["合同约定货款总额为人民币12800元"]
        note = derived[0]
        assert note.origin == "import" and note.case_id == case.id
        assert parse_document_source(note.source) == (doc.id, 2)  # the page it came from
        # the same decision step as chat notes: different sources -> a conflict, both kept
        assert eng.get_note(recollection.id).status == "active"
        assert any(
            link.kind == "conflict" and link.dst == recollection.id
            for link in eng.links_of(note.id)
        )
        assert eng.get_document(doc.id).notes_derived == 1


class HeldReader(PageReader):
    """Holds its extraction answer until the test lets it go (a slow model mid-job)."""

    def __init__(self) -> None:
        super().__init__()
        import threading

        self.asked_event, self.go = threading.Event(), threading.Event()

    def _answer(self, body: dict) -> Reply:
        if _schema_name(body) == "knowledge_extraction":
            self.asked_event.set()
            self.go.wait(60)
        return super()._answer(body)


def test_a_job_running_when_its_document_is_deleted_adds_no_note(tmp_path, embedder):
    import threading

    marker = "Quillmoor滞期费每日人民币6400元"
    source = tmp_path / "起诉状.txt"
    source.write_text(f"第一段：约定{marker}。", encoding="utf-8")
    model = HeldReader()
    model.extract_items = [
        {"content": f"起诉状称{marker}", "category": "证据", "scope": "case",
         "source_kind": "证据显示", "figure": "6400"},
    ]  # fmt: skip
    data = tmp_path / "data"
    with FakeLLMServer(responder=model) as server:
        llm = LLMClient(server.config(), mode_cache=JsonModeCache(), sleep=lambda s: None)
        with MemoryEngine.open(data, embedder=embedder, llm=llm) as eng:
            case = eng.create_case("滞期费纠纷")
            doc = eng.import_document(case.id, source)
            worker = threading.Thread(target=eng.run_pending_jobs)
            worker.start()
            try:
                assert model.asked_event.wait(60)  # the page's job is asking the model
                report = eng.delete_document(doc.id)
            finally:
                model.go.set()
                worker.join(120)
            assert not worker.is_alive()
            assert report.complete
            # the job's answer came after the delete: nothing of it landed
            assert [n.content for n in eng.list_notes(case.id)] == []
            assert eng.list_documents(case.id) == []
            eng.wait_for_index_upkeep(30)
        found = [
            str(p.relative_to(data))
            for p in data.rglob("*")
            if p.is_file() and b"Quillmoor" in p.read_bytes()
        ]
        assert found == []
