"""Migration 0012 keeps every link and stores the table keyed by its pair (WITHOUT ROWID):
one b-tree instead of the table plus its primary key's automatic index."""

from __future__ import annotations

import shutil

from desktop_app.memory import MemoryEngine
from tests.memory.test_migration_0004 import FIXTURE, _rows

COLUMNS = "src, dst, kind, strength, reason, created_at, label, resolved_at"


def test_an_old_folder_keeps_every_link_in_a_table_keyed_by_its_pair(tmp_path, embedder):
    folder = tmp_path / "data"
    shutil.copytree(FIXTURE, folder)
    db = folder / "lexmem.sqlite3"
    before = _rows(
        db, "SELECT src, dst, kind, strength, reason, created_at FROM links ORDER BY 1, 2, 3"
    )
    assert before  # the fixture has links to carry over

    with MemoryEngine.open(folder, embedder=embedder):
        pass

    (table_sql,) = _rows(db, "SELECT sql FROM sqlite_master WHERE name = 'links'")[0]
    assert "WITHOUT ROWID" in table_sql
    after = _rows(db, f"SELECT {COLUMNS} FROM links ORDER BY 1, 2, 3")
    assert [r[:6] for r in after] == before
    indexes = {
        r[0]
        for r in _rows(
            db, "SELECT name FROM sqlite_master WHERE tbl_name = 'links' AND type = 'index'"
        )
    }
    assert indexes == {"links_dst", "links_open_conflicts"}  # no automatic copy of the key
    assert _rows(db, "PRAGMA foreign_key_check(links)") == []


def test_links_still_upsert_and_cascade_after_the_migration(engine):
    case = engine.create_case("c")
    a, b = (engine.add_note(t, case_id=case.id).note for t in ("合同于2024年签订", "货款未付"))
    engine.link_notes(a.id, b.id, strength=0.4, reason="first")
    engine.link_notes(a.id, b.id, strength=0.9, reason="second")
    links = [
        (lk.src, lk.dst, lk.strength, lk.reason) for lk in engine.links_of(a.id) if lk.dst == b.id
    ]
    assert links == [(a.id, b.id, 0.9, "second")]  # one row, the larger strength kept
    engine.delete_note(b.id)
    assert [lk for lk in engine.links_of(a.id) if b.id in (lk.src, lk.dst)] == []
