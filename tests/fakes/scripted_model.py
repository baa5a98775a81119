"""A rule-driven stand-in for the model behind the A-MEM steps.

The scripted server cannot understand text, so ``ScriptedModel`` answers each step by small
rules, applied to the prompts the engine really sends, parsed the way a model would read
them (the numbered neighbour list, the new note between <<< >>>).  Tests add rules;
benchmarks use the defaults to count calls and tokens.

``quirks`` makes it a careless model, the way real ones answer (each quirk alone or combined):

- ``"noop"``: every decision is NOOP, even for a new fact;
- ``"modify"`` / ``"chinese_actions"``: MODIFY instead of UPDATE / 更新, 取代, 新增, 无操作;
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


_CHINESE_ACTIONS = {"UPDATE": "更新", "SUPERSEDE": "取代", "ADD": "新增", "NOOP": "无操作"}
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
        if name == "memory_decision":
            if "noop" in q:
                obj = {**obj, "action": "NOOP", "target": None}
            if "modify" in q and obj["action"] == "UPDATE":
                obj["action"] = "MODIFY"
            if "chinese_actions" in q:
                obj["action"] = _CHINESE_ACTIONS.get(obj["action"], obj["action"])
        if "lowercase" in q:
            for key in ("action", "scope"):
                if isinstance(obj.get(key), str):
                    obj[key] = obj[key].lower()
            for item in obj.get("items") or ():
                item["scope"] = item["scope"].lower()
        if "string_numbers" in q:
            if isinstance(obj.get("target"), int):
                obj["target"] = str(obj["target"])
            for entry in (*(obj.get("links") or ()), *(obj.get("neighbour_updates") or ())):
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
