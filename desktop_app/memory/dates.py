"""Dates in notes, found by rules (no LLM): absolute ones (2024年7月15日, 二〇二四年七月十五日,
2024-07-15, July 15, 2024) and relative ones (昨天, 上周五, 3天前, 下个月, last Friday, two days
ago), the latter resolved against a reference day — the user's local day the text was
written, never the UTC one.

An *event date* is when a fact happened or takes effect (a hearing, a payment, a deadline),
as precise as the text says: ``"2024-07-15"``, ``"2024-07"`` or ``"2024"``.  Strings of that
form sort in time order; :func:`span` gives the days they cover.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from desktop_app.memory.numerals import to_int

_CN_DIGIT = "〇○零一二三四五六七八九"
_YEAR = rf"(\d{{4}}|[{_CN_DIGIT}]{{4}})"
_MONTH = r"(\d{1,2}|十[一二]?|[一二三四五六七八九])"
_DAY = r"(\d{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])"
_NOT_DIGIT_BEFORE = r"(?<![\d０-９])"

_MONTHS_EN = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MON = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_ORD = r"(?:st|nd|rd|th)?"

_ABSOLUTE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("ymd", re.compile(rf"{_NOT_DIGIT_BEFORE}{_YEAR}\s*年\s*{_MONTH}\s*月\s*{_DAY}\s*[日号]?")),
    ("ymd", re.compile(rf"{_NOT_DIGIT_BEFORE}(\d{{4}})[-/.](\d{{1,2}})[-/.](\d{{1,2}})(?!\d)")),
    ("ym", re.compile(rf"{_NOT_DIGIT_BEFORE}{_YEAR}\s*年\s*{_MONTH}\s*月份?")),
    ("ym", re.compile(rf"{_NOT_DIGIT_BEFORE}(\d{{4}})-(\d{{1,2}})(?![-\d])")),
    ("y", re.compile(rf"{_NOT_DIGIT_BEFORE}{_YEAR}\s*年(?!\s*[\d{_CN_DIGIT}十]{{1,2}}\s*月)")),
    ("mdy", re.compile(rf"\b{_MON}\s+(\d{{1,2}}){_ORD},?\s+(\d{{4}})\b", re.I)),
    ("dmy", re.compile(rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MON},?\s+(\d{{4}})\b", re.I)),
    ("my", re.compile(rf"\b{_MON}\s+(\d{{4}})\b", re.I)),
)
_YEAR_MARK = re.compile(r"年|\d{4}")
#: a month and day without a year take the reference year
_MONTH_DAY = re.compile(rf"(?<![\d年]){_MONTH}\s*月\s*{_DAY}\s*[日号]")

_DAY_WORDS = {
    "大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "今天": 0, "今日": 0,
    "明天": 1, "明日": 1, "后天": 2, "大后天": 3,
}  # fmt: skip
_ZH_DAY = re.compile("|".join(sorted(_DAY_WORDS, key=len, reverse=True)))
_WEEKDAY_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_WEEK_SHIFT = {"上上": -2, "上": -1, "本": 0, "这": 0, "下": 1, "下下": 2}
_ZH_WEEKDAY = re.compile(r"(上上|下下|上|下|本|这)个?(?:周|星期|礼拜)([一二三四五六日天1-7])")
_MONTH_SHIFT = {"上": -1, "本": 0, "这": 0, "下": 1}
_ZH_MONTH_DAY = re.compile(rf"(上|下|本|这)个?月\s*{_DAY}\s*[日号]")
_ZH_MONTH = re.compile(r"(上|下|本|这)个?月(?![份\d一二三四五六七八九十])")
_YEAR_SHIFT = {"前年": -2, "去年": -1, "今年": 0, "明年": 1}
_ZH_YEAR = re.compile(rf"(前年|去年|今年|明年)(?:\s*{_MONTH}\s*月(?:\s*{_DAY}\s*[日号])?)?")
_ZH_AGO = re.compile(
    r"([\d一二两三四五六七八九十]+)\s*(天|日|周|个星期|星期|个月|年)(以前|之前|前|以后|之后|后)"
)

_DAY_WORDS_EN = {
    "the day before yesterday": -2, "yesterday": -1, "today": 0, "tomorrow": 1,
    "the day after tomorrow": 2,
}  # fmt: skip
_EN_DAY = re.compile(r"\b(" + "|".join(sorted(_DAY_WORDS_EN, key=len, reverse=True)) + r")\b", re.I)
_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_EN_WEEKDAY = re.compile(r"\b(last|next|this)\s+(" + "|".join(_WEEKDAYS_EN) + r")\b", re.I)
_EN_PERIOD = re.compile(r"\b(last|next|this)\s+(month|year)\b", re.I)
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_EN_COUNT = r"(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)"
_EN_AGO = re.compile(rf"\b{_EN_COUNT}\s+(day|week|month|year)s?\s+ago\b", re.I)
_EN_IN = re.compile(rf"\bin\s+{_EN_COUNT}\s+(day|week|month|year)s?\b", re.I)


@dataclass(frozen=True, slots=True)
class FoundDate:
    """A date written in a text: where (``start``, ``end``), its value, and whether it was
    relative (its value then depends on the reference day)."""

    start: int
    end: int
    value: str
    relative: bool


# -- values ------------------------------------------------------------------------------------


def _ymd(year: int | None, month: int | None = None, day: int | None = None) -> str | None:
    """The event-date string, or None for an impossible date."""
    if year is None or not 1000 <= year <= 2999:
        return None
    if month is None:
        return f"{year:04d}"
    if not 1 <= month <= 12:
        return None
    if day is None:
        return f"{year:04d}-{month:02d}"
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def _iso(d: date) -> str:
    return d.isoformat()


def _add_months(d: date, months: int) -> date:
    total = d.year * 12 + d.month - 1 + months
    year, month = divmod(total, 12)
    return date(year, month + 1, min(d.day, calendar.monthrange(year, month + 1)[1]))


def _month_of(d: date, months: int) -> str:
    shifted = _add_months(d.replace(day=1), months)
    return f"{shifted.year:04d}-{shifted.month:02d}"


def span(value: str) -> tuple[date, date]:
    """The first and last day an event date covers (raises ValueError if malformed)."""
    parts = [int(p) for p in value.split("-")]
    if len(parts) == 3:
        d = date(*parts)
        return d, d
    if len(parts) == 2:
        year, month = parts
        return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
    return date(parts[0], 1, 1), date(parts[0], 12, 31)


def is_later(a: str | None, b: str | None) -> bool:
    """``a`` is certainly after ``b``: every day of ``a`` comes after every day of ``b``
    (2024-06 is not later than 2024-06-15; unknown is never later)."""
    if not a or not b:
        return False
    try:
        return span(a)[0] > span(b)[1]
    except ValueError:
        return False


def sort_key(value: str | None) -> str:
    """Orders event dates in time, the unknown last (2024 < 2024-03 < 2024-03-15)."""
    return value or "9999"


# -- finding dates -----------------------------------------------------------------------------


def _absolute(text: str, reference: date | None) -> list[FoundDate]:
    found: list[FoundDate] = []
    # every pattern of _ABSOLUTE names a year, with 年 or in four digits: a note naming
    # none (most chat turns) is spared eight searches by this one
    patterns = _ABSOLUTE if _YEAR_MARK.search(text) else ()
    for kind, pattern in patterns:
        for m in pattern.finditer(text):
            g = m.groups()
            if kind == "ymd":
                value = _ymd(to_int(g[0]), to_int(g[1]), to_int(g[2]))
            elif kind == "ym":
                value = _ymd(to_int(g[0]), to_int(g[1]))
            elif kind == "y":
                value = _ymd(to_int(g[0]))
            elif kind == "mdy":
                value = _ymd(int(g[2]), _MONTHS_EN[g[0][:3].lower()], int(g[1]))
            elif kind == "dmy":
                value = _ymd(int(g[2]), _MONTHS_EN[g[1][:3].lower()], int(g[0]))
            else:  # "my"
                value = _ymd(int(g[1]), _MONTHS_EN[g[0][:3].lower()])
            if value:
                found.append(FoundDate(m.start(), m.end(), value, False))
    if reference is not None:
        for m in _MONTH_DAY.finditer(text):
            value = _ymd(reference.year, to_int(m.group(1)), to_int(m.group(2)))
            if value:
                found.append(FoundDate(m.start(), m.end(), value, False))
    return found


def _count(word: str) -> int | None:
    return _NUMBER_WORDS.get(word.lower()) or to_int(word)


def _shifted(reference: date, amount: int, unit: str) -> str:
    unit = unit.lower()
    if unit in ("天", "日", "day"):
        return _iso(reference + timedelta(days=amount))
    if unit in ("周", "星期", "个星期", "week"):
        return _iso(reference + timedelta(weeks=amount))
    if unit in ("个月", "month"):
        return _iso(_add_months(reference, amount))
    return _iso(_add_months(reference, 12 * amount))


def _relative(text: str, reference: date) -> list[FoundDate]:
    found: list[FoundDate] = []

    def add(m: re.Match[str], value: str | None) -> None:
        if value:
            found.append(FoundDate(m.start(), m.end(), value, True))

    monday = reference - timedelta(days=reference.weekday())
    for m in _ZH_DAY.finditer(text):
        add(m, _iso(reference + timedelta(days=_DAY_WORDS[m.group(0)])))
    for m in _ZH_WEEKDAY.finditer(text):
        day = m.group(2)
        weekday = int(day) - 1 if day.isdigit() else _WEEKDAY_ZH[day]
        add(m, _iso(monday + timedelta(weeks=_WEEK_SHIFT[m.group(1)], days=weekday)))
    for m in _ZH_MONTH_DAY.finditer(text):
        month = _add_months(reference.replace(day=1), _MONTH_SHIFT[m.group(1)])
        add(m, _ymd(month.year, month.month, to_int(m.group(2))))
    for m in _ZH_MONTH.finditer(text):
        add(m, _month_of(reference, _MONTH_SHIFT[m.group(1)]))
    for m in _ZH_YEAR.finditer(text):
        year = reference.year + _YEAR_SHIFT[m.group(1)]
        month = to_int(m.group(2)) if m.group(2) else None
        day = to_int(m.group(3)) if m.group(3) else None
        add(m, _ymd(year, month, day))
    for m in _ZH_AGO.finditer(text):
        amount = to_int(m.group(1))
        if amount is not None:
            sign = -1 if m.group(3).endswith("前") else 1
            add(m, _shifted(reference, sign * amount, m.group(2)))
    for m in _EN_DAY.finditer(text):
        add(m, _iso(reference + timedelta(days=_DAY_WORDS_EN[m.group(1).lower()])))
    for m in _EN_WEEKDAY.finditer(text):
        weekday = _WEEKDAYS_EN.index(m.group(2).lower())
        which = m.group(1).lower()
        if which == "this":
            target = monday + timedelta(days=weekday)
        elif which == "last":  # the most recent one before the reference day
            target = reference - timedelta(days=(reference.weekday() - weekday - 1) % 7 + 1)
        else:  # the next one after it
            target = reference + timedelta(days=(weekday - reference.weekday() - 1) % 7 + 1)
        add(m, _iso(target))
    for m in _EN_PERIOD.finditer(text):
        shift = {"last": -1, "this": 0, "next": 1}[m.group(1).lower()]
        if m.group(2).lower() == "month":
            add(m, _month_of(reference, shift))
        else:
            add(m, f"{reference.year + shift:04d}")
    for pattern, sign in ((_EN_AGO, -1), (_EN_IN, 1)):
        for m in pattern.finditer(text):
            amount = _count(m.group(1))
            if amount is not None:
                add(m, _shifted(reference, sign * amount, m.group(2)))
    return found


def find_dates(text: str, reference: date | None = None) -> list[FoundDate]:
    """The dates written in ``text``, in text order; overlapping matches keep the longest
    (absolute before relative).  Relative dates need ``reference`` (the user's local day
    the text was written); without it only absolute dates are found."""
    if not text:
        return []
    candidates = _absolute(text, reference)
    if reference is not None:
        candidates += _relative(text, reference)
    candidates.sort(key=lambda f: (f.start, -(f.end - f.start), f.relative))
    chosen: list[FoundDate] = []
    for cand in candidates:
        if chosen and cand.start < chosen[-1].end:
            continue
        chosen.append(cand)
    return chosen


def event_date_of(text: str, reference: date | None = None) -> str | None:
    """The event date of a note by rules: the first date its text names (None if none)."""
    found = find_dates(text, reference)
    return found[0].value if found else None


def parse_event_date(value: object) -> str | None:
    """An event date given as a field (typed in a dialog, answered by a model, imported):
    ``2024-07-15``, ``2024-7``, ``2024``, ``2024年7月15日``, ``July 15, 2024``, an ISO date-time
    (its date part).  None for anything else, including impossible dates."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text:
        return None
    m = re.fullmatch(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[T ].*)?", text)
    if m:
        year, month, day = (int(g) if g else None for g in m.groups())
        return _ymd(year, month, day if month else None)
    found = find_dates(text)
    return found[0].value if len(found) == 1 else None


