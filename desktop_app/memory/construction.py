"""Offline note construction: keywords from jieba, a category from simple rules.

This is the fallback of A-MEM's note-construction step when no LLM is reachable; the
agentic construction (``agentic.construct_note``) replaces its output when it runs.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from dataclasses import dataclass
from datetime import date

from desktop_app.memory.dates import event_date_of
from desktop_app.memory.keyword_filter import is_fragment
from desktop_app.memory.types import CATEGORIES, DEFAULT_CATEGORY

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Construction:
    keywords: tuple[str, ...]
    context: str
    tags: tuple[str, ...]
    category: str
    #: when the fact happened ("2024-07-15", "2024-07", "2024"), None when unknown
    event_date: str | None = None
    #: what kind of assertion it is (one of types.SOURCE_KINDS), None when unknown
    source_kind: str | None = None


# Order matters: the first category whose rule matches wins.  Preferences and statutes have
# the most specific wording; a bare date makes a timeline entry only if nothing else fits.
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "偏好",
        re.compile(
            r"(以后|今后|请(始终|总是|一律|都)|我(更)?(喜欢|不喜欢|偏好|习惯|希望)|用户(更)?(喜欢|不喜欢|偏好|习惯|希望)|偏好|"
            r"\b(i|user) (prefer|like|dislike|want)s?\b|\bprefer(ence)?s?\b|\bfrom now on\b|\balways (use|write|reply)\b)",
            re.I,
        ),
    ),
    (
        "法条",
        re.compile(
            r"(《[^》]{1,40}(法|条例|规定|解释|办法)》|第[一二三四五六七八九十百零\d]+条|司法解释|"
            r"\b(article|section|art\.)\s*\d+|\b[A-Z][a-z]+ (law|act|code)\b|\bstatute\b)",
            re.I,
        ),
    ),
    (
        "证据",
        re.compile(
            r"(证据|截图|发票|收据|聊天记录|录音|录像|照片|凭证|鉴定|检测报告|公证|证人|证言|购物小票|订单记录|"
            r"\bevidence\b|\breceipts?\b|\binvoices?\b|\bscreenshots?\b|\brecordings?\b|\bwitness\b|\bexhibit\b)",
            re.I,
        ),
    ),
    (
        "诉求",
        re.compile(
            r"(诉求|诉讼请求|请求(法院|判令)?|要求|主张|索赔|赔偿|退还|退款|退货|三倍|惩罚性|"
            r"\bclaims?\b|\bdemands?\b|\bseeks?\b|\bcompensation\b|\brefund\b|\bdamages\b)",
            re.I,
        ),
    ),
    (
        "时间线",
        re.compile(
            r"(\d{4}\s*年\s*\d{1,2}\s*月(\s*\d{1,2}\s*日)?|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}月\d{1,2}日|"
            r"\b(19|20)\d{2}-\d{2}-\d{2}\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4}\b|"
            r"\bdeadline\b|截止|期限|开庭)",
            re.I,
        ),
    ),
)

# Who asserts a note, by its wording; first match wins.  A guess: the model's answer replaces
# it, and a wrong guess errs safely (a different source turns "replaces" into a conflict the
# lawyer settles, never into a silent expiry).
_SOURCE_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "法院认定",
        re.compile(
            r"(法院|仲裁委|仲裁庭|判决|裁定|裁决)(书)?(认定|查明|认为|确认|判令|驳回)|\bcourt (found|held|ruled)\b",
            re.I,
        ),
    ),
    (
        "证据显示",
        re.compile(
            r"(证据|截图|发票|收据|聊天记录|录音|录像|照片|凭证|鉴定|签收单|回执|银行流水|转账记录|快递单|记录)"
            r"(显示|表明|证明|载明|可见)|\b(evidence|exhibit|receipt|record)s? (show|prove)s?\b",
            re.I,
        ),
    ),
    (
        "对方主张",
        re.compile(
            r"(被告|对方|被申请人|被上诉人|对方律师)[^，。,]{0,6}(称|主张|辩称|认为|声称|否认|抗辩|答辩)|\b(defendant|respondent|opposing party) (claims|argues|denies|alleges)\b",
            re.I,
        ),
    ),
    (
        "律师判断",
        re.compile(
            r"(我认为|律师认为|我们认为|本律师|判断|评估|胜诉|败诉|风险)|\b(i think|we think|in my view|assessment)\b",
            re.I,
        ),
    ),
    (
        "当事人陈述",
        re.compile(
            r"(原告|委托人|当事人|客户|申请人)[^，。,]{0,6}(称|说|表示|陈述|自述|反映|告知)|\b(client|plaintiff) (says|said|states|stated)\b",
            re.I,
        ),
    ),
)

_EN_STOP = frozenset(
    "a an the and or but if of to in on at by for with from as is are was were be been being "
    "it its this that these those i you he she we they me him her us them my your his our their "
    "not no do does did have has had will would can could should may might must shall so than then "
    "there here what which who whom when where why how all any some very just also about into over".split()
)
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]{2,}")
_jieba_lock = threading.Lock()


class _TfIdf:
    """``jieba.analyse.extract_tags`` without importing ``jieba.analyse``: that package's
    import also builds a TextRank extractor, which loads ``jieba.posseg``'s word-tag tables
    (~1 s once per process, before the first Chinese keyword) that TF-IDF never uses.  The
    same tokenizer, IDF table, stop words and ordering give the same keywords (tested
    against jieba's own in tests/memory/test_offline_keywords.py)."""

    STOP_WORDS = frozenset(
        "the of is and to in that we for an are by be as on with can if from which you it "
        "this then at have all not one has or".split()
    )

    def __init__(self) -> None:
        import jieba  # deferred: the dictionary loads with the first Chinese text

        path = os.path.join(os.path.dirname(jieba.__file__), "analyse", "idf.txt")
        with open(path, "rb") as f:
            lines = f.read().decode("utf-8").splitlines()
        self.idf: dict[str, float] = {}
        for line in lines:
            word, freq = line.strip().split(" ")
            self.idf[word] = float(freq)
        self.median_idf = sorted(self.idf.values())[len(self.idf) // 2]
        self.tokenizer = jieba.dt

    def extract_tags(self, sentence: str, top_k: int) -> list[str]:
        freq: dict[str, float] = {}
        for word in self.tokenizer.cut(sentence):
            if len(word.strip()) < 2 or word.lower() in self.STOP_WORDS:
                continue
            freq[word] = freq.get(word, 0.0) + 1.0
        total = sum(freq.values())
        for word in freq:
            freq[word] *= self.idf.get(word, self.median_idf) / total
        return sorted(freq, key=freq.__getitem__, reverse=True)[:top_k]


_tfidf: _TfIdf | None = None


def classify(content: str) -> str:
    for category, pattern in _RULES:
        if pattern.search(content):
            return category
    return DEFAULT_CATEGORY


def extract_keywords(content: str, limit: int = 8) -> tuple[str, ...]:
    keywords: list[str] = []
    if re.search(r"[\u4e00-\u9fff]", content):
        global _tfidf
        with _jieba_lock:  # jieba initialises its dictionary lazily and not thread-safely
            if _tfidf is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                _tfidf = _TfIdf()
            tags = _tfidf.extract_tags(content, limit + 4)
        # a bare "15" or "20" says nothing on its own; amounts like "8999" do
        keywords.extend(
            t
            for t in tags
            if not (t.isdigit() and len(t) < 3)
            and not _EN_WORD.fullmatch(t)
            and not is_fragment(t, content)
        )
    counts: dict[str, int] = {}
    for word in _EN_WORD.findall(content):
        low = word.lower()
        if low not in _EN_STOP:
            counts[low] = counts.get(low, 0) + 1
    keywords.extend(sorted(counts, key=lambda w: -counts[w])[: max(0, limit - len(keywords))])
    return tuple(dict.fromkeys(keywords))[:limit]


def guess_source_kind(content: str, category: str | None = None) -> str | None:
    """What kind of assertion a note is, by its category and wording (None: no sign)."""
    if category == "偏好":
        return "偏好"
    for kind, pattern in _SOURCE_RULES:
        if pattern.search(content):
            return kind
    return "证据显示" if category == "证据" else None


def construct_offline(
    content: str, category: str | None = None, reference: date | None = None
) -> Construction:
    """Keywords, a rule-based category, the first date the text names (relative ones
    resolved against ``reference``, the user's local day the note was written) and a guessed
    source; context and tags stay empty until an LLM adds them."""
    chosen = category if category in CATEGORIES else classify(content)
    return Construction(
        keywords=extract_keywords(content),
        context="",
        tags=(),
        category=chosen,
        event_date=event_date_of(content, reference),
        source_kind=guess_source_kind(content, chosen),
    )


def warm_up() -> None:
    """Load jieba's dictionary ahead of the first Chinese note (call from a worker)."""
    try:
        extract_keywords("预热分词词典")
    except Exception:  # warming up is an optimisation, never a failure
        log.debug("jieba warm-up failed", exc_info=True)
