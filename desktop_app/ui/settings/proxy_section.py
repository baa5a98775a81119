"""The connection part of the Model page: the proxy choice and what the lawyer must know.

The choice is :mod:`desktop_app.llm.proxy`'s policy (no proxy / system proxy / this proxy),
worded there in both languages. A custom proxy's password goes to the keyring, never into
the settings file (the URL is kept without it). Beside the choice a warning says when the
API key would travel over plain http to a host that is not on this computer or the LAN.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QLineEdit, QWidget

from desktop_app.core.errors import ProxyConfigError
from desktop_app.core.settings import Settings
from desktop_app.ui import texts


class ProxySection:
    """The proxy rows of a form; ``values`` and ``check`` for the dialog's Save."""

    def __init__(self, form: QFormLayout, parent: QWidget) -> None:
        from desktop_app.llm.proxy import PROXY_CHOICES

        self._choices = {c.mode: c for c in PROXY_CHOICES}
        self._form = form
        self.mode = QComboBox(parent)
        for choice in PROXY_CHOICES:
            self.mode.addItem(texts.one_language(choice.label_zh, choice.label_en), choice.mode)
        self.mode.currentIndexChanged.connect(self._mode_changed)
        form.addRow(QCoreApplication.translate("ProxySection", "Proxy"), self.mode)
        self.help = QLabel(parent)
        self.help.setObjectName("Muted")
        self.help.setWordWrap(True)
        form.addRow("", self.help)
        self.url = QLineEdit(parent)
        self.url.setPlaceholderText("http://user@proxy.example.com:8080")
        form.addRow(QCoreApplication.translate("ProxySection", "Proxy address"), self.url)
        self.password = QLineEdit(parent)
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText(QCoreApplication.translate("ProxySection", "Only if the proxy asks for one (kept in the keyring)"))
        form.addRow(QCoreApplication.translate("ProxySection", "Proxy password"), self.password)
        #: the key over plain http to a host that is not local: said before it happens
        self.warning = QLabel(parent)
        self.warning.setObjectName("Warning")
        self.warning.setWordWrap(True)
        form.addRow("", self.warning)
        form.setRowVisible(self.warning, False)

    # -- values ----------------------------------------------------------------------------
    def load(self, settings: Settings) -> None:
        self.mode.setCurrentIndex(max(self.mode.findData(settings.proxy_mode), 0))
        self.url.setText(settings.proxy_url)
        self.password.clear()
        self._mode_changed()

    def chosen_mode(self) -> str:
        return self.mode.currentData() or "none"

    def proxy_url(self) -> str:
        """The typed address without a password (Settings drops it too)."""
        return self.url.text().strip()

    def typed_password(self) -> str | None:
        """The password typed in its field, or written into the address (moved to the keyring)."""
        typed = self.password.text()
        if typed:
            return typed
        try:
            inline = urlsplit(self.proxy_url()).password
        except ValueError:
            return None
        return unquote(inline) if inline else None

    def check(self) -> str | None:
        """Why the chosen proxy cannot work (in the UI language), or None."""
        if self.chosen_mode() != "custom":
            return None
        from desktop_app.llm.proxy import ProxyPolicy, resolve_proxy

        try:
            # a remote endpoint: local ones never use the proxy, so would not check it
            resolve_proxy(ProxyPolicy("custom", self.proxy_url()), "https://example.com/v1")
        except (ProxyConfigError, ValueError) as exc:
            message = getattr(exc, "user_message", None) or str(exc)
            return texts.in_ui_language(message)
        return None

    def update_warning(self, base_url: str, sends_key: bool) -> None:
        """Show the plain-http warning for ``base_url`` (when a key would be sent)."""
        from desktop_app.llm.proxy import connection_warnings

        warnings = connection_warnings(base_url, "key" if sends_key else None)
        self.warning.setText("\n".join(texts.in_ui_language(w.user_message) for w in warnings))
        self._form.setRowVisible(self.warning, bool(warnings))

    def _mode_changed(self) -> None:
        mode = self.chosen_mode()
        choice = self._choices.get(mode)
        self.help.setText(texts.one_language(choice.help_zh, choice.help_en) if choice else "")
        custom = mode == "custom"
        for field in (self.url, self.password):
            self._form.setRowVisible(field, custom)
