"""Migration 0004 upgrades a data folder written by the version before it, losing nothing.

The folder in fixtures/v0003_folder was written by the code at commit 53954a3 (schema
0001-0003) with fixtures/make_v0003_folder.py; only its SQLite file is kept (the index is
derived and rebuilt at open).
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from desktop_app.memory import MemoryEngine

FIXTURE = Path(__file__).parent / "fixtures" / "v0003_folder"


@pytest.fixture
def old_folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("TZ", "Asia/Shanghai")  # the lawyer's zone, where the notes were typed
    time.tzset()
    folder = tmp_path / "data"
    shutil.copytree(FIXTURE, folder)
    yield folder
    monkeypatch.undo()
    time.tzset()


def _rows(db: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_the_fixture_is_an_old_folder():
    names = [r[0] for r in _rows(FIXTURE / "lexmem.sqlite3", "SELECT name FROM schema_migrations")]
    assert names == ["0001_initial", "0002_notes_scope_time", "0003_notes_pinned"]


def test_an_old_folder_is_upgraded_without_loss(old_folder, embedder):
    db = old_folder / "lexmem.sqlite3"
    notes_before = _rows(
        db, "SELECT id, case_id, content, created_at, status, source FROM notes ORDER BY id"
    )
    links_before = _rows(db, "SELECT src, dst, kind, reason FROM links ORDER BY src, dst, kind")
    history_before = _rows(db, "SELECT note_id, actor, action FROM note_history ORDER BY id")
    messages_before = _rows(db, "SELECT id, content, injected_note_ids FROM messages ORDER BY id")

    with MemoryEngine.open(old_folder, embedder=embedder) as eng:
        applied = [r[0] for r in _rows(db, "SELECT name FROM schema_migrations")]
        assert "0004_event_dates_provenance_conflicts" in applied  # later ones may follow
        # nothing lost or rewritten
        assert (
            _rows(
                db, "SELECT id, case_id, content, created_at, status, source FROM notes ORDER BY id"
            )
            == notes_before
        )
        assert (
            _rows(db, "SELECT src, dst, kind, reason FROM links ORDER BY src, dst, kind")
            == links_before
        )
        assert (
            _rows(db, "SELECT note_id, actor, action FROM note_history ORDER BY id")
            == history_before
        )
        assert (
            _rows(db, "SELECT id, content, injected_note_ids FROM messages ORDER BY id")
            == messages_before
        )

        case = eng.list_cases()[0]
        by_text = {n.content: n for n in eng.list_notes(case.id, include_global=True)}
        hearing = by_text["2024年7月15日上午9:30在杭州市西湖区人民法院开庭"]
        # typed on 2026-11-20, filed under the day of the hearing
        assert hearing.event_date == "2024-07-15" and hearing.created_at.year == 2026
        assert hearing.origin == "manual"
        purchase = by_text["原告张三于2024年3月15日购买笔记本电脑，实付8,999元"]
        assert purchase.event_date == "2024-03-15" and purchase.origin == "import"
        # "昨天" typed at 07:30 in Beijing on 16 March (23:30 UTC on the 15th) is the 15th
        assert by_text["用户昨天说不喜欢冗长回复"].event_date == "2024-03-15"
        assert by_text["依据《民法典》第五百七十七条主张违约责任"].event_date is None
        assert by_text["当事人不同意调解"].origin == "message"
        # the old supersede link reads as 取代; the old manual link as 相关
        refused = by_text["当事人不同意调解"]
        kinds = {(link.kind, link.type) for link in eng.links_of(refused.id)}
        assert ("supersedes", "取代") in kinds and ("manual", "相关") in kinds

        # the timeline files the hearing under 2024, between the spring facts and now
        timeline = [n.content for n in eng.list_notes(case.id, order_by="event_date")]
        assert timeline.index(hearing.content) > timeline.index(purchase.content)
        assert timeline.index(hearing.content) == len(timeline) - 1  # last event: July 2024
        assert eng.list_notes(case.id, order_by="event_date")[0].event_date == "2024-03-15"

        # the index was rebuilt from SQLite, with the normalised terms
        assert eng.stats().index_rows == len(notes_before)
        statute = eng.search("第577条", case.id, k=1)
        assert statute[0].note.content.startswith("依据《民法典》第五百七十七条")
        assert eng.search("8999元", case.id, k=1)[0].note.id == purchase.id
        assert eng.open_conflicts(case.id) == []

    # the next open applies nothing again and keeps the data
    with MemoryEngine.open(old_folder, embedder=embedder) as eng:
        applied = [r[0] for r in _rows(db, "SELECT name FROM schema_migrations")]
        assert applied.count("0004_event_dates_provenance_conflicts") == 1
        assert eng.get_note(hearing.id).event_date == "2024-07-15"


def test_an_old_index_gets_its_new_terms_without_reembedding(tmp_path, embedder):
    """A folder opened with an index built before the normalised terms: the terms are
    rebuilt, the vectors kept (no note is embedded again)."""

    class Counting:
        def __init__(self, inner):
            self.inner, self.id, self.dim, self.texts = inner, inner.id, inner.dim, 0

        def embed(self, texts):
            self.texts += len(texts)
            return self.inner.embed(texts)

    folder = tmp_path / "data"
    with MemoryEngine.open(folder, embedder=embedder) as eng:
        case = eng.create_case("c")
        note = eng.add_note("被告应退还货款捌仟玖佰玖拾玖元", case_id=case.id).note
        # an index from before: its terms lack the normalised amount
        with eng._store.write() as conn:
            conn.execute("UPDATE meta SET value = '1' WHERE key = 'terms_version'")
        eng._index.upsert([_old_row(eng, note)])
        stale = eng.search("8999元", case.id, k=1)
        assert not stale or stale[0].parts.text_rank is None  # the words miss it
    counting = Counting(embedder)
    with MemoryEngine.open(folder, embedder=counting) as eng:
        hits = eng.search("8999元", case.id, k=1)
        assert hits[0].note.id == note.id and hits[0].parts.text_rank == 1
        assert counting.texts == 1  # the query only


def _old_row(eng, note):
    from desktop_app.memory.index import IndexRow
    from desktop_app.memory.index_sync import epoch
    from desktop_app.memory.text import fts_terms

    old_terms = " ".join(t for t in fts_terms(note.content) if not t.startswith("amt"))
    vector = eng._index.vectors_for([note.id])[note.id]
    return IndexRow(
        note.id, note.case_id, note.status, old_terms, vector, epoch(note.created_at), "old"
    )
