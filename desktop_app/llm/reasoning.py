"""Reasoning models' thinking, told apart from their answer.

DeepSeek-R1, QwQ and Qwen3 (through Ollama, LM Studio, vLLM…) write their thinking into the
content between ``<think>`` and ``</think>``; other servers put it in a separate
``reasoning_content`` (or ``reasoning``) field. In the content the tags may be split across
stream chunks, the block may be left open when the token budget runs out, and some chat
templates open the block themselves, so the output carries only the closing tag.

:class:`ThinkSplitter` reads content piece by piece and emits :class:`StreamEvent` values:
``answer`` and ``reasoning`` text, and ``retract`` when a lone ``</think>`` shows that the text
emitted so far as answer was thinking (a UI moves it under "reasoning"; the final split is
right either way). :func:`split_reasoning` does the same for a whole text.

Where a tag counts: anywhere in the answer's text except inside a JSON string literal. A model
that answers ``{"</think>": []}`` (a key or a value that mentions the tag) gives JSON, not
thinking, so the splitter follows the answer's JSON structure as it goes: a ``"`` opens a
string only inside an open ``{``/``[`` (quotes in prose stay prose, so a stray quote in a
sentence cannot hide the tag that follows), and backslash escapes are honoured. Inside a
thinking block the first ``</think>`` ends it, wherever it stands: thinking is prose.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

EventKind = Literal["answer", "reasoning", "retract"]

OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """One piece of a streamed reply. ``retract``: the ``text`` emitted so far as answer was
    in fact reasoning (the answer restarts empty)."""

    kind: EventKind
    text: str


class _JsonStrings:
    """Whether the answer's text so far ends inside a JSON string literal (see the module)."""

    __slots__ = ("depth", "escaped", "in_string")

    def __init__(self) -> None:
        self.depth = 0  # open { and [ (a bracket in prose counts too: only strings matter)
        self.in_string = False
        self.escaped = False

    def advance(self, text: str) -> None:
        for ch in text:
            if self.in_string:
                if self.escaped:
                    self.escaped = False
                elif ch == "\\":
                    self.escaped = True
                elif ch == '"':
                    self.in_string = False
            elif ch in "{[":
                self.depth += 1
            elif ch in "}]":
                self.depth = max(0, self.depth - 1)
            elif ch == '"' and self.depth:
                self.in_string = True


class ThinkSplitter:
    """Splits content that may contain ``<think>…</think>`` into answer and reasoning.

    Tags are matched case-insensitively and may arrive cut anywhere; a possible beginning of a
    tag at the end of a piece is held back until the next piece decides. A tag inside a JSON
    string of the answer is text (see the module docstring).
    """

    def __init__(self) -> None:
        self._pending = ""  # held back: may be the beginning of a tag
        self._json = _JsonStrings()  # the answer's JSON structure, for tags inside strings
        self._thinking = False
        self._closed_a_block = False
        self._trim_answer = False  # drop the blank lines that follow "</think>"
        self._answer: list[str] = []  # emitted as answer so far (for a retract)

    def feed(self, text: str) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        buf = self._pending + text
        self._pending = ""
        while buf:
            low = buf.lower()
            tag = CLOSE_TAG if self._thinking else OPEN_TAG
            at = low.find(tag)
            stray_close = -1 if self._thinking else low.find(CLOSE_TAG)
            first = min((i for i in (at, stray_close) if i != -1), default=-1)
            if not self._thinking and first != -1:
                self._json.advance(buf[:first])
                if self._json.in_string:  # "<" of a tag-like text inside a JSON string
                    self._emit(events, buf[: first + 1], scanned=True)
                    buf = buf[first + 1 :]
                    continue
            if stray_close != -1 and (at == -1 or stray_close < at):
                self._emit(events, buf[:stray_close], scanned=True)
                self._stray_close(events)
                buf = buf[stray_close + len(CLOSE_TAG) :]
                continue
            if at == -1:
                keep = _partial_tag_suffix(low, (tag,) if self._thinking else (OPEN_TAG, CLOSE_TAG))
                self._emit(events, buf[: len(buf) - keep])
                self._pending = buf[len(buf) - keep :]
                break
            self._emit(events, buf[:at], scanned=True)
            buf = buf[at + len(tag) :]
            if self._thinking:
                self._closed_a_block = True
                self._trim_answer = True
            self._thinking = not self._thinking
        return events

    def finish(self) -> list[StreamEvent]:
        """The held-back rest at the end of the stream (an open block stays reasoning)."""
        events: list[StreamEvent] = []
        rest, self._pending = self._pending, ""
        self._emit(events, rest)
        return events

    def _emit(self, events: list[StreamEvent], text: str, *, scanned: bool = False) -> None:
        """Emit ``text`` as reasoning or answer; answer text moves the JSON state on unless the
        caller ``scanned`` it already."""
        if not text:
            return
        if self._thinking:
            events.append(StreamEvent("reasoning", text))
            return
        if not scanned:
            self._json.advance(text)
        if self._trim_answer:
            text = text.lstrip()
            if not text:
                return
            self._trim_answer = False
        self._answer.append(text)
        events.append(StreamEvent("answer", text))

    def _stray_close(self, events: list[StreamEvent]) -> None:
        # "</think>" without "<think>": the template opened the block, so everything so far
        # was thinking. After a real block has closed, a second lone tag is only dropped.
        self._trim_answer = True
        if self._closed_a_block:
            return
        self._closed_a_block = True
        self._json = _JsonStrings()  # the answer restarts empty
        shown = "".join(self._answer)
        self._answer.clear()
        if shown:
            events.append(StreamEvent("retract", shown))


def _partial_tag_suffix(low: str, tags: tuple[str, ...]) -> int:
    """Length of the longest end of ``low`` that is the beginning of one of ``tags``."""
    for n in range(min(len(low), max(len(t) for t in tags) - 1), 0, -1):
        end = low[-n:]
        if any(t.startswith(end) for t in tags):
            return n
    return 0


class ReplyParts:
    """Collects a reply's events into its answer and its reasoning (blocks joined by a line)."""

    def __init__(self) -> None:
        self.answer: list[str] = []
        self.reasoning: list[str] = []  # one entry per block or retracted run
        self._in_reasoning = False

    def add(self, event: StreamEvent) -> None:
        if event.kind == "answer":
            self.answer.append(event.text)
            self._in_reasoning = False
        elif event.kind == "retract":
            self.answer.clear()
            self.reasoning.insert(0, event.text)
            self._in_reasoning = False
        else:
            if self._in_reasoning and self.reasoning:
                self.reasoning[-1] += event.text
            else:
                self.reasoning.append(event.text)
            self._in_reasoning = True

    def end_block(self) -> None:
        """A reasoning block ended (the next reasoning text starts a new entry)."""
        self._in_reasoning = False

    @property
    def answer_text(self) -> str:
        return "".join(self.answer)

    @property
    def reasoning_text(self) -> str:
        return "\n".join(r.strip() for r in self.reasoning if r.strip())


def split_reasoning(text: str) -> tuple[str, str]:
    """``(answer, reasoning)`` of a whole reply (see :class:`ThinkSplitter`)."""
    splitter = ThinkSplitter()
    parts = ReplyParts()
    for event in (*splitter.feed(text or ""), *splitter.finish()):
        parts.add(event)
    return parts.answer_text, parts.reasoning_text
