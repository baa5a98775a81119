"""The 记忆体检 dialog: review one case's check-up proposal item by item or a whole kind at a
time; accept (archive, merge, supersede, expire — each with history) or dismiss.

Every engine call runs in a worker through the EngineHost; what it changed reaches the other
views through ``operationDidExecute``.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui import dialogs, texts
from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.maintenance.conflict_dialog import ConflictDialog
from desktop_app.ui.maintenance.model import (
    MaintenanceRow,
    MaintenanceTableModel,
    kind_label,
)
from desktop_app.ui.notes.merge_dialog import MergeDialog, MergeNote, load_merge_notes

KINDS = ("stale", "duplicate", "update", "passed", "conflict")
#: kinds the lawyer decides in a dialog of their own (merge dialog, conflict dialog)
CHOICE_KINDS = frozenset({"duplicate", "conflict"})


def load_rows(engine: Any, case_id: str, run: bool) -> tuple[list[MaintenanceRow], Any]:
    """(rows, proposal) of the case's check-up, run first when ``run`` (worker thread)."""
    proposal = engine.run_maintenance(case_id) if run else engine.maintenance_proposal(case_id)
    rows = []
    for item in proposal.items:
        contents = []
        for note_id in item.note_ids:
            try:
                contents.append(engine.get_note(note_id).content)
            except Exception:  # deleted since the check: the item will be skipped on accept
                contents.append("—")
        rows.append(
            MaintenanceRow(
                item.id,
                item.kind,
                tuple(contents),
                item.score,
                item.event_date.isoformat() if item.event_date else None,
                item.note_ids,
            )
        )
    return rows, proposal


def load_choice_notes(engine: Any, rows: list[MaintenanceRow]) -> dict[str, list[MergeNote]]:
    """The notes of each item that needs the lawyer's choice, as the dialogs show them
    (worker thread); an item whose notes are gone is left out (it would be skipped)."""
    out = {}
    for row in rows:
        notes = load_merge_notes(engine, list(row.note_ids))
        if len(notes) == len(row.note_ids) >= 2:
            out[row.item_id] = notes
    return out


