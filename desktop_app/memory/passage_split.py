"""A document's pages cut into passages: pieces short enough to embed and cite on their own
(a few sentences), never across a page, each keeping the boxes of the lines it came from."""

from __future__ import annotations

import re
from dataclasses import dataclass

from desktop_app.memory.readers import Block, Box, PageText

#: a passage grows line by line until it reaches this many characters ...
TARGET_CHARS = 300
#: ... and a longer paragraph is cut at sentence ends so none exceeds this
MAX_CHARS = 500
_SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|(?<=\.)\s")


@dataclass(frozen=True, slots=True)
class Piece:
    page: int
    text: str
    boxes: tuple[Box, ...] | None


def _sentences(text: str) -> list[str]:
    """``text`` in pieces of at most MAX_CHARS, cut at sentence ends where it can be."""
    if len(text) <= MAX_CHARS:
        return [text]
    out: list[str] = []
    current = ""
    for sentence in (s for s in _SENTENCE_END.split(text) if s):
        while len(sentence) > MAX_CHARS:  # one endless sentence: cut it hard
            if current:
                out.append(current)
                current = ""
            out.append(sentence[:MAX_CHARS])
            sentence = sentence[MAX_CHARS:]
        if len(current) + len(sentence) > MAX_CHARS and current:
            out.append(current)
            current = ""
        current += sentence
    if current:
        out.append(current)
    return [s.strip() for s in out if s.strip()]


def _joined(blocks: list[Block]) -> str:
    text = ""
    for block in blocks:
        piece = block.text.strip()
        if not piece:
            continue
        # CJK lines join without a space; Latin words need one
        if text and (text[-1].isascii() and piece[0].isascii()):
            text += " "
        text += piece
    return text


def _boxes(blocks: list[Block]) -> tuple[Box, ...] | None:
    boxes = tuple(b.box for b in blocks if b.box is not None)
    return boxes or None


def split_pages(pages: list[PageText]) -> list[Piece]:
    pieces: list[Piece] = []
    for page in pages:
        group: list[Block] = []
        size = 0
        for block in page.blocks:
            text = block.text.strip()
            if not text:
                continue
            group.append(block)
            size += len(text)
            if size >= TARGET_CHARS:
                pieces += _flush(page.number, group)
                group, size = [], 0
        if group:
            pieces += _flush(page.number, group)
    return pieces


def _flush(page: int, group: list[Block]) -> list[Piece]:
    text = _joined(group)
    boxes = _boxes(group)
    return [Piece(page, part, boxes) for part in _sentences(text)]
