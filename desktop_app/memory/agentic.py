"""The LLM steps of the A-MEM pipeline, as pure functions over an :class:`LLMClient`.

No engine state, no storage, no Qt: the engine calls these inside its jobs and applies the
results.  Three calls at most make a chat turn's memory (issue 13, "cost per turn"):

- :func:`extract_knowledge`: the knowledge items of one chat turn, each already constructed
  (keywords, context, tags, category, event date, source kind), so construction is not a
  second call per item;
- :func:`construct_note`: the same for one note typed by hand;
- :func:`decide_batch`: one decision-and-evolution call for all new notes of a turn (or one
  manual note) and their neighbours — ADD / UPDATE / SUPERSEDE / CONFLICT / NOOP, typed links,
  refined tags, neighbour updates.

Prompts are written in the language of the content (``resources/prompts/<step>.<part>.md``
for Chinese, ``….en.md`` for English); the output schema is stated once (by the endpoint's
structured output, or pasted by the client when the endpoint refuses that).

Neighbours are shown under small integer aliases 1..n, never under their ids (the A-MEM code
confused ranks with ids and edited the wrong notes).  An alias outside the list — or outside
the notes shown as related to that new note — is an invalid answer: it is sent back once with
the error, and a second bad answer raises :class:`BadResponseError`; a wrong target is never
guessed.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from desktop_app.core.clock import local_date, to_local
from desktop_app.core.errors import InvalidInputError
from desktop_app.memory.construction import Construction  # the offline step's result type too
from desktop_app.memory.dates import parse_event_date
from desktop_app.memory.text import content_language
from desktop_app.memory.types import CATEGORIES, DEFAULT_CATEGORY, LINK_TYPES, SOURCE_KINDS

if TYPE_CHECKING:
    from desktop_app.llm.client import LLMClient

log = logging.getLogger(__name__)


def render_prompt(name: str, **values: Any) -> str:
    # The LLM layer (openai, httpx, pydantic: 1-3 s of imports) loads with the first LLM
    # step, not with the engine: opening it and searching never need it.
    from desktop_app.llm.prompts import render_prompt as render
    from desktop_app.memory import vocabulary  # noqa: F401  (registers MODIFY/更新/… with the validator)

    return render(name, **values)


Action = Literal["ADD", "UPDATE", "SUPERSEDE", "CONFLICT", "NOOP"]
ACTIONS: tuple[str, ...] = ("ADD", "UPDATE", "SUPERSEDE", "CONFLICT", "NOOP")
#: the actions that name an existing note
TARGETED: frozenset[str] = frozenset({"UPDATE", "SUPERSEDE", "CONFLICT"})
SCOPES: tuple[str, ...] = ("case", "global")

#: Longest content shown to the model for one neighbour (a pasted judgment must not blow the
#: context window of a small local model).
MAX_NEIGHBOUR_CHARS = 1200
MAX_CONTEXT_CHARS = 120
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
    #: the relation the lawyer reads (one of LINK_TYPES)
    type: str = "相关"


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
class Plan:
    """What to do with one new note: the decision and its links and tags."""

    note_id: str
    decision: Decision
    links: tuple[EvolutionLink, ...] = ()
    new_tags: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Decisions:
    """The answer of one decision-and-evolution call: one plan per new note (in order) and
    the updates of existing notes."""

    plans: tuple[Plan, ...]
    neighbour_updates: tuple[NeighbourUpdate, ...] = ()


@dataclass(frozen=True, slots=True)
class Item:
    """A knowledge item of a chat turn, constructed by the same call that found it."""

    content: str
    category: str
    scope: Literal["case", "global"]
    keywords: tuple[str, ...] = ()
    context: str = ""
    tags: tuple[str, ...] = ()
    event_date: str | None = None
    source_kind: str | None = None


@dataclass(frozen=True, slots=True)
class NoteView:
    """What the steps need to know about a note.  ``types.Note`` works as well (duck-typed)."""

    id: str
    content: str
    created_at: datetime | None = None
    context: str = ""
    keywords: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    event_date: str | None = None
    source_kind: str | None = None


@dataclass(frozen=True, slots=True)
class NewNote:
    """A new note to decide, with its own neighbours (never its siblings of the same turn)
    and its scope (a target must share it)."""

    note: Any  # NoteLike
    neighbours: Sequence[Any] = ()
    scope: str | None = None


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
        event_date=getattr(obj, "event_date", None),
        source_kind=getattr(obj, "source_kind", None),
    )


# --------------------------------------------------------------------------------------------
# Schemas (strict-mode compatible: every property required, nullable via a type list).
# Free-text fields a careless model words loosely (a date, a source, a link type) are plain
# strings here and read tolerantly in code: an odd word costs nothing, never a second call.

_STR_LIST = {"type": "array", "items": {"type": "string"}}
_NULLABLE_STR = {"type": ["string", "null"]}

CONSTRUCT_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "keywords": {**_STR_LIST, "minItems": 1},
        "context": {"type": "string", "minLength": 1},
        "tags": _STR_LIST,
        "category": {"type": "string", "enum": list(CATEGORIES)},
        "event_date": _NULLABLE_STR,
        "source_kind": _NULLABLE_STR,
    },
    "required": ["keywords", "context", "tags", "category", "event_date", "source_kind"],
    "additionalProperties": False,
}

#: one decision about one new note
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

_LINK_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "target": {"type": "integer"},
        "type": {"type": "string"},
        "reason": {"type": "string"},
    },
    "required": ["target", "type", "reason"],
    "additionalProperties": False,
}

#: what evolution adds: links and tags of a new note, updates of existing notes
EVOLVE_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "links": {"type": "array", "items": _LINK_SCHEMA},
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

#: the decision-and-evolution answer for a batch of new notes
DECISIONS_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "decisions": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "note": {"type": "integer"},
                    **DECIDE_SCHEMA["properties"],
                    "links": EVOLVE_SCHEMA["properties"]["links"],
                    "tags": EVOLVE_SCHEMA["properties"]["tags"],
                },
                "required": ["note", *DECIDE_SCHEMA["required"], "links", "tags"],
                "additionalProperties": False,
            },
        },
        "neighbour_updates": EVOLVE_SCHEMA["properties"]["neighbour_updates"],
    },
    "required": ["decisions", "neighbour_updates"],
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
                    "keywords": _STR_LIST,
                    "context": _NULLABLE_STR,
                    "tags": _STR_LIST,
                    "event_date": _NULLABLE_STR,
                    "source_kind": _NULLABLE_STR,
                },
                "required": [
                    "content",
                    "category",
                    "scope",
                    "keywords",
                    "context",
                    "tags",
                    "event_date",
                    "source_kind",
                ],
                "additionalProperties": False,
            },
        }
    },
    "required": ["items"],
    "additionalProperties": False,
}


# --------------------------------------------------------------------------------------------
# Helpers

_WEEKDAYS_ZH = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")


def format_message_time(t: datetime, language: str = "zh") -> str:
    """``2024-03-16 10:30 星期六 (+08:00)`` in the user's zone (a naive time is local): the
    weekday lets the model resolve "上周五" / "last Friday"; the offset says which zone."""
    local = to_local(t)
    offset = local.strftime("%z")
    weekday = _WEEKDAYS_ZH[local.weekday()] if language == "zh" else f"{local:%A}"
    return f"{local:%Y-%m-%d %H:%M} {weekday} ({offset[:3]}:{offset[3:5]})"


def _prompt(step: str, part: str, language: str, **values: object) -> str:
    suffix = "" if language == "zh" else ".en"
    return render_prompt(f"{step}.{part}{suffix}", **values)


def _clean_list(values: Sequence[Any] | None, limit: int) -> tuple[str, ...]:
    out: list[str] = []
    seen: set[str] = set()
    for v in values or ():
        s = re.sub(r"\s+", " ", str(v)).strip().lstrip("#").strip()
        if s and s.lower() not in seen:
            seen.add(s.lower())
            out.append(s)
    return tuple(out[:limit])


def _one_line(text: str, limit: int = MAX_NEIGHBOUR_CHARS) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[:limit] + "…"


def _require_text(value: str, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{what} is empty")
    return value.strip()


def _check_alias(alias: Any, n: int, where: str) -> None:
    if isinstance(alias, bool) or not isinstance(alias, int | float) or int(alias) != alias:
        raise ValueError(f"{where}: {alias!r} is not a note number")
    if not 1 <= int(alias) <= n:
        raise ValueError(f"{where}: note number {int(alias)} does not exist; use 1 to {n}")


_SOURCE_WORDS: dict[str, tuple[str, ...]] = {
    "当事人陈述": ("当事人", "委托人", "客户", "client", "client statement", "party statement"),
    "对方主张": ("对方", "被告主张", "opposing party", "opposing claim", "defendant", "opponent"),
    "证据显示": ("证据", "evidence", "exhibit", "shown by evidence", "documents"),
    "法院认定": ("法院", "court", "court finding", "judgment", "判决"),
    "律师判断": ("律师", "lawyer", "lawyer's assessment", "assessment", "counsel"),
    "偏好": ("preference", "用户偏好"),
}
_LINK_TYPE_WORDS: dict[str, tuple[str, ...]] = {
    "证明": ("proves", "prove", "supports", "evidence", "佐证", "证实", "支持"),
    "适用": ("applies", "applies to", "apply", "legal basis", "依据", "适用于"),
    "矛盾": ("contradicts", "conflicts", "conflict", "冲突", "相反"),
    "补充": ("adds to", "supplements", "complements", "elaborates", "细化", "补足"),
    "取代": ("replaces", "supersedes", "替代", "更新"),
    "相关": ("related", "relates to", "关联", "有关"),
}


def _pick(value: Any, allowed: Sequence[str], words: dict[str, tuple[str, ...]]) -> str | None:
    """A loosely worded choice read as one of ``allowed`` (None when it names none)."""
    if not isinstance(value, str):
        return None
    text = value.strip().strip("\"'“”").casefold()
    for choice in allowed:
        if text == choice.casefold() or text in (w.casefold() for w in words.get(choice, ())):
            return choice
    hits = [c for c in allowed if c in value]
    return hits[0] if len(hits) == 1 else None


def source_kind_of(value: Any) -> str | None:
    return _pick(value, SOURCE_KINDS, _SOURCE_WORDS)


def link_type_of(value: Any) -> str:
    return _pick(value, LINK_TYPES, _LINK_TYPE_WORDS) or "相关"


def _event_date(value: Any) -> str | None:
    parsed = parse_event_date(value) if isinstance(value, str) else None
    if value not in (None, "") and parsed is None:
        log.info("model's event date %r is not a date; ignored", str(value)[:40])
    return parsed


# --------------------------------------------------------------------------------------------
# Construction


def construct_note(
    llm: LLMClient, content: str, message_time: datetime, *, model: str | None = None
) -> Construction:
    """Keywords, a one-sentence context, tags, a category, the event date and the source
    kind of one note (A-MEM step 1).  ``message_time``: when it was written (relative dates
    are resolved against it, in the user's zone)."""
    content = _require_text(content, "note content")
    language = content_language(content)
    obj, _ = llm.complete_json(
        _prompt("construct", "system", language),
        _prompt(
            "construct",
            "user",
            language,
            content=content,
            message_time=format_message_time(message_time, language),
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
        event_date=_event_date(obj.get("event_date")),
        source_kind=source_kind_of(obj.get("source_kind")),
    )


# --------------------------------------------------------------------------------------------
# Decision and evolution, one call for a batch


def _meta(v: NoteView, language: str) -> str:
    zh = language == "zh"
    recorded = f"{local_date(v.created_at):%Y-%m-%d}" if v.created_at is not None else None
    event = v.event_date or recorded
    parts = [
        (f"事件 {event}" if zh else f"event {event}")
        if event
        else ("日期未知" if zh else "date unknown"),
    ]
    if recorded and recorded != event:
        parts.append(f"记录 {recorded}" if zh else f"recorded {recorded}")
    if v.source_kind:
        parts.append(v.source_kind)
    return ("｜" if zh else " | ").join(parts)


def _existing_block(views: Sequence[NoteView], language: str) -> str:
    zh = language == "zh"
    lines = []
    for alias, v in enumerate(views, start=1):
        lines.append(f"[{alias}] ({_meta(v, language)}) {_one_line(v.content)}")
        details = []
        if v.context:
            details.append(
                ("语境：" if zh else "context: ") + _one_line(v.context, MAX_CONTEXT_CHARS)
            )
        if v.tags:
            details.append(("标签：" if zh else "tags: ") + ", ".join(v.tags))
        if details:
            lines.append("    " + ("；" if zh else "; ").join(details))
    return "\n".join(lines) or ("（无）" if zh else "(none)")


def _new_block(views: Sequence[NoteView], related: Sequence[Sequence[int]], language: str) -> str:
    zh = language == "zh"
    lines = []
    for number, (v, aliases) in enumerate(zip(views, related, strict=True), start=1):
        label = f"新{number}" if zh else f"N{number}"
        lines.append(f"[{label}] ({_meta(v, language)}) {_one_line(v.content, 4000)}")
        details = []
        if v.keywords:
            details.append(("关键词：" if zh else "keywords: ") + ", ".join(v.keywords))
        if v.tags:
            details.append(("标签：" if zh else "tags: ") + ", ".join(v.tags))
        shown = ("、" if zh else ", ").join(str(a) for a in aliases) or ("无" if zh else "none")
        details.append(("相关：" if zh else "related: ") + shown)
        lines.append("    " + ("；" if zh else "; ").join(details))
    return "\n".join(lines)


@dataclass(slots=True)
class _Batch:
    """The aliases of one call: existing notes 1..m, new notes 1..k, and for each new note
    the existing notes it may name."""

    new: list[NoteView]
    existing: list[NoteView] = field(default_factory=list)
    related: list[list[int]] = field(default_factory=list)
    allowed: list[set[int]] = field(default_factory=list)


def _batch(items: Sequence[NewNote]) -> _Batch:
    batch = _Batch([_view(item.note) for item in items])
    alias_of: dict[str, int] = {}
    own_ids = {v.id for v in batch.new}
    for item in items:
        aliases = []
        for neighbour in (_view(n) for n in item.neighbours):
            if neighbour.id in own_ids:
                continue  # a sibling of the same turn is never an existing note
            if neighbour.id not in alias_of:
                batch.existing.append(neighbour)
                alias_of[neighbour.id] = len(batch.existing)
            if alias_of[neighbour.id] not in aliases:
                aliases.append(alias_of[neighbour.id])
        batch.related.append(aliases)
    # a new note may name any existing note shown for a new note of its own scope
    for item in items:
        batch.allowed.append(
            {a for other, aliases in zip(items, batch.related, strict=True)
             if other.scope == item.scope for a in aliases}
        )  # fmt: skip
    return batch


def decide_batch(
    llm: LLMClient, items: Sequence[NewNote], *, model: str | None = None
) -> Decisions:
    """One decision-and-evolution call for new notes and their neighbours.

    Each new note gets ADD / UPDATE n / SUPERSEDE n / CONFLICT n / NOOP n, typed links and
    refined tags; existing notes may get a new context or tags.  New notes without any
    neighbour are ADD without a call; so is a batch where no note has one.
    """
    batch = _batch(items)
    for v in batch.new:
        _require_text(v.content, "new note content")
    if not batch.existing:
        return Decisions(
            tuple(Plan(v.id, Decision("ADD", None, None, "no related notes")) for v in batch.new)
        )
    k, m = len(batch.new), len(batch.existing)
    language = content_language(*(v.content for v in batch.new))

    def check(obj: dict) -> None:
        for i, d in enumerate(obj["decisions"]):
            where = f"decisions[{i}]"
            _check_alias(d["note"], k, f"{where}.note")
            allowed = batch.allowed[int(d["note"]) - 1]
            action, target = d["action"], d["target"]
            if action in TARGETED and target is None:
                raise ValueError(f"{where}: action {action} needs a target note number (1 to {m})")
            if target is not None:
                _check_alias(target, m, f"{where}.target")
                if int(target) not in allowed and action != "ADD":
                    raise ValueError(
                        f"{where}.target: note {int(target)} is not related to new note "
                        f"{int(d['note'])}; use one of {sorted(allowed)}"
                    )
            if action == "UPDATE" and not (d.get("merged_content") or "").strip():
                raise ValueError(f"{where}: action UPDATE needs merged_content (the merged note)")
            for j, link in enumerate(d["links"]):
                _check_alias(link["target"], m, f"{where}.links[{j}].target")
        for j, upd in enumerate(obj["neighbour_updates"]):
            _check_alias(upd["target"], m, f"neighbour_updates[{j}].target")

    obj, _ = llm.complete_json(
        _prompt("decide", "system", language, count=m),
        _prompt(
            "decide",
            "user",
            language,
            neighbours=_existing_block(batch.existing, language),
            new_notes=_new_block(batch.new, batch.related, language),
        ),
        DECISIONS_SCHEMA,
        "memory_decisions",
        model,
        purpose="decide",
        check=check,
        max_tokens=_budget(k),
    )
    return _read_decisions(obj, batch)


def _budget(new_notes: int) -> int | None:
    """A batch answer grows with its notes; one note fits the default budget."""
    return None if new_notes <= 1 else 600 + 400 * new_notes


def _read_decisions(obj: dict, batch: _Batch) -> Decisions:
    answered: dict[int, dict] = {}
    for d in obj["decisions"]:
        answered.setdefault(int(d["note"]), d)  # the model may answer a note twice: first wins
    plans = []
    for number, v in enumerate(batch.new, start=1):
        d = answered.get(number)
        if d is None:  # no answer for a note: it stays as it was added
            plans.append(Plan(v.id, Decision("ADD", None, None, "no decision given")))
            continue
        action, target = d["action"], d["target"]
        target_id = (
            batch.existing[int(target) - 1].id if target is not None and action != "ADD" else None
        )
        merged = (d.get("merged_content") or "").strip() or None
        decision = Decision(
            action=action,
            target_id=target_id,
            merged_content=merged if action == "UPDATE" else None,
            reason=(d.get("reason") or "").strip(),
        )
        links: dict[str, EvolutionLink] = {}
        for link in d["links"]:
            alias = int(link["target"])
            linked = batch.existing[alias - 1].id
            if int(alias) in batch.allowed[number - 1] and linked not in links:
                links[linked] = EvolutionLink(
                    alias, linked, str(link["reason"]).strip(), link_type_of(link["type"])
                )
        new_tags = _clean_list(d["tags"], MAX_TAGS) if d.get("tags") else None
        if new_tags is not None and set(new_tags) == set(v.tags):
            new_tags = None
        plans.append(Plan(v.id, decision, tuple(links.values()), new_tags))
    return Decisions(tuple(plans), _neighbour_updates(obj["neighbour_updates"], batch.existing))


def _neighbour_updates(
    raw: Sequence[dict], existing: Sequence[NoteView]
) -> tuple[NeighbourUpdate, ...]:
    updates: dict[str, NeighbourUpdate] = {}
    for upd in raw:
        view = existing[int(upd["target"]) - 1]
        if view.id in updates:
            continue  # two new notes updating one neighbour: the first wins
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
    return tuple(updates.values())


def decide(
    llm: LLMClient,
    new_content: str,
    neighbours: Sequence[NoteLike],
    *,
    model: str | None = None,
) -> Decision:
    """The decision for one new note against its neighbours (one call of
    :func:`decide_batch`; without neighbours the answer is ADD, without a call).

    ``neighbours``: ``(note_id, content, created_at)`` tuples, :class:`NoteView` or notes.
    """
    new_content = _require_text(new_content, "new note content")
    note = NoteView("new", new_content)
    return decide_batch(llm, [NewNote(note, neighbours)], model=model).plans[0].decision


def evolve(
    llm: LLMClient,
    note: NoteLike,
    neighbours: Sequence[NoteLike],
    *,
    model: str | None = None,
) -> Evolution:
    """Links from ``note`` to related neighbours, refined tags, neighbour context/tag
    updates (A-MEM steps 2 and 3; one call of :func:`decide_batch`).  Without neighbours:
    nothing to do, no call."""
    me = _view(note)
    others = [v for v in (_view(x) for x in neighbours) if v.id != me.id]
    if not others:
        return Evolution((), None, ())
    answer = decide_batch(llm, [NewNote(me, others)], model=model)
    plan = answer.plans[0]
    return Evolution(plan.links, plan.new_tags, answer.neighbour_updates)


# --------------------------------------------------------------------------------------------
# Extraction


def extract_knowledge(
    llm: LLMClient,
    user_text: str,
    assistant_text: str,
    message_time: datetime,
    *,
    model: str | None = None,
) -> list[Item]:
    """Standalone knowledge items from one chat turn, each constructed; small talk gives an
    empty list.

    Preferences (category 偏好) always go to the global scope: they are the lawyer's, not the
    case's.
    """
    user_text = (user_text or "").strip()
    assistant_text = (assistant_text or "").strip()
    if not user_text and not assistant_text:
        return []
    language = content_language(user_text, assistant_text)
    obj, _ = llm.complete_json(
        _prompt("extract", "system", language),
        _prompt(
            "extract",
            "user",
            language,
            message_time=format_message_time(message_time, language),
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
        items.append(
            Item(
                content,
                category,
                scope,
                keywords=_clean_list(raw.get("keywords"), MAX_KEYWORDS),
                context=re.sub(r"\s+", " ", raw.get("context") or "").strip(),
                tags=_clean_list(raw.get("tags"), MAX_TAGS),
                event_date=_event_date(raw.get("event_date")),
                source_kind=source_kind_of(raw.get("source_kind")),
            )
        )
    return items


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "…"
