"""How a reply ended is stored with it (issue 13, items 1 and 5): migration 0005 gives every
message a status — complete, stopped (the user pressed Stop), truncated (the token budget cut
it off) or interrupted (the connection broke) — and a folder written before it opens with its
replies marked complete."""

from __future__ import annotations

import sqlite3

import pytest

from desktop_app.core.errors import InvalidInputError
from desktop_app.memory import MemoryEngine, migrations
from desktop_app.memory.engine import DB_FILE


def test_each_status_round_trips(engine):
    case = engine.create_case("案")
    conv = engine.create_conversation(case.id, "t")
    engine.add_message(conv.id, "user", "问")
    for status in ("complete", "stopped", "truncated", "interrupted"):
        engine.add_message(conv.id, "assistant", f"答（{status}）", status=status)
    stored = engine.list_messages(conv.id)
    assert [m.status for m in stored] == [
        "complete",
        "complete",
        "stopped",
        "truncated",
        "interrupted",
    ]


def test_an_unknown_status_is_refused(engine):
    case = engine.create_case("案")
    conv = engine.create_conversation(case.id, "t")
    with pytest.raises(InvalidInputError):
        engine.add_message(conv.id, "assistant", "答", status="half-done")
    assert engine.list_messages(conv.id) == []


def test_a_folder_from_before_0005_opens_with_its_replies_complete(tmp_path, embedder, monkeypatch):
    data = tmp_path / "data"
    before = tuple(m for m in migrations.MIGRATIONS if not m[0].startswith("0005"))
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", before)
        m.setattr("desktop_app.memory.store.MIGRATIONS", before)
        old = MemoryEngine.open(data, embedder=embedder)
        case = old.create_case("案")
        conv = old.create_conversation(case.id, "t")
        old.close()
    with sqlite3.connect(data / DB_FILE) as conn:  # a reply written by the older version
        assert "status" not in {r[1] for r in conn.execute("PRAGMA table_info(messages)")}
        conn.execute(
            "INSERT INTO messages (id, conversation_id, role, content, created_at) "
            "VALUES ('m1', ?, 'assistant', '旧的回答', '2025-01-01T00:00:00+00:00')",
            (conv.id,),
        )
    engine = MemoryEngine.open(data, embedder=embedder)
    try:
        (message,) = engine.list_messages(conv.id)
        assert (message.content, message.status) == ("旧的回答", "complete")
        engine.add_message(conv.id, "assistant", "新的", status="stopped")
        assert engine.list_messages(conv.id)[-1].status == "stopped"
    finally:
        engine.close()