# -- using dates ---------------------------------------------------------------------------------


def annotate_relative(text: str, reference: date, *, english: bool = False) -> str:
    """``text`` with each relative date followed by the day it meant: "用户昨天（2024-03-15）说…".
    The stored text stays as the user wrote it; this is for what is shown to a model later,
    when "昨天" would mean another day."""
    relative = [f for f in find_dates(text, reference) if f.relative]
    if not relative:
        return text
    out, last = [], 0
    for f in relative:
        out.append(text[last : f.end])
        out.append(f" ({f.value})" if english else f"（{f.value}）")
        last = f.end
    out.append(text[last:])
    return "".join(out)


def date_terms(value: str | None) -> list[str]:
    """Search terms of an event date: the day and its month (``d20240715 d202407``), so a
    query naming the month finds the day."""
    if not value:
        return []
    digits = value.replace("-", "")
    terms = [f"d{digits}"]
    if len(digits) == 8:
        terms.append(f"d{digits[:6]}")
    return terms


def format_event_date(value: str | None, *, chinese: bool = True) -> str:
    """``2024年7月15日`` / ``15 Jul 2024`` (month and year alone as precise as stored)."""
    if not value:
        return ""
    try:
        first, _last = span(value)
    except ValueError:
        return value
    parts = value.count("-")
    if chinese:
        return [f"{first.year}年", f"{first.year}年{first.month}月",
                f"{first.year}年{first.month}月{first.day}日"][parts]  # fmt: skip
    return [f"{first:%Y}", f"{first:%b %Y}", f"{first.day} {first:%b %Y}"][parts]
