"""What a case's 证据目录 (evidence list) says about each piece of evidence.

A court's list has five columns: 序号 (number), 证据名称 (what the evidence is), 证据来源
(where it comes from), 证明目的 (what it is offered to prove) and 页码 (pages).  An evidence
note is one sentence, so its name and purpose are read from it: "购物小票，证明原告于…购买"
splits at 证明; else the purpose is what the note is linked to as proving (a 证明 link to a
fact), else what the sentence says the evidence shows ("检测报告：屏幕排线存在出厂缺陷"),
else its one-sentence context.  The source is the document and page the note was drawn from
when it came from an imported file, else who provided it when the note says so, else blank
for the lawyer to fill in.  Pure functions: the engine gathers the notes, the Word writer
(evidence_docx.py) lays the rows out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_app.memory.types import Note

#: "…，证明…" / "…，用以证明…" / "…；拟证明…": the name before, the purpose from 证明 on
_ZH_PURPOSE = re.compile(
    r"^(?P<name>.+?)\s*[，,；;。:：]\s*(?:用以|用于|拟|以|可以|可)?(?P<purpose>证明.+)$", re.S
)
#: "…, proving …" / "…, which proves …" / "…; to prove …"
_EN_PURPOSE = re.compile(
    r"^(?P<name>.+?)\s*[,;:.]\s*(?:which\s+|that\s+|offered\s+)?(?P<purpose>(?:to\s+prove|proves?|proving|showing|shows)\b.+)$",
    re.S | re.I,
)

#: "电子订单截图：订单号…，显示…": a short label before a colon names the evidence
_ZH_LABEL = re.compile(r"^(?P<name>[^，,。；;：:]{2,30})[：:]\s*(?P<purpose>.+)$", re.S)
#: "聊天记录截图，完整记录了客服推诿的过程": what follows the comma says what it shows
_ZH_SHOWS = re.compile(
    r"^(?P<name>[^，,。；;]{2,40})[，,]\s*(?P<purpose>[^，,。]{0,12}(?:显示|载明|记录|表明|反映|证实|可见).+)$",
    re.S,
)

#: 证据来源 from who asserted the note ("" when it says nothing about where the evidence came
#: from: the lawyer fills the cell in)
_SOURCE_ZH = {
    "当事人陈述": "当事人提供",
    "对方主张": "对方当事人提供",
    "法院认定": "法院",
    "律师判断": "律师整理",
}
_SOURCE_EN = {
    "当事人陈述": "Provided by the client",
    "对方主张": "Provided by the opposing party",
    "法院认定": "Court",
    "律师判断": "Prepared by counsel",
}


@dataclass(frozen=True, slots=True)
class EvidenceEntry:
    """One piece of evidence, language-neutral (the rows word it)."""

    note: Note
    name: str
    #: what it proves, when known ("" otherwise)
    purpose: str
    #: the imported document it was drawn from, and the page there (None when not from one)
    document_name: str | None = None
    page: int | None = None


@dataclass(frozen=True, slots=True)
class EvidenceRow:
    """One row of the list, as written."""

    number: int
    name: str
    source: str
    purpose: str
    pages: str


def _split(content: str) -> tuple[str, str, bool]:
    """(name, purpose, whether the note itself says 证明 / "proves")."""
    text = " ".join(content.split())
    for pattern, explicit in (
        (_ZH_PURPOSE, True),
        (_EN_PURPOSE, True),
        (_ZH_LABEL, False),
        (_ZH_SHOWS, False),
    ):
        match = pattern.match(text)
        if match and match.group("name").strip():
            return (
                match.group("name").strip(),
                match.group("purpose").strip().rstrip("。."),
                explicit,
            )
    return text, "", False


def split_name_and_purpose(content: str) -> tuple[str, str]:
    """("购物小票", "证明原告购买了电脑") from "购物小票，证明原告购买了电脑"; a short label
    before a colon, or a clause saying what it shows ("…截图，完整记录了…"), splits too;
    (content, "") when the sentence names no purpose."""
    name, purpose, _explicit = _split(content)
    return name, purpose


def entry_for(
    note: Note,
    proves: Sequence[str] = (),
    document_name: str | None = None,
    page: int | None = None,
) -> EvidenceEntry:
    """The entry of an evidence note; ``proves`` holds the contents of the notes it is
    linked to as proving (in the order to list them).  The purpose is, in this order: what
    the note says it proves, what the lawyer linked it to as proving, what the note says it
    shows, its one-sentence context."""
    name, purpose, explicit = _split(note.content)
    linked = "；".join(" ".join(p.split()) for p in proves if p.strip())
    if linked and not explicit:
        purpose = linked
    if not purpose:
        purpose = " ".join(note.context.split())
    return EvidenceEntry(note, name, purpose, document_name, page)


def source_text(entry: EvidenceEntry, english: bool) -> str:
    """证据来源: the document it came from, else who provided it when the note says so,
    else "" (left for the lawyer to fill in rather than guessed)."""
    if entry.document_name:
        return entry.document_name
    sources = _SOURCE_EN if english else _SOURCE_ZH
    return sources.get(entry.note.source_kind or "", "")


def rows_for(entries: Sequence[EvidenceEntry], english: bool = False) -> list[EvidenceRow]:
    return [
        EvidenceRow(
            number=n,
            name=e.name,
            source=source_text(e, english),
            purpose=e.purpose,
            pages=str(e.page) if e.page is not None else "",
        )
        for n, e in enumerate(entries, start=1)
    ]
