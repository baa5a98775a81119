"""Current first: of two active notes that say different values about one thing — a pair the
engine linked as possible duplicates ("月薪8000元" / "月薪调整为9500元", "同意调解" / "不同意调解")
— the one with the later date ranks first, with or without an LLM.  (Of a supersede chain
only the head is active: searches for current facts never see the rest.)

Pure ordering: the search hands in its ranked list, the notes' dates and their pairs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cmp_to_key
from typing import TypeVar

from desktop_app.memory.dates import is_later

Ranked = TypeVar("Ranked", bound=tuple)

#: a note takes part in its group's re-seating only if it scores at least this share of the
#: group's best: a query that names one note ("imp0x0", a case number) keeps it on top even
#: when near-identical newer notes ("导入批次2第0条" beside "导入批次0第0条") pair with it
RELEVANCE_BAND = 0.5


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


def newer(a: tuple[str, str], b: tuple[str, str]) -> int:
    """Compare two notes by (effective date, recorded time): 1 if ``a`` is the current one,
    -1 if ``b`` is, 0 if nothing tells.  A date certainly after the other wins; dates that
    overlap ("2024-03" and "2024-03-05") leave it to the later statement."""
    (date_a, recorded_a), (date_b, recorded_b) = a, b
    if is_later(date_a, date_b):
        return 1
    if is_later(date_b, date_a):
        return -1
    return (recorded_a > recorded_b) - (recorded_a < recorded_b)


def order_current_first(
    ranked: Sequence[Ranked],
    dates: Mapping[str, str],
    partners: Mapping[str, Sequence[str]],
    recorded: Mapping[str, str] | None = None,
) -> list[Ranked]:
    """``ranked`` (tuples of score and note id, best first) with each group of paired notes
    re-seated in the places the group already holds, the current one first (see
    :func:`newer`; ``recorded``: ISO recording times); the ranking elsewhere is untouched.
    Notes nothing tells apart keep their order, and a note far less relevant than its
    group's best (``RELEVANCE_BAND``) stays where the scores put it."""
    recorded = recorded or {}
    out = list(ranked)
    position = {entry[1]: i for i, entry in enumerate(out)}
    for group in groups([entry[1] for entry in out], partners):
        best = max(out[position[i]][0] for i in group)
        group = [i for i in group if out[position[i]][0] >= RELEVANCE_BAND * best]
        if len(group) < 2:
            continue
        places = sorted(position[i] for i in group)
        # current first; Python's sort is stable: notes nothing tells apart keep the score order
        members = sorted(
            (out[p] for p in places),
            key=cmp_to_key(
                lambda x, y: newer(
                    (dates.get(y[1], ""), recorded.get(y[1], "")),
                    (dates.get(x[1], ""), recorded.get(x[1], "")),
                )
            ),
        )
        for place, entry in zip(places, members, strict=True):
            out[place] = entry
    return out
