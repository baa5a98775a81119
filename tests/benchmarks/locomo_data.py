"""LoCoMo loading: turns as note items, scored questions with cleaned evidence ids."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.benchmarks.common import ROOT

_RELATIVE = Path("shared") / "datasets" / "locomo" / "locomo10.json"
#: beside the checkout (/work/main -> /work/shared); a worktree sits one level deeper
DATASET = next(
    (p / _RELATIVE for p in ROOT.parents if (p / _RELATIVE).is_file()), ROOT.parent / _RELATIVE
)
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


@dataclass(frozen=True, slots=True)
class Question:
    sample: int
    text: str
    category: int
    evidence: tuple[str, ...]


def session_time(value: str) -> datetime:
    # "1:56 pm on 8 May, 2023"
    return datetime.strptime(value.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def load(path: Path = DATASET) -> tuple[list[list[dict]], list[Question], dict[str, int]]:
    """(note items per conversation, scored questions, counts of what was dropped).

    Each turn becomes ``{"content": "speaker: text", "created_at": session time + n seconds,
    "source": dia_id}``; the per-turn second keeps the turns of one session in order.
    Evidence ids are split when several share one string ("D8:6; D9:17"), leading zeros
    are dropped ("D30:05" -> "D30:5"), ids absent from the conversation are discarded, and a
    question with no valid id left is not scored.
    """
    samples = json.loads(path.read_text(encoding="utf-8"))
    conversations: list[list[dict]] = []
    questions: list[Question] = []
    dropped = {"empty_or_invalid_evidence": 0, "invalid_ids": 0, "category_5": 0}
    for n, sample in enumerate(samples):
        conv = sample["conversation"]
        items: list[dict] = []
        sessions = sorted(
            (int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k)),
        )
        for s in sessions:
            start = session_time(conv[f"session_{s}_date_time"])
            for i, turn in enumerate(conv[f"session_{s}"]):
                items.append(
                    {
                        "content": f"{turn['speaker']}: {turn['text']}",
                        "created_at": start + timedelta(seconds=i),
                        "source": turn["dia_id"],
                    }
                )
        conversations.append(items)
        ids = {it["source"] for it in items}
        for qa in sample["qa"]:
            if qa["category"] not in CATEGORY_NAMES:
                dropped["category_5"] += 1
                continue
            raw = [p for e in qa.get("evidence") or [] for p in re.split(r"[;,\s]+", e) if p]
            clean = []
            for e in raw:
                m = re.fullmatch(r"D(\d+):0*(\d+)", e)
                e2 = f"D{m.group(1)}:{m.group(2)}" if m else e
                if e2 in ids:
                    clean.append(e2)
                else:
                    dropped["invalid_ids"] += 1
            if not clean:
                dropped["empty_or_invalid_evidence"] += 1
                continue
            questions.append(
                Question(n, qa["question"], qa["category"], tuple(dict.fromkeys(clean)))
            )
    return conversations, questions, dropped
