"""The confidentiality rule, written once: which notes belong together.

A note lives in one *scope*: a case (``case_id``) or the global scope (``case_id`` None: the
lawyer's preferences and reusable knowledge).  Two rules follow, and every query, filter and
check in the engine goes through the functions here:

- **same scope**: notes may be linked, merged, superseded, deduplicated or offered as each
  other's neighbours only within one scope (never across cases, never case ↔ global);
- **visible from a case**: a search or recall in a case sees that case's notes plus the global
  ones — never another case's.
"""

from __future__ import annotations

import re
from typing import Any

from desktop_app.core.errors import InvalidInputError

#: how the global scope is written where a column cannot hold NULL (the index, dedupe keys)
GLOBAL_KEY = ""
_SAFE_ID = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")


def scope_key(case_id: str | None) -> str:
    """One comparable key per scope (the global scope is ``GLOBAL_KEY``)."""
    return case_id or GLOBAL_KEY


def same_scope(a: str | None, b: str | None) -> bool:
    return scope_key(a) == scope_key(b)


def require_same_scope(a: str | None, b: str | None, technical: str, user_message: str) -> None:
    """Raise InvalidInputError (with ``user_message``) unless ``a`` and ``b`` share a scope."""
    if not same_scope(a, b):
        raise InvalidInputError(technical, user_message=user_message)


def visible_from(note_case_id: str | None, case_id: str | None) -> bool:
    """May a note of ``note_case_id`` be shown to someone working in ``case_id``?"""
    return note_case_id is None or note_case_id == case_id


# -- SQL ---------------------------------------------------------------------------------


def sql_in_scope(
    case_id: str | None, *, include_global: bool = False, column: str = "case_id"
) -> tuple[str, list[Any]]:
    """A WHERE fragment (and its parameters) for the notes of one scope; with
    ``include_global`` a case's notes plus the global ones."""
    if case_id is None:
        return f"{column} IS NULL", []
    if include_global:
        return f"({column} = ? OR {column} IS NULL)", [case_id]
    return f"{column} = ?", [case_id]


def sql_same_scope_key(column: str = "case_id") -> str:
    """``IFNULL(case_id, '')``: the SQL side of :func:`scope_key` (the dedupe index uses it)."""
    return f"IFNULL({column}, '{GLOBAL_KEY}')"


# -- the LanceDB index -------------------------------------------------------------------


def quote_ids(ids: Any) -> str:
    """Ids quoted for a LanceDB filter.  Ids are generated hex strings; anything else must
    never reach a filter expression."""
    for value in ids:
        if not _SAFE_ID.match(value):
            raise ValueError(f"unsafe id in index filter: {value!r}")
    return ", ".join(f"'{value}'" for value in ids)


def index_filter(
    case_id: str | None, *, include_global: bool = True, include_inactive: bool = False
) -> str:
    """The index filter for a scope: by default the case plus the global notes (search);
    ``include_global=False`` is the note's own scope only (neighbours of a new note)."""
    keys = [scope_key(case_id)]
    if include_global and case_id is not None:
        keys.append(GLOBAL_KEY)
    where = "case_id IN (" + ", ".join(quote_ids([k]) if k else "''" for k in keys) + ")"
    if not include_inactive:
        where += " AND status = 'active'"
    return where
