"""The LLM steps of the A-MEM pipeline, as pure functions over an :class:`LLMClient`.

No engine state, no storage, no Qt: the engine calls these inside its jobs and applies the
results. Each step has a JSON schema and a prompt (``resources/prompts/<step>.*.md``).

Neighbours are shown to the model under small integer aliases 1..n, never under their ids
(the A-MEM code confused ranks with ids and edited the wrong notes). An alias outside 1..n is
an invalid answer: it is sent back once with the error, and a second bad answer raises
:class:`BadResponseError` — a wrong target is never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from desktop_app.core.errors import InvalidInputError
from desktop_app.memory.construction import Construction  # the offline step's result type too
from desktop_app.memory.types import CATEGORIES, DEFAULT_CATEGORY

if TYPE_CHECKING:
    from desktop_app.llm.client import LLMClient


def render_prompt(name: str, **values: Any) -> str:
    # The LLM layer (openai, httpx, pydantic: 1-3 s of imports) loads with the first LLM
    # step, not with the engine: opening it and searching never need it.
    from desktop_app.llm.prompts import render_prompt as render
    from desktop_app.memory import vocabulary  # noqa: F401  (registers MODIFY/更新/… with the validator)

    return render(name, **values)


Action = Literal["ADD", "UPDATE", "SUPERSEDE", "NOOP"]
ACTIONS: tuple[str, ...] = ("ADD", "UPDATE", "SUPERSEDE", "NOOP")
SCOPES: tuple[str, ...] = ("case", "global")

#: Longest content shown to the model for one neighbour (a pasted judgment must not blow the
#: context window of a small local model).
MAX_NEIGHBOUR_CHARS = 1200
MAX_TAGS = 8
MAX_KEYWORDS = 10


# --------------------------------------------------------------------------------------------
# Value types


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    target_id: str | None
    merged_content: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class EvolutionLink:
    alias: int  # the number the model saw
    target_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class NeighbourUpdate:
    target_id: str
    new_context: str | None
    new_tags: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class Evolution:
    links: tuple[EvolutionLink, ...]
    new_tags_for_note: tuple[str, ...] | None  # None: keep the note's tags
    neighbour_updates: tuple[NeighbourUpdate, ...]


@dataclass(frozen=True, slots=True)
class Item:
    content: str
    category: str
    scope: Literal["case", "global"]


@dataclass(frozen=True, slots=True)
class NoteView:
    """What the steps need to know about a note. ``types.Note`` works as well (duck-typed)."""

    id: str
    content: str
    created_at: datetime | None = None
    context: str = ""
    keywords: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()


NoteLike = Any  # NoteView, types.Note, or a tuple (id, content, created_at)


def _view(obj: NoteLike) -> NoteView:
    if isinstance(obj, NoteView):
        return obj
    if isinstance(obj, tuple | list):
        note_id, content, *rest = obj
        return NoteView(str(note_id), str(content), rest[0] if rest else None)
    return NoteView(
        id=str(obj.id),
        content=str(obj.content),
        created_at=getattr(obj, "created_at", None),
        context=getattr(obj, "context", "") or "",
        keywords=tuple(getattr(obj, "keywords", ()) or ()),
        tags=tuple(getattr(obj, "tags", ()) or ()),
    )


# --------------------------------------------------------------------------------------------
# Schemas (strict-mode compatible: every property required, nullable via a type list)

_STR_LIST = {"type": "array", "items": {"type": "string"}}

CONSTRUCT_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "keywords": {**_STR_LIST, "minItems": 1},
        "context": {"type": "string", "minLength": 1},
        "tags": _STR_LIST,
        "category": {"type": "string", "enum": list(CATEGORIES)},
    },
    "required": ["keywords", "context", "tags", "category"],
    "additionalProperties": False,
}

DECIDE_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": list(ACTIONS)},
        "target": {"type": ["integer", "null"]},
        "merged_content": {"type": ["string", "null"]},
        "reason": {"type": "string"},
    },
    "required": ["action", "target", "merged_content", "reason"],
    "additionalProperties": False,
}

EVOLVE_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "links": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"target": {"type": "integer"}, "reason": {"type": "string"}},
                "required": ["target", "reason"],
                "additionalProperties": False,
            },
        },
        "tags": {"type": ["array", "null"], "items": {"type": "string"}},
        "neighbour_updates": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "target": {"type": "integer"},
                    "context": {"type": ["string", "null"]},
                    "tags": {"type": ["array", "null"], "items": {"type": "string"}},
                },
                "required": ["target", "context", "tags"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["links", "tags", "neighbour_updates"],
    "additionalProperties": False,
}

EXTRACT_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "content": {"type": "string", "minLength": 1},
                    "category": {"type": "string", "enum": list(CATEGORIES)},
                    "scope": {"type": "string", "enum": list(SCOPES)},
                },
                "required": ["content", "category", "scope"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["items"],
    "additionalProperties": False,
}


# --------------------------------------------------------------------------------------------
# Helpers

_WEEKDAYS = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")


def format_message_time(t: datetime) -> str:
    """``2024-03-16 10:30 星期六 / Saturday (+08:00)``: the weekday lets the model resolve
    "上周五" / "last Friday"; the offset is shown only when known."""
    tz = t.strftime(" (%z)") if t.tzinfo is not None else ""
    if tz:
        tz = f" ({tz[2:5]}:{tz[5:7]})"
    return f"{t:%Y-%m-%d %H:%M} {_WEEKDAYS[t.weekday()]} / {t:%A}{tz}"


def _clean_list(values: Sequence[Any] | None, limit: int) -> tuple[str, ...]:
    out: list[str] = []
    seen: set[str] = set()
    for v in values or ():
        s = re.sub(r"\s+", " ", str(v)).strip().lstrip("#").strip()
        if s and s.lower() not in seen:
            seen.add(s.lower())
            out.append(s)
    return tuple(out[:limit])


def _clip(text: str, limit: int = MAX_NEIGHBOUR_CHARS) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "…"


def _date(t: datetime | None) -> str:
    return f"{t:%Y-%m-%d}" if t is not None else "日期未知 / unknown date"


def _require_text(value: str, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{what} is empty")
    return value.strip()


def _check_alias(alias: Any, n: int, where: str) -> None:
    if isinstance(alias, bool) or not isinstance(alias, int | float) or int(alias) != alias:
        raise ValueError(f"{where}: {alias!r} is not a note number")
    if not 1 <= int(alias) <= n:
        raise ValueError(f"{where}: note number {int(alias)} does not exist; use 1 to {n}")


# --------------------------------------------------------------------------------------------
# The steps


def construct_note(
    llm: LLMClient, content: str, message_time: datetime, *, model: str | None = None
) -> Construction:
    """Keywords, a one-sentence context, tags and a category for one note (A-MEM step 1)."""
    content = _require_text(content, "note content")
    obj, _ = llm.complete_json(
        render_prompt("construct.system"),
        render_prompt(
            "construct.user", content=content, message_time=format_message_time(message_time)
        ),
        CONSTRUCT_SCHEMA,
        "note_construction",
        model,
        purpose="construct",
    )
    category = obj["category"] if obj["category"] in CATEGORIES else DEFAULT_CATEGORY
    return Construction(
        keywords=_clean_list(obj["keywords"], MAX_KEYWORDS),
        context=re.sub(r"\s+", " ", obj["context"]).strip(),
        tags=_clean_list(obj["tags"], MAX_TAGS),
        category=category,
    )


def _neighbour_block(views: Sequence[NoteView], *, detailed: bool) -> str:
    lines = []
    for alias, v in enumerate(views, start=1):
        line = f"[{alias}] (记录于 / recorded {_date(v.created_at)}) {_clip(v.content)}"
        if detailed:
            if v.context:
                line += f"\n    语境 / context: {_clip(v.context, 300)}"
            if v.tags:
                line += f"\n    标签 / tags: {', '.join(v.tags)}"
        lines.append(line)
    return "\n".join(lines)


def decide(
    llm: LLMClient,
    new_content: str,
    neighbours: Sequence[NoteLike],
    *,
    model: str | None = None,
) -> Decision:
    """ADD / UPDATE n / SUPERSEDE n / NOOP for a new note against its neighbours.

    ``neighbours``: ``(note_id, content, created_at)`` tuples, :class:`NoteView` or notes.
    Without neighbours the answer is ADD, without a call.
    """
    new_content = _require_text(new_content, "new note content")
    views = [_view(n) for n in neighbours]
    if not views:
        return Decision("ADD", None, None, "no related notes")
    n = len(views)

    def check(obj: dict) -> None:
        action, target = obj["action"], obj["target"]
        if action in ("UPDATE", "SUPERSEDE"):
            if target is None:
                raise ValueError(f"action {action} needs a target note number (1 to {n})")
            _check_alias(target, n, "target")
        elif target is not None:
            _check_alias(target, n, "target")
        if action == "UPDATE" and not (obj.get("merged_content") or "").strip():
            raise ValueError("action UPDATE needs merged_content (the merged note)")

    obj, _ = llm.complete_json(
        render_prompt("decide.system", count=n),
        render_prompt(
            "decide.user", neighbours=_neighbour_block(views, detailed=False), content=new_content
        ),
        DECIDE_SCHEMA,
        "memory_decision",
        model,
        purpose="decide",
        check=check,
    )
    action = obj["action"]
    target = obj["target"]
    target_id = views[int(target) - 1].id if target is not None and action != "ADD" else None
    merged = (obj.get("merged_content") or "").strip() or None
    return Decision(
        action=action,
        target_id=target_id,
        merged_content=merged if action == "UPDATE" else None,
        reason=(obj.get("reason") or "").strip(),
    )


def evolve(
    llm: LLMClient,
    note: NoteLike,
    neighbours: Sequence[NoteLike],
    *,
    model: str | None = None,
) -> Evolution:
    """Links from the new note to related neighbours, refined tags, neighbour context/tag
    updates (A-MEM steps 2 and 3). Without neighbours: nothing to do, no call."""
    me = _view(note)
    views = [v for v in (_view(x) for x in neighbours) if v.id != me.id]
    if not views:
        return Evolution((), None, ())
    n = len(views)

    def check(obj: dict) -> None:
        for i, link in enumerate(obj["links"]):
            _check_alias(link["target"], n, f"links[{i}].target")
        for i, upd in enumerate(obj["neighbour_updates"]):
            _check_alias(upd["target"], n, f"neighbour_updates[{i}].target")

    obj, _ = llm.complete_json(
        render_prompt("evolve.system", count=n),
        render_prompt(
            "evolve.user",
            content=_clip(me.content, 4000),
            context=me.context or "-",
            keywords=", ".join(me.keywords) or "-",
            tags=", ".join(me.tags) or "-",
            neighbours=_neighbour_block(views, detailed=True),
        ),
        EVOLVE_SCHEMA,
        "memory_evolution",
        model,
        purpose="evolve",
        check=check,
    )
    links: dict[str, EvolutionLink] = {}
    for link in obj["links"]:
        alias = int(link["target"])
        target_id = views[alias - 1].id
        if target_id not in links:  # the model may name a note twice
            links[target_id] = EvolutionLink(alias, target_id, str(link["reason"]).strip())
    updates: dict[str, NeighbourUpdate] = {}
    for upd in obj["neighbour_updates"]:
        view = views[int(upd["target"]) - 1]
        ctx = (upd.get("context") or "").strip() or None
        tags = _clean_list(upd["tags"], MAX_TAGS) if upd.get("tags") is not None else None
        # Drop no-op updates: the engine would write a history row and re-embed for nothing.
        if ctx == (view.context or None):
            ctx = None
        if tags is not None and (not tags or set(tags) == set(view.tags)):
            tags = None
        if ctx is None and tags is None:
            continue
        updates[view.id] = NeighbourUpdate(view.id, ctx, tags)
    new_tags = _clean_list(obj["tags"], MAX_TAGS) if obj.get("tags") else None
    if new_tags is not None and set(new_tags) == set(me.tags):
        new_tags = None
    return Evolution(tuple(links.values()), new_tags, tuple(updates.values()))


def extract_knowledge(
    llm: LLMClient,
    user_text: str,
    assistant_text: str,
    message_time: datetime,
    *,
    model: str | None = None,
) -> list[Item]:
    """Standalone knowledge items from one chat turn; small talk gives an empty list.

    Preferences (category 偏好) always go to the global scope: they are the lawyer's, not the
    case's.
    """
    user_text = (user_text or "").strip()
    assistant_text = (assistant_text or "").strip()
    if not user_text and not assistant_text:
        return []
    obj, _ = llm.complete_json(
        render_prompt("extract.system"),
        render_prompt(
            "extract.user",
            message_time=format_message_time(message_time),
            user_text=user_text or "-",
            assistant_text=_clip(assistant_text, 6000) or "-",
        ),
        EXTRACT_SCHEMA,
        "knowledge_extraction",
        model,
        purpose="extract",
    )
    items: list[Item] = []
    seen: set[str] = set()
    for raw in obj["items"]:
        content = re.sub(r"\s+", " ", raw["content"]).strip()
        if not content or content in seen:
            continue
        seen.add(content)
        category = raw["category"]
        scope = "global" if category == "偏好" else raw["scope"]
        items.append(Item(content, category, scope))
    return items
