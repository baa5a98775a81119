"""kill -9 at chosen points of a real child process (crash_child.py): a forget interrupted
anywhere finishes at the next open, interrupted backups and restores leave no readable copy
behind, and a merge is all or nothing (issue 14, items 2, 3 and 6)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from reliability.scan_helpers import holders, killed, run_child

from desktop_app.memory import MemoryEngine
from desktop_app.memory.backups import BackupManager, list_backups

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")

SECRET = "线人代号Thistledown称交易在码头三号仓"
SECRET_V2 = "线人代号Thistledown改称交易在码头五号仓"
FILLER = [f"普通记录第{i}条：证据清单第{i}项，已核对原件" for i in range(8)]


@pytest.fixture(scope="module")
def folder_with_backups(tmp_path_factory, embedder) -> tuple[Path, str, str]:
    """A data folder with a secret note (edited, so its history holds a second wording)
    and three backups that all hold it."""
    data = tmp_path_factory.mktemp("crash") / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("崩溃中遗忘")
        eng.add_notes([{"content": t, "case_id": case.id} for t in FILLER])
        note = eng.add_note(SECRET, case_id=case.id).note
        eng.update_note(note.id, content=SECRET_V2)
        mgr = BackupManager(eng, keep=5)
        for kind in ("auto", "manual", "auto"):
            mgr.snapshot(kind)
    return data, note.id, case.id


@pytest.mark.parametrize("kill_at", [1, 2, 3])
def test_a_forget_killed_midway_finishes_at_the_next_open(
    folder_with_backups, tmp_path, embedder, kill_at
):
    source, note_id, case_id = folder_with_backups
    data = tmp_path / "data"
    shutil.copytree(source, data)
    assert len(list_backups(data)) == 3 and holders(data, ["Thistledown"])
    child = run_child("forget", str(data), note_id, str(kill_at))
    assert killed(child), child.stdout + child.stderr  # it died inside the backup purge
    with MemoryEngine.open(data, embedder=embedder) as eng:  # the open resumes the forget
        resumed = eng.resumed_forgets
        assert [r.target_id for r in resumed] == [note_id]
        assert resumed[0].complete, resumed[0]
        assert eng.stats().notes_total == len(FILLER)
        assert [n.content for n in eng.list_notes(case_id)] == FILLER
    assert holders(data, ["Thistledown", SECRET, SECRET_V2, note_id]) == []
    # and it is done: the next open has nothing left to finish
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng.resumed_forgets == []


def _temp_copies(data: Path) -> list[Path]:
    return sorted(p for p in data.rglob(".tmp-*") if p.is_file())


@pytest.mark.parametrize("operation", ["backupearly", "backup", "restore-1", "restore-2"])
def test_an_interrupted_backup_or_restore_leaves_no_readable_copy(
    folder_with_backups, tmp_path, embedder, operation
):
    source, _note_id, _case_id = folder_with_backups
    data = tmp_path / "data"
    shutil.copytree(source, data)
    what, _, n = operation.partition("-")
    child = run_child(what, str(data), n or "1")
    assert killed(child), child.stdout + child.stderr
    left = _temp_copies(data)
    assert left, "the kill point is after the temporary copy was written"
    for path in left:  # a full copy of the case file: owner only, even half-written
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, (path.name, oct(path.stat().st_mode))
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert _temp_copies(data) == []  # cleaned at open
        assert eng.stats().notes_total == len(FILLER) + 1


def test_a_forget_also_purges_temporary_copies(folder_with_backups, tmp_path, embedder):
    source, note_id, _case_id = folder_with_backups
    data = tmp_path / "data"
    shutil.copytree(source, data)
    with MemoryEngine.open(data, embedder=embedder) as eng:
        # another process (a CLI backup beside the app) is killed mid-backup while the app
        # runs: its temporary copy holds the note
        child = run_child("backup", str(data), "-")
        assert killed(child), child.stdout + child.stderr
        assert _temp_copies(data)
        assert any("Thistledown" in h for h in holders(data / "backups", ["Thistledown"]))
        report = BackupManager(eng).forget_note(note_id)
        assert report.complete, report
    assert _temp_copies(data) == []
    assert holders(data, ["Thistledown", note_id]) == []


# ----------------------------------------------------------------------------------- merge

KEEP = "租赁合同约定月租金6500元"
OTHER = "合同还约定押金为两个月租金"


@pytest.fixture(scope="module")
def folder_to_merge(tmp_path_factory, embedder) -> tuple[Path, str, str, str]:
    data = tmp_path_factory.mktemp("merge") / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("合并")
        keep, other, third = (
            r.note.id
            for r in eng.add_notes(
                [{"content": t, "case_id": case.id} for t in (KEEP, OTHER, "房东已收取押金")]
            )
        )
        eng.link_notes(other, third, kind="manual", reason="押金")
    return data, keep, other, third


@pytest.mark.parametrize("commits", [0, 1, 2, 3, 4, 5])
def test_a_merge_killed_after_any_commit_is_all_or_nothing(
    folder_to_merge, tmp_path, embedder, commits
):
    source, keep, other, third = folder_to_merge
    data = tmp_path / "data"
    shutil.copytree(source, data)
    child = run_child("merge", str(data), keep, other, str(commits))
    assert killed(child) or "DONE" in child.stdout, child.stderr
    with MemoryEngine.open(data, embedder=embedder) as eng:
        kept, folded = eng.get_note(keep), eng.get_note(other)
        merged = kept.content == f"{KEEP}\n{OTHER}"
        if merged:  # the whole merge, or ...
            assert folded.status == "superseded"
            links = eng.links_of(keep)
            assert any(link.kind == "supersedes" and link.dst == other for link in links)
            assert third in {link.dst for link in links}
        else:  # ... none of it
            assert kept.content == KEEP and folded.status == "active"
            assert [h.action for h in eng.note_history(keep)] == ["created"]
        hits = eng.search("押金 两个月租金", case_id=kept.case_id, k=5)
        assert (other in [h.note.id for h in hits]) is not merged


DOC_MARKER = "货轮代号Wrenfield滞期费按日计收"


@pytest.fixture(scope="module")
def folder_with_a_document(tmp_path_factory, embedder) -> tuple[Path, str, str, str, str]:
    """A case document, a derived note the lawyer will choose, one she keeps, two backups."""
    root = tmp_path_factory.mktemp("crashdoc")
    data, source = root / "data", root / "起诉状.txt"
    source.write_text(f"第一段：{DOC_MARKER}。\n\n第二段：{FILLER[0]}", encoding="utf-8")
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("崩溃中删除文件")
        doc = eng.import_document(case.id, source)
        ref = f"doc:{doc.id}#p1"
        chosen = eng.add_note(f"起诉状称{DOC_MARKER}", case_id=case.id, source=ref).note
        kept = eng.add_note("滞期费条款由双方协商确定", case_id=case.id, source=ref).note
        mgr = BackupManager(eng, keep=5)
        for kind in ("auto", "manual"):
            mgr.snapshot(kind)
        eng.wait_for_index_upkeep(30)
    return data, case.id, doc.id, chosen.id, kept.id


@pytest.mark.parametrize("kill_at", [1, 3])
def test_a_document_delete_killed_midway_finishes_at_the_next_open(
    folder_with_a_document, tmp_path, embedder, kill_at
):
    """Killed once the copy and the rows are gone, inside the purge of the backups (1: the
    chosen note's, 3: the document's): the next open forgets the note and purges the rest."""
    source, case_id, doc_id, chosen_id, kept_id = folder_with_a_document
    data = tmp_path / "data"
    shutil.copytree(source, data)
    assert holders(data, ["Wrenfield"])
    child = run_child("deletedoc", str(data), doc_id, chosen_id, str(kill_at))
    assert killed(child), child.stdout + child.stderr
    with MemoryEngine.open(data, embedder=embedder) as eng:
        docs = [r for r in eng.resumed_forgets if r.kind == "document"]
        assert [r.target_id for r in docs] == [doc_id]
        assert docs[0].complete, docs[0]
        assert eng.list_documents(case_id) == []
        assert [n.id for n in eng.list_notes(case_id)] == [kept_id]
    assert holders(data, ["Wrenfield", DOC_MARKER]) == []
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng.resumed_forgets == []
