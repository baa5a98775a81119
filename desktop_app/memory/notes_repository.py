"""The notes repository: every SQL statement on notes, links and note history, and the
mappers between their rows and the value types.

Reads run on the calling thread's reader connection; writes take the caller's open
transaction (``conn`` from ``Store.write()``), so one engine operation stays one transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from desktop_app.core.errors import InvalidInputError, NoteNotFoundError
from desktop_app.memory.link_folding import link_pair
from desktop_app.memory.scope import scope_key, sql_in_scope, sql_same_scope_key
from desktop_app.memory.store import Store, from_iso, to_iso, utcnow
from desktop_app.memory.types import NOTE_STATUSES, HistoryEntry, Link, Note

NOTE_COLUMNS = (
    "id, case_id, content, category, keywords, context, tags, source, content_hash, created_at, "
    "updated_at, valid_from, invalid_at, status, pinned, retrieval_count, last_accessed, "
    "evolution_count, event_date, source_kind, origin"
)
#: link kinds stored both ways (a supersedes link has a direction)
SYMMETRIC_KINDS = frozenset({"semantic", "manual", "duplicate", "evolution", "conflict"})
ORDERABLE = frozenset(
    {"created_at", "updated_at", "category", "status", "retrieval_count", "content", "event_date"}
)
#: how an ORDER BY name is sorted: a note with no event date sits at the day it was recorded
_ORDER_EXPRESSIONS = {"event_date": "COALESCE(event_date, substr(created_at, 1, 10))"}
#: an active note in a conflict nobody settled yet, with another active note
OPEN_CONFLICT = (
    "status = 'active' AND EXISTS (SELECT 1 FROM links c JOIN notes o ON o.id = c.dst "
    "WHERE c.src = notes.id AND c.kind = 'conflict' AND c.resolved_at IS NULL "
    "AND o.status = 'active')"
)
_CHUNK = 500  # ids per IN (...) list: well below SQLite's variable limit


# -- row mapping ---------------------------------------------------------------------------


def row_to_note(row: sqlite3.Row) -> Note:
    return Note(
        id=row["id"],
        case_id=row["case_id"],
        content=row["content"],
        category=row["category"],
        keywords=tuple(json.loads(row["keywords"])),
        context=row["context"],
        tags=tuple(json.loads(row["tags"])),
        source=row["source"],
        content_hash=row["content_hash"],
        created_at=from_iso(row["created_at"]),
        updated_at=from_iso(row["updated_at"]),
        valid_from=from_iso(row["valid_from"]),
        invalid_at=from_iso(row["invalid_at"]),
        status=row["status"],
        pinned=bool(row["pinned"]),
        retrieval_count=row["retrieval_count"],
        last_accessed=from_iso(row["last_accessed"]),
        evolution_count=row["evolution_count"],
        event_date=row["event_date"],
        source_kind=row["source_kind"],
        origin=row["origin"],
    )


def note_snapshot(note: Note) -> dict:
    """The editable part of a note, as stored in note_history (before/after)."""
    return {
        "content": note.content,
        "category": note.category,
        "keywords": list(note.keywords),
        "context": note.context,
        "tags": list(note.tags),
        "status": note.status,
        "pinned": note.pinned,
        "invalid_at": to_iso(note.invalid_at),
        "event_date": note.event_date,
        "source_kind": note.source_kind,
    }


def row_to_link(row: sqlite3.Row) -> Link:
    return Link(
        src=row["src"],
        dst=row["dst"],
        kind=row["kind"],
        strength=row["strength"],
        reason=row["reason"],
        created_at=from_iso(row["created_at"]),
        label=row["label"],
        resolved_at=from_iso(row["resolved_at"]),
    )


def row_to_history(row: sqlite3.Row) -> HistoryEntry:
    return HistoryEntry(
        id=row["id"],
        note_id=row["note_id"],
        actor=row["actor"],
        action=row["action"],
        before=json.loads(row["before"]) if row["before"] else None,
        after=json.loads(row["after"]) if row["after"] else None,
        reason=row["reason"],
        created_at=from_iso(row["created_at"]),
    )


def _chunks(ids: Sequence[str]) -> Iterable[list[str]]:
    for start in range(0, len(ids), _CHUNK):
        yield list(ids[start : start + _CHUNK])


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" * len(values))


class NotesRepository:
    def __init__(self, store: Store) -> None:
        self._store = store

    # -- reading notes -------------------------------------------------------------------

    def get(self, note_id: str) -> Note:
        row = self._store.query_one(f"SELECT {NOTE_COLUMNS} FROM notes WHERE id = ?", (note_id,))
        if row is None:
            raise NoteNotFoundError(f"note {note_id!r} not found")
        return row_to_note(row)

    def by_ids(self, ids: Sequence[str]) -> list[Note]:
        """The notes that still exist, in the order of ``ids``."""
        found: dict[str, Note] = {}
        for chunk in _chunks(ids):
            for row in self._store.query(
                f"SELECT {NOTE_COLUMNS} FROM notes WHERE id IN ({_marks(chunk)})", chunk
            ):
                found[row["id"]] = row_to_note(row)
        return [found[i] for i in ids if i in found]

    def active_twin(self, case_id: str | None, content_hash: str) -> Note | None:
        """The active note of this scope with the same normalised content, if any."""
        row = self._store.query_one(
            f"SELECT {NOTE_COLUMNS} FROM notes WHERE {sql_same_scope_key()} = ? "
            "AND content_hash = ? AND status = 'active' LIMIT 1",
            (scope_key(case_id), content_hash),
        )
        return row_to_note(row) if row is not None else None

    def active_twins(self, keys: Sequence[tuple[str | None, str]]) -> dict[tuple[str, str], Note]:
        """:meth:`active_twin` for many (case_id, content_hash) pairs at once, keyed by
        (scope key, hash): one query per scope and chunk instead of one per item."""
        by_scope: dict[str, list[str]] = {}
        for case_id, content_hash in keys:
            by_scope.setdefault(scope_key(case_id), []).append(content_hash)
        found: dict[tuple[str, str], Note] = {}
        for key, hashes in by_scope.items():
            for chunk in _chunks(list(dict.fromkeys(hashes))):
                for row in self._store.query(
                    f"SELECT {NOTE_COLUMNS} FROM notes WHERE {sql_same_scope_key()} = ? "
                    f"AND content_hash IN ({_marks(chunk)}) AND status = 'active'",
                    (key, *chunk),
                ):
                    found.setdefault((key, row["content_hash"]), row_to_note(row))
        return found

    @staticmethod
    def _filter(
        case_id: str | None,
        include_global: bool,
        status: str | None,
        category: str | None,
        conflicted: bool = False,
    ) -> tuple[str, list[Any]]:
        scope, params = sql_in_scope(case_id, include_global=include_global)
        where = [scope]
        if conflicted:
            where.append(OPEN_CONFLICT)
        if status is not None:
            if status not in NOTE_STATUSES:
                raise InvalidInputError(f"unknown status {status!r}")
            where.append("status = ?")
            params.append(status)
        if category is not None:
            where.append("category = ?")
            params.append(category)
        return " AND ".join(where), params

    def list(
        self,
        case_id: str | None,
        include_global: bool = False,
        status: str | None = None,
        category: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        order_by: str = "created_at",
        descending: bool = False,
        conflicted: bool = False,
    ) -> list[Note]:
        where, params = self._filter(case_id, include_global, status, category, conflicted)
        if order_by not in ORDERABLE:
            raise InvalidInputError(f"cannot order by {order_by!r}")
        order = _ORDER_EXPRESSIONS.get(order_by, order_by)
        direction = "DESC" if descending else "ASC"
        sql = (
            f"SELECT {NOTE_COLUMNS} FROM notes WHERE {where} ORDER BY {order} {direction}, "
            f"created_at {direction}, id LIMIT ? OFFSET ?"
        )
        params += [limit if limit is not None else -1, offset]
        return [row_to_note(r) for r in self._store.query(sql, params)]

    def count(
        self,
        case_id: str | None,
        include_global: bool = False,
        status: str | None = None,
        category: str | None = None,
        conflicted: bool = False,
    ) -> int:
        where, params = self._filter(case_id, include_global, status, category, conflicted)
        return self._store.query_one(f"SELECT COUNT(*) FROM notes WHERE {where}", params)[0]

    def ids_in_scope(self, case_id: str | None) -> set[str]:
        where, params = sql_in_scope(case_id)
        return {r[0] for r in self._store.query(f"SELECT id FROM notes WHERE {where}", params)}

    def pinned(self, case_id: str | None) -> list[Note]:
        """The active pinned notes of exactly this scope."""
        where, params = sql_in_scope(case_id)
        rows = self._store.query(
            # the partial index holds only pinned notes: no scan of the whole case per search
            f"SELECT {NOTE_COLUMNS} FROM notes INDEXED BY notes_pinned "
            f"WHERE {where} AND pinned = 1 AND status = 'active'",
            params,
        )
        return [row_to_note(r) for r in rows]

    # -- narrow rows for ranking (no JSON decoding, no full Note) ------------------------

    def ranking_rows(self, ids: Sequence[str]) -> dict[str, sqlite3.Row]:
        """id, rowid, case_id, status, created_at, pinned, event_date of each note, by id."""
        out: dict[str, sqlite3.Row] = {}
        for chunk in _chunks(ids):
            for r in self._store.query(
                "SELECT id, rowid, case_id, status, created_at, pinned, event_date FROM notes "
                f"WHERE id IN ({_marks(chunk)})",
                chunk,
            ):
                out[r["id"]] = r
        return out

    def written_next_to(
        self, row: sqlite3.Row, lo: str, hi: str, include_inactive: bool
    ) -> list[str]:
        """The notes of ``row``'s scope written just before and just after it (by
        created_at, ties by insertion order), within [lo, hi]."""
        status = "" if include_inactive else " AND status = 'active'"
        found = []
        # ISO-8601 UTC strings compare in time order; (created_at, rowid) breaks ties
        # between notes written in the same instant (one batch) in insertion order.
        for cmp, bound, order in (("<", ">= ?", "DESC"), (">", "<= ?", "ASC")):
            hit = self._store.query_one(  # through the store: its errors are mapped
                f"SELECT id FROM notes WHERE case_id IS ?{status} "
                f"AND (created_at, rowid) {cmp} (?, ?) AND created_at {bound} "
                f"ORDER BY created_at {order}, rowid {order} LIMIT 1",
                (row["case_id"], row["created_at"], row["rowid"], lo if cmp == "<" else hi),
            )
            if hit is not None:
                found.append(hit[0])
        return found

    # -- index bookkeeping ---------------------------------------------------------------

    def all_ids(self, oldest_first: bool = False) -> list[str]:
        order = " ORDER BY created_at" if oldest_first else ""
        return [r[0] for r in self._store.query(f"SELECT id FROM notes{order}")]

    def total(self) -> int:
        return self._store.query_one("SELECT COUNT(*) FROM notes")[0]

    def active_total(self) -> int:
        return self._store.query_one("SELECT COUNT(*) FROM notes WHERE status = 'active'")[0]

    def unindexed_ids(self) -> list[str]:
        return [r[0] for r in self._store.query("SELECT id FROM notes WHERE index_dirty = 1")]

    def mark_indexed(self, ids: Sequence[str]) -> None:
        with self._store.write() as conn:
            conn.executemany("UPDATE notes SET index_dirty = 0 WHERE id = ?", [(i,) for i in ids])

    def tombstones(self) -> list[str]:
        """Notes deleted from SQLite whose index rows may still exist (a crash between)."""
        return [r[0] for r in self._store.query("SELECT note_id FROM index_tombstones")]

    def clear_tombstones(self, ids: Sequence[str]) -> None:
        with self._store.write() as conn:
            conn.executemany("DELETE FROM index_tombstones WHERE note_id = ?", [(t,) for t in ids])

    # -- writing notes -------------------------------------------------------------------

    @staticmethod
    def insert(conn: sqlite3.Connection, note: Note) -> None:
        NotesRepository.insert_many(conn, [note])

    @staticmethod
    def insert_many(conn: sqlite3.Connection, notes: Sequence[Note]) -> None:
        """New notes in one statement (a batch add writes hundreds)."""
        conn.executemany(
            f"INSERT INTO notes ({NOTE_COLUMNS}, index_dirty) VALUES "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
            [
                (
                    note.id,
                    note.case_id,
                    note.content,
                    note.category,
                    json.dumps(list(note.keywords), ensure_ascii=False),
                    note.context,
                    json.dumps(list(note.tags), ensure_ascii=False),
                    note.source,
                    note.content_hash,
                    to_iso(note.created_at),
                    to_iso(note.updated_at),
                    to_iso(note.valid_from),
                    to_iso(note.invalid_at),
                    note.status,
                    int(note.pinned),
                    note.retrieval_count,
                    to_iso(note.last_accessed),
                    note.evolution_count,
                    note.event_date,
                    note.source_kind,
                    note.origin,
                )
                for note in notes
            ],
        )

    @staticmethod
    def save(conn: sqlite3.Connection, note: Note, *, dirty: bool) -> None:
        """Write a note's editable fields; ``dirty`` marks it for re-indexing."""
        conn.execute(
            "UPDATE notes SET content = ?, category = ?, keywords = ?, context = ?, tags = ?, "
            "content_hash = ?, updated_at = ?, invalid_at = ?, status = ?, pinned = ?, "
            "evolution_count = ?, event_date = ?, source_kind = ?, "
            "index_dirty = MAX(index_dirty, ?) WHERE id = ?",
            (
                note.content,
                note.category,
                json.dumps(list(note.keywords), ensure_ascii=False),
                note.context,
                json.dumps(list(note.tags), ensure_ascii=False),
                note.content_hash,
                to_iso(note.updated_at),
                to_iso(note.invalid_at),
                note.status,
                int(note.pinned),
                note.evolution_count,
                note.event_date,
                note.source_kind,
                int(dirty),
                note.id,
            ),
        )

    def mark_reused(self, ids: Sequence[str], conn: sqlite3.Connection | None = None) -> None:
        """A known note came up again (a duplicate add, a NOOP decision): it moves up."""
        rows = [(to_iso(utcnow()), i) for i in ids]
        sql = "UPDATE notes SET updated_at = ?, retrieval_count = retrieval_count + 1 WHERE id = ?"
        if conn is not None:
            conn.executemany(sql, rows)
            return
        with self._store.write() as wconn:
            wconn.executemany(sql, rows)

    def mark_recalled(self, ids: Sequence[str]) -> None:
        """Notes injected into a chat reply count as retrieved."""
        now = to_iso(utcnow())
        with self._store.write() as conn:
            conn.executemany(
                "UPDATE notes SET retrieval_count = retrieval_count + 1, last_accessed = ? WHERE id = ?",
                [(now, i) for i in ids],
            )

    @staticmethod
    def delete(conn: sqlite3.Connection, note_id: str) -> None:
        """The row and its history (links go by cascade); a tombstone remembers that the
        index row must go too, should the process die before it does."""
        conn.execute("DELETE FROM note_history WHERE note_id = ?", (note_id,))
        conn.execute("DELETE FROM notes WHERE id = ?", (note_id,))
        conn.execute("INSERT OR IGNORE INTO index_tombstones (note_id) VALUES (?)", (note_id,))

    # -- history -------------------------------------------------------------------------

    @staticmethod
    def add_history(
        conn: sqlite3.Connection,
        note_id: str,
        actor: str,
        action: str,
        before: dict | None,
        after: dict | None,
        reason: str = "",
        derived_from: str | None = None,
    ) -> None:
        """One version row.  ``derived_from`` names the note a model-made change came from
        (evolution after a new note, a decision about it): forgetting that note rolls the
        change back (see forget_sql.py)."""
        NotesRepository.add_history_many(
            conn, [(note_id, actor, action, before, after, reason, derived_from)]
        )

    @staticmethod
    def add_history_many(
        conn: sqlite3.Connection,
        entries: Iterable[tuple[Any, ...]],
    ) -> None:
        """History rows (note_id, actor, action, before, after, reason[, derived_from]) in
        one statement."""
        now = to_iso(utcnow())
        conn.executemany(
            "INSERT INTO note_history (note_id, actor, action, before, after, reason, "
            "created_at, derived_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    note_id,
                    actor,
                    action,
                    json.dumps(before, ensure_ascii=False) if before is not None else None,
                    json.dumps(after, ensure_ascii=False) if after is not None else None,
                    reason,
                    now,
                    derived_from[0] if derived_from else None,
                )
                for note_id, actor, action, before, after, reason, *derived_from in entries
            ],
        )

    def history(self, note_id: str) -> list[HistoryEntry]:
        rows = self._store.query(
            "SELECT * FROM note_history WHERE note_id = ? ORDER BY id", (note_id,)
        )
        entries = [row_to_history(r) for r in rows]
        # A "created" row is stored without its ``after`` (see ingest): the note as created
        # is the next change's ``before``, or the note as it is now when nothing changed since.
        for i, entry in enumerate(entries):
            if entry.action != "created" or entry.after is not None:
                continue
            later = next((e.before for e in entries[i + 1 :] if e.before is not None), None)
            if later is None:
                try:
                    later = note_snapshot(self.get(note_id))
                except NoteNotFoundError:
                    later = None
            entries[i] = replace(entry, after=later)
        return entries

    # -- links ---------------------------------------------------------------------------

    @staticmethod
    def insert_link(
        conn: sqlite3.Connection,
        src: str,
        dst: str,
        kind: str,
        strength: float,
        reason: str,
        label: str | None = None,
    ) -> None:
        NotesRepository.insert_links(conn, [(src, dst, kind, strength, reason, label)])

    @staticmethod
    def insert_links(conn: sqlite3.Connection, links: Iterable[tuple[Any, ...]]) -> None:
        """Links (src, dst, kind, strength, reason[, label]) in one statement; symmetric
        kinds both ways; an existing link keeps the larger strength (and its label unless a
        new one is given)."""
        now = to_iso(utcnow())
        rows = []
        for src, dst, kind, strength, reason, *label in links:
            pairs = [(src, dst), (dst, src)] if kind in SYMMETRIC_KINDS else [(src, dst)]
            rows.extend(
                (a, b, kind, float(strength), reason, now, label[0] if label else None)
                for a, b in pairs
            )
        conn.executemany(
            "INSERT INTO links (src, dst, kind, strength, reason, created_at, label) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(src, dst, kind) DO UPDATE SET strength = MAX(strength, excluded.strength), "
            "reason = CASE WHEN excluded.reason != '' THEN excluded.reason ELSE reason END, "
            "label = COALESCE(excluded.label, label)",
            rows,
        )

    @staticmethod
    def link_pair(
        conn: sqlite3.Connection,
        src: str,
        dst: str,
        kind: str,
        strength: float,
        reason: str,
        label: str | None = None,
    ) -> bool:
        """Link two notes so that the pair keeps one link (see link_folding.py); a
        ``supersedes`` link, which has a direction, is stored as it comes."""
        if kind not in SYMMETRIC_KINDS:
            NotesRepository.insert_link(conn, src, dst, kind, strength, reason, label)
            return True
        return link_pair(conn, src, dst, kind, strength, reason, label)

    @staticmethod
    def move_links(
        conn: sqlite3.Connection, from_id: str, to_id: str, leave_out: Iterable[str] = ()
    ) -> None:
        """Move ``from_id``'s links onto ``to_id`` (a merge): no link of ``to_id`` to itself
        or to a note in ``leave_out``, one link per pair, a conflict keeps whether it was
        settled.  A ``supersedes`` link pointing at ``from_id`` stays: it says what
        replaced ``from_id``, not what ``to_id`` is."""
        skip = {from_id, to_id, *leave_out}
        rows = conn.execute(
            "SELECT * FROM links WHERE src = ? OR (dst = ? AND kind != 'supersedes')",
            (from_id, from_id),
        ).fetchall()
        for r in rows:
            other = r["dst"] if r["src"] == from_id else r["src"]
            if other in skip:
                continue
            if r["kind"] in SYMMETRIC_KINDS:
                link_pair(
                    conn, to_id, other, r["kind"], r["strength"], r["reason"], r["label"],
                    r["resolved_at"],
                )  # fmt: skip
            else:
                NotesRepository.insert_link(
                    conn, to_id, other, r["kind"], r["strength"], r["reason"], r["label"]
                )
        conn.execute(
            "DELETE FROM links WHERE src = ? OR (dst = ? AND kind != 'supersedes')",
            (from_id, from_id),
        )

    @staticmethod
    def set_link_label(conn: sqlite3.Connection, a: str, b: str, label: str | None) -> int:
        """The relation shown on every link between ``a`` and ``b`` (both directions)."""
        return conn.execute(
            "UPDATE links SET label = ? WHERE (src = ? AND dst = ?) OR (src = ? AND dst = ?)",
            (label, a, b, b, a),
        ).rowcount

    @staticmethod
    def resolve_conflict_links(conn: sqlite3.Connection, a: str, b: str) -> int:
        """Mark the conflict between ``a`` and ``b`` settled (both directions)."""
        return conn.execute(
            "UPDATE links SET resolved_at = ? WHERE kind = 'conflict' AND resolved_at IS NULL "
            "AND ((src = ? AND dst = ?) OR (src = ? AND dst = ?))",
            (to_iso(utcnow()), a, b, b, a),
        ).rowcount

    def open_conflict_links(self, case_id: str | None, include_global: bool = False) -> list[Link]:
        """One link per open conflict of the scope (both notes active, not settled)."""
        where, params = sql_in_scope(case_id, include_global=include_global, column="a.case_id")
        rows = self._store.query(
            "SELECT l.* FROM links l JOIN notes a ON a.id = l.src JOIN notes b ON b.id = l.dst "
            "WHERE l.kind = 'conflict' AND l.resolved_at IS NULL AND l.src < l.dst "
            f"AND a.status = 'active' AND b.status = 'active' AND {where} "
            "ORDER BY l.created_at",
            params,
        )
        return [row_to_link(r) for r in rows]

    def matter_partners(self, ids: Sequence[str]) -> dict[str, list[str]]:
        """The notes linked to ``ids`` as possible duplicates (two notes about one thing),
        for ordering the current one first."""
        out: dict[str, list[str]] = {}
        for chunk in _chunks(ids):
            for r in self._store.query(
                f"SELECT src, dst FROM links WHERE kind = 'duplicate' AND src IN ({_marks(chunk)})",
                chunk,
            ):
                out.setdefault(r["src"], []).append(r["dst"])
        return out

    @staticmethod
    def delete_links(conn: sqlite3.Connection, a: str, b: str, kind: str | None = None) -> int:
        """Links between ``a`` and ``b`` in either direction (of one kind, or all)."""
        if kind is None:
            cur = conn.execute(
                "DELETE FROM links WHERE (src = ? AND dst = ?) OR (src = ? AND dst = ?)",
                (a, b, b, a),
            )
        else:
            cur = conn.execute(
                "DELETE FROM links WHERE kind = ? AND ((src = ? AND dst = ?) OR (src = ? AND dst = ?))",
                (kind, a, b, b, a),
            )
        return cur.rowcount

    @staticmethod
    def delete_supersedes_links_to(conn: sqlite3.Connection, note_id: str) -> None:
        conn.execute("DELETE FROM links WHERE kind = 'supersedes' AND dst = ?", (note_id,))

    def links_of(self, note_id: str) -> list[Link]:
        rows = self._store.query(
            "SELECT * FROM links WHERE src = ? ORDER BY strength DESC, created_at", (note_id,)
        )
        return [row_to_link(r) for r in rows]

    def link_total(self) -> int:
        return self._store.query_one("SELECT COUNT(*) FROM links")[0]

    # -- the graph -----------------------------------------------------------------------

    def graph_rows(
        self, case_id: str | None, include_global: bool
    ) -> tuple[list[sqlite3.Row], list[sqlite3.Row]]:
        """(note rows, link rows) of one scope, narrow: what the graph draws."""
        where, params = sql_in_scope(case_id, include_global=include_global)
        notes = self._store.query(
            "SELECT id, content, category, status, pinned, retrieval_count, tags, event_date, "
            f"source_kind, origin, {OPEN_CONFLICT} AS conflicted FROM notes WHERE {where}",
            params,
        )
        src_where, params = sql_in_scope(case_id, include_global=include_global, column="n.case_id")
        links = self._store.query(
            "SELECT l.src, l.dst, l.kind, l.strength, l.label FROM links l "
            f"JOIN notes n ON n.id = l.src WHERE {src_where}",
            params,
        )
        return notes, links

    # -- search without the index ----------------------------------------------------------

    def with_any_term(
        self, case_id: str | None, terms: Sequence[str], include_inactive: bool, limit: int
    ) -> list[Note]:
        """Notes visible from ``case_id`` (its own and the global ones) whose text holds one
        of ``terms`` (lower-cased words or CJK bigrams), newest first: the search while the
        index is being rebuilt (fallback_search.py)."""
        if not terms:
            return []
        where, params = sql_in_scope(case_id, include_global=True)
        haystack = "lower(content || ' ' || context || ' ' || keywords || ' ' || tags)"
        matches = " OR ".join([f"instr({haystack}, ?) > 0"] * len(terms))
        status = "" if include_inactive else " AND status = 'active'"
        rows = self._store.query(
            f"SELECT {NOTE_COLUMNS} FROM notes WHERE {where}{status} AND ({matches}) "
            "ORDER BY created_at DESC LIMIT ?",
            [*params, *terms, limit],
        )
        return [row_to_note(r) for r in rows]

    def any_content_holds(
        self, text: str, excluding: Sequence[str] = (), outside_case: str | None = None
    ) -> bool:
        """Whether a note other than ``excluding`` (and, given ``outside_case``, outside that
        case) states ``text`` in its own content."""
        excluded = list(excluding)[:_CHUNK]
        case_filter = " AND case_id IS NOT ?" if outside_case is not None else ""
        params = [text, *excluded] + ([outside_case] if outside_case is not None else [])
        row = self._store.query_one(
            f"SELECT 1 FROM notes WHERE instr(content, ?) > 0 AND id NOT IN ({_marks(excluded)})"
            f"{case_filter} LIMIT 1",
            params,
        )
        return row is not None
