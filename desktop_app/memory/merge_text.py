"""The merged text proposed for notes being merged (pure; the merge dialog pre-fills it)."""

from __future__ import annotations

from collections.abc import Sequence


def combined_text(keep: str, others: Sequence[str]) -> str:
    """The kept note's text, then each other text it does not already contain (a note
    that only repeats what is there adds nothing)."""
    parts = [keep.strip()]
    for other in (o.strip() for o in others):
        if other and not any(other in p for p in parts):
            parts.append(other)
    return "\n".join(parts)
