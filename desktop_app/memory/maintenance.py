"""The memory check-up's detectors: which notes of a case to propose for archiving, merging,
replacing or expiring.  Pure functions over notes and vectors (no SQL, no writes): the
proposal is stored and decided in maintenance_proposals.py.

Similarity bands, calibrated on USE-m3 (``tests/memory/test_maintenance_calibration.py``
re-measures them; the method: cosine similarity of the stored vectors of hand-written
pairs from legal notes): 12 restatements of the same fact score 0.68-0.98 (median 0.94);
12 different facts of the same topic 0.17-0.91 ("原告要求支付经济补偿金"/"…赔偿金" 0.907,
"证人李四…"/"证人王五…" 0.785); 7 same-thing-different-value pairs ("月薪8000元"/"月薪9500元")
0.81-0.96.  A duplicate threshold of 0.91 keeps every different fact out (8 of 12
restatements found: a proposal the lawyer trusts beats one that needs checking; 0.90 finds
9 of 12 but proposes the 补偿金/赔偿金 pair).  Similarity alone cannot tell 8000 from 9500,
so the figures decide: a pair whose notes both carry figures or dates, and not the same
ones, is never a duplicate; above 0.80, and worded exactly alike once the figures and
punctuation are set aside, it is proposed as a possible update instead (a reworded update,
"月薪调整为9500元", is not caught: the exact-wording rule is what keeps the pass at 10k
notes cheap and keeps "张三…8000元"/"李四…9000元" out).  USE barely sees a swapped
name either ("…法定代表人为郭伟杰"/"…为胡敏芳" 0.93 in the benchmark), so a pair whose texts
differ only by words swapped in place (:func:`swaps_only`) is a parallel fact, never
proposed; that also removes the 补偿金/赔偿金, 李四/王五 and 入职/离职 pairs above.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

import numpy as np

from desktop_app.memory.types import Note

#: words of a state that waits for a date (a hearing, a deadline, a time limit)
PENDING_WORDS: tuple[str, ...] = (
    "开庭",
    "庭审",
    "听证",
    "截止",
    "期限",
    "届满",
    "应于",
    "到期",
    "举证期",
    "答辩期",
    "上诉期",
    "hearing",
    "deadline",
    "due by",
    "expires",
)
#: words that say the event already happened: such a note describes the past, not a wait
DONE_WORDS: tuple[str, ...] = (
    "已开庭",
    "已经开庭",
    "已届满",
    "已截止",
    "已到期",
    "已过",
    "已提交",
    "已完成",
    "已于",
    "已经",
    "was held",
    "has expired",
)

_FULL_DATE = re.compile(r"(\d{4})\s*[年\-/.]\s*(\d{1,2})\s*[月\-/.]\s*(\d{1,2})\s*[日号]?")
_MONTH_DAY = re.compile(r"(?<!\d)(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")
#: what is left of a text once figures, spaces and punctuation are gone ("月薪元")
_NOT_WORDING = re.compile(r"[\d\s\W_]+")
#: the longest stretch of one text swapped for another that still reads as a swapped name
#: or act (Chinese names are 2-4 characters)
SWAP_SPAN = 4
#: a year-less date more than this before the note was written means the next year's
_ROLL_FORWARD = timedelta(days=31)
#: rows of the similarity matrix computed at once (10k notes: 1024 x 10k floats = 40 MB)
_BLOCK = 1024


@dataclass(frozen=True, slots=True)
class Candidate:
    kind: str
    note_ids: tuple[str, ...]
    score: float | None = None
    event_date: date | None = None


def _normal(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def figures(text: str) -> Counter[str]:
    """The figures and dates of a text (full-width digits folded), as a multiset:
    "月薪8000元" → {"8000"}; "2025年6月1日" → {"2025", "6", "1"}."""
    return Counter(m.group().replace(",", "") for m in _FIGURE.finditer(_normal(text)))


def bare_wording(text: str) -> str:
    return _NOT_WORDING.sub("", _normal(text))


def swaps_only(a: str, b: str) -> bool:
    """Do two figure-less texts differ only by words swapped in place, nothing added or
    dropped?  "证人李四目睹…"/"证人王五目睹…", "于入职时签署了保密…"/"于离职时签署了离职…":
    the same sentence about another person or another act — a parallel fact, not a
    restatement (which adds or drops words: "原告入职时签了保密协议"/"原告于入职时签署了
    保密协议").  Linear in the text (it runs on every candidate pair): the stretch between
    the common start and end is either short on both sides (a name) or the same length with
    at most half its characters changed (substitutions in place)."""
    if a == b:
        return False
    start = len(_common_prefix(a, b))
    end = len(_common_prefix(a[start:][::-1], b[start:][::-1]))
    mid_a, mid_b = a[start : len(a) - end], b[start : len(b) - end]
    if not mid_a or not mid_b:
        return False
    if len(mid_a) <= SWAP_SPAN and len(mid_b) <= SWAP_SPAN:
        return True
    if len(mid_a) != len(mid_b):
        return False
    changed = sum(x != y for x, y in zip(mid_a, mid_b, strict=True))
    return changed * 2 <= len(mid_a)


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def dates_in(text: str, written_on: date) -> list[date]:
    """The calendar dates a text names; a date without a year takes the year it was
    written in (the next one if that would put it well before the writing)."""
    text = _normal(text)
    found: list[date] = []
    for m in _FULL_DATE.finditer(text):
        d = _safe_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if d is not None:
            found.append(d)
    rest = _FULL_DATE.sub(" ", text)
    for m in _MONTH_DAY.finditer(rest):
        d = _safe_date(written_on.year, int(m.group(1)), int(m.group(2)))
        if d is not None and d < written_on - _ROLL_FORWARD:
            d = _safe_date(written_on.year + 1, d.month, d.day)
        if d is not None:
            found.append(d)
    return found


def local_date(moment: datetime) -> date:
    """The calendar day of a stored UTC moment in the user's local zone."""
    return moment.astimezone().date()


def passed_event(note: Note, today: date) -> date | None:
    """The note's event date if it describes a pending state (a hearing, a deadline) whose
    date is over; None otherwise."""
    text = _normal(note.content)
    if not any(w in text for w in PENDING_WORDS) or any(w in text for w in DONE_WORDS):
        return None
    written = local_date(note.valid_from or note.created_at)
    found = dates_in(text, written)
    if not found:
        return None
    latest = max(found)
    return latest if latest < today else None


def stale_orphans(
    notes: Iterable[Note], linked_ids: set[str], now: datetime, stale_days: float
) -> list[Candidate]:
    """Active notes not retrieved (nor written) for ``stale_days``, with no link, not
    pinned, not a preference."""
    cutoff = now - timedelta(days=stale_days)
    out = []
    for note in notes:
        if note.status != "active" or note.pinned or note.category == "偏好":
            continue
        if note.id in linked_ids:
            continue
        last_use = max(note.last_accessed or note.created_at, note.created_at)
        if last_use < cutoff:
            out.append(Candidate("stale", (note.id,)))
    return out


def passed_events(notes: Iterable[Note], today: date) -> list[Candidate]:
    out = []
    for note in notes:
        if note.status != "active":
            continue
        when = passed_event(note, today)
        if when is not None:
            out.append(Candidate("passed", (note.id,), event_date=when))
    return out


def candidate_pairs(
    vectors: np.ndarray,
    figure_ids: np.ndarray,
    wording_ids: np.ndarray,
    duplicate_threshold: float,
    update_threshold: float,
) -> tuple[list[tuple[int, int, float]], list[tuple[int, int, float]]]:
    """(duplicate pairs, update pairs), each (i < j, similarity), best first.  Computed in
    blocks of rows (10k notes never need the whole 10k x 10k matrix) and filtered in numpy:
    a template-heavy case has millions of pairs above 0.80 that differ in a name and a
    figure, and none of them may reach a Python loop.

    ``figure_ids``: one id per distinct set of figures, 0 for none; ``wording_ids``: one id
    per distinct text once figures and punctuation are gone."""
    dups: list[tuple[int, int, float]] = []
    updates: list[tuple[int, int, float]] = []
    low = min(duplicate_threshold, update_threshold)
    for start in range(0, len(vectors), _BLOCK):
        block = vectors[start : start + _BLOCK] @ vectors[start:].T
        rows, cols = np.nonzero(block >= low)
        keep = cols > rows  # j > i (the block starts at column ``start``)
        rows, cols = rows[keep], cols[keep]
        i, j = rows + start, cols + start
        sims = block[rows, cols]
        fi, fj = figure_ids[i], figure_ids[j]
        other_figures = (fi > 0) & (fj > 0) & (fi != fj)
        is_update = other_figures & (wording_ids[i] == wording_ids[j]) & (sims >= update_threshold)
        is_dup = ~other_figures & (sims >= duplicate_threshold)
        for mask, out in ((is_update, updates), (is_dup, dups)):
            out.extend(
                zip(
                    i[mask].tolist(),
                    j[mask].tolist(),
                    sims[mask].astype(float).tolist(),
                    strict=True,
                )
            )
    dups.sort(key=lambda p: -p[2])
    updates.sort(key=lambda p: -p[2])
    return dups, updates


def _ids(keys: Sequence[object], empty: object = None) -> np.ndarray:
    """A small integer per distinct key (0 for ``empty``)."""
    table: dict[object, int] = {}
    return np.array(
        [0 if k == empty else table.setdefault(k, len(table) + 1) for k in keys], dtype=np.int64
    )


def _keep_first(group: Sequence[Note]) -> list[Note]:
    """The note the others merge into first: pinned, then most retrieved, then oldest."""
    return sorted(group, key=lambda n: (not n.pinned, -n.retrieval_count, n.created_at, n.id))


def duplicates_and_updates(
    notes: Sequence[Note],
    vectors: np.ndarray,
    duplicate_threshold: float,
    update_threshold: float,
) -> list[Candidate]:
    """Near-duplicate groups (same figures, similarity ≥ ``duplicate_threshold``, not a
    swapped name) and possible updates (both notes carry figures or dates, different ones,
    the same wording otherwise, similarity ≥ ``update_threshold``), each as (older, newer)."""
    if len(notes) < 2:
        return []
    sigs = [figures(n.content) for n in notes]
    bare: dict[int, str] = {}

    def bare_of(i: int) -> str:
        if i not in bare:
            bare[i] = bare_wording(notes[i].content)
        return bare[i]

    parent = list(range(len(notes)))
    #: the figures of each group (a group never joins two different non-empty sets)
    group_sig: dict[int, Counter[str]] = {i: s for i, s in enumerate(sigs) if s}
    best: dict[int, float] = {}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    out: list[Candidate] = []
    figure_ids = _ids([tuple(sorted(sig.items())) for sig in sigs], empty=())
    wording_ids = _ids([bare_of(i) for i in range(len(notes))])
    dup_pairs, update_pairs = candidate_pairs(
        vectors, figure_ids, wording_ids, duplicate_threshold, update_threshold
    )
    for i, j, sim in update_pairs:
        older, newer = sorted(
            (notes[i], notes[j]), key=lambda n: (n.valid_from or n.created_at, n.id)
        )
        out.append(Candidate("update", (older.id, newer.id), round(sim, 4)))
    for i, j, sim in dup_pairs:
        if swaps_only(bare_of(i), bare_of(j)):
            continue  # a parallel fact (another person, another act)
        ri, rj = root(i), root(j)
        if ri == rj:
            continue
        si, sj = group_sig.get(ri), group_sig.get(rj)
        if si and sj and si != sj:
            continue  # 8000 and 9500 must not meet through a figure-less third note
        parent[rj] = ri
        if sj and not si:
            group_sig[ri] = sj
        best[ri] = max(best.get(ri, 0.0), best.pop(rj, 0.0), sim)
    groups: dict[int, list[Note]] = {}
    for i in range(len(notes)):
        groups.setdefault(root(i), []).append(notes[i])
    for r, members in groups.items():
        if len(members) > 1:
            ordered = _keep_first(members)
            out.append(Candidate("duplicate", tuple(n.id for n in ordered), round(best[r], 4)))
    return out
