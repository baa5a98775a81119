"""Conversations and their messages (the chat's history, with the ids of the notes that
were injected for each reply)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from desktop_app.core.errors import InvalidInputError, NotFoundError
from desktop_app.memory.cases import Cases
from desktop_app.memory.changes import ChangeRecorder
from desktop_app.memory.ids import new_id
from desktop_app.memory.jobs import JobQueue
from desktop_app.memory.scope import sql_in_scope
from desktop_app.memory.store import Store, from_iso, to_iso, utcnow
from desktop_app.memory.text import clean_label, without_surrogates
from desktop_app.memory.types import (
    DEFAULT_CONVERSATION_TITLE,
    MESSAGE_STATUSES,
    Conversation,
    Message,
)

DEFAULT_TITLE = DEFAULT_CONVERSATION_TITLE
ROLES = frozenset({"user", "assistant", "system"})


def row_to_conversation(row: sqlite3.Row) -> Conversation:
    return Conversation(
        id=row["id"],
        case_id=row["case_id"],
        title=row["title"],
        created_at=from_iso(row["created_at"]),
        updated_at=from_iso(row["updated_at"]),
        memory_enabled=bool(row["memory_enabled"]),
    )


def row_to_message(row: sqlite3.Row) -> Message:
    return Message(
        id=row["id"],
        conversation_id=row["conversation_id"],
        role=row["role"],
        content=row["content"],
        created_at=from_iso(row["created_at"]),
        injected_note_ids=tuple(json.loads(row["injected_note_ids"])),
        status=row["status"],
        passage_ids=tuple(json.loads(row["passage_ids"])),
        learned_note_ids=tuple(json.loads(row["learned_note_ids"])),
    )


def _title_or_default(title: object) -> str:
    try:
        return clean_label(title or "", "title")
    except InvalidInputError:
        if isinstance(title, str) and not _has_surrogate(title):
            return DEFAULT_TITLE  # empty or only invisible characters: the default title
        raise


def _has_surrogate(text: str) -> bool:
    return without_surrogates(text) != text


def _like_pattern(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class Conversations:
    def __init__(self, store: Store, cases: Cases, jobs: JobQueue, changes: ChangeRecorder) -> None:
        self._store = store
        self._cases = cases
        self._jobs = jobs
        self._changes = changes

    # -- conversations -------------------------------------------------------------------

    def create(self, case_id: str | None, title: str = "") -> Conversation:
        self._cases.check(case_id)
        now = utcnow()
        conv = Conversation(new_id(), case_id, _title_or_default(title), now, now, True)
        with self._store.write() as conn:
            conn.execute(
                "INSERT INTO conversations (id, case_id, title, created_at, updated_at, memory_enabled) "
                "VALUES (?, ?, ?, ?, ?, 1)",
                (conv.id, case_id, conv.title, to_iso(now), to_iso(now)),
            )
        self._changes.conversations_changed(case_id)
        return conv

    def get(self, conversation_id: str) -> Conversation:
        row = self._store.query_one("SELECT * FROM conversations WHERE id = ?", (conversation_id,))
        if row is None:
            raise NotFoundError(f"conversation {conversation_id!r} not found")
        return row_to_conversation(row)

    def list(self, case_id: str | None, query: str = "") -> list[Conversation]:
        where, params = sql_in_scope(case_id)
        if query.strip():
            where += (
                " AND (title LIKE ? ESCAPE '\\' OR id IN (SELECT conversation_id FROM messages "
                "WHERE content LIKE ? ESCAPE '\\'))"
            )
            pattern = _like_pattern(query.strip())
            params += [pattern, pattern]
        rows = self._store.query(
            f"SELECT * FROM conversations WHERE {where} ORDER BY updated_at DESC", params
        )
        return [row_to_conversation(r) for r in rows]

    def rename(self, conversation_id: str, title: str) -> Conversation:
        if not isinstance(title, str) or not title.strip():
            raise InvalidInputError(
                "empty title", user_message="标题不能为空。 / The title cannot be empty."
            )
        title = clean_label(title, "title")
        conv = self.get(conversation_id)
        with self._store.write() as conn:
            conn.execute(
                "UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id)
            )
        self._changes.conversations_changed(conv.case_id)
        return self.get(conversation_id)

    def set_memory(self, conversation_id: str, enabled: bool) -> Conversation:
        conv = self.get(conversation_id)
        with self._store.write() as conn:
            conn.execute(
                "UPDATE conversations SET memory_enabled = ? WHERE id = ?",
                (int(enabled), conversation_id),
            )
        self._changes.conversations_changed(conv.case_id)
        return self.get(conversation_id)

    def delete(self, conversation_id: str) -> None:
        conv = self.get(conversation_id)
        with self._store.write() as conn:
            conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
            # its turns may still wait for extraction, text included: they go with it
            self._jobs.drop_waiting_turns(conn, conversation_id)
        self._store.checkpoint_truncate()
        self._changes.conversations_changed(conv.case_id)
        self._changes.messages_changed(conversation_id)
        self._changes.jobs_changed()

    # -- messages ------------------------------------------------------------------------

    def add_message(
        self,
        conversation_id: str,
        role: str,
        content: str,
        injected_note_ids: Sequence[str] = (),
        status: str = "complete",
        passage_ids: Sequence[str] = (),
    ) -> Message:
        """Store one message; ``status`` says how a reply ended (see MESSAGE_STATUSES);
        ``passage_ids`` the document passages a reply was given to cite."""
        if role not in ROLES:
            raise InvalidInputError(f"unknown role {role!r}")
        if status not in MESSAGE_STATUSES:
            raise InvalidInputError(f"unknown message status {status!r}")
        if not isinstance(content, str):
            raise InvalidInputError(f"message content must be text, got {type(content).__name__}")
        content = without_surrogates(content)  # a model's stream may carry one; UTF-8 cannot
        self.get(conversation_id)
        now = utcnow()
        msg = Message(
            new_id(), conversation_id, role, content, now, tuple(injected_note_ids), status,
            tuple(passage_ids),
        )
        with self._store.write() as conn:
            conn.execute(
                "INSERT INTO messages (id, conversation_id, role, content, created_at, "
                "injected_note_ids, status, passage_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    msg.id,
                    conversation_id,
                    role,
                    content,
                    to_iso(now),
                    json.dumps(list(injected_note_ids)),
                    status,
                    json.dumps(list(passage_ids)),
                ),
            )
            conn.execute(
                "UPDATE conversations SET updated_at = ? WHERE id = ?",
                (to_iso(now), conversation_id),
            )
        self._changes.messages_changed(conversation_id)
        return msg

    def record_learned(self, message_id: str, note_ids: Sequence[str]) -> bool:
        """Keep with a reply the notes learned from its turn; False if the reply is gone
        (deleted, or replaced by Retry, meanwhile)."""
        row = self._store.query_one(
            "SELECT conversation_id, learned_note_ids FROM messages WHERE id = ?", (message_id,)
        )
        if row is None:
            return False
        known = list(json.loads(row[1]))
        merged = known + [i for i in note_ids if i not in known]
        if merged != known:
            with self._store.write() as conn:
                conn.execute(
                    "UPDATE messages SET learned_note_ids = ? WHERE id = ?",
                    (json.dumps(merged), message_id),
                )
            self._changes.messages_changed(row[0])
        return True

    def delete_message(self, message_id: str) -> None:
        """Remove one message (Retry replaces the last reply)."""
        row = self._store.query_one(
            "SELECT conversation_id FROM messages WHERE id = ?", (message_id,)
        )
        with self._store.write() as conn:
            if conn.execute("DELETE FROM messages WHERE id = ?", (message_id,)).rowcount == 0:
                raise NotFoundError(f"message {message_id!r} not found")
        self._store.checkpoint_truncate()
        if row is not None:
            self._changes.messages_changed(row[0])

    def messages(self, conversation_id: str) -> list[Message]:
        rows = self._store.query(
            "SELECT * FROM messages WHERE conversation_id = ? ORDER BY created_at, rowid",
            (conversation_id,),
        )
        return [row_to_message(r) for r in rows]
