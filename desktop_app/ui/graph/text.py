"""HTML for the hover tooltip and the detail panel (all user text is escaped)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtCore import QCoreApplication

from desktop_app.memory.types import (
    CATEGORY_LABELS_EN,
    LINK_TYPE_LABELS_EN,
    SOURCE_KIND_LABELS_EN,
    GraphNode,
    HistoryEntry,
    Note,
)
from desktop_app.ui import i18n
from desktop_app.ui.texts import event_date_text
from desktop_app.ui.theme import tokens

from .style import CONFLICT_COLOUR, category_colour

_ORIGIN_TEXT = {"message": "对话 conversation", "manual": "手动 by hand", "import": "导入 import"}


def unlinked_heading(category: str, count: int) -> str:
    """The heading over a category's grid of notes without links."""
    return (
        QCoreApplication.translate("GraphView", "%1 · not linked (%2)")
        .replace("%1", category)
        .replace("%2", str(count))
    )


def month_heading(month: str | None) -> str:
    """A time group's name: its month, or that its notes have no event date."""
    if month is None:
        return QCoreApplication.translate("GraphView", "No date")
    return month if i18n.is_chinese() else event_date_text(month)


def link_type_text(label: str) -> str:
    """A link's relation as drawn on the edge, in the interface language."""
    return label if i18n.is_chinese() else LINK_TYPE_LABELS_EN.get(label, label)


def _facts(node: GraphNode) -> list[str]:
    """Event date, source and origin of a node; its open conflict in red."""
    bits = []
    if node.event_date:
        bits.append(f"📅 {escape(node.event_date)}")
    if node.source_kind:
        en = SOURCE_KIND_LABELS_EN.get(node.source_kind, "")
        bits.append(f"{escape(node.source_kind)} <span style='color:#888'>{escape(en)}</span>")
    bits.append(f"<span style='color:#888'>{escape(_ORIGIN_TEXT.get(node.origin, node.origin))}</span>")
    if node.conflicted:
        bits.append(f"<b style='color:{CONFLICT_COLOUR.name()}'>⚠ 有冲突 open conflict</b>")
    return bits

_STATUS_TEXT = {
    "active": "有效 active",
    "superseded": "已被取代 superseded",
    "archived": "已失效 expired",
}


def _category(cat: str) -> str:
    colour = category_colour(cat).name()
    en = CATEGORY_LABELS_EN.get(cat, "")
    return f'<span style="color:{colour}">●</span> {escape(cat)} <span style="color:#888">{escape(en)}</span>'


def _tags(tags: Sequence[str]) -> str:
    # the theme's chip colours: a fixed light grey read white on white in the dark theme
    chip, chip_text = tokens()["chip"], tokens()["chip_text"]
    return (
        " ".join(
            f'<span style="background:{chip};color:{chip_text}">&nbsp;{escape(t)}&nbsp;</span>'
            for t in tags
        )
        or "—"
    )


def tooltip_html(node: GraphNode) -> str:
    # the whole note (the node shows only its title), escaped: note text is never markup
    full = node.content or node.label
    bits = [f"<p style='white-space:pre-wrap;margin:0'><b>{escape(full)}</b></p>", _category(node.category)]
    if node.status != "active":
        bits.append(
            f'<span style="color:#999">{escape(_STATUS_TEXT.get(node.status, node.status))}</span>'
        )
    bits.append(" · ".join(_facts(node)))
    if node.tags:
        bits.append(_tags(node.tags))
    return "<br>".join(bits)


def detail_html(node: GraphNode, note: Note | None, history: Sequence[HistoryEntry]) -> str:
    rows = [
        f"<h3 style='margin:0'>{escape(node.label)}</h3>",
        f"<p>{_category(node.category)} · {escape(_STATUS_TEXT.get(node.status, node.status))}"
        + (" · 📌" if node.pinned else "")
        + f"<br>{' · '.join(_facts(node))}"
        + f"<br><span style='color:#888'>links {node.degree} · retrieved {node.retrieval_count}×</span></p>",
    ]
    if note is not None:
        rows.append(f"<p>{escape(note.content)}</p>")
        rows.append(f"<p><b>Keywords</b><br>{_tags(note.keywords)}</p>")
    rows.append(f"<p><b>Tags</b><br>{_tags(note.tags if note is not None else node.tags)}</p>")
    if note is not None and note.context:
        rows.append(f"<p><b>Context</b><br>{escape(note.context)}</p>")
    if history:
        items = "".join(
            f"<li>{escape(h.created_at.astimezone().strftime('%Y-%m-%d %H:%M'))} · {escape(h.action)}"
            f" <span style='color:#888'>({escape(h.actor)})</span>"
            + (f"<br><span style='color:#666'>{escape(h.reason)}</span>" if h.reason else "")
            + "</li>"
            for h in history
        )
        rows.append(f"<p><b>History</b></p><ul style='margin-left:-20px'>{items}</ul>")
    rows.append(
        f"<p style='color:#aaa;font-size:small'>{escape(node.id)} · double-click to edit</p>"
    )
    return "".join(rows)
