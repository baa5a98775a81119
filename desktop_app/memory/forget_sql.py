"""The SQL of forgetting, for any copy of the database: the live one (inside the forget's
own transaction) and each backup (on its temporary copy, see backups.py).

Forgetting a note removes what the model derived from it too.  Evolution (A-MEM step 3)
rewrites a neighbour's context and tags because of a new note, and a decision may mark an
older note superseded by it; each such change is a note_history row whose ``derived_from``
names the note (older copies: reason "evolution after <id>").  Forget rolls those fields back
to what they were before the note touched them, drops the derived history rows and rewrites
the neighbour's other history snapshots that still carry the derived values.  A user's own
edits are kept.

Written against the columns each copy really has: a backup may come from an older schema.
The caller owns the transaction (and the connection's ``secure_delete``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from desktop_app.memory.jobs import ENRICH

#: what a forgotten note's id becomes where another row names it in words
FORGOTTEN = "(forgotten)"
#: the fields a derived change may touch and forget rolls back (content stays: a merge
#: made the text the other note's own)
_DERIVED_FIELDS = ("context", "tags", "status", "invalid_at")
_CHUNK = 500


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}


def _chunks(ids: Sequence[str]) -> Iterable[list[str]]:
    for start in range(0, len(ids), _CHUNK):
        yield list(ids[start : start + _CHUNK])


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" * len(values))


def _load(text: str | None) -> dict | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except (ValueError, TypeError):
        return None
    return value if isinstance(value, dict) else None


def _dump(value: dict | None) -> str | None:
    return json.dumps(value, ensure_ascii=False) if value is not None else None


def _tags(text: str | None) -> list[str]:
    try:
        value = json.loads(text or "[]")
    except (ValueError, TypeError):
        return []
    return [str(t) for t in value] if isinstance(value, list) else []


@dataclass(slots=True)
class _Derivation:
    """What the forgotten notes changed in one neighbour."""

    row_ids: set[int] = field(default_factory=set)
    first_before: dict | None = None
    contexts: set[str] = field(default_factory=set)
    tag_lists: list[list[str]] = field(default_factory=list)
    added_tags: set[str] = field(default_factory=set)
    #: (status after the change, status before, invalid_at before) of a derived supersede
    status: tuple[str, str, str | None] | None = None

    def add(self, row_id: int, before: dict | None, after: dict | None) -> bool:
        """Take one derived history row; False when it changed more than forget rolls
        back (the row is then kept)."""
        before, after = before or {}, after or {}
        changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
        if changed - set(_DERIVED_FIELDS):
            return False
        if self.first_before is None:
            self.first_before = before
        if "context" in changed and after.get("context"):
            self.contexts.add(str(after["context"]))
        if "tags" in changed:
            self.tag_lists.append([str(t) for t in after.get("tags") or ()])
            self.added_tags |= set(map(str, after.get("tags") or ())) - set(
                map(str, before.get("tags") or ())
            )
        if "status" in changed:
            self.status = (after.get("status"), before.get("status"), before.get("invalid_at"))
        self.row_ids.add(row_id)
        return True


def _derived_rows(conn: sqlite3.Connection, source_ids: Sequence[str]) -> list[sqlite3.Row]:
    has_column = "derived_from" in columns(conn, "note_history")
    rows: list[sqlite3.Row] = []
    for chunk in _chunks(list(source_ids)):
        marks = _marks(chunk)
        reasons = [f"evolution after {i}" for i in chunk]
        where = f"(actor = 'evolution' AND reason IN ({marks}))"
        params: list[str] = reasons
        if has_column:
            where = f"(derived_from IN ({marks}) OR {where})"
            params = [*chunk, *reasons]
        rows += conn.execute(
            f"SELECT id, note_id, before, after FROM note_history WHERE {where} "
            f"AND note_id NOT IN ({marks}) ORDER BY id",
            [*params, *chunk],
        ).fetchall()
    rows.sort(key=lambda r: r[0])
    return rows


def revert_derived(
    conn: sqlite3.Connection, source_ids: Sequence[str], terms: Sequence[str] = ()
) -> list[str]:
    """Roll back, in every other note, what ``source_ids`` made the model change there
    (context, tags, a supersede); returns the ids of the notes changed.  A value that still
    holds one of ``terms`` is treated as derived too (a later evolution may have copied
    it on)."""
    by_note: dict[str, _Derivation] = {}
    for row_id, note_id, before, after in _derived_rows(conn, source_ids):
        by_note.setdefault(note_id, _Derivation()).add(row_id, _load(before), _load(after))
    changed = []
    note_columns = columns(conn, "notes")
    for note_id, d in by_note.items():
        if not d.row_ids:
            continue
        if _revert_one(conn, note_id, d, terms, note_columns):
            changed.append(note_id)
    return changed


def _holds(value: str, terms: Sequence[str]) -> bool:
    return any(t in value for t in terms)


def _revert_one(
    conn: sqlite3.Connection,
    note_id: str,
    d: _Derivation,
    terms: Sequence[str],
    note_columns: set[str],
) -> bool:
    row = conn.execute(
        "SELECT context, tags, status, invalid_at FROM notes WHERE id = ?", (note_id,)
    ).fetchone()
    if row is None:
        return False
    pre = d.first_before or {}
    pre_context = str(pre.get("context") or "")
    pre_tags = [str(t) for t in pre.get("tags") or () if not _holds(str(t), terms)]

    def fix_context(value: Any) -> Any:
        if isinstance(value, str) and (value in d.contexts or _holds(value, terms)):
            return pre_context
        return value

    def fix_tags(values: Iterable[Any]) -> list[str]:
        values = [str(t) for t in values]
        if values in d.tag_lists:  # still exactly what the model set: what it replaced returns
            return list(pre_tags)
        return [t for t in values if t not in d.added_tags and not _holds(t, terms)]

    context, tags, status, invalid_at = row[0], _tags(row[1]), row[2], row[3]
    if d.status is not None and status == d.status[0] and d.status[1]:
        status, invalid_at = d.status[1], d.status[2]
    sets = {
        "context": fix_context(context),
        "tags": json.dumps(fix_tags(tags), ensure_ascii=False),
        "status": status,
        "invalid_at": invalid_at,
    }
    extra = ", index_dirty = 1" if "index_dirty" in note_columns else ""
    conn.execute(
        f"UPDATE notes SET context = ?, tags = ?, status = ?, invalid_at = ?{extra} WHERE id = ?",
        (*sets.values(), note_id),
    )
    # the neighbour's own history: the derived rows go, the others stop quoting them
    for hid, before, after, reason in conn.execute(
        "SELECT id, before, after, reason FROM note_history WHERE note_id = ?", (note_id,)
    ).fetchall():
        if hid in d.row_ids:
            conn.execute("DELETE FROM note_history WHERE id = ?", (hid,))
            continue
        snaps = [_load(before), _load(after)]
        for snap in snaps:
            if snap is None:
                continue
            if "context" in snap:
                snap["context"] = fix_context(snap["context"])
            if isinstance(snap.get("tags"), list):
                snap["tags"] = fix_tags(snap["tags"])
        new = (_dump(snaps[0]), _dump(snaps[1]), "" if _holds(reason or "", terms) else reason)
        if new != (before, after, reason):
            conn.execute(
                "UPDATE note_history SET before = ?, after = ?, reason = ? WHERE id = ?",
                (*new, hid),
            )
    return True


def delete_notes(conn: sqlite3.Connection, note_ids: Sequence[str]) -> int:
    """Delete notes with everything that names them: history, links, graph positions,
    their jobs; other rows that mention an id in words or lists lose it.  Returns the
    number of note rows deleted."""
    ids = list(dict.fromkeys(note_ids))
    if not ids:
        return 0
    have = tables(conn)
    deleted = 0
    for chunk in _chunks(ids):
        marks = _marks(chunk)
        conn.execute(f"DELETE FROM note_history WHERE note_id IN ({marks})", chunk)
        conn.execute(
            f"DELETE FROM links WHERE src IN ({marks}) OR dst IN ({marks})", [*chunk, *chunk]
        )
        if "graph_positions" in have:
            conn.execute(f"DELETE FROM graph_positions WHERE note_id IN ({marks})", chunk)
        if "jobs" in have:  # a note's jobs: by payload while queued, by key once done
            conn.execute(
                "DELETE FROM jobs WHERE (json_valid(payload) "
                f"AND json_extract(payload, '$.note_id') IN ({marks})) "
                f"OR dedupe_key IN ({marks})",
                [*chunk, *(f"{ENRICH}:{i}" for i in chunk)],
            )
        deleted += conn.execute(f"DELETE FROM notes WHERE id IN ({marks})", chunk).rowcount
    _scrub_ids(conn, ids, have)
    return deleted


def _scrub_ids(conn: sqlite3.Connection, ids: Sequence[str], have: set[str]) -> None:
    """Other rows that name a forgotten note: a history reason or a merge's "after", a derived
    mark, a reply's list of injected notes."""
    history_columns = columns(conn, "note_history")
    for note_id in ids:
        conn.execute(
            "UPDATE note_history SET reason = replace(reason, ?, ?) WHERE instr(reason, ?) > 0",
            (note_id, FORGOTTEN, note_id),
        )
        # a merge names the notes it merged in its "after" (merged_from / merged_into)
        conn.execute(
            "UPDATE note_history SET after = replace(after, ?, ?) WHERE instr(after, ?) > 0",
            (note_id, FORGOTTEN, note_id),
        )
        if "derived_from" in history_columns:
            conn.execute(
                "UPDATE note_history SET derived_from = NULL WHERE derived_from = ?", (note_id,)
            )
    if "messages" not in have:
        return
    gone = set(ids)
    message_columns = columns(conn, "messages")
    # the notes a reply used, and the notes learned from its turn (migration 0010)
    for column in ("injected_note_ids", "learned_note_ids"):
        if column not in message_columns:
            continue
        for chunk in _chunks(list(ids)):
            cond = " OR ".join([f"instr({column}, ?) > 0"] * len(chunk))
            for msg_id, listed in conn.execute(
                f"SELECT id, {column} FROM messages WHERE {cond}", chunk
            ).fetchall():
                kept = [i for i in _tags(listed) if i not in gone]
                conn.execute(
                    f"UPDATE messages SET {column} = ? WHERE id = ?", (json.dumps(kept), msg_id)
                )


