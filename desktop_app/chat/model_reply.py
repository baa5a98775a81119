"""Reading the model's streamed reply: the answer apart from the thinking, and how it ended.

The LLM layer's stream (:class:`desktop_app.llm.stream.ChatStream`) yields events — answer
text, reasoning text, and ``retract`` when a lone ``</think>`` shows that what was shown as
answer was thinking — and sums the reply up in ``result()``. The answer stored and learnt
from is that result's text, never the joined deltas (after a retract they still hold the
thinking). A plain iterable of text deltas (a test double) works too.

How the reply ended becomes its status: ``complete``; ``stopped`` (the user pressed Stop, or
before anything was sent); ``truncated`` (the token budget cut it off); ``interrupted`` (the
stream broke after part of the answer had come: the part is kept, the error travels with it).
An error before any answer text is raised as is: there is nothing to keep.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from desktop_app.core.errors import LLMError

#: ``(kind, text)``: kind is "answer", "reasoning" or "retract" (see the module docstring)
EventCallback = Callable[[str, str], None]


@dataclass(frozen=True, slots=True)
class StreamedReply:
    text: str  # the answer only
    reasoning: str  # the thinking the model showed (for display; never stored)
    status: str  # complete / stopped / truncated / interrupted
    error: LLMError | None = None  # what broke an interrupted reply


STOPPED_BEFORE_SENDING = StreamedReply("", "", "stopped")


def read_reply(
    stream: Iterable[str],
    cancel: threading.Event,
    on_delta: Callable[[str], None] | None = None,
    on_event: EventCallback | None = None,
) -> StreamedReply:
    """Consume ``stream`` (a ChatStream, or any iterable of answer deltas) to its end."""
    answer: list[str] = []  # for a plain iterable, which has no result()
    try:
        for kind, text in _events(stream, cancel):
            if kind == "answer":
                answer.append(text)
                if on_delta is not None:
                    on_delta(text)
            elif kind == "retract":
                answer.clear()
            if on_event is not None:
                on_event(kind, text)
    except LLMError as exc:
        text, thinking, _status = _summary(stream, answer, cancel)
        if not text.strip():
            raise
        return StreamedReply(text, thinking, "interrupted", exc)
    return StreamedReply(*_summary(stream, answer, cancel))


def _events(stream: Iterable[str], cancel: threading.Event) -> Iterator[tuple[str, str]]:
    events = getattr(stream, "events", None)
    if callable(events):
        for event in events():
            yield event.kind, event.text
        return
    for delta in stream:  # a plain iterable of answer text
        if cancel.is_set():
            return
        if delta:
            yield "answer", delta


def _summary(stream: Any, answer: list[str], cancel: threading.Event) -> tuple[str, str, str]:
    """``(answer, reasoning, status)`` of a finished, stopped or broken stream."""
    result = getattr(stream, "result", None)
    if callable(result):
        r = result()
        return r.text, r.reasoning, r.status
    return "".join(answer), "", "stopped" if cancel.is_set() else "complete"
