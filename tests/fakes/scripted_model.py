"""A rule-driven stand-in for the model behind the A-MEM steps.

The scripted server cannot understand text, so ``ScriptedModel`` answers each step by small
rules, applied to the prompts the engine really sends, parsed the way a model would read
them (the numbered existing notes, the new notes [新n] with the notes shown as related to
each, a note between <<< >>>).  ``decide_rules(note, shown)`` decide one new note against
the existing notes shown as related to it; ``evolve_answer(note, shown)`` gives its links,
tags and neighbour updates.  Tests add rules; benchmarks use the defaults to count calls
and tokens.

``quirks`` makes it a careless model, the way real ones answer (each quirk alone or combined):

- ``"noop"``: every decision is NOOP (no target), even for a new fact;
- ``"modify"`` / ``"chinese_actions"``: MODIFY instead of UPDATE / 更新, 取代, 新增, 无操作, 冲突;
- ``"lowercase"``: enum values in lower case (update, case);
- ``"string_numbers"``: note numbers as strings ("1");
- ``"keywords_string"``: keywords as one "a、b、c" string;
- ``"missing_tags"``: no ``tags`` key at all;
- ``"fenced"``: the JSON in a Markdown fence after a sentence of prose;
- ``"think_inline"`` / ``"think_field"``: a reasoning model's thinking in ``<think>`` before
  the answer / in ``reasoning_content``;
- ``"long_answers"``: every answer is cut by the token budget (finish_reason length) unless
  the request asks for at least 4096 tokens.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable

from desktop_app.memory.dates import find_dates
from fakes.llm_server import Reply


def _schema_name(body: dict) -> str:
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt["json_schema"]["name"]
    system = body["messages"][0]["content"]
    for name in ("note_construction", "memory_decisions", "knowledge_extraction"):
        if name in system:
            return name
    # json_object mode: the pasted schema names no step; tell them by its properties
    for name, marker in (
        ("memory_decisions", '"decisions"'),
        ("knowledge_extraction", '"scope"'),
        ("note_construction", '"keywords"'),
    ):
        if marker in system:
            return name
    return "?"


def _user(body: dict) -> str:
    """The step's prompt: the first user message (a retry appends the complaint after it)."""
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


_EXISTING = re.compile(r"\[(\d+)\] \([^)]*\) (.*)")
_NEW = re.compile(r"\[(?:新|N)(\d+)\] \([^)]*\) (.*)")
_RELATED = re.compile(r"(?:相关|related)[：:]\s*(.*)$")


def _neighbours(prompt: str) -> dict[int, str]:
    """The existing notes as the model sees them: "[n] (事件 …) content"."""
    found = {}
    for line in prompt.splitlines():
        m = _EXISTING.match(line.strip())
        if m:
            found[int(m.group(1))] = m.group(2)
    return found


def _new_notes(prompt: str) -> list[tuple[int, str, list[int]]]:
    """The new notes of a decision prompt: (number, content, the aliases shown as related)."""
    found: list[tuple[int, str, list[int]]] = []
    for line in prompt.splitlines():
        m = _NEW.match(line.strip())
        if m:
            found.append((int(m.group(1)), m.group(2), []))
            continue
        r = _RELATED.search(line)
        if r and found:
            found[-1][2].extend(int(a) for a in re.findall(r"\d+", r.group(1)))
    return found


def _new_note(prompt: str) -> str:
    m = re.search(r"<<<\n(.*?)\n>>>", prompt, re.S)
    return m.group(1).strip() if m else ""


def _constructed(note: str) -> dict:
    """What the scripted model answers for a note's construction."""
    negative = "不" in note
    found = find_dates(note)
    return {
        "keywords": [w for w in re.findall(r"[\u4e00-\u9fff]{2}", note)[:3]] or ["note"],
        "context": ("否定：" if negative else "") + f"关于“{note[:12]}”的记录",
        "tags": ["调解"] if "调解" in note else ["案件事实"],
        "category": "事实",
        "event_date": found[0].value if found else None,
        "source_kind": None,
    }


_CHINESE_ACTIONS = {
    "UPDATE": "更新",
    "SUPERSEDE": "取代",
    "ADD": "新增",
    "NOOP": "无操作",
    "CONFLICT": "冲突",
}
QUIRKS = frozenset(
    {
        "noop",
        "modify",
        "chinese_actions",
        "lowercase",
        "string_numbers",
        "keywords_string",
        "missing_tags",
        "fenced",
        "think_inline",
        "think_field",
        "long_answers",
    }
)


