"""A rule-driven stand-in for the model behind the A-MEM steps.

The scripted server cannot understand text, so ``ScriptedModel`` answers each step by small
rules, applied to the prompts the engine really sends, parsed the way a model would read
them (the numbered neighbour list, the new note between <<< >>>).  Tests add rules;
benchmarks use the defaults to count calls and tokens.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from fakes.llm_server import Reply


def _schema_name(body: dict) -> str:
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt["json_schema"]["name"]
    system = body["messages"][0]["content"]
    for name in (
        "note_construction",
        "memory_decision",
        "memory_evolution",
        "knowledge_extraction",
    ):
        if name in system:
            return name
    return "?"


def _user(body: dict) -> str:
    return next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")


def _neighbours(prompt: str) -> dict[int, str]:
    """The numbered notes as the model sees them: "[n] (记录于 …) content"."""
    found = {}
    for line in prompt.splitlines():
        m = re.match(r"\[(\d+)\] \([^)]*\) (.*)", line.strip())
        if m:
            found[int(m.group(1))] = m.group(2)
    return found


def _new_note(prompt: str) -> str:
    m = re.search(r"<<<\n(.*?)\n>>>", prompt, re.S)
    return m.group(1).strip() if m else ""


class ScriptedModel:
    """Answers each A-MEM step by small rules; records what it was asked."""

    def __init__(self) -> None:
        self.decide_rules: list[Callable[[str, dict[int, str]], dict | None]] = []
        self.extract_items: list[dict] = []
        self.evolve_answer: Callable[[str, dict[int, str]], dict] | None = None
        self.asked: list[str] = []

    def __call__(self, body: dict) -> Reply:
        name, prompt = _schema_name(body), _user(body)
        self.asked.append(name)
        if name == "note_construction":
            note = _new_note(prompt)
            negative = "不" in note
            return Reply.json(
                {
                    "keywords": [w for w in re.findall(r"[\u4e00-\u9fff]{2}", note)[:3]]
                    or ["note"],
                    "context": ("否定：" if negative else "") + f"关于“{note[:12]}”的记录",
                    "tags": ["调解"] if "调解" in note else ["案件事实"],
                    "category": "事实",
                }
            )
        if name == "memory_decision":
            note, shown = _new_note(prompt), _neighbours(prompt)
            for rule in self.decide_rules:
                answer = rule(note, shown)
                if answer:
                    return Reply.json({"merged_content": None, "reason": "rule", **answer})
            return Reply.json(
                {"action": "ADD", "target": None, "merged_content": None, "reason": "new"}
            )
        if name == "memory_evolution":
            shown = _neighbours(prompt)
            if self.evolve_answer:
                return Reply.json(self.evolve_answer(prompt, shown))
            return Reply.json({"links": [], "tags": None, "neighbour_updates": []})
        if name == "knowledge_extraction":
            return Reply.json({"items": self.extract_items})
        return Reply.fail(500, f"unexpected step {name}")
