"""Which of jieba's keyword candidates are words a lawyer would search for.

jieba's TF-IDF ranks the tokens of its segmentation, and around numbers that segmentation
splits phrases in the wrong place: "8999元及利息" yields "元及", "生效之日起" yields "之日起",
"10日前" yields "日前", "五百八十二条" yields "百八十" and "二条".  Such fragments are neither
words nor useful search terms; general words ("所有", "应当") carry nothing about the case.
"""

from __future__ import annotations

import re

_NUMERALS = "零〇一二三四五六七八九十百千万两"
#: a unit written right after a number ("10日", "8999元", "7天"): a token starting with one
#: of these straight after a number is the tail of a quantity, cut off from it
_UNITS = frozenset("元日天月年时号条款项分秒周岁次个件台张段份")
#: particles and conjunctions: a token beginning or ending with one spans a phrase boundary
_LEADING_FUNCTION = frozenset("之及与而并且的了于")
_TRAILING_FUNCTION = frozenset("及之的了于与")
#: adverbs and a negation glued to a neighbouring word ("回复时先给", "再列法条", "非人为"),
#: except in the legal words they really begin or end
_ADVERB_EDGES = (frozenset("再非"), frozenset("先"))
_ADVERB_WORDS = frozenset("再审 再议 非法 非诉 优先 在先 首先".split())
_NUMBER_BEFORE = re.compile(rf"[0-9{_NUMERALS}]$")
#: numerals with at most a 第 before and a unit after, but not a whole article ("第二十四条")
_NUMERAL_FRAGMENT = re.compile(rf"^第?[{_NUMERALS}]+[条款项日天月年个张段台次份]?$")
_WHOLE_ARTICLE = re.compile(rf"^第[{_NUMERALS}]+[条款项]$")
#: general words that describe nothing about a case
_GENERAL = frozenset(
    "所有 以后 以前 之后 之前 不要 应当 可以 需要 进行 已经 没有 如果 因为 所以 但是 以及 其中 现有 "
    "无法 至今 使用 要求 具备 完成 增加 时间 联系 一个 这个 那个 这些 那些 我们 你们 他们 自己 "
    "目前 相关 有关 对于 关于 通过 根据 按照 能够 是否 或者 并且 而且 然后 同时 其他 任何 一些".split()
)


def is_fragment(token: str, content: str) -> bool:
    """Whether ``token`` (from ``content``) is a cut-off piece or a general word."""
    if token in _GENERAL:
        return True
    if _NUMERAL_FRAGMENT.match(token) and not _WHOLE_ARTICLE.match(token):
        return True
    if token[0] in _LEADING_FUNCTION or (len(token) > 1 and token[-1] in _TRAILING_FUNCTION):
        return True
    if len(token) == 2 and token not in _ADVERB_WORDS and (
        token[0] in _ADVERB_EDGES[0] or token[-1] in _ADVERB_EDGES[1]
    ):
        return True
    if token[0] in _UNITS:
        starts = [m.start() for m in re.finditer(re.escape(token), content)]
        if starts and all(_NUMBER_BEFORE.search(content[:s]) for s in starts):
            return True
    return False