class ScriptedModel:
    """Answers each A-MEM step by small rules; records what it was asked."""

    def __init__(self, quirks: Iterable[str] = ()) -> None:
        self.decide_rules: list[Callable[[str, dict[int, str]], dict | None]] = []
        self.extract_items: list[dict] = []
        self.evolve_answer: Callable[[str, dict[int, str]], dict] | None = None
        self.asked: list[str] = []
        self.quirks = set(quirks)
        unknown = self.quirks - QUIRKS
        if unknown:
            raise ValueError(f"unknown quirks {sorted(unknown)}")

    def __call__(self, body: dict) -> Reply:
        reply = self._answer(body)
        if not self.quirks or reply.status != 200:
            return reply
        return self._careless(reply, _schema_name(body))

    def _careless(self, reply: Reply, name: str) -> Reply:
        obj = json.loads(reply.content)
        q = self.quirks
        decisions = (obj.get("decisions") or []) if name == "memory_decisions" else []
        for d in decisions:
            if "noop" in q:
                d.update(action="NOOP", target=None)
            if "modify" in q and d["action"] == "UPDATE":
                d["action"] = "MODIFY"
            if "chinese_actions" in q:
                d["action"] = _CHINESE_ACTIONS.get(d["action"], d["action"])
            if "lowercase" in q:
                d["action"] = d["action"].lower()
        if "lowercase" in q:
            for item in obj.get("items") or ():
                item["scope"] = item["scope"].lower()
        if "string_numbers" in q:
            for d in decisions:
                if isinstance(d.get("target"), int):
                    d["target"] = str(d["target"])
                for link in d.get("links") or ():
                    link["target"] = str(link["target"])
            for entry in obj.get("neighbour_updates") or ():
                entry["target"] = str(entry["target"])
        if "keywords_string" in q and isinstance(obj.get("keywords"), list):
            obj["keywords"] = "、".join(obj["keywords"])
        if "missing_tags" in q:
            obj.pop("tags", None)
        content = json.dumps(obj, ensure_ascii=False)
        if "fenced" in q:
            content = f"好的，结果如下：\n```json\n{content}\n```"
        if "think_inline" in q:
            content = f"<think>先看看新记录和已有记录的关系。{{草稿}}</think>\n{content}"
        kw: dict = {}
        if "think_field" in q:
            kw["reasoning"] = "用户要的是结构化结果，我来想一想。"
        if "long_answers" in q:
            kw["needs_tokens"] = 4096
        return Reply(content=content, **kw)

    def _answer(self, body: dict) -> Reply:
        name, prompt = _schema_name(body), _user(body)
        self.asked.append(name)
        if name == "note_construction":
            return Reply.json(_constructed(_new_note(prompt)))
        if name == "memory_decisions":
            return Reply.json(self._decisions(prompt))
        if name == "knowledge_extraction":
            # items come constructed by the same call (issue 13): fill in what a test omits
            items = [{**_constructed(i["content"]), **i} for i in self.extract_items]
            return Reply.json({"items": items})
        return Reply.fail(500, f"unexpected step {name}")

    def _decisions(self, prompt: str) -> dict:
        """One decision per new note, each decided by the rules on the existing notes shown
        as related to that note (never on its siblings)."""
        existing = _neighbours(prompt)
        decisions, updates = [], []
        for number, note, related in _new_notes(prompt):
            shown = {a: existing[a] for a in related if a in existing}
            answer = {"action": "ADD", "target": None, "merged_content": None, "reason": "new"}
            for rule in self.decide_rules:
                ruled = rule(note, shown)
                if ruled:
                    answer = {"merged_content": None, "reason": "rule", **ruled}
                    break
            evolution = (
                self.evolve_answer(note, shown)
                if self.evolve_answer and shown
                else {"links": [], "tags": None, "neighbour_updates": []}
            )
            links = [{"type": "相关", **link} for link in evolution.get("links") or ()]
            decisions.append(
                {"note": number, **answer, "links": links, "tags": evolution.get("tags")}
            )
            updates += evolution.get("neighbour_updates") or []
        return {"decisions": decisions, "neighbour_updates": updates}
