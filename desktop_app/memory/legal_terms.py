"""Normalised search terms for what lawyers search by: amounts, statute articles and dates.

``8,999元``, ``8999元``, ``人民币8999.00元``, ``￥8,999`` and ``捌仟玖佰玖拾玖元`` all give
``amt8999``; ``第577条``, ``第五百七十七条`` and ``Article 577`` give ``art577``; a written date
gives ``d20240715`` and its month ``d202407``.  These terms are added to the full-text index
and to queries beside the ordinary terms; the user's text is never rewritten.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation

from desktop_app.memory.dates import date_terms, find_dates
from desktop_app.memory.numerals import BIG_UNITS, cn_to_int
from desktop_app.memory.numerals import CHARS as CN_NUMERAL_CHARS

_SCALE = {"": 1, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?"
_AMOUNT_YUAN = re.compile(
    rf"(?:人民币|rmb|cny|¥|￥)?\s*{_NUMBER}\s*(百|千|万|亿)?\s*(?:元|块|圆|yuan\b|rmb\b)", re.I
)
_AMOUNT_SIGN = re.compile(rf"(?:¥|￥|\brmb|\bcny)\s*{_NUMBER}\s*(百|千|万|亿)?", re.I)
_AMOUNT_CN = re.compile(rf"(?<![\d.])([{CN_NUMERAL_CHARS}]+)\s*(?:元|圆)")
_ARTICLE_ZH = re.compile(rf"第\s*(\d+|[{CN_NUMERAL_CHARS}]+)\s*条")
_ARTICLE_EN = re.compile(r"\b(?:article|art\.)\s*(\d+)\b", re.I)


def _amount(whole: str, fraction: str | None, scale: str | None) -> str | None:
    try:
        value = Decimal(whole.replace(",", "") + (f".{fraction}" if fraction else ""))
    except InvalidOperation:
        return None
    value *= _SCALE[scale or ""]
    if value <= 0:
        return None
    value = value.normalize()
    text = f"{value:f}"
    return f"amt{text}"


def amount_terms(text: str) -> list[str]:
    terms: list[str] = []
    for pattern in (_AMOUNT_YUAN, _AMOUNT_SIGN):
        for m in pattern.finditer(text):
            term = _amount(m.group(1), m.group(2), m.group(3))
            if term:
                terms.append(term)
    for m in _AMOUNT_CN.finditer(text):
        numeral = m.group(1)
        value = cn_to_int(numeral)
        if value and not all(ch in BIG_UNITS for ch in numeral):  # "数万元" names no amount
            terms.append(f"amt{value}")
    return terms


def article_terms(text: str) -> list[str]:
    terms = []
    for m in _ARTICLE_ZH.finditer(text):
        number = m.group(1)
        value = int(number) if number.isdigit() else cn_to_int(number)
        if value:
            terms.append(f"art{value}")
    terms += [f"art{int(m.group(1))}" for m in _ARTICLE_EN.finditer(text)]
    return terms


def written_date_terms(text: str) -> list[str]:
    """Terms of the absolute dates a text names (relative ones need the note's own day,
    which the index adds from its event date)."""
    terms: list[str] = []
    for found in find_dates(text):
        terms += date_terms(found.value)
    return terms


def legal_terms(text: str) -> list[str]:
    """The normalised amount, article and date terms of ``text``, each once, in text order."""
    if not text:
        return []
    text = unicodedata.normalize("NFKC", text).replace("，", ",")
    return list(
        dict.fromkeys([*amount_terms(text), *article_terms(text), *written_date_terms(text)])
    )
