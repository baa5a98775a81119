"""Changing notes after they exist: edit, expire and restore, supersede, undo, merge, link
and unlink, and true delete.

Every change keeps a note_history row and reaches the index at once (re-embedded when its
text changed).  Notes of different scopes are never linked, merged or superseded.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from desktop_app.core.errors import InvalidInputError
from desktop_app.memory import construction
from desktop_app.memory.changes import ChangeRecorder
from desktop_app.memory.dates import parse_event_date
from desktop_app.memory.index_sync import IndexSync
from desktop_app.memory.merge_text import combined_text
from desktop_app.memory.notes_repository import NotesRepository, note_snapshot
from desktop_app.memory.scope import require_same_scope
from desktop_app.memory.store import Store, from_iso, utcnow
from desktop_app.memory.text import clean_content, clean_inline, clean_label_list, content_hash
from desktop_app.memory.types import CATEGORIES, LINK_KINDS, LINK_TYPES, SOURCE_KINDS, Note

log = logging.getLogger(__name__)

#: the reasons written in a merge's history rows (the ids are in the rows' "after")
MERGED_FROM = "合并自另一条记忆 / merged from another memory"
MERGED_INTO = "已合并到另一条记忆 / merged into another memory"


def _first_event_date(notes: Sequence[Note]) -> str | None:
    return next((n.event_date for n in notes if n.event_date), None)


def _checked_event_date(value: str) -> str | None:
    if not value.strip():
        return None
    parsed = parse_event_date(value)
    if parsed is None:
        raise InvalidInputError(
            f"bad event date {value!r}",
            user_message=(
                f"无法识别的日期：{value}（例如 2024-07-15）。 / "
                f"Unrecognised date: {value} (e.g. 2024-07-15)."
            ),
        )
    return parsed


#: the fields whose change alters the vector or the full-text terms
TEXT_FIELDS = frozenset({"content", "context", "tags", "keywords", "event_date"})
#: the actors whose changes the model made (forget rolls back those derived from a note)
MODEL_ACTORS = frozenset({"construction", "decision", "evolution"})


class NoteEditor:
    def __init__(
        self,
        store: Store,
        notes: NotesRepository,
        sync: IndexSync,
        changes: ChangeRecorder,
    ) -> None:
        self._store = store
        self._notes = notes
        self._sync = sync
        self._changes = changes

    # -- edit ----------------------------------------------------------------------------

    def update(
        self,
        note_id: str,
        *,
        content: str | None = None,
        category: str | None = None,
        tags: Iterable[str] | None = None,
        pinned: bool | None = None,
        context: str | None = None,
        keywords: Iterable[str] | None = None,
        event_date: str | None = None,
        source_kind: str | None = None,
        actor: str = "user",
        reason: str = "",
        derived_from: str | None = None,
    ) -> Note:
        """Edit a note; the text fields are re-embedded at once, and a history row is kept.
        ``event_date`` / ``source_kind``: ``""`` clears them, None leaves them.
        ``derived_from``: the note a model-made change came from (see forget_sql.py)."""
        with self._store.write_lock:
            before = self._notes.get(note_id)
            if derived_from is not None:
                # under the write lock: a note forgotten while the model was thinking about it
                # must not leave its traces in a neighbour afterwards (NoteNotFoundError)
                self._notes.get(derived_from)
            after = self._edited(
                before,
                content=content,
                category=category,
                tags=tags,
                pinned=pinned,
                context=context,
                keywords=keywords,
                event_date=event_date,
                source_kind=source_kind,
                actor=actor,
            )
            if after is None:
                return before
            reindex = self._reindex_needed(before, after)
            with self._store.write() as conn:
                self._notes.save(conn, after, dirty=reindex)
                self._notes.add_history(
                    conn,
                    note_id,
                    actor,
                    "updated",
                    note_snapshot(before),
                    note_snapshot(after),
                    reason,
                    derived_from,
                )
        if reindex:
            self._sync.write_notes([after])
        self._changes.notes_changed([(after.case_id, after.id)])
        return after

    @staticmethod
    def _reindex_needed(before: Note, after: Note) -> bool:
        return any(getattr(before, f) != getattr(after, f) for f in TEXT_FIELDS)

    @staticmethod
    def _edited(
        before: Note,
        *,
        content: str | None = None,
        category: str | None = None,
        tags: Iterable[str] | None = None,
        pinned: bool | None = None,
        context: str | None = None,
        keywords: Iterable[str] | None = None,
        event_date: str | None = None,
        source_kind: str | None = None,
        actor: str = "user",
    ) -> Note | None:
        """The note with the edits applied (validated), or None when nothing changes."""
        changes: dict[str, Any] = {}
        if content is not None:
            cleaned = clean_content(content)
            if cleaned != before.content:
                changes["content"] = cleaned
                changes["content_hash"] = content_hash(cleaned)
                if keywords is None:
                    changes["keywords"] = construction.extract_keywords(cleaned)
        if category is not None and category != before.category:
            if category not in CATEGORIES:
                raise InvalidInputError(f"unknown category {category!r}")
            changes["category"] = category
        if tags is not None:
            changes["tags"] = tuple(dict.fromkeys(clean_label_list(tags)))
        if keywords is not None:
            changes["keywords"] = tuple(dict.fromkeys(clean_label_list(keywords)))
        if context is not None:
            if not isinstance(context, str):
                raise InvalidInputError(f"context must be text, got {type(context).__name__}")
            changes["context"] = clean_inline(context)
        if pinned is not None:
            changes["pinned"] = bool(pinned)
        if event_date is not None:
            changes["event_date"] = _checked_event_date(event_date)
        if source_kind is not None:
            if source_kind and source_kind not in SOURCE_KINDS:
                raise InvalidInputError(f"unknown source kind {source_kind!r}")
            changes["source_kind"] = source_kind or None
        changes = {k: v for k, v in changes.items() if getattr(before, k) != v}
        if not changes:
            return None
        after = replace(before, **changes, updated_at=utcnow())
        if actor == "evolution":
            after = replace(after, evolution_count=before.evolution_count + 1)
        return after

    # -- status --------------------------------------------------------------------------

    def set_status(
        self,
        note_id: str,
        status: str,
        actor: str,
        action: str,
        reason: str,
        also: Callable[[sqlite3.Connection], None] | None = None,
        derived_from: str | None = None,
    ) -> Note:
        """Change a note's status; ``also`` adds writes to the same transaction."""
        with self._store.write_lock:
            before = self._notes.get(note_id)
            invalid_at = None if status == "active" else (before.invalid_at or utcnow())
            after = replace(before, status=status, invalid_at=invalid_at, updated_at=utcnow())
            with self._store.write() as conn:
                self._notes.save(conn, after, dirty=True)
                self._notes.add_history(
                    conn,
                    note_id,
                    actor,
                    action,
                    note_snapshot(before),
                    note_snapshot(after),
                    reason,
                    derived_from,
                )
                if also is not None:
                    also(conn)
        self._sync.write_notes([after])  # status is part of the row (and its stamp)
        self._changes.notes_changed([(after.case_id, after.id)])
        return after

    def expire(self, note_id: str, reason: str = "") -> Note:
        """Mark a note no longer valid (kept for history, never recalled)."""
        return self.set_status(note_id, "archived", "user", "expired", reason)

    def restore(self, note_id: str, reason: str = "") -> Note:
        return self.set_status(note_id, "active", "user", "restored", reason)

    def supersede(
        self, old_id: str, new_id: str, actor: str = "decision", reason: str = ""
    ) -> Note:
        """``new_id`` replaces ``old_id``: the old one gets invalid_at and a supersedes link
        (status, history and link in one transaction)."""
        if old_id == new_id:
            raise InvalidInputError("a note cannot supersede itself")
        with self._store.write_lock:
            old = self._notes.get(old_id)
            new = self._notes.get(new_id)
            require_same_scope(
                old.case_id,
                new.case_id,
                "notes of different scopes cannot supersede each other",
                InvalidInputError.default_user_message,
            )
            result = self.set_status(
                old_id,
                "superseded",
                actor,
                "superseded",
                reason,
                also=lambda conn: self._notes.insert_link(
                    conn, new_id, old_id, "supersedes", 1.0, reason, "取代"
                ),
                # a model's decision is derived from the new note: forgetting that note
                # makes the old fact current again (a user's merge is the user's own)
                derived_from=new_id if actor in MODEL_ACTORS else None,
            )
        self._changes.links_changed(old.case_id)
        return result

    def undo_last_change(self, note_id: str) -> Note:
        """Restore the state before the latest change that has not been undone yet."""
        history = self._notes.history(note_id)
        undone = {h.after.get("undo_of") for h in history if h.action == "undo" and h.after}
        target = next(
            (
                h
                for h in reversed(history)
                if h.action != "undo" and h.before is not None and h.id not in undone
            ),
            None,
        )
        if target is None:
            raise InvalidInputError(
                "nothing to undo", user_message="没有可撤销的修改。 / There is nothing to undo."
            )
        with self._store.write_lock:
            current = self._notes.get(note_id)
            b = target.before
            restored = replace(
                current,
                content=b["content"],
                content_hash=content_hash(b["content"]),
                category=b["category"],
                keywords=tuple(b["keywords"]),
                context=b["context"],
                tags=tuple(b["tags"]),
                status=b["status"],
                pinned=b["pinned"],
                invalid_at=from_iso(b["invalid_at"]),
                # history written before these fields existed does not name them
                event_date=b.get("event_date", current.event_date),
                source_kind=b.get("source_kind", current.source_kind),
                updated_at=utcnow(),
            )
            after = note_snapshot(restored) | {"undo_of": target.id}
            unsupersede = target.action == "superseded" and restored.status == "active"
            with self._store.write() as conn:
                self._notes.save(conn, restored, dirty=True)
                if unsupersede:
                    # no longer replaced: the "supersedes" link would contradict its status
                    self._notes.delete_supersedes_links_to(conn, note_id)
                self._notes.add_history(
                    conn,
                    note_id,
                    "user",
                    "undo",
                    note_snapshot(current),
                    after,
                    f"undo #{target.id}",
                )
        self._sync.write_notes([restored])
        self._changes.notes_changed([(restored.case_id, restored.id)])
        if unsupersede:
            self._changes.links_changed(restored.case_id)
        return restored

    # -- merge and links -----------------------------------------------------------------

    def merge(
        self, keep_id: str, other_ids: Sequence[str], merged_text: str | None = None
    ) -> Note:
        """Fold ``other_ids`` into ``keep``: the kept note holds ``merged_text`` (or, when
        None, its own text followed by what the others add), their tags and their links
        (one per pair, none to itself); each other note is marked replaced by the merge,
        its history kept and reachable from the kept note's ("merged_from" in the merge's
        history row, and a ``supersedes`` link).  ONE transaction: a crash leaves either
        every note as it was or the merge complete, never the kept note holding both
        texts while another is still active."""
        other_ids = list(dict.fromkeys(other_ids))
        if not other_ids:
            raise InvalidInputError("nothing to merge")
        if keep_id in other_ids:
            raise InvalidInputError("cannot merge a note with itself")
        if merged_text is not None and not merged_text.strip():
            raise InvalidInputError(
                "empty merged text",
                user_message="合并后的内容不能为空。 / The merged text cannot be empty.",
            )
        with self._store.write_lock:
            keep = self._notes.get(keep_id)
            others = [self._notes.get(i) for i in other_ids]
            for other in others:
                require_same_scope(
                    keep.case_id,
                    other.case_id,
                    "notes of different cases",
                    "不能合并不同案件的记忆。 / Notes of different cases cannot be merged.",
                )
            merged = self._edited(
                keep,
                content=merged_text
                if merged_text is not None
                else combined_text(keep.content, [o.content for o in others]),
                tags=[*keep.tags, *(t for o in others for t in o.tags)],
                # hand-written merged text: its own keywords; otherwise both notes' own
                keywords=None
                if merged_text is not None
                else [*keep.keywords, *(k for o in others for k in o.keywords)],
                pinned=keep.pinned or any(o.pinned for o in others),
                event_date=None if keep.event_date else _first_event_date(others),
            )
            merged = merged or replace(keep, updated_at=utcnow())
            now = utcnow()
            replaced = [
                replace(o, status="superseded", invalid_at=o.invalid_at or now, updated_at=now)
                for o in others
            ]
            with self._store.write() as conn:
                self._notes.save(conn, merged, dirty=self._reindex_needed(keep, merged))
                self._notes.add_history(
                    conn,
                    keep_id,
                    "user",
                    "merged",
                    note_snapshot(keep),
                    note_snapshot(merged) | {"merged_from": other_ids},
                    MERGED_FROM,
                )
                for before, after in zip(others, replaced, strict=True):
                    self._notes.move_links(conn, before.id, keep_id, leave_out=other_ids)
                    self._notes.save(conn, after, dirty=True)
                    self._notes.add_history(
                        conn,
                        before.id,
                        "user",
                        "superseded",
                        note_snapshot(before),
                        note_snapshot(after) | {"merged_into": keep_id},
                        MERGED_INTO,
                    )
                    self._notes.insert_link(conn, keep_id, before.id, "supersedes", 1.0, "merged")
        self._sync.write_notes([merged, *replaced])
        self._changes.notes_changed([(n.case_id, n.id) for n in (merged, *replaced)])
        self._changes.links_changed(keep.case_id)
        return merged

    def link(
        self,
        src: str,
        dst: str,
        kind: str = "manual",
        strength: float = 1.0,
        reason: str = "",
        label: str | None = None,
    ) -> None:
        if kind not in LINK_KINDS:
            raise InvalidInputError(f"unknown link kind {kind!r}")
        if label is not None and label not in LINK_TYPES:
            raise InvalidInputError(f"unknown link type {label!r}")
        a, b = self._notes.get(src), self._notes.get(dst)
        if src == dst:
            raise InvalidInputError("a note cannot link to itself")
        require_same_scope(
            a.case_id,
            b.case_id,
            "cross-case link",
            "不能链接不同案件的记忆。 / Notes of different cases cannot be linked.",
        )
        with self._store.write() as conn:
            # a pair keeps one link: a manual 关联 upgrades the model's link (link_folding.py)
            self._notes.link_pair(conn, src, dst, kind, strength, reason, label)
        self._changes.links_changed(a.case_id)

    def set_link_type(self, a: str, b: str, label: str) -> int:
        """The relation the lawyer reads on the links between ``a`` and ``b``."""
        if label not in LINK_TYPES:
            raise InvalidInputError(f"unknown link type {label!r}")
        scope = self._scope_of(a, b)
        with self._store.write() as conn:
            changed = self._notes.set_link_label(conn, a, b, label)
        if changed:
            self._changes.links_changed(scope)
        return changed

    # -- conflicts -------------------------------------------------------------------------

    def resolve_conflict(self, note_id: str, other_id: str, keep: str) -> list[Note]:
        """Settle the conflict between two notes, by hand: ``keep`` is ``"both"`` (both
        stay, the conflict is marked settled) or the id of the note that is right (the
        other is expired, kept in history).  Returns the notes as they are now."""
        with self._store.write_lock:
            first, second = self._notes.get(note_id), self._notes.get(other_id)
            if keep not in ("both", note_id, other_id):
                raise InvalidInputError(f"keep must be 'both' or one of the two notes, not {keep!r}")
            with self._store.write() as conn:
                settled = self._notes.resolve_conflict_links(conn, note_id, other_id)
                if not settled:
                    raise InvalidInputError(
                        "no open conflict between these notes",
                        user_message=(
                            "这两条记忆之间没有待处理的冲突。 / "
                            "These two memories have no open conflict."
                        ),
                    )
                for note in (first, second):
                    self._notes.add_history(
                        conn, note.id, "user", "conflict resolved", None, None,
                        "两条都保留 / both kept" if keep == "both"
                        else ("保留此条 / kept" if note.id == keep else "另一条为准 / the other is right"),
                    )  # fmt: skip
            if keep != "both":
                loser = other_id if keep == note_id else note_id
                self.set_status(
                    loser, "archived", "user", "expired",
                    "冲突已解决，另一条为准 / conflict resolved: the other note is right",
                )  # fmt: skip
        self._changes.links_changed(first.case_id)
        self._changes.notes_changed([(first.case_id, note_id), (second.case_id, other_id)])
        return self._notes.by_ids([note_id, other_id])

    def unlink(self, src: str, dst: str, kind: str | None = None) -> int:
        scope = self._scope_of(src, dst)
        with self._store.write() as conn:
            removed = self._notes.delete_links(conn, src, dst, kind)
        if removed:
            self._changes.links_changed(scope)
        return removed

    def _scope_of(self, *note_ids: str) -> str | None:
        found = self._notes.by_ids(list(note_ids))
        return found[0].case_id if found else None

    # -- reuse and delete ----------------------------------------------------------------

    def mark_reused(self, note_id: str) -> None:
        """A known fact came up again (the model judged a new note a duplicate of it)."""
        self._notes.mark_reused([note_id])
        self._changes.notes_changed((n.case_id, n.id) for n in self._notes.by_ids([note_id]))

    def delete(self, note_id: str) -> None:
        """Truly delete: the row, its history and links, its index rows and every old index
        version; SQLite pages are zeroed (secure_delete) and the WAL truncated."""
        with self._store.write_lock:
            note = self._notes.get(note_id)
            with self._store.write() as conn:
                self._notes.delete(conn, note_id)
            self._sync.remove([note_id])
            for _attempt in range(50):  # a reader mid-statement delays the truncation briefly
                if self._store.checkpoint_truncate():
                    break
                time.sleep(0.02)
            else:
                log.warning("WAL could not be truncated after a delete; it will be at close")
        self._changes.notes_removed([(note.case_id, note_id)])
        self._changes.links_changed(note.case_id)
