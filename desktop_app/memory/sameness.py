"""Two notes about the same thing with different values ("原告月薪8000元" / "原告月薪调整为9500元",
"当事人同意调解" / "当事人不同意调解"), found by rules so it works offline.

Their vectors are close but often below the near-duplicate threshold (0.65–0.8 for such pairs
with the bundled embedder), so the wording decides: once the values (amounts, numbers, dates)
and the words that only say a value changed (调整为, 改为, 延至, 不, 没有, …) are masked, the
two texts read nearly the same, while their values or their polarity differ.  The engine links
such a pair as a possible duplicate, and search puts the one with the later date first.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable

from desktop_app.memory.dates import find_dates
from desktop_app.memory.legal_terms import legal_terms
from desktop_app.memory.numerals import CHARS as CN_NUMERAL_CHARS

#: masked texts at least this alike (Dice over their characters) are one matter when their
#: values or polarity differ; a change word ("调整为", "换成") lowers the bar to SAME_MATTER_CHANGED
SAME_MATTER_DICE = 0.65
SAME_MATTER_CHANGED = 0.5

_CHANGE_WORDS = (
    "调整为|调整至|调整|改为|改由|改成|改至|变更为|变更|更改为|更正为|上涨为|上涨至|上调为|上调至|"
    "下调为|下调至|降为|降至|涨到|涨至|增加到|增加至|减少到|减少至|延至|延期至|延长至|延长|推迟至|"
    "推迟到|推迟|提前至|提前到|换成|换为|换了|定于|定在|变为|变成|成为"
)
_CHANGE = re.compile(_CHANGE_WORDS)
_NEGATIONS = "不再|没有|并未|从未|尚未|未|没|不|无|非|否认|拒绝"
_FILLERS = "现在|目前|如今|已经|仍然|再次|了|的|将|为|是|于|在|都|也|并|就|才|又|仍|已|现|至"
_CJK_MARKERS = re.compile(f"{_CHANGE_WORDS}|{_NEGATIONS}|{_FILLERS}")
_NEGATION = re.compile(_NEGATIONS)
_EN_MARKERS = frozenset(
    "a an the is are was were be been has have had now currently no not never longer still "
    "already changed change raised lowered increased decreased moved to from of on at in by "
    "for and its their his her".split()
)
_EN_CHANGE = re.compile(
    r"\b(changed|raised|lowered|increased|decreased|moved|postponed|extended|now|no longer)\b",
    re.I,
)
_EN_NEGATION = re.compile(r"\b(not|no longer|never|denies|denied|refused|no)\b|n't\b", re.I)
_NUMBER = re.compile(rf"\d[\d,.]*|[{CN_NUMERAL_CHARS}]*[一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟]+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_WORD = re.compile(r"[a-z]+")
_CLAUSE = re.compile(r"[，,。；;：:！!？?\n]+")


def _mask(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    spans = [(f.start, f.end) for f in find_dates(text)]
    for start, end in reversed(spans):
        text = text[:start] + "#" + text[end:]
    text = _NUMBER.sub("#", text)
    return _CJK_MARKERS.sub("", text)


@functools.lru_cache(maxsize=4096)  # a batch compares each text with up to five others
def _tokens(text: str) -> frozenset[str]:
    """The characters of the masked text's CJK runs and its English words (a bag: the
    word order of two notes on one matter often differs)."""
    masked = _mask(text)
    tokens = set("".join(re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff#]+", masked)))
    tokens |= {w for w in _WORD.findall(masked) if w not in _EN_MARKERS and len(w) > 1}
    return frozenset(tokens)


def _negated(text: str) -> bool:
    return bool(_NEGATION.search(text) if _CJK.search(text) else _EN_NEGATION.search(text))


def _changed(text: str) -> bool:
    return bool(_CHANGE.search(text) if _CJK.search(text) else _EN_CHANGE.search(text))


@functools.lru_cache(maxsize=4096)
def _values(text: str) -> dict[str, frozenset[str]]:
    """The amounts and the dates a text names (articles are not values: two articles of a
    law are two rules, not one rule changed)."""
    terms = legal_terms(text)
    return {
        "amount": frozenset(t for t in terms if t.startswith("amt")),
        "date": frozenset(t for t in terms if t.startswith("d")),
    }


def _values_differ(a: str, b: str) -> bool:
    """Both name a value of one kind (an amount, a date) and the values differ.  One naming
    a date and the other an amount is two facts about one thing (when / how much), not a
    change."""
    va, vb = _values(a), _values(b)
    return any(va[k] and vb[k] and va[k] != vb[k] for k in va)


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


@functools.lru_cache(maxsize=4096)
def _parts(text: str) -> tuple[str, ...]:
    """The text and, for a compound note, each clause long enough to say something."""
    clauses = [c for c in _CLAUSE.split(text) if len(_tokens(c)) >= 3]
    return (text, *clauses) if len(clauses) > 1 else (text,)


#: what same_matter compares of a text: the text and its clauses (see _parts), each with
#: its masked tokens.  Plain tuples: a batch's are built in the construction helper process
#: and sent back (see construction_pool.py).
Matter = tuple[tuple[str, frozenset[str]], ...]

#: the Matter of recently added texts, given by the helper that built them
_REMEMBERED = 4096
_remembered: OrderedDict[str, Matter] = OrderedDict()
_remembered_lock = threading.Lock()


def matter_of(text: str) -> Matter:
    """The parts of ``text`` and their tokens: the costly half of a same-matter check
    (~0.1 ms a note), computed beside the embedding for a batch's new notes."""
    with _remembered_lock:
        known = _remembered.get(text)
    if known is not None:
        return known
    return tuple((part, _tokens(part)) for part in _parts(text))


def remember(matters: Iterable[tuple[str, Matter]]) -> None:
    """Keep the Matter of texts just added (the most recent _REMEMBERED): the checks of
    their batch, and of the next ones, find them here."""
    with _remembered_lock:
        for text, matter in matters:
            _remembered[text] = matter
            _remembered.move_to_end(text)
        while len(_remembered) > _REMEMBERED:
            _remembered.popitem(last=False)


def same_matter(a: str, b: str) -> bool:
    """``a`` and ``b`` say different values, or opposite things, about one matter (in the
    whole text or in one clause of each)."""
    if a == b:
        return False
    for pa, tokens_a in matter_of(a):
        for pb, tokens_b in matter_of(b):
            dice = _dice(tokens_a, tokens_b)
            if dice >= SAME_MATTER_DICE and (
                _values_differ(pa, pb) or _negated(pa) != _negated(pb)
            ):
                return True
            if dice >= SAME_MATTER_CHANGED and (_changed(pa) or _changed(pb)) and pa != pb:
                return True
    return False


def keeps_values(merged: str, *sources: str) -> bool:
    """A merged note keeps every amount, date and article of its sources, and a negation if
    either had one: otherwise merging would lose what the user wrote."""
    if not merged.strip():
        return False
    kept = set(legal_terms(merged))
    needed = {t for source in sources for t in legal_terms(source)}
    negated = any(_negated(source) for source in sources)
    return needed <= kept and (_negated(merged) or not negated)
