"""Chinese numerals as lawyers write them: 五百七十七 (statutes), 捌仟玖佰玖拾玖 (amounts in
financial capitals), 二〇二四 (years read digit by digit)."""

from __future__ import annotations

DIGITS: dict[str, int] = {
    "零": 0, "〇": 0, "○": 0, "Ｏ": 0,
    "一": 1, "壹": 1, "幺": 1,
    "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2,
    "三": 3, "叁": 3, "參": 3,
    "四": 4, "肆": 4,
    "五": 5, "伍": 5,
    "六": 6, "陆": 6, "陸": 6,
    "七": 7, "柒": 7,
    "八": 8, "捌": 8,
    "九": 9, "玖": 9,
}  # fmt: skip
SMALL_UNITS: dict[str, int] = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
BIG_UNITS: dict[str, int] = {"万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000}
#: every character a Chinese number may contain (for building regular expressions)
CHARS = "".join([*DIGITS, *SMALL_UNITS, *BIG_UNITS])


def cn_to_int(text: str) -> int | None:
    """The value of a Chinese numeral (None if ``text`` is not one).

    ``五百七十七`` → 577, ``十五`` → 15, ``捌仟玖佰玖拾玖`` → 8999, ``三万五千`` → 35000,
    ``二〇二四`` → 2024 (digits without units are read one by one)."""
    if not text or any(ch not in CHARS for ch in text):
        return None
    if not any(ch in SMALL_UNITS or ch in BIG_UNITS for ch in text):
        return int("".join(str(DIGITS[ch]) for ch in text))
    yi = wan = section = digit = 0
    seen_digit = False
    for ch in text:
        if ch in DIGITS:
            digit, seen_digit = DIGITS[ch], True
            continue
        if ch in SMALL_UNITS:
            section += (digit if seen_digit else 1) * SMALL_UNITS[ch]
        elif BIG_UNITS[ch] == 10_000:
            wan += (section + digit or 1) * 10_000
            section = 0
        else:  # 亿 closes everything before it
            yi = (yi + wan + section + digit or 1) * 100_000_000
            wan = section = 0
        digit, seen_digit = 0, False
    return yi + wan + section + digit


def to_int(text: str) -> int | None:
    """Arabic digits (half or full width) or a Chinese numeral."""
    text = text.strip()
    if not text:
        return None
    if text.isdigit():
        try:
            return int(text)
        except ValueError:  # digits of other scripts int() refuses
            return None
    return cn_to_int(text)