class MaintenanceDialog(QDialog):
    def __init__(self, host: EngineHost, case_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.case_id = case_id
        self.setWindowTitle(self.tr("Memory check-up"))
        self.resize(900, 520)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.model = MaintenanceTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setWordWrap(True)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)

        self.accept_button = QPushButton(self.tr("Accept selected"))
        self.dismiss_button = QPushButton(self.tr("Dismiss selected"))
        self.kind_box = QComboBox()
        for kind in KINDS:
            self.kind_box.addItem(kind_label(kind), kind)
        self.accept_kind_button = QPushButton(self.tr("Accept all of this kind"))
        self.dismiss_kind_button = QPushButton(self.tr("Dismiss all of this kind"))
        self.check_button = QPushButton(self.tr("Check now"))
        self.accept_button.clicked.connect(lambda: self.accept_items(self.selected_ids()))
        self.dismiss_button.clicked.connect(lambda: self.dismiss_items(self.selected_ids()))
        self.accept_kind_button.clicked.connect(
            lambda: self.accept_items(self.ids_of_kind(self.kind_box.currentData()))
        )
        self.dismiss_kind_button.clicked.connect(
            lambda: self.dismiss_items(self.ids_of_kind(self.kind_box.currentData()))
        )
        self.check_button.clicked.connect(lambda: self.reload(run=True))

        row1 = QHBoxLayout()
        for w in (self.accept_button, self.dismiss_button):
            row1.addWidget(w)
        row1.addStretch(1)
        for w in (self.kind_box, self.accept_kind_button, self.dismiss_kind_button):
            row1.addWidget(w)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.addButton(self.check_button, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addLayout(row1)
        layout.addWidget(buttons)
        self.busy = False
        self.reload(run=False)

    # -- reading ---------------------------------------------------------------------------
    def selected_ids(self) -> list[str]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [self.model.row_at(r).item_id for r in rows]

    def ids_of_kind(self, kind: str) -> list[str]:
        return [r.item_id for r in self.model.rows() if r.kind == kind]

    def reload(self, run: bool = False) -> None:
        case_id = self.case_id
        self._set_busy(True)
        self.host.call(
            lambda e: load_rows(e, case_id, run),
            self._loaded,
            self._failed,
            origin=self,
            name="maintenance-load",
        )

    def _loaded(self, result: tuple[list[MaintenanceRow], Any]) -> None:
        rows, proposal = result
        self.model.set_rows(rows)
        self.table.resizeRowsToContents()
        self._set_busy(False)
        if proposal.ran_at is None:
            self.summary.setText(self.tr("This case has not been checked yet."))
        elif not rows:
            self.summary.setText(self.tr("Nothing to clean up: every memory looks current."))
        else:
            when = proposal.ran_at.astimezone().strftime("%Y-%m-%d %H:%M")
            self.summary.setText(
                self.tr("%1 proposals from the check of %2. Nothing changes until you accept.")
                .replace("%1", str(len(rows)))
                .replace("%2", when)
            )

    def _failed(self, exc: BaseException) -> None:
        self._set_busy(False)
        message = texts.error_text(exc)
        dialogs.error(self, self.tr("Memory check-up"), message)

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        for w in (
            self.accept_button,
            self.dismiss_button,
            self.accept_kind_button,
            self.dismiss_kind_button,
            self.check_button,
        ):
            w.setEnabled(not busy)

    # -- deciding --------------------------------------------------------------------------
    def accept_items(self, item_ids: list[str]) -> None:
        """Accept items: the plain kinds after one confirmation; each duplicate group in the
        merge dialog and each conflict in the conflict dialog (the lawyer sees the notes and
        decides; a dialog cancelled leaves its item open)."""
        if not item_ids or self.busy:
            return
        by_id = {r.item_id: r for r in self.model.rows()}
        rows = [by_id[i] for i in item_ids if i in by_id]
        plain = [r.item_id for r in rows if r.kind not in CHOICE_KINDS]
        chosen = [r for r in rows if r.kind in CHOICE_KINDS]
        if plain and not dialogs.confirm(
            self,
            self.tr("Memory check-up"),
            self.tr(
                "Apply %1 proposals? Archived, merged and expired memories stay in history "
                "and can be restored."
            ).replace("%1", str(len(plain))),
        ):
            return
        if not chosen:
            self._decide(lambda e: e.accept_maintenance(plain), "maintenance-accept")
            return
        self._set_busy(True)
        self.host.call(
            lambda e: load_choice_notes(e, chosen),
            lambda notes: self._ask_choices(plain, chosen, notes),
            self._failed,
            name="maintenance-choice-notes",
        )

    def _ask_choices(
        self, plain: list[str], rows: list[MaintenanceRow], notes: dict[str, list[MergeNote]]
    ) -> None:
        from desktop_app.memory.types import MaintenanceChoice

        self._set_busy(False)
        choices: dict[str, MaintenanceChoice] = {}
        for row in rows:
            if row.item_id not in notes:
                continue
            if row.kind == "duplicate":
                merge = MergeDialog(notes[row.item_id], self)
                if _exec(merge):
                    choices[row.item_id] = MaintenanceChoice(merge.keep_id(), merge.merged_text())
            else:
                conflict = ConflictDialog(notes[row.item_id], self)
                if _exec(conflict) and conflict.keep() is not None:
                    choices[row.item_id] = MaintenanceChoice(conflict.keep())
        accepted = [*plain, *choices]
        if accepted:
            self._decide(lambda e: e.accept_maintenance(accepted, choices), "maintenance-accept")

    def dismiss_items(self, item_ids: list[str]) -> None:
        if item_ids and not self.busy:
            self._decide(lambda e: e.dismiss_maintenance(item_ids), "maintenance-dismiss")

    def _decide(self, fn: Any, name: str) -> None:
        self._set_busy(True)
        self.host.call(
            fn, lambda _result: self.reload(run=False), self._failed, origin=self, name=name
        )


def _exec(dlg: Any) -> bool:
    """Run a dialog; a seam the tests replace."""
    return bool(dlg.exec())
