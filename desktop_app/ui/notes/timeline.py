"""Timeline mode: the case's notes as a chronology (lawyers think in chronologies), filed by
when each fact happened (its event date); a note that names no date sits at the day it was
recorded, marked as such."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import date
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QFrame, QTextBrowser, QWidget

from desktop_app.ui import i18n, texts
from desktop_app.ui.theme import CATEGORY_COLORS, tokens

#: categories drawn prominently (events, evidence, deadlines); others are shown lighter
_EVENT_CATEGORIES = {"时间线", "证据", "诉求"}


def event_time(note: Any) -> date:
    """The day a note is filed under: its event date (the first day it covers), else the
    user's local day it was recorded."""
    value = getattr(note, "event_date", None)
    if value:
        try:
            return date.fromisoformat({1: f"{value}-01-01", 2: f"{value}-01"}.get(value.count("-") + 1, value))
        except ValueError:
            pass
    when = note.created_at
    return (when.astimezone() if when.tzinfo else when).date()


class TimelineView(QTextBrowser):
    noteActivated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.anchorClicked.connect(self._clicked)
        self._notes: list[Any] = []
        self._conflicted: frozenset[str] = frozenset()

    def set_notes(
        self,
        notes: Sequence[Any],
        selected_id: str | None = None,
        conflicted: frozenset[str] = frozenset(),
    ) -> None:
        self._notes = sorted(notes, key=lambda n: (event_time(n), n.created_at))
        self._conflicted = conflicted
        self.setHtml(self._html(selected_id))

    def _html(self, selected_id: str | None) -> str:
        t = tokens()
        if not self._notes:
            return (
                f"<p style='color:{t['muted']}'>"
                + html.escape(self.tr("No dated memories in this case yet."))
                + "</p>"
            )
        rows = []
        last_year = None
        recorded_tip = html.escape(self.tr("no date named: the day it was recorded"))
        conflict_tip = html.escape(self.tr("open conflict"))
        for n in self._notes:
            local = event_time(n)
            dated = bool(getattr(n, "event_date", None))
            if local.year != last_year:
                rows.append(
                    f"<tr><td colspan='3' style='padding:14px 0 4px 0;font-size:15px;font-weight:700;color:{t['text']}'>"
                    f"{local.year}</td></tr>"
                )
                last_year = local.year
            color = CATEGORY_COLORS.get(n.category, t["muted"])
            precision = n.event_date.count("-") if dated else 2
            if precision == 0:
                day = "—"
            elif precision == 1:
                day = local.strftime("%m月") if i18n.is_chinese() else local.strftime("%b")
            else:
                day = local.strftime("%m-%d") if i18n.is_chinese() else local.strftime("%d %b")
            day = html.escape(day)
            if not dated:  # filed by the day it was typed: say so
                day = f"<span title='{recorded_tip}' style='font-style:italic'>{day}*</span>"
            strong = n.category in _EVENT_CATEGORIES
            weight = "600" if strong else "400"
            text_color = t["text"] if n.status == "active" else t["muted"]
            deco = "line-through" if n.status == "superseded" else "none"
            bg = f"background:{t['selected']};" if n.id == selected_id else ""
            rows.append(
                f"<tr style='{bg}'>"
                f"<td width='70' style='padding:6px 8px 6px 0;color:{t['muted']};white-space:nowrap'>{day}</td>"
                f"<td width='18' style='padding:6px 6px;color:{color};font-size:16px'>●</td>"
                f"<td style='padding:6px 0;border-left:2px solid {t['border']};padding-left:10px'>"
                f"<span style='color:{color};font-weight:600;font-size:12px'>{html.escape(texts.category_label(n.category))}</span>"
                + (f" <span style='color:{t['muted']};font-size:12px'>· {html.escape(texts.source_kind_label(n.source_kind))}</span>"
                   if getattr(n, "source_kind", None) else "")
                + (f" <span title='{conflict_tip}' style='color:{t['danger']};font-weight:700'>⚠</span>"
                   if n.id in self._conflicted else "")
                + "<br>"
                f"<a href='note:{n.id}' style='color:{text_color};text-decoration:{deco};font-weight:{weight}'>"
                f"{html.escape(n.content)}</a></td></tr>"
            )
        return f"<table width='100%' cellspacing='0' cellpadding='0' style='margin:8px 12px'>{''.join(rows)}</table>"

    def _clicked(self, url: QUrl) -> None:
        s = url.toString()
        if s.startswith("note:"):
            self.noteActivated.emit(s[5:])
