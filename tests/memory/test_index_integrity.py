"""The derived index: true delete, rebuild from SQLite, embedder change, crash repair."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import numpy as np

from desktop_app.memory import MemoryEngine
from desktop_app.memory.text import fts_terms


class CountingEmbedder:
    """The real embedder, counting the texts it is asked to embed (optionally renamed)."""

    def __init__(self, inner, id_suffix: str = "") -> None:
        self._inner = inner
        self.id = inner.id + id_suffix
        self.dim = inner.dim
        self.texts = 0

    def embed(self, texts: list[str]) -> np.ndarray:
        self.texts += len(texts)
        return self._inner.embed(texts)


def _all_bytes(folder: Path) -> list[tuple[Path, bytes]]:
    return [(p, p.read_bytes()) for p in folder.rglob("*") if p.is_file()]


def _fill(eng: MemoryEngine, case_id: str) -> None:
    eng.add_notes(
        [
            {"content": "原告张三于2024年3月15日购买笔记本电脑，价格8999元", "case_id": case_id},
            {"content": "电脑使用两周后屏幕出现花屏", "case_id": case_id},
            {"content": "原告三次联系客服均被推诿", "case_id": case_id},
            {
                "content": "The plaintiff kept the original invoice and chat logs",
                "case_id": case_id,
            },
        ]
    )


def test_delete_leaves_no_trace_in_any_file(tmp_path, embedder):
    data = tmp_path / "data"
    secret_v1 = "证人王五化名Quixotrel说机密代号是Zanzibarite"
    secret_v2 = "证人王五化名Quixotrel改口说代号是Ozymandiax"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("机密案件")
        _fill(eng, case.id)
        note = eng.add_note(secret_v1, case_id=case.id).note
        eng.update_note(note.id, content=secret_v2)  # the old wording sits in history
        eng.optimize()
        before = b"".join(b for _p, b in _all_bytes(data))
        assert b"Quixotrel" in before or b"quixotrel" in before  # the scan can see it
        eng.delete_note(note.id)
        assert eng.search("Quixotrel", case_id=case.id, k=5) == [] or all(
            h.note.id != note.id for h in eng.search("Quixotrel", case_id=case.id, k=5)
        )
        assert eng.stats().notes_total == 4
    needles = {secret_v1, secret_v2, "Quixotrel", "quixotrel", "Zanzibarite", "ozymandiax"}
    needles |= {t for t in fts_terms(secret_v1 + secret_v2) if len(t) > 6}
    for path, blob in _all_bytes(data):
        for needle in needles:
            assert needle.encode("utf-8") not in blob, f"{needle!r} still in {path}"
            assert needle.encode("utf-16-le") not in blob, f"{needle!r} (utf-16) in {path}"
    # and the engine still works afterwards
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case_id = eng.list_cases()[0].id
        assert (
            eng.search("屏幕花屏", case_id=case_id, k=1)[0].note.content
            == "电脑使用两周后屏幕出现花屏"
        )


def test_deleted_index_folder_is_rebuilt(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("c")
        _fill(eng, case.id)
        expected = [h.note.id for h in eng.search("客服推诿", case_id=case.id, k=3)]
    shutil.rmtree(data / "index")
    progress: list[tuple[int, int]] = []
    with MemoryEngine.open(
        data, embedder=embedder, progress=lambda d, t: progress.append((d, t))
    ) as eng:
        assert eng.stats().index_rows == 4
        assert [h.note.id for h in eng.search("客服推诿", case_id=case.id, k=3)] == expected
    assert progress and progress[-1] == (4, 4)


def test_truncated_index_is_rebuilt(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("c")
        _fill(eng, case.id)
    for path in (data / "index").rglob("*"):
        if path.is_file():
            path.write_bytes(path.read_bytes()[:7])
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng.stats().index_rows == 4
        assert (
            eng.search("花屏", case_id=case.id, k=1)[0].note.content == "电脑使用两周后屏幕出现花屏"
        )


def test_other_embedder_triggers_reembed(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("c")
        _fill(eng, case.id)
    other = CountingEmbedder(embedder, id_suffix="-variant")
    progress: list[tuple[int, int]] = []
    with MemoryEngine.open(
        data, embedder=other, progress=lambda d, t: progress.append((d, t))
    ) as eng:
        assert other.texts == 4  # every note re-embedded once
        assert progress[-1] == (4, 4)
        assert eng.embedder_id.endswith("-variant")
        assert (
            eng.search("客服", case_id=case.id, k=1)[0].note.content == "原告三次联系客服均被推诿"
        )
    # reopening with the same embedder embeds nothing
    again = CountingEmbedder(embedder, id_suffix="-variant")
    with MemoryEngine.open(data, embedder=again):
        assert again.texts == 0


def test_open_in_step_embeds_nothing(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("c")
        _fill(eng, case.id)
    counting = CountingEmbedder(embedder)
    with MemoryEngine.open(data, embedder=counting) as eng:
        assert eng.stats().index_rows == 4
    assert counting.texts == 0


def test_reconcile_repairs_both_sides(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("c")
        _fill(eng, case.id)
        lost = eng.add_note("鉴定报告显示屏幕排线存在出厂缺陷", case_id=case.id).note
        eng.backup(tmp_path / "backup.sqlite3")
        ghost = eng.add_note("一条即将只留在索引里的记录", case_id=case.id).note
        eng._index.delete([lost.id])  # the index lost a row behind the engine's back ...
    # ... and the database is restored from a backup that predates another note
    (data / "lexmem.sqlite3").write_bytes((tmp_path / "backup.sqlite3").read_bytes())
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng.stats().index_rows == eng.stats().notes_total == 5
        assert eng.search("鉴定报告 排线缺陷", case_id=case.id, k=1)[0].note.id == lost.id
        assert all(
            h.note.id != ghost.id for h in eng.search("即将只留在索引里", case_id=case.id, k=5)
        )


def test_dirty_notes_are_reindexed_after_a_crash(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("c")
        note = eng.add_note("被告辩称屏幕损坏系人为", case_id=case.id).note
    # a crash between the SQLite commit of an edit and its index write
    conn = sqlite3.connect(data / "lexmem.sqlite3")
    with conn:
        conn.execute(
            "UPDATE notes SET content = ?, index_dirty = 1 WHERE id = ?",
            ("被告主张原告摔坏了电脑屏幕", note.id),
        )
    conn.close()
    counting = CountingEmbedder(embedder)
    with MemoryEngine.open(data, embedder=counting) as eng:
        assert counting.texts == 1  # only the dirty note
        assert eng.search("摔坏", case_id=case.id, k=1)[0].note.id == note.id
