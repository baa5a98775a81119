"""Deleting a document: the copy, its passages (SQLite, index, backups), its waiting jobs
and the derived notes the lawyer chose are gone from every file of the data folder."""

from __future__ import annotations

from pathlib import Path

from desktop_app.memory import MemoryEngine

MARKER = "QZXMARKER7731"
MARKER_ZH = "鹦鹉螺号货轮滞期费"


def _holders(folder: Path, needles: list[bytes]) -> list[str]:
    found = []
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            if any(n in data for n in needles):
                found.append(str(path.relative_to(folder)))
    return found


def _needles() -> list[bytes]:
    forms = [MARKER, MARKER.lower(), MARKER_ZH]
    return [f.encode(enc) for f in forms for enc in ("utf-8", "utf-16-le")]


def test_delete_document_purges_every_file(tmp_path, embedder):
    data = tmp_path / "data"
    source = tmp_path / "证据.txt"
    source.write_text(
        f"第一段：合同编号{MARKER}，约定{MARKER_ZH}按日计算。\n\n第二段：其余条款与本案无关。",
        encoding="utf-8",
    )
    keep = tmp_path / "other.txt"
    keep.write_text("另一份文件：送货单载明2024年3月15日签收。", encoding="utf-8")
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("海商纠纷")
        doc = eng.import_document(case.id, source)
        other = eng.import_document(case.id, keep)
        source_ref = f"doc:{doc.id}#p1"
        derived = eng.add_note(
            f"合同{MARKER}约定{MARKER_ZH}按日计算", case_id=case.id, source=source_ref,
            origin="import",
        ).note  # fmt: skip
        kept = eng.add_note(
            "滞期费条款由双方协商确定", case_id=case.id, source=source_ref, origin="import"
        ).note
        assert {n.id for n in eng.notes_from_document(doc.id)} == {derived.id, kept.id}
        eng.backups.snapshot()  # a backup holds the passages and the note too
        eng.wait_for_index_upkeep(30)
        assert _holders(data, _needles())  # the marker is there before

        report = eng.delete_document(doc.id, purge_note_ids=[derived.id])
        assert report.complete, (report.live_places, report.still_holding)
        assert report.terms_checked > 0
        assert [d.id for d in eng.list_documents(case.id)] == [other.id]
        assert eng.get_note(kept.id).status == "active"  # not chosen: kept
        assert eng.search_passages(MARKER_ZH, case.id) == [] or all(
            h.passage.document_id == other.id for h in eng.search_passages(MARKER_ZH, case.id)
        )
    assert _holders(data, _needles()) == []
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng.search_passages("送货单签收", case.id)[0].passage.document_id == other.id
        assert not any(p.name.startswith(doc.id) for p in (data / "documents").rglob("*"))


def test_delete_case_removes_its_documents(tmp_path, embedder):
    data = tmp_path / "data"
    source = tmp_path / "a.txt"
    source.write_text(f"编号{MARKER}的{MARKER_ZH}条款。", encoding="utf-8")
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("要删除的案件")
        eng.import_document(case.id, source)
        report = eng.delete_case(case.id)
        assert report.complete
    assert _holders(data, _needles()) == []


def test_a_copy_no_row_names_is_removed_at_open(tmp_path, embedder):
    """A crash between the copy and the commit leaves a copy no document names."""
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("c")
        source = tmp_path / "a.txt"
        source.write_text("租金8500元。", encoding="utf-8")
        eng.import_document(case.id, source)
    orphan = data / "documents" / case.id / "0123456789abcdef.txt"
    orphan.write_text(f"half-imported {MARKER}", encoding="utf-8")
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert not orphan.exists()
        assert len(eng.list_documents(case.id)) == 1


class _Crash(RuntimeError):
    """Stands for the process dying mid-delete (the steps after it never run)."""


def test_a_delete_cut_off_after_the_file_is_gone_finishes_at_the_next_open(
    tmp_path, embedder, monkeypatch
):
    import pytest

    from desktop_app.core.errors import NotFoundError
    from desktop_app.memory import document_delete

    data = tmp_path / "data"
    source = tmp_path / "证据.txt"
    source.write_text(f"合同编号{MARKER}，约定{MARKER_ZH}按日计算。", encoding="utf-8")
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("海商纠纷")
        doc = eng.import_document(case.id, source)
        ref = f"doc:{doc.id}#p1"
        chosen = eng.add_note(
            f"合同{MARKER}约定{MARKER_ZH}", case_id=case.id, source=ref, origin="import"
        ).note
        kept = eng.add_note("滞期费条款由双方协商确定", case_id=case.id, source=ref).note
        eng.backups.snapshot()
        eng.wait_for_index_upkeep(30)
        stored = eng.document_file(doc.id)

        def crash(*_args, **_kwargs):
            assert not stored.exists()  # the crash comes after the copy is gone
            raise _Crash("killed")

        # whichever of the two later steps comes first is where the process dies
        monkeypatch.setattr(document_delete, "delete_document_in_backups", crash)
        monkeypatch.setattr(eng, "forget_note", crash)
        with pytest.raises(_Crash):
            eng.delete_document(doc.id, purge_note_ids=[chosen.id])
        monkeypatch.undo()
    assert _holders(data, _needles())  # the backup (at least) still holds the text

    with MemoryEngine.open(data, embedder=embedder) as eng:
        resumed = [r for r in eng.resumed_forgets if r.kind == "document"]
        assert [r.target_id for r in resumed] == [doc.id]
        assert resumed[0].complete, (resumed[0].live_places, resumed[0].still_holding)
        with pytest.raises(NotFoundError):
            eng.get_note(chosen.id)
        assert eng.get_note(kept.id).status == "active"
        assert eng.list_documents(case.id) == []
    assert _holders(data, _needles()) == []
    with MemoryEngine.open(data, embedder=embedder) as eng:  # once finished, never again
        assert eng.resumed_forgets == []


def test_a_document_whose_copy_is_missing_is_listed_shown_and_deletable(tmp_path, embedder):
    """An older backup restored, a copy removed by hand: the row outlives its file."""
    from fakes.documents import make_pdf

    data = tmp_path / "data"
    pdf = make_pdf(tmp_path / "合同.pdf", [[f"合同编号{MARKER}"], ["第二页：其余条款。"]])
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("文件丢失")
        doc = eng.import_document(case.id, pdf)
        assert eng.render_page(doc.id, 1, 400)  # a PNG while the copy is there
        eng.document_file(doc.id).unlink()
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert [d.id for d in eng.list_documents(case.id)] == [doc.id]
        assert eng.get_document(doc.id).pages == 2
        assert eng.render_page(doc.id, 1, 400) is None
        assert eng.page_size(doc.id, 1) is None
        assert eng.passages_of(doc.id, 1)  # the text is still there to read
        report = eng.delete_document(doc.id)
        assert report.complete, report.live_places
        assert eng.list_documents(case.id) == []
    assert _holders(data, _needles()) == []
