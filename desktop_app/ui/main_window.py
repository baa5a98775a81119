"""The main window: sidebar (case + conversations), Chat / Notes / Graph tabs, status bar."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow, QSplitter, QTabWidget, QWidget

from desktop_app.core.errors import CorruptDatabaseError
from desktop_app.core.paths import settings_file
from desktop_app.core.resources import demo_path
from desktop_app.core.settings import save_settings
from desktop_app.ui import dialogs, texts
from desktop_app.ui.chat.view import ChatView
from desktop_app.ui.documents.drops import local_paths, sort_drop
from desktop_app.ui.documents.view import DocumentsView
from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.graph_tab import GraphTab
from desktop_app.ui.icons import app_icon, icon
from desktop_app.ui.maintenance import MaintenanceDialog, MaintenanceScheduler
from desktop_app.ui.notes.view import NotesView
from desktop_app.ui.sidebar import Sidebar
from desktop_app.ui.status_bar import StatusBar

log = logging.getLogger(__name__)

TAB_CHAT, TAB_NOTES, TAB_GRAPH, TAB_DOCUMENTS = range(4)
_DRAG_EVENTS = (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop)


class MainWindow(QMainWindow):
    def __init__(self, host: EngineHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.setWindowTitle(texts.app_name())
        self.setWindowIcon(app_icon())
        self.resize(1240, 800)
        self.setMinimumSize(880, 560)

        self.sidebar = Sidebar(host)
        self.sidebar.setMinimumWidth(220)
        self.sidebar.setMaximumWidth(380)
        self.chat = ChatView(host)
        self.notes = NotesView(host)
        self.graph = GraphTab(host)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.chat, icon("chat"), self.tr("Chat"))
        self.tabs.addTab(self.notes, icon("notes"), self.tr("Notes"))
        self.tabs.addTab(self.graph, icon("graph"), self.tr("Graph"))
        self.documents = DocumentsView(host)
        self.tabs.addTab(self.documents, icon("folder"), self.tr("Documents"))

        split = QSplitter()
        split.addWidget(self.sidebar)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 1)
        split.setSizes([260, 980])
        split.setHandleWidth(1)
        split.setChildrenCollapsible(False)
        self.setCentralWidget(split)
        self.status = StatusBar(host)
        self.setStatusBar(self.status)

        self.sidebar.caseChanged.connect(self._case_changed)
        self.sidebar.conversationChanged.connect(self.chat.set_conversation)
        self.sidebar.settingsRequested.connect(self.open_settings)
        self.chat.settingsRequested.connect(self.open_settings)
        self.chat.showNotesRequested.connect(self.show_notes)
        self.chat.passageRequested.connect(self.documents.open_document)
        self.chat.conversationCreated.connect(
            lambda conv: self.sidebar.reload_conversations(select=conv.id)
        )
        self.chat.demoRequested.connect(self.load_demo)
        self.chat.newCaseRequested.connect(self.sidebar.new_case)
        self.chat.newChatRequested.connect(self.new_chat)
        self.notes.statusMessage.connect(lambda text: self.status.showMessage(text, 4000))
        self.notes.importDocumentsRequested.connect(self._import_documents)
        self.notes.openDocumentRequested.connect(
            lambda doc_id, page: self.documents.open_document(doc_id, None, page)
        )
        self.documents.statusMessage.connect(lambda text: self.status.showMessage(text, 6000))
        self.graph.openNoteRequested.connect(lambda nid: self.show_notes([nid]))
        host.stateChanged.connect(self._engine_state)
        self.maintenance = MaintenanceScheduler(host, parent=self)
        self.maintenance.waitingChanged.connect(self.status.set_maintenance_waiting)
        self.status.maintenanceClicked.connect(self.open_maintenance)
        self.sidebar.maintenanceRequested.connect(self.open_maintenance)

        self._install_shortcuts()
        self._accept_file_drops()
        geometry = host.settings.window_geometry
        if geometry:
            self.restoreGeometry(QByteArray.fromBase64(geometry.encode("ascii")))

    # -- wiring ----------------------------------------------------------------------------
    def _install_shortcuts(self) -> None:
        def add(seq: QKeySequence | str, slot: Any, text: str = "") -> QAction:
            act = QAction(text, self)
            act.setShortcut(QKeySequence(seq))
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            act.triggered.connect(slot)
            self.addAction(act)
            return act

        self.act_new_chat = add("Ctrl+N", self.new_chat, self.tr("New chat"))
        self.addAction(self.sidebar.act_new_case)
        add("Ctrl+1", lambda: self.tabs.setCurrentIndex(TAB_CHAT))
        add("Ctrl+2", lambda: self.tabs.setCurrentIndex(TAB_NOTES))
        add("Ctrl+3", lambda: self.tabs.setCurrentIndex(TAB_GRAPH))
        add("Ctrl+4", lambda: self.tabs.setCurrentIndex(TAB_DOCUMENTS))
        add("Ctrl+F", self.focus_search)
        add("Ctrl+L", self._focus_composer)
        add("Ctrl+,", self.open_settings)
        add("Ctrl+Shift+M", self._add_note)
        add("F5", self.refresh)
        add(QKeySequence.StandardKey.Quit, self.close)
        add("F1", self.show_about, self.tr("About LexMem"))

    def _case_changed(self, case_id: str | None) -> None:
        self.status.set_case(case_id)
        self.chat.set_case(case_id)
        self.notes.set_case(case_id)
        self.graph.set_case(case_id)
        self.documents.set_case(case_id)

    def _engine_state(self, state: str) -> None:
        if state == "failed":
            exc = self.host.error
            message = (
                texts.in_ui_language(exc.user_message)
                if getattr(exc, "user_message", None)
                else self.tr("The memory library could not be opened. The details are in the log file.")
            )
            if isinstance(exc, CorruptDatabaseError) and self._offer_restore(message):
                return
            dialogs.error(self, texts.app_name(), message)

    def _offer_restore(self, message: str) -> bool:
        """A damaged database: offer the newest backup.  True if the user took it."""
        from desktop_app.memory.backups import list_backups

        backups = [b for b in list_backups(self.host.data_dir) if b.kind in ("auto", "manual")]
        if not backups:
            return False
        latest = max(backups, key=lambda b: b.created_at)
        when = latest.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
        question = self.tr("%1\n\nRestore the backup of %2? The damaged file is kept aside.")
        if not dialogs.confirm(
            self, texts.app_name(), question.replace("%1", message).replace("%2", when)
        ):
            return False

        def done(exc: BaseException | None) -> None:
            if exc is None:
                self.status.showMessage(
                    self.tr("Restored the backup of %1.").replace("%1", when), 6000
                )

        self.host.restore_from(latest.path, done)
        return True

    # -- files dropped on the window -------------------------------------------------------
    def _accept_file_drops(self) -> None:
        """Files dropped anywhere on the window are imported into the open case.  The
        children that take drops themselves (the composer, the search boxes) would paste the
        file's path instead: their drag events pass through :meth:`eventFilter` first."""
        self.setAcceptDrops(True)
        for child in self.findChildren(QWidget):
            if child.acceptDrops():
                child.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _DRAG_EVENTS and local_paths(event.mimeData()):  # type: ignore[attr-defined]
            self._file_drag(event)  # type: ignore[arg-type]
            return True
        return super().eventFilter(watched, event)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self._file_drag(event)

    def dragMoveEvent(self, event: QDragEnterEvent) -> None:
        self._file_drag(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self._file_drag(event)

    def _file_drag(self, event: QDropEvent) -> None:
        paths = local_paths(event.mimeData())
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        if event.type() == QEvent.Type.Drop:
            # after the drop has returned: a message box inside it would block the source
            QTimer.singleShot(0, lambda: self.import_dropped(paths))

    def import_dropped(self, paths: list[Path]) -> None:
        """Import the dropped files into the open case; say why any are refused."""
        title = self.tr("Import documents")
        case_id = self.sidebar.case_id
        if case_id is None:
            dialogs.error(self, title, self.tr("Open a case first: dropped files are imported into the open case."))
            return
        drop = sort_drop(paths)
        if drop.files:
            self.tabs.setCurrentIndex(TAB_DOCUMENTS)
            self.documents.import_files(drop.files, case_id)
        refusal = drop.refusal()
        if refusal:
            dialogs.error(self, title, refusal)

    def _import_documents(self) -> None:
        self.tabs.setCurrentIndex(TAB_DOCUMENTS)
        self.documents.choose_files()

    # -- actions ---------------------------------------------------------------------------
    def show_about(self) -> None:
        from desktop_app.ui.about import AboutDialog

        AboutDialog(self, self.host.data_dir).exec()

    def new_chat(self) -> None:
        self.tabs.setCurrentIndex(TAB_CHAT)
        self.sidebar.new_conversation()
        QTimer.singleShot(0, self.chat.focus_composer)

    def focus_search(self) -> None:
        if self.tabs.currentIndex() == TAB_NOTES:
            self.notes.focus_search()
        else:
            self.sidebar.search.setFocus()
            self.sidebar.search.selectAll()

    def _focus_composer(self) -> None:
        self.tabs.setCurrentIndex(TAB_CHAT)
        self.chat.focus_composer()

    def _add_note(self) -> None:
        self.tabs.setCurrentIndex(TAB_NOTES)
        self.notes.add_note()

    def refresh(self) -> None:
        self.sidebar.reload_cases()
        self.notes.apply_filters()
        self.graph.reload()
        self.host.refresh_stats()

    def show_notes(self, note_ids: list[str]) -> None:
        self.tabs.setCurrentIndex(TAB_NOTES)
        self.notes.show_notes(list(note_ids))

    def load_demo(self) -> None:
        path = demo_path()
        if not path.is_file():
            dialogs.error(
                self, texts.app_name(), self.tr("The demo case is missing from this installation.")
            )
            return
        self.status.showMessage(self.tr("Loading the demo case…"))

        def done(results: list[Any]) -> None:
            case_id = next((r.note.case_id for r in results if r.note.case_id), None)
            self.host.settings.demo_offered = True
            self.status.showMessage(self.tr("Demo case loaded."), 4000)
            self.sidebar.reload_cases(select=case_id)

        self.host.call(
            lambda e: e.import_jsonl(path),
            done,
            lambda exc: dialogs.error(
                self, texts.app_name(), texts.error_text(exc)
            ),
            name="load-demo",
        )

    def open_maintenance(self) -> None:
        """The current case's check-up proposal (记忆体检), reviewed in a dialog."""
        case_id = self.sidebar.case_id
        if case_id is None:
            self.status.showMessage(self.tr("Choose a case to check its memory"), 4000)
            return
        dialog = MaintenanceDialog(self.host, case_id, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def open_settings(self) -> None:
        from desktop_app.ui.settings.dialog import SettingsDialog

        dlg = SettingsDialog(self.host, self)
        dlg.applied.connect(self._settings_applied)
        dlg.open()
        self._settings_dialog = dlg

    def _settings_applied(self, settings: Any) -> None:
        self.save_settings()
        self.status._connectivity()

    def save_settings(self) -> None:
        s = self.host.settings
        s.window_geometry = bytes(self.saveGeometry().toBase64().data()).decode("ascii")
        try:
            save_settings(s, settings_file(self.host.data_dir))
        except OSError as exc:
            log.warning("settings not saved: %s", exc)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.chat.stop()
        self.documents.importer.cancel()
        self.save_settings()
        super().closeEvent(event)
