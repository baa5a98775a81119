"""Current first: of two notes that say different values about one thing — a pair the engine
linked as possible duplicates ("月薪8000元" / "月薪调整为9500元", "同意调解" / "不同意调解") or a
supersede chain — the one with the later date ranks first, with or without an LLM.

Pure ordering: the search hands in its ranked list, the notes' dates and their pairs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from desktop_app.memory.dates import sort_key

Ranked = TypeVar("Ranked", bound=tuple)


def groups(ids: Sequence[str], partners: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """The connected groups (two or more) among ``ids`` along ``partners`` links."""
    present = set(ids)
    seen: set[str] = set()
    out = []
    for start in ids:
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            note_id = todo.pop()
            group.append(note_id)
            for other in partners.get(note_id, ()):
                if other in present and other not in seen:
                    seen.add(other)
                    todo.append(other)
        if len(group) > 1:
            out.append(group)
    return out


def order_current_first(
    ranked: Sequence[Ranked],
    dates: Mapping[str, str],
    partners: Mapping[str, Sequence[str]],
) -> list[Ranked]:
    """``ranked`` (tuples whose second item is a note id, best first) with each group of
    paired notes re-seated in the places the group already holds, latest date first; the
    ranking elsewhere is untouched.  Notes with equal dates keep their order."""
    out = list(ranked)
    position = {entry[1]: i for i, entry in enumerate(out)}
    for group in groups([entry[1] for entry in out], partners):
        places = sorted(position[i] for i in group)
        # latest first; Python's sort is stable, so equal dates keep the score order
        members = sorted(
            (out[p] for p in places), key=lambda e: sort_key(dates.get(e[1])), reverse=True
        )
        for place, entry in zip(places, members, strict=True):
            out[place] = entry
    return out
