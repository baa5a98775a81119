"""Token accounting: real counts from the endpoint's ``usage``, estimates when it sends none.

The estimate is deliberately simple and shared with the fake test server, so benchmarks that
count tokens on the fake server and the meter in the app agree: each CJK character is about
one token (true for the tokenizers DeepSeek, Qwen and GPT-4o use on Chinese), other text about
four characters per token.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# CJK ideographs (incl. extension A and compatibility), CJK punctuation, kana, hangul and
# full-width forms: each counts as a token of its own.
_CJK = re.compile(
    "[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
)

#: Fixed overhead per chat message and per request (role markers, priming), as in OpenAI's
#: published counting recipe.
PER_MESSAGE_OVERHEAD = 3
PER_REQUEST_OVERHEAD = 3

#: The purposes the app labels its calls with (free-form labels are accepted too).
PURPOSES: tuple[str, ...] = ("chat", "construct", "decide", "evolve", "extract")


def estimate_tokens(text: str | None) -> int:
    """Estimated token count of ``text``: CJK characters ≈ 1 token, other text ≈ 4 chars/token."""
    if not text:
        return 0
    cjk = len(_CJK.findall(text))
    other = len(text) - cjk
    return cjk + math.ceil(other / 4)


def _content_text(content: object) -> str:
    # Content may be a string or a list of parts ({"type": "text", "text": ...}).
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return ""


def estimate_messages_tokens(messages: Iterable[Mapping[str, object]]) -> int:
    """Estimated prompt tokens of a chat request's ``messages``."""
    total = PER_REQUEST_OVERHEAD
    for m in messages:
        total += PER_MESSAGE_OVERHEAD + estimate_tokens(_content_text(m.get("content")))
    return total


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens of one call. ``estimated`` is True when the endpoint reported no usage."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.estimated or other.estimated,
        )


@dataclass(frozen=True, slots=True)
class PurposeTotals:
    """Running totals for one purpose label."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated_calls: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class TokenMeter:
    """Thread-safe running totals of LLM calls and tokens by purpose ("chat", "construct", ...).

    One meter is shared by every client the app builds, so the status bar and the benchmarks
    see all calls, including those made by background jobs.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._totals: dict[str, PurposeTotals] = {}

    def record(self, purpose: str, usage: Usage) -> None:
        with self._lock:
            t = self._totals.get(purpose, PurposeTotals())
            self._totals[purpose] = PurposeTotals(
                t.calls + 1,
                t.prompt_tokens + usage.prompt_tokens,
                t.completion_tokens + usage.completion_tokens,
                t.estimated_calls + (1 if usage.estimated else 0),
            )

    def totals(self) -> dict[str, PurposeTotals]:
        """A snapshot: purpose → totals."""
        with self._lock:
            return dict(self._totals)

    def get(self, purpose: str) -> PurposeTotals:
        with self._lock:
            return self._totals.get(purpose, PurposeTotals())

    @property
    def calls(self) -> int:
        with self._lock:
            return sum(t.calls for t in self._totals.values())

    @property
    def total_tokens(self) -> int:
        with self._lock:
            return sum(t.total_tokens for t in self._totals.values())

    def reset(self) -> None:
        with self._lock:
            self._totals.clear()
