"""The Documents tab: the case's imported files (name, kind, pages, imported, notes derived,
extraction), Import… (or drop files on the window), open a document in the viewer, delete it
with the notes drawn from it that the lawyer checks, and the case's evidence list.

Imports run one at a time in the background (importer.py) with progress and Cancel under
the table; every engine call runs in a worker."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui import dialogs, texts
from desktop_app.ui.documents.delete_dialog import DeleteDocumentDialog
from desktop_app.ui.documents.importer import DocumentImporter, ImportJob
from desktop_app.ui.documents.model import (
    COL_EXTRACTION,
    COL_IMPORTED,
    COL_KIND,
    COL_NAME,
    COL_NOTES,
    COL_PAGES,
    DocumentsTableModel,
)
from desktop_app.ui.documents.wording import file_filters, progress_text
from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.icons import icon
from desktop_app.ui.safe_text import plain_label
from desktop_app.ui.tables import row_table

log = logging.getLogger(__name__)


class DocumentsView(QWidget):
    statusMessage = Signal(str)

    def __init__(self, host: EngineHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.case_id: str | None = None
        self._load_token = 0
        self.importer = DocumentImporter(host, self)
        self._dialogs: list[Any] = []  # open viewers, kept alive while shown

        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 10, 16, 8)
        lay.setSpacing(8)
        bar = QHBoxLayout()
        self.count_label = QLabel()
        self.count_label.setObjectName("Muted")
        bar.addWidget(self.count_label)
        bar.addStretch(1)
        self.open_button = QPushButton(icon("search"), self.tr("Open"))
        self.open_button.setToolTip(self.tr("Show the document's pages and passages"))
        self.open_button.clicked.connect(self.open_selected)
        self.delete_button = QPushButton(icon("trash"), self.tr("Delete…"))
        self.delete_button.clicked.connect(self.delete_selected)
        self.evidence_button = QPushButton(icon("export"), self.tr("Evidence list…"))
        self.evidence_button.setToolTip(
            self.tr("Arrange the case's evidence and export it as a Word document (证据目录)")
        )
        self.evidence_button.clicked.connect(self.open_evidence_list)
        self.import_button = QPushButton(icon("import", "#ffffff"), self.tr("Import…"))
        self.import_button.setProperty("role", "primary")
        self.import_button.setToolTip(
            self.tr(
                "Import PDF, Word, images, text or Markdown into this case (or drop files on the window)"
            )
        )
        self.import_button.clicked.connect(self.choose_files)
        for b in (self.open_button, self.delete_button, self.evidence_button, self.import_button):
            bar.addWidget(b)
        lay.addLayout(bar)

        self.model = DocumentsTableModel(self)
        self.table = row_table(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setModel(self.model)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(COL_NAME, QHeaderView.ResizeMode.Stretch)
        for col, width in (
            (COL_KIND, 120),
            (COL_PAGES, 60),
            (COL_IMPORTED, 130),
            (COL_NOTES, 100),
            (COL_EXTRACTION, 130),
        ):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        self.table.doubleClicked.connect(lambda _i: self.open_selected())
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._update_actions())
        lay.addWidget(self.table, 1)
        self.empty = QLabel()
        self.empty.setObjectName("EmptyState")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        lay.addWidget(self.empty, 1)

        # the running import: what, how far, Cancel
        self.progress_panel = QWidget()
        row = QHBoxLayout(self.progress_panel)
        row.setContentsMargins(0, 0, 0, 0)
        self.progress_label = plain_label()
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(260)
        self.progress_bar.setTextVisible(False)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.clicked.connect(self.importer.cancel)
        row.addWidget(self.progress_label, 1)
        row.addWidget(self.progress_bar)
        row.addWidget(self.cancel_button)
        self.progress_panel.hide()
        lay.addWidget(self.progress_panel)

        self.importer.started.connect(self._import_started)
        self.importer.progressed.connect(self._import_progressed)
        self.importer.imported.connect(self._imported)
        self.importer.failed.connect(self._import_failed)
        self.importer.cancelled.connect(self._import_cancelled)
        self.importer.idle.connect(self._imports_done)
        host.stateChanged.connect(lambda state: state == "ready" and self.reload())
        host.jobsReported.connect(lambda _r: self.reload())  # extraction moves on
        host.operationDidExecute.connect(self._operation_executed)
        self._show_empty()
        self._update_actions()

    # -- the list ----------------------------------------------------------------------
    def set_case(self, case_id: str | None) -> None:
        self.case_id = case_id
        self.model.set_documents([])
        self.reload()

    def reload(self) -> None:
        self._load_token += 1
        token, case_id = self._load_token, self.case_id
        if case_id is None or self.host.engine is None:
            self._show_empty()
            self._update_actions()
            return
        self.host.call(
            lambda e: e.list_documents(case_id),
            lambda docs: self._loaded(token, docs),
            self._error,
            name="list-documents",
        )

    def _loaded(self, token: int, docs: list[Any]) -> None:
        if token != self._load_token:
            return  # another case meanwhile
        selected = self.selected_document()
        self.model.set_documents(docs)
        if selected is not None and (row := self.model.row_of(selected.id)) >= 0:
            self.table.selectRow(row)
        self._show_empty()
        self._update_actions()

    def _operation_executed(self, changes: Any, origin: object) -> None:
        # notes drawn from a document were added or forgotten: its count moves
        if (
            origin is not self
            and self.case_id is not None
            and changes.touches_notes(self.case_id, include_global=False)
        ):
            self.reload()

    def _show_empty(self) -> None:
        has_rows = self.model.rowCount() > 0
        self.table.setVisible(has_rows)
        self.empty.setVisible(not has_rows)
        if self.case_id is None:
            self.empty.setText(self.tr("Choose or create a case to import its documents."))
            self.count_label.setText("")
        else:
            self.empty.setText(
                self.tr(
                    "No documents in this case yet.\nImport the complaint, contracts, invoices or "
                    "screenshots (PDF, Word, PNG/JPG, text), or drop the files on this window. "
                    "Their text becomes searchable passages the chat cites."
                )
            )
            self.count_label.setText(self.tr("%n documents", "", self.model.rowCount()))

    def selected_document(self) -> Any | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.document_at(rows[0].row()) if rows else None

    def _update_actions(self) -> None:
        has_case = self.case_id is not None
        selected = self.selected_document() is not None
        self.import_button.setEnabled(has_case and self.host.state != "failed")
        self.open_button.setEnabled(selected)
        self.delete_button.setEnabled(selected)
        self.evidence_button.setEnabled(has_case)

    # -- importing ---------------------------------------------------------------------
    def choose_files(self) -> None:
        if self.case_id is None:
            return
        paths = dialogs.open_files(self, self.tr("Import documents"), file_filters())
        if paths:
            self.import_files([Path(p) for p in paths])

    def import_files(self, paths: list[Path], case_id: str | None = None) -> None:
        """Import ``paths`` into ``case_id`` (default: the case shown) in the background."""
        case_id = case_id or self.case_id
        if case_id is None or not paths:
            return
        self.importer.enqueue(case_id, paths)

    def _import_started(self, job: ImportJob) -> None:
        self.progress_panel.show()
        self.cancel_button.setEnabled(True)
        self.progress_bar.setRange(0, 0)  # busy until the first report
        self._set_progress_label(progress_text(job.name, 0, 0, "read"))

    def _set_progress_label(self, text: str) -> None:
        waiting = self.importer.waiting
        if waiting:
            text += "  " + self.tr("(%n more waiting)", "", waiting)
        self.progress_label.setText(text)

    def _import_progressed(self, job: ImportJob, done: int, total: int, phase: str) -> None:
        if total > 0:
            self.progress_bar.setRange(0, total)
            self.progress_bar.setValue(min(done, total))
        self._set_progress_label(progress_text(job.name, done, total, phase))

    def _imported(self, job: ImportJob, doc: Any) -> None:
        self.statusMessage.emit(
            self.tr("Imported %1: %2 passages.")
            .replace("%1", doc.name)
            .replace("%2", str(doc.passages))
        )
        if job.case_id == self.case_id:
            self.reload()

    def _import_failed(self, job: ImportJob, message: str) -> None:
        dialogs.error(self, self.tr("Import documents"), message)

    def _import_cancelled(self, job: ImportJob) -> None:
        self.statusMessage.emit(
            self.tr("The import of %1 was cancelled; nothing of it was kept.").replace(
                "%1", job.name
            )
        )

    def _imports_done(self) -> None:
        self.progress_panel.hide()
        self.reload()

    # -- one document ------------------------------------------------------------------
    def open_selected(self) -> None:
        doc = self.selected_document()
        if doc is not None:
            self.open_document(doc.id)

    def open_document(
        self, document_id: str, passage_id: str | None = None, page: int | None = None
    ) -> None:
        """The viewer on a passage (highlighted), or on a page of the document."""
        from desktop_app.ui.documents.viewer import PassageViewer

        viewer = PassageViewer(self.host, document_id, passage_id, self, page=page)
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        viewer.show()
        self._dialogs = [d for d in self._dialogs if _alive(d)] + [viewer]

    def delete_selected(self) -> None:
        doc = self.selected_document()
        if doc is None:
            return
        self.host.call(
            lambda e: e.notes_from_document(doc.id),
            lambda notes: self._confirm_delete(doc, notes),
            self._error,
            name="document-notes",
        )

    def _confirm_delete(self, doc: Any, notes: list[Any]) -> None:
        dialog = DeleteDocumentDialog(doc, notes, self)
        if not _exec(dialog):
            return
        purge = dialog.checked_note_ids()

        def done(report: Any) -> None:
            self.statusMessage.emit(
                self.tr("Deleted %1.").replace("%1", doc.name)
                + (" " + self.tr("%n memories forgotten.", "", len(purge)) if purge else "")
            )
            self.reload()

        self.host.call(
            lambda e: e.delete_document(doc.id, purge),
            done,
            self._error,
            origin=self,
            name="delete-document",
        )

    def open_evidence_list(self) -> None:
        if self.case_id is None:
            return
        from desktop_app.ui.evidence import open_evidence_dialog

        self.evidence_dialog = open_evidence_dialog(self.host, self.case_id, self)

    def _error(self, exc: BaseException) -> None:
        log.warning("documents: %s", type(exc).__name__)
        message = getattr(exc, "user_message", None)
        dialogs.error(
            self,
            self.tr("Documents"),
            texts.in_ui_language(message)
            if message
            else self.tr("The documents could not be read or changed."),
        )


def _alive(widget: Any) -> bool:
    try:
        return widget.isVisible()
    except RuntimeError:  # deleted on close
        return False


def _exec(dialog: Any) -> bool:
    """Run a dialog; a seam the tests replace."""
    return bool(dialog.exec())
