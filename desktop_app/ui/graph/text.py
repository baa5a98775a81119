"""HTML for the hover tooltip and the detail panel (all user text is escaped)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtCore import QCoreApplication

from desktop_app.memory.types import GraphNode, HistoryEntry, Note
from desktop_app.ui import history_text, i18n, texts
from desktop_app.ui.texts import event_date_text
from desktop_app.ui.theme import tokens

from .style import CONFLICT_COLOUR, category_colour


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
    return texts.link_type_label(label) if label else label


def _facts(node: GraphNode) -> list[str]:
    """Event date, source and origin of a node; its open conflict in red."""
    bits = []
    if node.event_date:
        bits.append(f"📅 {escape(texts.event_date_text(node.event_date))}")
    if node.source_kind:
        bits.append(escape(texts.source_kind_label(node.source_kind)))
    bits.append(f"<span style='color:#888'>{escape(texts.origin_label(node.origin))}</span>")
    if node.conflicted:
        conflict = QCoreApplication.translate("GraphDetail", "Open conflict")
        bits.append(f"<b style='color:{CONFLICT_COLOUR.name()}'>⚠ {escape(conflict)}</b>")
    return bits


def _category(cat: str) -> str:
    colour = category_colour(cat).name()
    return f'<span style="color:{colour}">●</span> {escape(texts.category_label(cat))}'


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
        bits.append(f'<span style="color:#999">{escape(texts.status_label(node.status))}</span>')
    bits.append(" · ".join(_facts(node)))
    if node.tags:
        bits.append(_tags(node.tags))
    return "<br>".join(bits)


def _history(history: Sequence[HistoryEntry]) -> str:
    items = []
    for h in history:
        title, lines = history_text.describe(h)
        items.append(
            f"<li>{escape(h.created_at.astimezone().strftime('%Y-%m-%d %H:%M'))} · {escape(title)}"
            + "".join(f"<br><span style='color:#888'>{escape(line)}</span>" for line in lines)
            + "</li>"
        )
    return "".join(items)


def _links_text(n: int) -> str:
    if n == 1 and not i18n.is_chinese():  # English has no catalogue to give the singular
        return QCoreApplication.translate("GraphDetail", "1 link")
    return QCoreApplication.translate("GraphDetail", "%n links", "", n)


def _recalled_text(n: int) -> str:
    if n == 1 and not i18n.is_chinese():
        return QCoreApplication.translate("GraphDetail", "recalled once")
    return QCoreApplication.translate("GraphDetail", "recalled %n times", "", n)


def detail_html(node: GraphNode, note: Note | None, history: Sequence[HistoryEntry]) -> str:
    counts = f"{_links_text(node.degree)} · {_recalled_text(node.retrieval_count)}"
    rows = [
        f"<h3 style='margin:0'>{escape(node.label)}</h3>",
        f"<p>{_category(node.category)} · {escape(texts.status_label(node.status))}"
        + (" · 📌" if node.pinned else "")
        + f"<br>{' · '.join(_facts(node))}"
        + f"<br><span style='color:#888'>{escape(counts)}</span></p>",
    ]
    # translated outside the f-strings: lupdate does not look inside their expressions
    keywords = escape(QCoreApplication.translate("GraphDetail", "Keywords"))
    tags_title = escape(QCoreApplication.translate("GraphDetail", "Tags"))
    context = escape(QCoreApplication.translate("GraphDetail", "Context"))
    history_title = escape(QCoreApplication.translate("GraphDetail", "History"))
    if note is not None:
        rows.append(f"<p>{escape(note.content)}</p>")
        rows.append(f"<p><b>{keywords}</b><br>{_tags(note.keywords)}</p>")
    tags = note.tags if note is not None else node.tags
    rows.append(f"<p><b>{tags_title}</b><br>{_tags(tags)}</p>")
    if note is not None and note.context:
        rows.append(f"<p><b>{context}</b><br>{escape(note.context)}</p>")
    if history:
        rows.append(
            f"<p><b>{history_title}</b></p><ul style='margin-left:-20px'>{_history(history)}</ul>"
        )
    hint = QCoreApplication.translate("GraphDetail", "Double-click the note on the map to edit it.")
    rows.append(f"<p style='color:#aaa;font-size:small'>{escape(hint)}</p>")
    return "".join(rows)
