"""TXT and Markdown: the encoding found (utf-8, utf-8 with BOM, gb18030), paragraphs kept."""

from __future__ import annotations

import re
from pathlib import Path

from desktop_app.core.errors import DocumentImportError
from desktop_app.memory.readers import Block, PageText, ReadResult

#: tried in order; gb18030 decodes nearly any byte string, so it comes last
ENCODINGS = ("utf-8-sig", "gb18030")
#: paragraphs per group: a group plays the part of a page in citations ("第3段起")
PARAGRAPHS_PER_GROUP = 1


def decode(raw: bytes) -> str:
    for encoding in ENCODINGS:
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise DocumentImportError("corrupt", "the text file's encoding is not utf-8 or gb18030")


def paragraphs(text: str) -> list[str]:
    """Paragraphs split on blank lines (and on single line breaks of a one-line-per-
    paragraph file); whitespace inside collapsed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    chunks = re.split(r"\n\s*\n", text)
    if len(chunks) == 1:
        chunks = text.split("\n")
    return [re.sub(r"[ \t\u3000]+", " ", c).strip() for c in chunks if c.strip()]


def read_text(path: Path) -> ReadResult:
    text = decode(path.read_bytes())
    pages = [PageText(i, [Block(p)]) for i, p in enumerate(paragraphs(text), start=1)]
    return ReadResult("text", pages, len(pages))
