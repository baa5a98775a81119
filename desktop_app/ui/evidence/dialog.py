"""The 证据目录 dialog: the case's evidence in the order it will be submitted — drag a row or
use Move up / Move down; the order is kept for the case — and Export as a Word document
(English headings when the interface is English).

Every engine call runs in a worker through the EngineHost.  Saves of the order never race:
one is in flight at a time, and a move made meanwhile is saved right after it.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui import dialogs, i18n, texts
from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.evidence.model import EvidenceListModel
from desktop_app.ui.file_errors import os_error_text
from desktop_app.ui.icons import icon
from desktop_app.ui.safe_text import plain_label

#: characters a file name cannot hold on Windows (and "/" anywhere)
_NOT_IN_FILE_NAMES = re.compile(r'[\\/:*?"<>|\x00-\x1f]')
SAVE_DELAY_MS = 300


def default_file_name(case_name: str) -> str:
    stem = texts.one_language("证据目录", "Evidence list")
    name = _NOT_IN_FILE_NAMES.sub("_", case_name).strip(" .")[:80]
    return f"{stem}-{name}.docx" if name else f"{stem}.docx"


class EvidenceDialog(QDialog):
    def __init__(self, host: EngineHost, case_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.case_id = case_id
        self.case_name = ""
        self._saving = False
        self._save_again = False
        self.setWindowTitle(self.tr("Evidence list"))
        self.resize(720, 520)

        lay = QVBoxLayout(self)
        self.head = plain_label(self.tr("Evidence list"))
        self.head.setObjectName("AppTitle")
        lay.addWidget(self.head)
        hint = QLabel(
            self.tr(
                "Drag the evidence into the order you will submit it, or use Move up / Move "
                "down. The order is kept for this case. The list holds the case's memories of "
                "the category Evidence."
            )
        )
        hint.setObjectName("Muted")
        hint.setWordWrap(True)
        lay.addWidget(hint)

        self.model = EvidenceListModel(self)
        self.list = QListView()
        self.list.setModel(self.model)
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.list.setDragEnabled(True)
        self.list.setDropIndicatorShown(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setAlternatingRowColors(True)
        self.list.setWordWrap(True)
        self.list.setSpacing(2)
        lay.addWidget(self.list, 1)
        self.empty = QLabel(
            self.tr("This case has no evidence yet. Memories of the category Evidence appear here.")
        )
        self.empty.setObjectName("EmptyState")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.hide()
        lay.addWidget(self.empty, 1)
        self.status = plain_label()
        self.status.setObjectName("Muted")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)

        row = QHBoxLayout()
        self.up_button = QPushButton(icon("step-up"), self.tr("Move up"))
        self.down_button = QPushButton(icon("step-down"), self.tr("Move down"))
        self.up_button.clicked.connect(lambda: self.move_selected(-1))
        self.down_button.clicked.connect(lambda: self.move_selected(1))
        row.addWidget(self.up_button)
        row.addWidget(self.down_button)
        row.addStretch(1)
        lay.addLayout(row)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.export_button = buttons.addButton(
            self.tr("Export Word…"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.export_button.setIcon(icon("export", "#ffffff"))
        self.export_button.setProperty("role", "primary")
        self.export_button.clicked.connect(self.export)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(SAVE_DELAY_MS)
        self._save_timer.timeout.connect(self._save_order)
        self.model.orderChanged.connect(self._save_timer.start)
        self.list.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self._update_buttons()
        self.reload()

    # -- loading -----------------------------------------------------------------------
    def reload(self) -> None:
        case_id = self.case_id
        self.host.call(
            lambda e: (e.get_case(case_id).name, e.evidence_list(case_id)),
            self._loaded,
            self._failed,
            name="evidence-list",
        )

    def _loaded(self, result: tuple[str, list[Any]]) -> None:
        self.case_name, entries = result
        self.head.setText(self.tr("Evidence list · %1").replace("%1", self.case_name))
        self.model.set_entries(entries)
        self.list.setVisible(bool(entries))
        self.empty.setVisible(not entries)
        if entries:
            self._select(0)
        self._update_buttons()

    def _select(self, row: int) -> None:
        self.list.selectionModel().setCurrentIndex(
            self.model.index(row), QItemSelectionModel.SelectionFlag.ClearAndSelect
        )

    def _update_buttons(self) -> None:
        rows = self.list.selectionModel().selectedRows()
        row = rows[0].row() if rows else -1
        count = self.model.rowCount()
        self.up_button.setEnabled(row > 0)
        self.down_button.setEnabled(0 <= row < count - 1)
        self.export_button.setEnabled(count > 0)

    # -- reordering --------------------------------------------------------------------
    def move_selected(self, delta: int) -> None:
        rows = self.list.selectionModel().selectedRows()
        if not rows:
            return
        new_row = self.model.move(rows[0].row(), delta)
        self._select(new_row)
        self._update_buttons()

    def _save_order(self) -> None:
        if self._saving:
            self._save_again = True
            return
        self._saving = True
        case_id, ids = self.case_id, self.model.note_ids()

        def finished() -> None:
            self._saving = False
            if self._save_again:
                self._save_again = False
                self._save_order()

        self.host.call(
            lambda e: e.set_evidence_order(case_id, ids),
            None,
            self._failed,
            on_finally=finished,
            name="evidence-order",
        )

    # -- export ------------------------------------------------------------------------
    def export(self) -> None:
        path = dialogs.save_file(
            self,
            self.tr("Export the evidence list"),
            default_file_name(self.case_name),
            self.tr("Word document (*.docx)"),
        )
        if not path:
            return
        if not path.lower().endswith(".docx"):
            path += ".docx"
        self.export_to(path)

    def export_to(self, path: str) -> None:
        case_id, ids, english = self.case_id, self.model.note_ids(), not i18n.is_chinese()
        self._save_timer.stop()

        def work(e: Any) -> int:
            # the order on screen is the order written, even if its save was still pending
            e.set_evidence_order(case_id, ids)
            return e.export_evidence_list(path, case_id, english=english)

        self.export_button.setEnabled(False)
        self.host.call(
            work,
            lambda n: self.status.setText(
                self.tr("Exported %n pieces of evidence to %1.", "", n).replace("%1", path)
            ),
            lambda exc: self._export_failed(exc, path),
            on_finally=self._update_buttons,
            name="evidence-export",
        )

    def _export_failed(self, exc: BaseException, path: str) -> None:
        if isinstance(exc, OSError):
            dialogs.error(
                self,
                self.tr("Evidence list"),
                self.tr("The evidence list could not be written to %1 (%2).")
                .replace("%1", path)
                .replace("%2", os_error_text(exc)),
            )
            return
        self._failed(exc)

    def _failed(self, exc: BaseException) -> None:
        message = getattr(exc, "user_message", None)
        dialogs.error(
            self,
            self.tr("Evidence list"),
            texts.in_ui_language(message)
            if message
            else self.tr("The evidence list could not be read or saved."),
        )


def open_evidence_dialog(host: EngineHost, case_id: str, parent: QWidget) -> EvidenceDialog:
    """Open the 证据目录 of ``case_id`` over ``parent`` (window-modal, deleted on close); the
    Notes and Documents tabs both offer it."""
    dialog = EvidenceDialog(host, case_id, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
