"""Edits, deletes and jobs racing each other (found in review; each was a failing test first).

The interleavings are produced deterministically: the engine's index write is wrapped so
that another change commits between a note's SQLite commit and its index write — what two
UI pool threads can do.
"""

from __future__ import annotations

import math

import pytest

from desktop_app.core.errors import InvalidInputError
from desktop_app.memory import MemoryEngine
from desktop_app.memory.index_sync import stamp


def _race_before_index_write(engine: MemoryEngine, action) -> None:
    """Run ``action`` once, just before the next index write starts."""
    sync = engine._index_sync
    real = sync.write_notes

    def racing(notes, vectors=None):
        sync.write_notes = real
        action()
        return real(notes, vectors)

    sync.write_notes = racing


def test_the_newest_edit_wins_in_the_index(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        note = eng.add_note("the contract was signed in March").note
        _race_before_index_write(
            eng,
            lambda: eng.update_note(note.id, content="the contract was signed in zebrafjord April"),
        )
        eng.update_note(note.id, content="the contract was signed in quokkamire May")
        current = eng.get_note(note.id)
        assert eng._index.stamps()[note.id] == stamp(current)
        assert eng.search(current.content.split()[-2], k=1)[0].note.id == note.id
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng._index.stamps()[note.id] == stamp(eng.get_note(note.id))


def test_an_edit_racing_a_delete_does_not_bring_the_text_back(engine):
    note = engine.add_note("plain note").note
    _race_before_index_write(engine, lambda: engine.delete_note(note.id))
    engine.update_note(note.id, content="Wombatquux confidential settlement amount")
    assert note.id not in engine._index.stamps()
    engine.optimize()
    for path in engine.data_dir.rglob("*"):
        if path.is_file():
            assert b"wombatquux" not in path.read_bytes().lower(), path


def test_deleting_a_conversation_drops_its_waiting_turns(tmp_path, embedder):
    data = tmp_path / "data"
    secret = "Zqxsecretword 客户的秘密住址在北京路12号"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("A")
        conv = eng.create_conversation(case.id)
        eng.add_message(conv.id, "user", secret)
        eng.ingest_turn(secret, "ok noted", case_id=case.id, conversation_id=conv.id)  # queued
        assert eng.pending_jobs() == 1
        eng.delete_conversation(conv.id)
        assert eng.pending_jobs() == 0
    assert b"Zqxsecretword" not in (data / "lexmem.sqlite3").read_bytes()


def test_non_finite_graph_positions_are_skipped(engine):
    case = engine.create_case("A")
    a = engine.add_note("x note", case_id=case.id).note
    b = engine.add_note("y note", case_id=case.id).note
    engine.save_graph_positions(case.id, {a.id: (math.nan, 1.0), b.id: (2.0, math.inf)})
    engine.save_graph_positions(case.id, {a.id: (1.0, 2.0)})
    assert engine.graph_positions(case.id) == {a.id: (1.0, 2.0)}


def test_a_note_cannot_supersede_itself(engine):
    note = engine.add_note("a fact").note
    with pytest.raises(InvalidInputError):
        engine.supersede_note(note.id, note.id)
    assert engine.get_note(note.id).status == "active"


def test_undoing_a_supersede_removes_its_link(engine):
    old = engine.add_note("当事人同意调解").note
    new = engine.add_note("当事人不同意调解").note
    engine.supersede_note(old.id, new.id)
    restored = engine.undo_last_change(old.id)
    assert restored.status == "active" and restored.invalid_at is None
    assert not any(link.kind == "supersedes" for link in engine.links_of(new.id))
