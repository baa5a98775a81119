"""Document passages in a chat turn: how each is cited — to the model and on screen alike,
"起诉状.pdf 第3页" / "complaint.pdf p. 3" (a Word or text document counts paragraphs: "第3段" /
"para. 3") — and which of them a reply actually cites."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

PARAGRAPH_KINDS = frozenset({"docx", "text"})
#: the longest stretch of one passage put before the model (passages are a few sentences)
MAX_PASSAGE_CHARS = 600


def _english(language: str) -> bool:
    return language.lower().startswith("en")


def where_text(kind: str, page: int, language: str = "zh_CN") -> str:
    if kind in PARAGRAPH_KINDS:
        return f"para. {page}" if _english(language) else f"第{page}段"
    return f"p. {page}" if _english(language) else f"第{page}页"


def cite(document_name: str, kind: str, page: int, language: str = "zh_CN") -> str:
    return f"{document_name} {where_text(kind, page, language)}"


@dataclass(frozen=True, slots=True)
class CitedPassage:
    """A passage given to the model for one reply, with the citation it was given under."""

    passage_id: str
    document_id: str
    document_name: str
    kind: str
    page: int
    text: str
    citation: str


def cited_passages(
    hits: Iterable[Any], kinds: Mapping[str, str], language: str = "zh_CN"
) -> list[CitedPassage]:
    """``hits``: the engine's PassageHits; ``kinds``: document id → kind (pdf, docx, ...)."""
    out = []
    for hit in hits:
        p = hit.passage
        kind = kinds.get(p.document_id, "pdf")
        out.append(
            CitedPassage(
                p.id,
                p.document_id,
                hit.document_name,
                kind,
                p.page,
                p.text,
                cite(hit.document_name, kind, p.page, language),
            )
        )
    return out


def cite_hits(engine: Any, hits: Sequence[Any], language: str = "zh_CN") -> list[CitedPassage]:
    """The engine's PassageHits under their citations: a Word or text document is cited by
    paragraph, so each document's kind is looked up once (a document deleted meanwhile is
    cited by page)."""
    kinds: dict[str, str] = {}
    for doc_id in {h.passage.document_id for h in hits}:
        try:
            kinds[doc_id] = engine.get_document(doc_id).kind
        except Exception:
            kinds[doc_id] = "pdf"
    return cited_passages(hits, kinds, language)


_NOISE = re.compile(r"[\s《》〈〉\[\]【】()（）\"'“”‘’「」,，、:：]+")


def _norm(text: str) -> str:
    return _NOISE.sub("", text).lower()


def _page_tokens(p: CitedPassage) -> set[str]:
    n = p.page
    if p.kind in PARAGRAPH_KINDS:
        return {f"第{n}段", f"para.{n}", f"para{n}", f"paragraph{n}", f"¶{n}"}
    return {f"第{n}页", f"p.{n}", f"p{n}", f"page{n}", f"pp.{n}"}


def is_cited(reply: str, passage: CitedPassage) -> bool:
    """Does ``reply`` cite this passage (its document's name, with or without the extension,
    followed by its page)?  Spacing, brackets and title marks do not matter."""
    text = _norm(reply)
    names = {_norm(passage.document_name), _norm(PurePath(passage.document_name).stem)}
    wanted = "|".join(
        re.escape(f"{name}{token}") for name in names if name for token in _page_tokens(passage)
    )
    # "p. 3" is not "p. 30"
    return bool(wanted) and re.search(f"(?:{wanted})(?!\\d)", text) is not None


def cited_in(reply: str, passages: Sequence[CitedPassage]) -> list[CitedPassage]:
    return [p for p in passages if is_cited(reply, p)]
