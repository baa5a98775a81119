"""Settings: provider and models, API key (keyring only), proxy choice, memory parameters,
language, theme, data folder, backup and restore."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop_app.core.paths import backups_dir
from desktop_app.core.settings import Settings, setup_problems
from desktop_app.ui import dialogs, i18n, llm_setup, restart, texts, theme
from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.icons import icon
from desktop_app.ui.settings.proxy_section import ProxySection
from desktop_app.ui.workers import Op, run_op

log = logging.getLogger(__name__)


class SettingsDialog(QDialog):
    applied = Signal(object)  # the new Settings

    def __init__(self, host: EngineHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.setWindowTitle(self.tr("Settings"))
        self.resize(640, 660)  # the Model page holds the proxy rows and their warning
        self._original = host.settings
        self._ops: list[Op] = []
        lay = QVBoxLayout(self)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._model_page(), icon("chat"), self.tr("Model"))
        self.tabs.addTab(self._memory_page(), icon("memory"), self.tr("Memory"))
        self.tabs.addTab(self._look_page(), icon("settings"), self.tr("Appearance"))
        self.tabs.addTab(self._data_page(), icon("folder"), self.tr("Data"))
        lay.addWidget(self.tabs, 1)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setText(self.tr("Save"))
        self.save_button.setProperty("role", "primary")
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self._load(host.settings)

    # -- pages -----------------------------------------------------------------------------
    def _model_page(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.provider = QComboBox()
        try:
            from desktop_app.llm.presets import PRESETS

            for p in PRESETS.values():
                self.provider.addItem(texts.one_language(p.name_zh, p.name_en), p.id)
        except ImportError:
            self.provider.addItem("Custom", "custom")
        self.provider.currentIndexChanged.connect(self._provider_changed)
        form.addRow(self.tr("Provider"), self.provider)
        self.base_url = QLineEdit()
        self.base_url.setPlaceholderText("https://…/v1")
        form.addRow(self.tr("Base URL"), self.base_url)
        self.base_url.textChanged.connect(self._update_connection_warning)

        key_row = QHBoxLayout()
        self.api_key = QLineEdit()
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setClearButtonEnabled(True)
        key_row.addWidget(self.api_key, 1)
        self.show_key = QPushButton(self.tr("Show"))
        self.show_key.setCheckable(True)
        self.show_key.toggled.connect(
            lambda on: self.api_key.setEchoMode(
                QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password
            )
        )
        key_row.addWidget(self.show_key)
        form.addRow(self.tr("API key"), key_row)
        self.key_note = QLabel()
        self.key_note.setObjectName("Muted")
        self.key_note.setWordWrap(True)
        form.addRow("", self.key_note)

        self.chat_model = QComboBox()
        self.chat_model.setEditable(True)
        form.addRow(self.tr("Chat model"), self.chat_model)
        self.memory_model = QComboBox()
        self.memory_model.setEditable(True)
        self.memory_model.setToolTip(
            self.tr("Used for note construction and extraction; may be a cheaper model")
        )
        form.addRow(self.tr("Memory model"), self.memory_model)
        # before Test connection: the test goes through the chosen proxy
        self.proxy = ProxySection(form, page)
        self.api_key.textChanged.connect(self._update_connection_warning)

        test_row = QHBoxLayout()
        self.test_button = QPushButton(icon("refresh"), self.tr("Test connection"))
        self.test_button.setToolTip(self.tr("Connect to the endpoint and list its models"))
        self.test_button.clicked.connect(self.test_connection)
        test_row.addWidget(self.test_button)
        self.test_result = QLabel()
        self.test_result.setTextFormat(Qt.TextFormat.PlainText)  # untrusted text
        self.test_result.setWordWrap(True)
        test_row.addWidget(self.test_result, 1)
        form.addRow("", test_row)
        privacy = QLabel(
            self.tr(
                "Only the chat and memory requests go to this endpoint. Local providers keep everything on this computer."
            )
        )
        privacy.setObjectName("Muted")
        privacy.setWordWrap(True)
        form.addRow("", privacy)
        return page

    def _memory_page(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.recall_threshold = QDoubleSpinBox()
        self.recall_threshold.setRange(0.0, 1.0)
        self.recall_threshold.setSingleStep(0.05)
        self.recall_threshold.setDecimals(2)
        self.recall_threshold.setToolTip(
            self.tr("How similar a memory must be to the question to be used (0–1)")
        )
        form.addRow(self.tr("Similarity threshold"), self.recall_threshold)
        self.max_memories = QSpinBox()
        self.max_memories.setRange(0, 50)
        self.max_memories.setToolTip(
            self.tr("At most this many memories are given to the model per reply")
        )
        form.addRow(self.tr("Memories per reply"), self.max_memories)
        self.recency_weight = QDoubleSpinBox()
        self.recency_weight.setRange(0.0, 1.0)
        self.recency_weight.setSingleStep(0.05)
        self.recency_weight.setDecimals(2)
        self.recency_weight.setToolTip(
            self.tr("How much newer memories are preferred (0 = not at all)")
        )
        form.addRow(self.tr("Recency weight"), self.recency_weight)
        self.maintenance_enabled = QCheckBox(self.tr("Check the memory periodically"))
        self.maintenance_enabled.setToolTip(
            self.tr("Proposes clean-ups in the background; nothing changes until you accept")
        )
        form.addRow(self.tr("Memory check-up"), self.maintenance_enabled)
        self.maintenance_period = QSpinBox()
        self.maintenance_period.setRange(1, 365)
        self.maintenance_period.setSuffix(self.tr(" days"))
        form.addRow(self.tr("Check every"), self.maintenance_period)
        self.maintenance_stale = QSpinBox()
        self.maintenance_stale.setRange(7, 3650)
        self.maintenance_stale.setSuffix(self.tr(" days"))
        self.maintenance_stale.setToolTip(
            self.tr("Propose archiving memories not recalled for this long and linked to nothing")
        )
        form.addRow(self.tr("Stale after"), self.maintenance_stale)
        self.maintenance_threshold = QDoubleSpinBox()
        self.maintenance_threshold.setRange(0.5, 0.999)
        self.maintenance_threshold.setSingleStep(0.01)
        self.maintenance_threshold.setDecimals(3)
        self.maintenance_threshold.setToolTip(
            self.tr(
                "How similar two memories must be to be proposed as duplicates (0.91 calibrated)"
            )
        )
        form.addRow(self.tr("Duplicate similarity"), self.maintenance_threshold)
        return page

    def _look_page(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.language = QComboBox()
        # each language named in itself, so a reader of either finds theirs
        self.language.setObjectName("LanguageChoice")
        self.language.addItem(self.tr("System default"), "")
        self.language.addItem("中文", "zh_CN")
        self.language.addItem("English", "en")
        form.addRow(self.tr("Language"), self.language)
        self.lang_note = QLabel(self.tr("A new language applies after a restart (LexMem offers it)."))
        self.lang_note.setObjectName("Muted")
        form.addRow("", self.lang_note)
        self.theme = QComboBox()
        self.theme.addItem(self.tr("System"), "system")
        self.theme.addItem(self.tr("Light"), "light")
        self.theme.addItem(self.tr("Dark"), "dark")
        form.addRow(self.tr("Theme"), self.theme)
        return page

    def _data_page(self) -> QWidget:
        page = QWidget()
        lay = QVBoxLayout(page)
        folder = QLabel(self.tr("Data folder:"))
        lay.addWidget(folder)
        path = QLineEdit(str(self.host.data_dir))
        path.setReadOnly(True)
        lay.addWidget(path)
        row = QHBoxLayout()
        open_button = QPushButton(icon("folder"), self.tr("Open data folder"))
        open_button.clicked.connect(
            lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.host.data_dir)))
        )
        row.addWidget(open_button)
        row.addStretch(1)
        lay.addLayout(row)
        lay.addSpacing(12)
        note = QLabel(
            self.tr(
                "A backup is a consistent copy of the database. Restoring replaces all current memories and conversations (a safety copy is kept in the backups folder)."
            )
        )
        note.setWordWrap(True)
        note.setObjectName("Muted")
        lay.addWidget(note)
        row2 = QHBoxLayout()
        self.backup_button = QPushButton(icon("export"), self.tr("Back up now…"))
        self.backup_button.clicked.connect(self.backup)
        self.restore_button = QPushButton(icon("import"), self.tr("Restore from backup…"))
        self.restore_button.clicked.connect(self.restore)
        row2.addWidget(self.backup_button)
        row2.addWidget(self.restore_button)
        row2.addStretch(1)
        lay.addLayout(row2)
        self.data_result = QLabel()
        self.data_result.setTextFormat(Qt.TextFormat.PlainText)  # untrusted text
        self.data_result.setWordWrap(True)
        lay.addWidget(self.data_result)
        lay.addStretch(1)
        # the version, the components and their licences (also F1 in the main window)
        self.about_button = QPushButton(self.tr("About LexMem…"))
        self.about_button.clicked.connect(self.show_about)
        about_row = QHBoxLayout()
        about_row.addWidget(self.about_button)
        about_row.addStretch(1)
        lay.addLayout(about_row)
        return page

    def show_about(self) -> None:
        from desktop_app.ui.about import AboutDialog

        AboutDialog(self, self.host.data_dir).exec()

    # -- values ----------------------------------------------------------------------------
    def _load(self, s: Settings) -> None:
        i = self.provider.findData(s.provider)
        self.provider.blockSignals(True)
        self.provider.setCurrentIndex(max(i, 0))
        self.provider.blockSignals(False)
        self.base_url.setText(s.base_url)
        self._set_models([], s.chat_model, s.memory_model)
        self.recall_threshold.setValue(s.recall_threshold)
        self.max_memories.setValue(s.max_memories)
        self.recency_weight.setValue(s.recency_weight)
        self.maintenance_enabled.setChecked(s.maintenance_enabled)
        self.maintenance_period.setValue(s.maintenance_period_days)
        self.maintenance_stale.setValue(s.maintenance_stale_days)
        self.maintenance_threshold.setValue(s.maintenance_duplicate_threshold)
        self.language.setCurrentIndex(max(self.language.findData(s.language), 0))
        self.theme.setCurrentIndex(max(self.theme.findData(s.theme), 0))
        self.proxy.load(s)
        self._update_key_note()
        self._update_connection_warning()

    def values(self) -> Settings:
        return replace(
            self.host.settings,
            provider=self.provider.currentData() or "custom",
            base_url=self.base_url.text().strip(),
            chat_model=self.chat_model.currentText().strip(),
            memory_model=self.memory_model.currentText().strip(),
            recall_threshold=self.recall_threshold.value(),
            max_memories=self.max_memories.value(),
            recency_weight=self.recency_weight.value(),
            maintenance_enabled=self.maintenance_enabled.isChecked(),
            maintenance_period_days=self.maintenance_period.value(),
            maintenance_stale_days=self.maintenance_stale.value(),
            maintenance_duplicate_threshold=self.maintenance_threshold.value(),
            language=self.language.currentData(),
            theme=self.theme.currentData(),
            proxy_mode=self.proxy.chosen_mode(),
            proxy_url=self.proxy.proxy_url(),
        ).validated()

    def _update_connection_warning(self) -> None:
        self.proxy.update_warning(
            self.base_url.text().strip(), self._needs_key() or bool(self.api_key.text().strip())
        )

    def _provider_changed(self) -> None:
        try:
            from desktop_app.llm.presets import get_preset
        except ImportError:
            return
        p = get_preset(self.provider.currentData())
        self.base_url.setText(p.base_url)
        self._set_models([], p.chat_model, p.memory_model or p.chat_model)
        self.api_key.clear()
        self.test_result.clear()
        self._update_key_note()

    def _set_models(self, models: list[str], chat: str, memory: str) -> None:
        for combo, current in ((self.chat_model, chat), (self.memory_model, memory)):
            combo.clear()
            combo.addItems(models)
            combo.setCurrentText(current or (models[0] if models else ""))

    def _needs_key(self) -> bool:
        try:
            from desktop_app.llm.presets import get_preset
        except ImportError:
            return True
        return get_preset(self.provider.currentData()).needs_key

    def _update_key_note(self) -> None:
        """Label the key field; the keyring is asked in a worker (D-Bus or the Windows
        credential store can take a while, never on the UI thread)."""
        s = self.values()
        needs_key = self._needs_key()

        def work() -> tuple[bool, bool]:
            try:
                stored = bool(llm_setup.load_key(s))
            except Exception:
                stored = False
            try:
                persistent = bool(llm_setup.secret_store().is_persistent)
            except Exception:
                persistent = False
            return stored, persistent

        def show(result: tuple[bool, bool]) -> None:
            stored, persistent = result
            if not needs_key:
                self.api_key.setPlaceholderText(self.tr("Not needed for this provider"))
            elif stored:
                self.api_key.setPlaceholderText(
                    self.tr("•••••••• saved in the system keyring — type to replace")
                )
            else:
                self.api_key.setPlaceholderText(self.tr("Paste your API key"))
            self.key_note.setText(
                self.tr("The key is stored only in the system keyring, never in a file.")
                if persistent
                else self.tr(
                    "No system keyring is available: the key is kept for this session only."
                )
            )

        self._ops.append(run_op(work, on_success=show, name="key-note"))

    # -- actions ---------------------------------------------------------------------------
    def test_connection(self) -> None:
        s = self.values()
        if "base_url_malformed" in setup_problems(s):
            self._show_setup_problems(["base_url_malformed"])  # not "cannot reach": it was never tried
            return
        typed = self.api_key.text().strip()
        proxy_password = self.proxy.typed_password()
        self.test_button.setEnabled(False)
        self.test_result.setText(self.tr("Connecting…"))

        def work() -> list[str]:
            # the stored key is read here, in the worker: the keyring may be slow
            client = llm_setup.make_client(
                s, typed or llm_setup.load_key(s), proxy_password=proxy_password
            )
            try:
                return client.test_connection()
            finally:
                client.close()

        def ok(models: list[str]) -> None:
            self.test_result.setStyleSheet(
                f"color: {'#16a34a' if not theme.is_dark() else '#4ade80'}"
            )
            self.test_result.setText(
                self.tr("Connected. %n models available.", "", len(models))
                if models
                else self.tr("Connected.")
            )
            if models:
                self._set_models(
                    models, self.chat_model.currentText(), self.memory_model.currentText()
                )

        def failed(exc: BaseException) -> None:
            self.test_result.setStyleSheet(f"color: {theme.tokens()['danger']}")
            self.test_result.setText(texts.error_text(exc))

        self._ops.append(
            run_op(
                work,
                on_success=ok,
                on_failure=failed,
                on_finally=lambda: self.test_button.setEnabled(True),
                name="test-connection",
            )
        )

    def _problem_text(self, kind: str) -> str:
        return {
            "base_url_malformed": self.tr("The address is not well-formed: it should look like https://api.example.com/v1."),
            "chat_model_empty": self.tr("Enter the name of the chat model."),
            "memory_model_empty": self.tr("Enter the name of the memory model (it may be the chat model)."),
        }.get(kind, kind)

    def _show_setup_problems(self, problems: list[str]) -> None:
        self.tabs.setCurrentIndex(0)
        self.test_result.setStyleSheet(f"color: {theme.tokens()['danger']}")
        self.test_result.setText("\n".join(self._problem_text(k) for k in problems))
        field = {
            "base_url_malformed": self.base_url,
            "chat_model_empty": self.chat_model,
            "memory_model_empty": self.memory_model,
        }[problems[0]]
        field.setFocus()

    def _model_setup_changed(self, s: Settings) -> bool:
        o = self._original
        return (s.provider, s.base_url, s.chat_model, s.memory_model) != (
            o.provider, o.base_url, o.chat_model, o.memory_model
        ) or bool(self.api_key.text().strip())

    def save(self) -> None:
        s = self.values()
        problem = self.proxy.check()
        if problem is not None:  # saved, it would only fail at the next chat
            dialogs.error(self, self.tr("Settings"), problem)
            return
        # a setup left as it was is not re-judged: changing the theme must not require a model
        problems = setup_problems(s) if self._model_setup_changed(s) else []
        if problems:
            self._show_setup_problems(problems)
            return
        typed = self.api_key.text().strip()
        proxy_password = self.proxy.typed_password() if s.proxy_mode == "custom" else None
        try:
            if typed:
                llm_setup.secret_store().set(llm_setup.key_id(s), typed)
            if proxy_password:
                llm_setup.secret_store().set(llm_setup.proxy_password_id(s.proxy_url), proxy_password)
        except Exception as exc:
            dialogs.error(self, self.tr("Settings"), texts.error_text(exc))
            return
        old = self.host.settings
        self.host.apply_settings(s)
        if s.theme != old.theme:
            app = QApplication.instance()
            if app is not None:
                theme.apply(app, s.theme)
        new_language = i18n.resolve(s.language) != i18n.current()
        self.applied.emit(s)  # saved before a restart reads it
        self.accept()
        if new_language and dialogs.ask_restart(
            self.parentWidget(),
            self.tr("Settings"),
            self.tr("The new language applies after LexMem restarts. Restart now?"),
        ):
            restart.request()

    def backup(self) -> None:
        if self.host.engine is None:
            return
        default = backups_dir(self.host.data_dir) / f"lexmem-{datetime.now():%Y%m%d-%H%M%S}.sqlite3"
        path = dialogs.save_file(
            self, self.tr("Back up"), str(default), self.tr("SQLite database (*.sqlite3)")
        )
        if not path:
            return
        self.backup_to(Path(path))

    def backup_to(self, path: Path) -> None:
        self.data_result.setText(self.tr("Backing up…"))
        self.host.call(
            lambda e: e.backup(path),
            lambda p: self.data_result.setText(
                self.tr("Backup written to %1").replace("%1", str(p))
            ),
            lambda exc: self.data_result.setText(texts.error_text(exc)),
            name="backup",
        )

    def restore(self) -> None:
        path = dialogs.open_file(
            self,
            self.tr("Restore from backup"),
            self.tr("SQLite database (*.sqlite3 *.db);;All files (*)"),
        )
        if not path:
            return
        if not dialogs.confirm(
            self,
            self.tr("Restore from backup"),
            self.tr("Replace all current memories and conversations with the backup?"),
            danger=True,
        ):
            return
        self.restore_from(Path(path))

    def restore_from(self, path: Path) -> None:
        self.data_result.setText(self.tr("Restoring…"))
        self.restore_button.setEnabled(False)

        def done(exc: BaseException | None) -> None:
            self.restore_button.setEnabled(True)
            self.data_result.setText(
                self.tr("Restored.")
                if exc is None
                else (texts.error_text(exc))
            )

        self.host.restore_from(path, done)
