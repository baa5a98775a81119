"""A note's history as plain sentences in the interface language ("手动修改：A → B",
"撤销了上一次修改", "关键词：+x −y"), shared by the notes pane and the graph's panel.

The stored history keeps what the engine wrote: an action ("updated", "undo"), an actor
("user", "evolution"), English bookkeeping reasons ("edited by hand", "undo #28"), reasons
worded in both languages ("可能重复 / possible duplicate") and the model's own reasons; the
lawyer reads none of the bookkeeping, one half of the bilingual ones and the model's as written."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QCoreApplication

from desktop_app.ui import i18n, texts

# reasons the app writes for itself: they repeat the action, or name ids
_BOOKKEEPING = re.compile(
    r"^(edited by hand|expired by hand|linked by hand|LLM note construction|evolution: refined tags"
    r"|evolution after new notes|undo #\d+|merged( \S+)?|restored by hand"
    r"|合并自另一条记忆 / merged from another memory|已合并到另一条记忆 / merged into another memory)$"
)
# "中文 / English" inside a longer reason ("理由（较早的事实 / the earlier fact）")
_BILINGUAL = re.compile(
    r"([^\s/（）()：:，,。]*[\u4e00-\u9fff][^/（）()：:，,。]*?) / ([A-Za-z][A-Za-z ,'’\-]*[A-Za-z])"
)


def one_language_in(text: str) -> str:
    """Every "中文 / English" pair in ``text`` reduced to the interface language's half."""
    side = 1 if i18n.is_chinese() else 2
    return _BILINGUAL.sub(lambda m: m.group(side).strip(), text)


def reason_text(reason: str) -> str:
    """What a stored reason tells the lawyer ("" for the app's own bookkeeping)."""
    reason = (reason or "").strip()
    if not reason or _BOOKKEEPING.match(reason):
        return ""
    return one_language_in(reason)


def headline(action: str, actor: str) -> str:
    """What happened, as a short sentence."""
    if action == "updated":
        return {
            "user": QCoreApplication.translate("History", "Edited by hand"),
            "evolution": QCoreApplication.translate("History", "Refined as new memories came in"),
            "decision": QCoreApplication.translate("History", "A newer wording was merged in"),
            "construction": QCoreApplication.translate("History", "Organised by the model"),
            "import": QCoreApplication.translate("History", "Changed on import"),
        }.get(actor, QCoreApplication.translate("History", "Changed"))
    return {
        "created": QCoreApplication.translate("History", "Recorded this memory"),
        "undo": QCoreApplication.translate("History", "Undid the last change"),
        "superseded": QCoreApplication.translate("History", "Replaced by a newer memory"),
        "expired": QCoreApplication.translate("History", "Expired"),
        "archived": QCoreApplication.translate("History", "Expired"),
        "restored": QCoreApplication.translate("History", "Restored"),
        "conflict resolved": QCoreApplication.translate("History", "Conflict settled"),
        "merged": QCoreApplication.translate("History", "Merged with other memories"),
    }.get(action, QCoreApplication.translate("History", "Changed"))


def _short(value: Any, limit: int = 60) -> str:
    text = "—" if value in (None, "") else str(value).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _added_removed(label: str, before: Any, after: Any) -> str:
    old, new = list(before or []), list(after or [])
    added = [x for x in new if x not in old]
    removed = [x for x in old if x not in new]
    bits = [f"+{x}" for x in added] + [f"−{x}" for x in removed]
    return f"{label}：{' '.join(bits)}" if i18n.is_chinese() else f"{label}: {' '.join(bits)}"


def _pair(label: str, before: str, after: str) -> str:
    sep = "：" if i18n.is_chinese() else ": "
    return f"{label}{sep}{_short(before)} → {_short(after)}"


def changes(before: dict | None, after: dict | None) -> tuple[str, list[str]]:
    """(the text's change "A → B" or "", the other changes as short lines)."""
    if not before or not after:
        return "", []
    text = ""
    if before.get("content") != after.get("content"):
        text = f"{_short(before.get('content'))} → {_short(after.get('content'))}"
    lines: list[str] = []
    for key in ("category", "status", "event_date", "source_kind", "pinned", "keywords", "tags", "context"):
        a, b = before.get(key), after.get(key)
        if a == b or (key in after and key not in before and not b):
            continue
        if key == "category":
            lines.append(_pair(QCoreApplication.translate("History", "Category"), texts.category_label(a), texts.category_label(b)))
        elif key == "status":
            lines.append(_pair(QCoreApplication.translate("History", "State"), texts.status_label(a or ""), texts.status_label(b or "")))
        elif key == "event_date":
            lines.append(_pair(QCoreApplication.translate("History", "Event date"), texts.event_date_text(a), texts.event_date_text(b)))
        elif key == "source_kind":
            lines.append(_pair(QCoreApplication.translate("History", "Source"), texts.source_kind_label(a), texts.source_kind_label(b)))
        elif key == "pinned":
            lines.append(QCoreApplication.translate("History", "Pinned") if b else QCoreApplication.translate("History", "Unpinned"))
        elif key == "keywords":
            lines.append(_added_removed(QCoreApplication.translate("History", "Keywords"), a, b))
        elif key == "tags":
            lines.append(_added_removed(QCoreApplication.translate("History", "Tags"), a, b))
        elif key == "context":
            lines.append(QCoreApplication.translate("History", "Background note rewritten"))
    return text, lines


def describe(entry: Any) -> tuple[str, list[str]]:
    """(the sentence for one history entry, the lines under it)."""
    title = headline(entry.action, entry.actor)
    if (entry.after or {}).get("merged_into"):
        # the pane links the note it went into; "replaced by a newer memory" would mislead
        title = QCoreApplication.translate("History", "Merged into another memory")
    text_change, lines = changes(entry.before, entry.after)
    if entry.action == "undo":
        text_change = ""  # "undid the last change" says it; the restored text is in the pane
        lines = []
    if text_change:
        title = f"{title}：{text_change}" if i18n.is_chinese() else f"{title}: {text_change}"
    reason = reason_text(entry.reason)
    return title, ([reason] if reason else []) + lines