@dataclass(frozen=True, slots=True)
class CaseRows:
    """What one copy held of a case."""

    notes: int = 0
    conversations: int = 0
    messages: int = 0
    jobs: int = 0


def case_note_ids(conn: sqlite3.Connection, case_id: str) -> list[str]:
    return [r[0] for r in conn.execute("SELECT id FROM notes WHERE case_id = ?", (case_id,))]


def delete_case(conn: sqlite3.Connection, case_id: str) -> CaseRows:
    """Delete a case and everything in it: notes (as :func:`delete_notes`), conversations
    and their messages, the jobs that carry its text, and the case row itself."""
    have = tables(conn)
    notes = delete_notes(conn, case_note_ids(conn, case_id))
    conv_ids = (
        [r[0] for r in conn.execute("SELECT id FROM conversations WHERE case_id = ?", (case_id,))]
        if "conversations" in have
        else []
    )
    messages = jobs = 0
    if "jobs" in have:
        jobs = conn.execute(
            "DELETE FROM jobs WHERE json_valid(payload) AND json_extract(payload, '$.case_id') = ?",
            (case_id,),
        ).rowcount
    for chunk in _chunks(conv_ids):
        marks = _marks(chunk)
        if "messages" in have:
            messages += conn.execute(
                f"DELETE FROM messages WHERE conversation_id IN ({marks})", chunk
            ).rowcount
        if "jobs" in have:
            jobs += conn.execute(
                "DELETE FROM jobs WHERE json_valid(payload) "
                f"AND json_extract(payload, '$.conversation_id') IN ({marks})",
                chunk,
            ).rowcount
        conn.execute(f"DELETE FROM conversations WHERE id IN ({marks})", chunk)
    conn.execute("DELETE FROM cases WHERE id = ?", (case_id,))
    return CaseRows(notes, len(conv_ids), messages, jobs)


def count_case(conn: sqlite3.Connection, case_id: str) -> CaseRows:
    """What :func:`delete_case` would remove (for the confirmation)."""
    one = lambda sql: conn.execute(sql, (case_id,)).fetchone()[0]  # noqa: E731
    return CaseRows(
        notes=one("SELECT COUNT(*) FROM notes WHERE case_id = ?"),
        conversations=one("SELECT COUNT(*) FROM conversations WHERE case_id = ?"),
        messages=one(
            "SELECT COUNT(*) FROM messages WHERE conversation_id IN "
            "(SELECT id FROM conversations WHERE case_id = ?)"
        ),
        jobs=one(
            "SELECT COUNT(*) FROM jobs WHERE json_valid(payload) "
            "AND json_extract(payload, '$.case_id') = ?"
        ),
    )
