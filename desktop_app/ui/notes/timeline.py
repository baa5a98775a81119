"""Timeline mode: the case's dated notes as a chronology (lawyers think in chronologies)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QFrame, QTextBrowser, QWidget

from desktop_app.ui import i18n, texts
from desktop_app.ui.theme import CATEGORY_COLORS, tokens

#: categories drawn prominently (events, evidence, deadlines); others are shown lighter
_EVENT_CATEGORIES = {"时间线", "证据", "诉求"}


def event_time(note: Any) -> Any:
    return note.valid_from or note.created_at


class TimelineView(QTextBrowser):
    noteActivated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.anchorClicked.connect(self._clicked)
        self._notes: list[Any] = []

    def set_notes(self, notes: Sequence[Any], selected_id: str | None = None) -> None:
        self._notes = sorted((n for n in notes if event_time(n) is not None), key=event_time)
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
        for n in self._notes:
            when = event_time(n)
            local = when.astimezone() if when.tzinfo else when
            if local.year != last_year:
                rows.append(
                    f"<tr><td colspan='3' style='padding:14px 0 4px 0;font-size:15px;font-weight:700;color:{t['text']}'>"
                    f"{local.year}</td></tr>"
                )
                last_year = local.year
            color = CATEGORY_COLORS.get(n.category, t["muted"])
            day = local.strftime("%m-%d") if i18n.is_chinese() else local.strftime("%d %b")
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
                f"<span style='color:{color};font-weight:600;font-size:12px'>{html.escape(texts.category_label(n.category))}</span><br>"
                f"<a href='note:{n.id}' style='color:{text_color};text-decoration:{deco};font-weight:{weight}'>"
                f"{html.escape(n.content)}</a></td></tr>"
            )
        return f"<table width='100%' cellspacing='0' cellpadding='0' style='margin:8px 12px'>{''.join(rows)}</table>"

    def _clicked(self, url: QUrl) -> None:
        s = url.toString()
        if s.startswith("note:"):
            self.noteActivated.emit(s[5:])
