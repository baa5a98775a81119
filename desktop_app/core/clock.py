"""Time as the user lives it: instants are stored in UTC, but "today", "yesterday" and the
day a note is filed under are the user's, in the machine's local zone.

A naive datetime handed to the app means local wall-clock time (what ``datetime.now()`` and a
date typed in a dialog give), never UTC: stamping local time as UTC put chat notes eight
hours ahead in China.
"""

from __future__ import annotations

from datetime import UTC, date, datetime


def aware(value: datetime) -> datetime:
    """``value`` with a zone: a naive value is local time."""
    return value if value.tzinfo is not None else value.astimezone()


def to_utc(value: datetime) -> datetime:
    return aware(value).astimezone(UTC)


def to_local(value: datetime) -> datetime:
    """The same instant in the user's zone (local wall-clock time, with its offset)."""
    return aware(value).astimezone()


def local_now() -> datetime:
    return datetime.now().astimezone()


def local_date(value: datetime) -> date:
    """The user's calendar day of an instant."""
    return to_local(value).date()
