"""How recalled memories are put to the model: one separate system message, worded in the
language of the user interface (the memory layer chooses the notes; the chat words them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop_app.memory.types import Note

PREAMBLE_ZH = "以下是与本案相关的长程记忆，视为已知事实（若与用户新的陈述冲突，以用户为准）："
PREAMBLE_EN = (
    "Long-term memory about this matter, to be treated as known facts "
    "(where it conflicts with something the user now says, the user is right):"
)


def _english(language: str) -> bool:
    return language.lower().startswith("en")


def format_memories(notes: Sequence[Note], language: str = "zh_CN") -> str:
    """The system message holding the recalled notes (empty if there are none).  Each
    note's date is the day it was recorded, in the user's local time zone."""
    if not notes:
        return ""
    from desktop_app.memory.types import CATEGORY_LABELS_EN  # loaded with the engine already

    english = _english(language)
    lines = [PREAMBLE_EN if english else PREAMBLE_ZH]
    for n, note in enumerate(notes, start=1):
        date = note.created_at.astimezone().strftime("%Y-%m-%d") if note.created_at else ""
        if english:
            category = CATEGORY_LABELS_EN.get(note.category, note.category)
            when = f" (recorded {date})" if date else ""
        else:
            category = note.category
            when = f"（记录于 {date}）" if date else ""
        lines.append(f"{n}. [{category}] {note.content}{when}")
    return "\n".join(lines)
