"""Does a message fit what the chat model can read? Estimated before sending, so a
20,000-character paste is questioned instead of failing (or being cut) at the provider.

The context windows are the published sizes of the models the presets offer; a model not
listed gets ``DEFAULT_CONTEXT_TOKENS``, a size most current models exceed, so the warning errs
towards asking.  Local servers (Ollama) run models with a smaller window than the model
supports unless configured otherwise, hence their own entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_CONTEXT_TOKENS = 8192
#: Ollama's default num_ctx: what a local model actually reads unless the user raised it
OLLAMA_CONTEXT_TOKENS = 4096

#: (model name pattern, context window in tokens), first match wins
KNOWN_CONTEXTS: tuple[tuple[re.Pattern[str], int], ...] = tuple(
    (re.compile(p, re.IGNORECASE), n)
    for p, n in (
        (r"^deepseek-(chat|reasoner)", 65_536),
        (r"^gpt-4\.1", 1_000_000),
        (r"^(gpt-4o|gpt-4-turbo|o1|o3|o4)", 128_000),
        (r"^gpt-3\.5", 16_385),
    )
)


@dataclass(frozen=True, slots=True)
class ContextFit:
    message_tokens: int  # estimated
    context_tokens: int  # the model's window
    budget_tokens: int  # what is left for the message after the reserve

    @property
    def fits(self) -> bool:
        return self.message_tokens <= self.budget_tokens


def context_tokens(model: str, provider: str = "") -> int:
    for pattern, size in KNOWN_CONTEXTS:
        if pattern.search(model.strip()):
            return size
    if provider == "ollama":
        return OLLAMA_CONTEXT_TOKENS
    return DEFAULT_CONTEXT_TOKENS


def reserve_tokens(context: int) -> int:
    """Room kept for the instructions, the recalled memories, recent turns and the reply."""
    return min(context // 4, 4096)


def check_message(text: str, model: str, provider: str = "") -> ContextFit:
    # imported here: desktop_app.llm loads openai and pydantic (1-3 s), which the window's
    # first paint must not wait for (tests/ui/test_startup.py)
    from desktop_app.llm.tokens import estimate_tokens

    context = context_tokens(model, provider)
    return ContextFit(estimate_tokens(text), context, context - reserve_tokens(context))
