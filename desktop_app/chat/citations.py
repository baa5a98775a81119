"""How a document passage is cited, to the model and on screen alike: "起诉状.pdf 第3页" /
"complaint.pdf p. 3"; a Word or text document counts paragraphs ("第3段" / "para. 3")."""

from __future__ import annotations

PARAGRAPH_KINDS = frozenset({"docx", "text"})


def cite(document_name: str, kind: str, page: int, language: str = "zh_CN") -> str:
    english = language.lower().startswith("en")
    if kind in PARAGRAPH_KINDS:
        where = f"para. {page}" if english else f"第{page}段"
    else:
        where = f"p. {page}" if english else f"第{page}页"
    return f"{document_name} {where}"
