"""What a case's 证据目录 (evidence list) says about each piece of evidence.

A court's list has five columns: 序号 (number), 证据名称 (what the evidence is), 证据来源
(where it comes from), 证明目的 (what it is offered to prove) and 页码 (pages).  An evidence
note is one sentence, so its name and purpose are read from it: "购物小票，证明原告于…购买"
splits at 证明; otherwise the purpose is what the note is linked to as proving (a 证明 link
to a fact), else its one-sentence context.  The source is the document and page the note was
drawn from when it came from an imported file, else who asserted it.  Pure functions: the
engine gathers the notes, the Word writer (evidence_docx.py) lays the rows out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_app.memory.types import SOURCE_KIND_LABELS_EN, Note

#: "…，证明…" / "…，用以证明…" / "…；拟证明…": the name before, the purpose from 证明 on
_ZH_PURPOSE = re.compile(
    r"^(?P<name>.+?)\s*[，,；;。:：]\s*(?:用以|用于|拟|以|可以|可)?(?P<purpose>证明.+)$", re.S
)
#: "…, proving …" / "…, which proves …" / "…; to prove …"
_EN_PURPOSE = re.compile(
    r"^(?P<name>.+?)\s*[,;:.]\s*(?:which\s+|that\s+|offered\s+)?(?P<purpose>(?:to\s+prove|proves?|proving|showing|shows)\b.+)$",
    re.S | re.I,
)

_ORIGIN_ZH = {"message": "对话中提及", "manual": "律师录入", "import": "导入文件"}
_ORIGIN_EN = {
    "message": "Mentioned in a conversation",
    "manual": "Entered by the lawyer",
    "import": "Imported file",
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


def split_name_and_purpose(content: str) -> tuple[str, str]:
    """("购物小票", "证明原告购买了电脑") from "购物小票，证明原告购买了电脑"; (content, "")
    when the sentence names no purpose."""
    text = " ".join(content.split())
    for pattern in (_ZH_PURPOSE, _EN_PURPOSE):
        match = pattern.match(text)
        if match and match.group("name").strip():
            return match.group("name").strip(), match.group("purpose").strip().rstrip("。.")
    return text, ""


def entry_for(
    note: Note,
    proves: Sequence[str] = (),
    document_name: str | None = None,
    page: int | None = None,
) -> EvidenceEntry:
    """The entry of an evidence note; ``proves`` holds the contents of the notes it is
    linked to as proving (in the order to list them)."""
    name, purpose = split_name_and_purpose(note.content)
    if not purpose:
        purpose = "；".join(" ".join(p.split()) for p in proves if p.strip())
    if not purpose:
        purpose = " ".join(note.context.split())
    return EvidenceEntry(note, name, purpose, document_name, page)


def source_text(entry: EvidenceEntry, english: bool) -> str:
    """证据来源: the document it came from, else who asserted it, else how it was recorded."""
    if entry.document_name:
        return entry.document_name
    kind = entry.note.source_kind
    if kind:
        return SOURCE_KIND_LABELS_EN.get(kind, kind) if english else kind
    origins = _ORIGIN_EN if english else _ORIGIN_ZH
    return origins.get(entry.note.origin, "")


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
