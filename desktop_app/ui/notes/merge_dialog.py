"""The merge dialog: the notes side by side (text, category, dates, source, links), which one
to keep, and the merged text — pre-filled with the kept note's text and what the others
add, editable.  Nothing is merged until the lawyer presses 合并.

The notes are read in a worker (:func:`load_merge_notes`); the dialog only shows them.
Note text is untrusted: every widget here shows it as plain text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QRadioButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop_app.memory.merge_text import combined_text
from desktop_app.ui import texts
from desktop_app.ui.safe_text import plain_label

#: how much of a linked note's text a link line shows
LINK_PREVIEW = 30


@dataclass(frozen=True, slots=True)
class MergeNote:
    """One note as the merge dialog shows it (read in the worker)."""

    id: str
    content: str
    category: str
    status: str
    created_at: Any  # datetime (UTC)
    event_date: str | None
    source_kind: str | None
    origin: str
    #: (relation label as stored, linked note's text) of each link, one per linked note
    links: tuple[tuple[str, str], ...]


def load_merge_notes(engine: Any, note_ids: list[str]) -> list[MergeNote]:
    """The notes to merge with their links (worker thread)."""
    out = []
    for note in engine.notes_by_ids(note_ids):
        seen: dict[str, str] = {}
        for link in engine.links_of(note.id):
            if link.dst not in note_ids and link.dst not in seen:
                seen[link.dst] = link.type
        linked = {n.id: n.content for n in engine.notes_by_ids(list(seen))}
        out.append(
            MergeNote(
                id=note.id,
                content=note.content,
                category=note.category,
                status=note.status,
                created_at=note.created_at,
                event_date=note.event_date,
                source_kind=note.source_kind,
                origin=note.origin,
                links=tuple((seen[i], linked[i]) for i in seen if i in linked),
            )
        )
    order = {i: k for k, i in enumerate(note_ids)}
    return sorted(out, key=lambda n: order[n.id])


def _short(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def note_card(
    note: MergeNote, heading: QWidget, with_status: bool = False
) -> tuple[QFrame, QVBoxLayout]:
    """A note as the merge and conflict dialogs show it side by side: ``heading`` (the
    choice), category, event date, recording date and source, the text read-only."""
    box = QFrame()
    box.setObjectName("Card")
    box.setFrameShape(QFrame.Shape.StyledPanel)
    lay = QVBoxLayout(box)
    lay.addWidget(heading)
    facts = [
        texts.category_label(note.category),
        texts.status_label(note.status) if with_status and note.status != "active" else "",
        QCoreApplication.translate("MergeDialog", "event date %1").replace(
            "%1", texts.event_date_text(note.event_date)
        )
        if note.event_date
        else "",
        QCoreApplication.translate("MergeDialog", "recorded %1").replace(
            "%1", note.created_at.astimezone().strftime("%Y-%m-%d")
        ),
        texts.source_kind_label(note.source_kind) or texts.origin_label(note.origin),
    ]
    meta = plain_label(" · ".join(f for f in facts if f))
    meta.setWordWrap(True)
    lay.addWidget(meta)
    body = QPlainTextEdit(note.content)
    body.setReadOnly(True)
    body.setMinimumHeight(90)
    body.setMaximumHeight(170)  # room below for the links, without scrolling
    lay.addWidget(body, 1)
    return box, lay


class MergeDialog(QDialog):
    """Choose the note to keep and the merged text.  ``notes``: two or more, the proposed
    keeper first."""

    def __init__(self, notes: list[MergeNote], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        if len(notes) < 2:
            raise ValueError("a merge needs two notes")
        self.notes = list(notes)
        self.setWindowTitle(self.tr("Merge memories"))
        self.resize(min(1200, 380 * len(notes) + 60), 620)
        intro = plain_label(
            self.tr("Choose the memory to keep; the others are merged into it and kept in "
                    "history as replaced by the merge. Their links move to the kept memory.")
        )  # fmt: skip
        intro.setWordWrap(True)
        self.choice = QButtonGroup(self)
        columns = QHBoxLayout()
        self.radios: list[QRadioButton] = []
        for index, note in enumerate(self.notes):
            columns.addWidget(self._column(index, note), 1)
        self.radios[0].setChecked(True)
        row = QWidget()
        row.setLayout(columns)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(row)

        merged_title = plain_label(self.tr("Merged text (you can edit it)"))
        merged_title.setObjectName("SidebarTitle")
        self.merged = QPlainTextEdit()
        self.merged.setMinimumHeight(90)
        self._prefilled = ""
        self._fill_merged()
        self.merged.textChanged.connect(self._text_changed)
        self.choice.idToggled.connect(self._keep_changed)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.merge_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.merge_button.setText(self.tr("Merge"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(scroll, 3)
        layout.addWidget(merged_title)
        layout.addWidget(self.merged, 1)
        layout.addWidget(self.buttons)

    def _column(self, index: int, note: MergeNote) -> QWidget:
        radio = QRadioButton(self.tr("Keep this one"))
        self.choice.addButton(radio, index)
        self.radios.append(radio)
        box, lay = note_card(note, radio, with_status=True)
        if note.links:
            lines = [
                f"{texts.link_type_label(kind)} · {_short(text, LINK_PREVIEW)}"
                for kind, text in note.links
            ]
            heading = self.tr("Links (%1):").replace("%1", str(len(lines)))
            links = plain_label(heading + "\n" + "\n".join(lines))
        else:
            links = plain_label(self.tr("No links"))
        links.setWordWrap(True)
        links.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(links)
        lay.addStretch(1)
        return box

    # -- the merged text -------------------------------------------------------------------
    def _fill_merged(self) -> None:
        keep = self.keep_id()
        kept = next(n for n in self.notes if n.id == keep)
        others = [n.content for n in self.notes if n.id != keep]
        self._prefilled = combined_text(kept.content, others)
        self.merged.blockSignals(True)
        self.merged.setPlainText(self._prefilled)
        self.merged.blockSignals(False)
        self._edited = False

    def _keep_changed(self, _id: int, checked: bool) -> None:
        # a text the lawyer wrote stays; the proposal follows the kept note
        if checked and not self._edited:
            self._fill_merged()

    def _text_changed(self) -> None:
        self._edited = self.merged.toPlainText() != self._prefilled
        self.merge_button.setEnabled(bool(self.merged.toPlainText().strip()))

    # -- the answer --------------------------------------------------------------------------
    def keep_id(self) -> str:
        return self.notes[max(self.choice.checkedId(), 0)].id

    def other_ids(self) -> list[str]:
        keep = self.keep_id()
        return [n.id for n in self.notes if n.id != keep]

    def merged_text(self) -> str:
        return self.merged.toPlainText().strip()
