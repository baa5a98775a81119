"""Left column: the case selector and the case's conversations (new, rename, delete, search)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.ui import dialogs, texts
from desktop_app.ui.eliding_combo import ElidingComboBox
from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.icons import app_icon, icon
from desktop_app.ui.safe_text import plain_tooltip

ID_ROLE = Qt.ItemDataRole.UserRole + 1
OBJ_ROLE = Qt.ItemDataRole.UserRole + 2


class Sidebar(QWidget):
    caseChanged = Signal(object)  # case id or None
    conversationChanged = Signal(object)  # Conversation or None
    settingsRequested = Signal()
    #: the user asked for the current case's memory check-up (记忆体检)
    maintenanceRequested = Signal()

    def __init__(self, host: EngineHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Sidebar")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.host = host
        self.case_id: str | None = None
        self._cases: list[Any] = []
        self._pending_select_conv: str | None = None

        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 12, 12, 10)
        lay.setSpacing(8)

        head = QHBoxLayout()
        logo = QLabel()
        logo.setPixmap(app_icon().pixmap(28, 28))
        title = QLabel(texts.app_name())
        title.setObjectName("AppTitle")
        head.addWidget(logo)
        head.addWidget(title, 1)
        lay.addLayout(head)
        lay.addSpacing(4)

        case_title = QLabel(self.tr("CASE"))
        case_title.setObjectName("SidebarTitle")
        lay.addWidget(case_title)
        row = QHBoxLayout()
        row.setSpacing(4)
        # a long case name is shortened with "…" and shown whole in the tooltip, not cut off
        self.case_combo = ElidingComboBox()
        self.case_combo.setMinimumWidth(120)
        self.case_combo.currentIndexChanged.connect(self._case_index_changed)
        row.addWidget(self.case_combo, 1)
        self.case_menu_button = QToolButton()
        self.case_menu_button.setIcon(icon("more"))
        self.case_menu_button.setToolTip(self.tr("Case actions"))
        self.case_menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self)
        self.act_new_case = QAction(icon("plus"), self.tr("New case…"), self)
        self.act_new_case.setShortcut("Ctrl+Shift+N")
        self.act_rename_case = QAction(icon("edit"), self.tr("Rename case…"), self)
        self.act_archive_case = QAction(icon("archive"), self.tr("Archive case"), self)
        self.act_delete_case = QAction(icon("trash"), self.tr("Delete case…"), self)
        self.act_checkup = QAction(icon("archive"), self.tr("Memory check-up…"), self)
        self.act_checkup.setShortcut("Ctrl+Shift+K")
        self.act_checkup.triggered.connect(self.maintenanceRequested)
        self.act_show_archived = QAction(self.tr("Show archived cases"), self)
        self.act_show_archived.setCheckable(True)
        for a in (self.act_new_case, self.act_rename_case, self.act_archive_case, self.act_delete_case):
            menu.addAction(a)
        menu.addSeparator()
        menu.addAction(self.act_checkup)
        menu.addSeparator()
        menu.addAction(self.act_show_archived)
        self.case_menu_button.setMenu(menu)
        self.act_new_case.triggered.connect(self.new_case)
        self.act_rename_case.triggered.connect(self.rename_case)
        self.act_archive_case.triggered.connect(self.archive_case)
        self.act_delete_case.triggered.connect(self.delete_case)
        self.act_show_archived.toggled.connect(lambda _=False: self.reload_cases())
        row.addWidget(self.case_menu_button)
        lay.addLayout(row)
        lay.addSpacing(6)

        self.new_chat_button = QPushButton(icon("plus", "#ffffff"), self.tr("New chat"))
        self.new_chat_button.setProperty("role", "primary")
        self.new_chat_button.setToolTip(self.tr("Start a new conversation (Ctrl+N)"))
        self.new_chat_button.clicked.connect(self.new_conversation)
        lay.addWidget(self.new_chat_button)

        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search conversations"))
        self.search.setClearButtonEnabled(True)
        self.search.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        lay.addWidget(self.search)

        conv_title = QLabel(self.tr("CONVERSATIONS"))
        conv_title.setObjectName("SidebarTitle")
        lay.addWidget(conv_title)

        self.conv_model = QStandardItemModel(self)
        self.conv_proxy = QSortFilterProxyModel(self)
        self.conv_proxy.setSourceModel(self.conv_model)
        self.conv_proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        # The search looks in titles and in the messages (through the engine), after a pause
        # in typing rather than at every key.
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(250)
        self._search_timer.timeout.connect(self.reload_conversations)
        self.search.textChanged.connect(lambda _text: self._search_timer.start())
        self.conv_list = QListView()
        self.conv_list.setModel(self.conv_proxy)
        self.conv_list.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.conv_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.conv_list.customContextMenuRequested.connect(self._conv_menu)
        self.conv_list.selectionModel().currentChanged.connect(self._conv_current_changed)
        self.conv_list.setUniformItemSizes(True)
        # long titles are elided, never scrolled sideways
        self.conv_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conv_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conv_list.setResizeMode(QListView.ResizeMode.Adjust)
        lay.addWidget(self.conv_list, 1)

        self.empty_label = QLabel(self.tr("No conversations yet"))
        self.empty_label.setObjectName("Muted")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(self.empty_label)

        self.settings_button = QPushButton(icon("settings"), self.tr("Settings"))
        self.settings_button.setToolTip(
            self.tr("Provider, memory, language, theme, backup (Ctrl+,)")
        )
        self.settings_button.clicked.connect(self.settingsRequested)
        lay.addWidget(self.settings_button)

        self.act_rename_conv = QAction(icon("edit"), self.tr("Rename…"), self)
        self.act_rename_conv.setShortcut("F2")
        self.act_rename_conv.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.act_rename_conv.triggered.connect(self.rename_conversation)
        self.act_delete_conv = QAction(icon("trash"), self.tr("Delete…"), self)
        self.act_delete_conv.setShortcut("Delete")
        self.act_delete_conv.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.act_delete_conv.triggered.connect(self.delete_conversation)
        self.conv_list.addAction(self.act_rename_conv)
        self.conv_list.addAction(self.act_delete_conv)

        host.operationDidExecute.connect(self._operation_executed)
        host.stateChanged.connect(self._engine_state)
        self._update_enabled()
        if host.state == "ready":
            self.reload_cases()

    # -- cases -----------------------------------------------------------------------------
    def reload_cases(self, select: str | None = None) -> None:
        include = self.act_show_archived.isChecked()
        wanted = select or self.case_id or self.host.settings.last_case_id
        self.host.call(
            lambda e: e.list_cases(include_archived=include),
            lambda cases: self._set_cases(cases, wanted),
            name="list-cases",
        )

    def _set_cases(self, cases: list[Any], wanted: str | None) -> None:
        self._cases = list(cases)
        self.case_combo.blockSignals(True)
        self.case_combo.clear()
        index = 0
        for i, case in enumerate(self._cases):
            label = case.name + (self.tr(" (archived)") if case.archived else "")
            self.case_combo.addItem(icon("case"), label, case.id)
            if case.id == wanted:
                index = i
        self.case_combo.blockSignals(False)
        if self._cases:
            self.case_combo.setCurrentIndex(index)
            self._case_index_changed(index)
        else:
            self._select_case(None)
        self._update_enabled()

    def _case_index_changed(self, index: int) -> None:
        self.case_combo.setToolTip(self.case_combo.currentText())  # also after a blocked refill
        case_id = self.case_combo.itemData(index) if index >= 0 else None
        if case_id != self.case_id:
            self._select_case(case_id)

    def _select_case(self, case_id: str | None) -> None:
        self.case_id = case_id
        self.host.settings.last_case_id = case_id
        self.caseChanged.emit(case_id)
        self.reload_conversations()
        self._update_enabled()

    def current_case(self) -> Any:
        return next((c for c in self._cases if c.id == self.case_id), None)

    def new_case(self) -> None:
        name = dialogs.ask_text(self, self.tr("New case"), self.tr("Case name:"))
        if not name:
            return
        self.host.call(
            lambda e: e.create_case(name),
            lambda case: self.reload_cases(select=case.id),
            self._show_error,
            origin=self,
            name="create-case",
        )

    def rename_case(self) -> None:
        case = self.current_case()
        if case is None:
            return
        name = dialogs.ask_text(self, self.tr("Rename case"), self.tr("Case name:"), case.name)
        if not name or name == case.name:
            return
        self.host.call(
            lambda e: e.rename_case(case.id, name),
            lambda _r: self.reload_cases(select=case.id),
            self._show_error,
            origin=self,
            name="rename-case",
        )

    def archive_case(self) -> None:
        case = self.current_case()
        if case is None:
            return
        archived = not case.archived
        if archived and not dialogs.confirm(
            self,
            self.tr("Archive case"),
            self.tr(
                "Archive “%1”? Its notes and conversations are kept; it is hidden from the list."
            ).replace("%1", case.name),
        ):
            return
        self.host.call(
            lambda e: e.archive_case(case.id, archived),
            lambda _r: self.reload_cases(select=None if archived else case.id),
            self._show_error,
            origin=self,
            name="archive-case",
        )

    def delete_case(self) -> None:
        """Delete the case with everything in it, after a confirmation that names what goes
        (counted by the engine first)."""
        case = self.current_case()
        if case is None:
            return
        self.host.call(
            lambda e: e.case_contents(case.id),
            self._confirm_delete_case,
            self._show_error,
            name="case-contents",
        )

    def _confirm_delete_case(self, contents: Any) -> None:
        case = contents.case
        question = (
            self.tr(
                "Delete “%1” for good?\n\n"
                "This erases from this computer, and from every backup (%2):\n"
                "• %3 memories, with their history and links\n"
                "• %4 conversations with %5 messages\n"
                "• %6 memory tasks still waiting\n\n"
                "It cannot be undone. To keep the case but hide it, archive it instead."
            )
            .replace("%1", case.name)
            .replace("%2", str(contents.backups))
            .replace("%3", str(contents.notes))
            .replace("%4", str(contents.conversations))
            .replace("%5", str(contents.messages))
            .replace("%6", str(contents.jobs))
        )
        if not dialogs.confirm(self, self.tr("Delete case"), question, danger=True):
            return
        self.host.call(
            lambda e: e.delete_case(case.id),
            self._case_deleted,
            self._show_error,
            origin=self,
            name="delete-case",
        )

    def _case_deleted(self, report: Any) -> None:
        self.reload_cases(select=None)
        if report.complete:
            return
        places = [p.name for p in report.still_holding] + list(report.live_places)
        dialogs.inform(
            self,
            self.tr("Delete case"),
            self.tr("The case is deleted, but some of its text still appears in:\n%1").replace(
                "%1", "\n".join(f"• {p}" for p in places)
            ),
        )

    # -- conversations ---------------------------------------------------------------------
    def reload_conversations(self, select: str | None = None) -> None:
        case_id = self.case_id
        if select:
            self._pending_select_conv = select
        if case_id is None:
            self._set_conversations(None, [])
            return
        query = self.search.text().strip()
        self.host.call(
            lambda e: e.list_conversations(case_id, query=query),
            lambda convs: self._set_conversations(case_id, convs),
            name="list-conversations",
        )

    def _engine_state(self, state: str) -> None:
        if state == "ready":  # opened, or reopened after a restore: everything may differ
            self.reload_cases()

    def _operation_executed(self, changes: Any, origin: object) -> None:
        if origin is self:
            return  # our own operations reload (and select) in their callbacks
        if changes.cases:
            self.reload_cases()
        elif self.case_id in changes.conversations:
            self.reload_conversations()

    def _set_conversations(self, case_id: str | None, convs: list[Any]) -> None:
        if case_id != self.case_id:
            return  # the user moved to another case meanwhile
        current = self.current_conversation()
        wanted = self._pending_select_conv or (current.id if current else None)
        self._pending_select_conv = None
        convs = sorted(convs, key=lambda c: c.updated_at, reverse=True)
        self.conv_list.selectionModel().blockSignals(True)
        self.conv_model.clear()
        for conv in convs:
            item = QStandardItem(icon("chat"), conv.title or self.tr("New chat"))
            item.setData(conv.id, ID_ROLE)
            item.setData(conv, OBJ_ROLE)
            item.setToolTip(plain_tooltip(conv.title))
            self.conv_model.appendRow(item)
        self.conv_list.selectionModel().blockSignals(False)
        row = next((i for i, c in enumerate(convs) if c.id == wanted), 0 if convs else -1)
        if row >= 0:
            index = self.conv_proxy.mapFromSource(self.conv_model.index(row, 0))
            self.conv_list.setCurrentIndex(index)
        new = self.current_conversation()
        if (new.id if new else None) != (current.id if current else None) or new is not current:
            self.conversationChanged.emit(new)
        self._update_enabled()

    def _conv_current_changed(self, *_args: object) -> None:
        self.conversationChanged.emit(self.current_conversation())

    def current_conversation(self) -> Any:
        index = self.conv_list.currentIndex()
        return index.data(OBJ_ROLE) if index.isValid() else None

    def new_conversation(self) -> None:
        case_id = self.case_id
        if case_id is None:
            return
        title = self.tr("New chat")
        self.host.call(
            lambda e: e.create_conversation(case_id, title),
            lambda conv: self.reload_conversations(select=conv.id),
            self._show_error,
            origin=self,
            name="create-conversation",
        )

    def rename_conversation(self) -> None:
        conv = self.current_conversation()
        if conv is None:
            return
        title = dialogs.ask_text(
            self, self.tr("Rename conversation"), self.tr("Title:"), conv.title
        )
        if not title:
            return
        self.host.call(
            lambda e: e.rename_conversation(conv.id, title),
            lambda _r: self.reload_conversations(select=conv.id),
            self._show_error,
            origin=self,
            name="rename-conversation",
        )

    def delete_conversation(self) -> None:
        conv = self.current_conversation()
        if conv is None:
            return
        if not dialogs.confirm(
            self,
            self.tr("Delete conversation"),
            self.tr("Delete “%1” and all its messages? Memories learned from it are kept.").replace(
                "%1", conv.title
            ),
            danger=True,
        ):
            return
        self.host.call(
            lambda e: e.delete_conversation(conv.id),
            lambda _r: self.reload_conversations(),
            self._show_error,
            origin=self,
            name="delete-conversation",
        )

    def _conv_menu(self, pos: Any) -> None:
        if not self.conv_list.indexAt(pos).isValid():
            return
        menu = QMenu(self)
        menu.addAction(self.act_rename_conv)
        menu.addAction(self.act_delete_conv)
        menu.exec(self.conv_list.viewport().mapToGlobal(pos))

    # -- misc ------------------------------------------------------------------------------
    def _update_enabled(self) -> None:
        ready = self.host.engine is not None
        has_case = self.case_id is not None
        self.case_combo.setEnabled(ready and bool(self._cases))
        self.act_new_case.setEnabled(ready)
        self.act_rename_case.setEnabled(ready and has_case)
        self.act_archive_case.setEnabled(ready and has_case)
        self.act_delete_case.setEnabled(ready and has_case)
        self.new_chat_button.setEnabled(ready and has_case)
        self.empty_label.setVisible(self.conv_model.rowCount() == 0)
        case = self.current_case()
        if case is not None:
            self.act_archive_case.setText(
                self.tr("Unarchive case") if case.archived else self.tr("Archive case")
            )

    def _show_error(self, exc: BaseException) -> None:
        dialogs.error(self, self.tr("LexMem"), texts.error_text(exc))
