"""The memory check-up's proposal: run the detectors (maintenance.py) over one case, store
what they found, and apply or dismiss it item by item — never a silent change.

An item is keyed by its kind and its notes, and remembers each note's ``updated_at``: a
dismissed item is not proposed again unless one of its notes changed, and accepting an item
whose notes changed since the proposal skips it (the lawyer decided on what they saw).
Accepted items go through the engine's public editing methods, so each change leaves a
history row and reaches the index at once.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Protocol

from desktop_app.core.errors import InvalidInputError, NoteNotFoundError
from desktop_app.memory import maintenance
from desktop_app.memory.index import NoteIndex
from desktop_app.memory.notes_repository import NotesRepository
from desktop_app.memory.scope import index_filter
from desktop_app.memory.store import Store, from_iso, to_iso, utcnow
from desktop_app.memory.types import (
    MaintenanceChoice,
    MaintenanceItem,
    MaintenanceOutcome,
    MaintenanceProposal,
    MemoryConfig,
    Note,
)

#: the reason written in each accepted change's history row
REASON = "记忆体检 / memory check-up"


class MaintenanceEngine(Protocol):
    """What applying a proposal needs from the engine: its public editing API."""

    def get_note(self, note_id: str) -> Note: ...
    def archive_note(self, note_id: str, reason: str = "") -> Note: ...
    def expire_note(self, note_id: str, reason: str = "") -> Note: ...
    def merge_group(
        self, keep_id: str, other_ids: Sequence[str], merged_text: str | None = None
    ) -> Note: ...
    def resolve_conflict(self, note_id: str, other_id: str, keep: str) -> list[Note]: ...
    def supersede_note(
        self, old_id: str, new_id: str, actor: str = ..., reason: str = ...
    ) -> Note: ...


def item_id(case_id: str, kind: str, note_ids: Sequence[str]) -> str:
    key = f"{case_id}|{kind}|{','.join(sorted(note_ids))}"
    return hashlib.sha256(key.encode()).hexdigest()[:24]


def _row_to_item(row) -> MaintenanceItem:
    return MaintenanceItem(
        id=row["id"],
        case_id=row["case_id"],
        kind=row["kind"],
        note_ids=tuple(json.loads(row["note_ids"])),
        score=row["score"],
        event_date=date.fromisoformat(row["event_date"]) if row["event_date"] else None,
        state=row["state"],
        created_at=from_iso(row["created_at"]),
    )


class MaintenanceProposals:
    def __init__(self, store: Store, notes: NotesRepository, index: NoteIndex) -> None:
        self._store = store
        self._notes = notes
        self._index = index

    # -- the pass ------------------------------------------------------------------------

    def run(
        self, case_id: str, config: MemoryConfig, now: datetime | None = None
    ) -> MaintenanceProposal:
        """Check one case and store its proposal (dismissed items stay dismissed while
        their notes are unchanged); returns the open items."""
        started = time.perf_counter()
        now = now or utcnow()
        notes = self._notes.list(case_id, status="active")
        by_id = {n.id: n for n in notes}
        linked = self._linked_ids(case_id)
        found = maintenance.passed_events(notes, maintenance.local_date(now))
        # a passed event is proposed for expiry; archiving it as stale too would say it twice
        passed = {c.note_ids[0] for c in found}
        found += [
            c
            for c in maintenance.stale_orphans(notes, linked, now, config.maintenance_stale_days)
            if c.note_ids[0] not in passed
        ]
        ids, vectors = self._index.scope_matrix(index_filter(case_id, include_global=False))
        if vectors is not None:
            # the index may lag SQLite by a write: only notes active in both take part
            keep = [k for k, i in enumerate(ids) if i in by_id]
            found += maintenance.duplicates_and_updates(
                [by_id[ids[k]] for k in keep],
                vectors[keep],
                config.maintenance_duplicate_threshold,
                config.maintenance_update_threshold,
            )
        # open conflicts (issue 12) wait for the lawyer too; only within the case, both active
        found += [
            maintenance.Candidate("conflict", (link.src, link.dst))
            for link in self._notes.open_conflict_links(case_id)
            if link.src in by_id and link.dst in by_id
        ]
        seconds = time.perf_counter() - started
        self._store_found(case_id, found, by_id, now, seconds)
        return self.proposal(case_id)

    def _linked_ids(self, case_id: str) -> set[str]:
        rows = self._store.query(
            "SELECT l.src, l.dst FROM links l JOIN notes n ON n.id = l.src WHERE n.case_id = ?",
            (case_id,),
        )
        return {r["src"] for r in rows} | {r["dst"] for r in rows}

    def _store_found(
        self,
        case_id: str,
        found: list[maintenance.Candidate],
        by_id: dict[str, Note],
        now: datetime,
        seconds: float,
    ) -> None:
        existing = {
            r["id"]: r
            for r in self._store.query(
                "SELECT id, state, versions FROM maintenance_items WHERE case_id = ?", (case_id,)
            )
        }
        rows, seen = [], set()
        for c in found:
            iid = item_id(case_id, c.kind, c.note_ids)
            if iid in seen:
                continue
            seen.add(iid)
            versions = json.dumps({i: to_iso(by_id[i].updated_at) for i in sorted(c.note_ids)})
            old = existing.get(iid)
            if old is not None and old["state"] == "dismissed" and old["versions"] == versions:
                continue  # dismissed and nothing changed since
            rows.append(
                (
                    iid,
                    case_id,
                    c.kind,
                    json.dumps(list(c.note_ids)),
                    versions,
                    c.score,
                    c.event_date.isoformat() if c.event_date else None,
                    to_iso(now),
                )
            )
        gone = [(i,) for i, r in existing.items() if r["state"] == "open" and i not in seen]
        with self._store.write() as conn:
            conn.executemany("DELETE FROM maintenance_items WHERE id = ?", gone)
            conn.executemany(
                "INSERT INTO maintenance_items "
                "(id, case_id, kind, note_ids, versions, score, event_date, state, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?) "
                "ON CONFLICT(id) DO UPDATE SET note_ids = excluded.note_ids, "
                "versions = excluded.versions, score = excluded.score, "
                "event_date = excluded.event_date, state = 'open', decided_at = NULL",
                rows,
            )
            conn.execute(
                "INSERT INTO maintenance_runs (case_id, ran_at, seconds) VALUES (?, ?, ?) "
                "ON CONFLICT(case_id) DO UPDATE SET ran_at = excluded.ran_at, "
                "seconds = excluded.seconds",
                (case_id, to_iso(now), seconds),
            )

    # -- reading -------------------------------------------------------------------------

    def proposal(self, case_id: str) -> MaintenanceProposal:
        rows = self._store.query(
            "SELECT * FROM maintenance_items WHERE case_id = ? AND state = 'open' "
            "ORDER BY kind, created_at, id",
            (case_id,),
        )
        run = self._store.query_one(
            "SELECT ran_at, seconds FROM maintenance_runs WHERE case_id = ?", (case_id,)
        )
        return MaintenanceProposal(
            case_id,
            tuple(_row_to_item(r) for r in rows),
            from_iso(run["ran_at"]) if run else None,
            run["seconds"] if run else 0.0,
        )

    def open_count(self, case_id: str | None = None) -> int:
        if case_id is None:
            row = self._store.query_one(
                "SELECT COUNT(*) FROM maintenance_items WHERE state = 'open'"
            )
        else:
            row = self._store.query_one(
                "SELECT COUNT(*) FROM maintenance_items WHERE state = 'open' AND case_id = ?",
                (case_id,),
            )
        return int(row[0])

    def last_run(self, case_id: str) -> datetime | None:
        row = self._store.query_one(
            "SELECT ran_at FROM maintenance_runs WHERE case_id = ?", (case_id,)
        )
        return from_iso(row["ran_at"]) if row else None

    def _items(self, item_ids: Sequence[str]) -> list[tuple[MaintenanceItem, dict]]:
        out = []
        for iid in dict.fromkeys(item_ids):
            row = self._store.query_one("SELECT * FROM maintenance_items WHERE id = ?", (iid,))
            if row is not None and row["state"] == "open":
                out.append((_row_to_item(row), json.loads(row["versions"])))
        return out

    # -- deciding ------------------------------------------------------------------------

    def dismiss(self, item_ids: Sequence[str]) -> int:
        items = self._items(item_ids)
        self._set_state([i.id for i, _v in items], "dismissed")
        return len(items)

    def accept(
        self,
        engine: MaintenanceEngine,
        item_ids: Sequence[str],
        choices: Mapping[str, MaintenanceChoice] | None = None,
    ) -> MaintenanceOutcome:
        """Apply each open item whose notes are as they were when it was proposed.  A
        conflict is applied only with the lawyer's choice (``choices[item_id]``): without
        one it stays open, never settled by a guess."""
        choices = choices or {}
        applied, skipped, undecided = [], [], []
        for item, versions in self._items(item_ids):
            choice = choices.get(item.id)
            if item.kind == "conflict" and choice is None:
                undecided.append(item.id)
                continue
            if not self._unchanged(engine, versions):
                skipped.append(item.id)
                continue
            _apply(engine, item, choice)
            applied.append(item.id)
            self._set_state([item.id], "accepted")
        return MaintenanceOutcome(tuple(applied), tuple(skipped), tuple(undecided))

    @staticmethod
    def _unchanged(engine: MaintenanceEngine, versions: dict[str, str]) -> bool:
        for note_id, stamp in versions.items():
            try:
                note = engine.get_note(note_id)
            except NoteNotFoundError:
                return False
            if note.status != "active" or to_iso(note.updated_at) != stamp:
                return False
        return True

    def _set_state(self, ids: Sequence[str], state: str) -> None:
        now = to_iso(utcnow())
        with self._store.write() as conn:
            conn.executemany(
                "UPDATE maintenance_items SET state = ?, decided_at = ? WHERE id = ?",
                [(state, now, i) for i in ids],
            )


def _apply(
    engine: MaintenanceEngine, item: MaintenanceItem, choice: MaintenanceChoice | None
) -> None:
    ids = item.note_ids
    if choice is not None and choice.keep not in (*ids, "both"):
        raise InvalidInputError(f"{choice.keep!r} is not one of the item's notes")
    if item.kind == "stale":
        engine.archive_note(ids[0], REASON)
    elif item.kind == "passed":
        engine.expire_note(ids[0], f"{REASON}: {item.event_date}")
    elif item.kind == "duplicate":
        keep = ids[0] if choice is None or choice.keep == "both" else choice.keep
        engine.merge_group(
            keep, [i for i in ids if i != keep], choice.merged_text if choice else None
        )
    elif item.kind == "conflict":
        assert choice is not None  # accept() leaves a conflict without a choice open
        engine.resolve_conflict(ids[0], ids[1], choice.keep)
    elif item.kind == "update":
        engine.supersede_note(ids[0], ids[1], actor="user", reason=REASON)
    else:
        raise ValueError(f"unknown maintenance kind {item.kind!r}")
