"""Cases: create, list, rename, archive.  A case is the unit of confidentiality: its notes
are never shown in another case (see scope.py)."""

from __future__ import annotations

import sqlite3

from desktop_app.core.errors import CaseNotFoundError, InvalidInputError
from desktop_app.memory.changes import ChangeRecorder
from desktop_app.memory.ids import new_id
from desktop_app.memory.store import Store, from_iso, to_iso, utcnow
from desktop_app.memory.text import clean_content, clean_label
from desktop_app.memory.types import Case

_EMPTY_NAME = "案件名称不能为空。 / A case needs a name."


def row_to_case(row: sqlite3.Row) -> Case:
    return Case(
        id=row["id"],
        name=row["name"],
        description=row["description"],
        created_at=from_iso(row["created_at"]),
        archived=bool(row["archived"]),
    )


def _case_name(name: object) -> str:
    """A case name as stored: one visible line (see text.clean_label)."""
    if name is None or (isinstance(name, str) and not name.strip()):
        raise InvalidInputError("empty case name", user_message=_EMPTY_NAME)
    return clean_label(name, "case name")


def _description(text: object) -> str:
    if text is None:
        return ""
    if not isinstance(text, str):
        raise InvalidInputError(
            f"case description must be text, got {type(text).__name__}",
            user_message="案件说明必须是文字。 / The case description must be text.",
        )
    if not text.strip():
        return ""
    return clean_content(text)


class Cases:
    def __init__(self, store: Store, changes: ChangeRecorder) -> None:
        self._store = store
        self._changes = changes

    def create(self, name: str, description: str = "") -> Case:
        name = _case_name(name)
        case = Case(new_id(), name, _description(description), utcnow(), False)
        with self._store.write() as conn:
            conn.execute(
                "INSERT INTO cases (id, name, description, created_at, archived) VALUES (?, ?, ?, ?, 0)",
                (case.id, case.name, case.description, to_iso(case.created_at)),
            )
        self._changes.cases_changed()
        return case

    def list(self, include_archived: bool = False) -> list[Case]:
        sql = "SELECT * FROM cases" + ("" if include_archived else " WHERE archived = 0")
        return [row_to_case(r) for r in self._store.query(sql + " ORDER BY created_at")]

    def get(self, case_id: str) -> Case:
        row = self._store.query_one("SELECT * FROM cases WHERE id = ?", (case_id,))
        if row is None:
            raise CaseNotFoundError(f"case {case_id!r} not found")
        return row_to_case(row)

    def check(self, case_id: str | None) -> None:
        """Raise CaseNotFoundError unless ``case_id`` is None (global) or an existing case."""
        if case_id is not None:
            self.get(case_id)

    def rename(self, case_id: str, name: str, description: str | None = None) -> Case:
        name = _case_name(name)
        description = None if description is None else _description(description)
        self.get(case_id)
        with self._store.write() as conn:
            conn.execute("UPDATE cases SET name = ? WHERE id = ?", (name, case_id))
            if description is not None:
                conn.execute(
                    "UPDATE cases SET description = ? WHERE id = ?", (description, case_id)
                )
        self._changes.cases_changed()
        return self.get(case_id)

    def archive(self, case_id: str, archived: bool = True) -> Case:
        self.get(case_id)
        with self._store.write() as conn:
            conn.execute("UPDATE cases SET archived = ? WHERE id = ?", (int(archived), case_id))
        self._changes.cases_changed()
        return self.get(case_id)

    def discard(self, case_id: str) -> None:
        """Remove a case that was created by an operation that then failed (all or nothing)."""
        with self._store.write() as conn:
            conn.execute("DELETE FROM cases WHERE id = ?", (case_id,))

    def total(self) -> int:
        return self._store.query_one("SELECT COUNT(*) FROM cases")[0]
