"""Checks on values that arrive from outside (the public API, an imported file) and that the
layers below take for granted: a clear InvalidInputError at the door, nothing half-written.

A note's ``created_at`` is when it was recorded: a date and time within the years LexMem can
reason about.  An integer (``20240101``), a bool or a list is refused, and so is year 1 or
9999 — such a date once reached the search, where "the notes written within half an hour"
overflowed Python's calendar.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from desktop_app.core.errors import InvalidInputError

#: the recording times LexMem accepts
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)


def _bad_date(where: str, value: Any, why: str) -> InvalidInputError:
    shown = repr(value)[:60]
    return InvalidInputError(
        f"{where}: created_at {shown}: {why}",
        user_message=(
            f"日期无效：{shown}（应为 1900–2199 年间的 ISO 8601 日期时间，例如 2024-03-15T10:30）。 / "
            f"Invalid date {shown}: use an ISO 8601 date and time between 1900 and 2199 "
            "(e.g. 2024-03-15T10:30)."
        ),
    )


def check_created_at(value: Any, where: str = "note") -> datetime | None:
    """``value`` as a datetime (None stays None: "now"), or InvalidInputError."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip())
        except ValueError as exc:
            raise _bad_date(where, value, "not an ISO 8601 date") from exc
    elif isinstance(value, datetime):
        parsed = value
    else:  # an int is not a date, even when it reads like one (20240101)
        raise _bad_date(where, value, f"a {type(value).__name__}, not a date")
    try:
        instant = parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)
        if not EARLIEST <= instant < LATEST:
            raise _bad_date(where, value, "outside 1900–2199")
    except OverflowError as exc:
        raise _bad_date(where, value, "outside the calendar") from exc
    return parsed


def check_items(items: Iterable[Any]) -> list[Any]:
    """The items of an add, with each ``created_at`` checked (the rest is checked where the
    note is prepared)."""
    out = []
    for number, item in enumerate(items, start=1):
        if isinstance(item, dict) and "created_at" in item:
            item = {**item, "created_at": check_created_at(item["created_at"], f"item {number}")}
        out.append(item)
    return out
