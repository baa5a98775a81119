"""Small modal questions (name, confirm, message, file) behind functions tests can replace.

Every message box shows its text as plain text: it quotes notes, titles and errors, which
are untrusted (a ``<b>`` or an ``<img src=file:…>`` in a note is shown, never rendered)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox, QWidget


def message_box(
    parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str
) -> QMessageBox:
    """A message box whose text is shown as written."""
    box = QMessageBox(parent)
    box.setIcon(icon)
    box.setWindowTitle(title)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    return box


#: room a window title needs beside its text: the icon and the close / maximise buttons
TITLE_BAR_ROOM = 160


def text_dialog(parent: QWidget | None, title: str, label: str, text: str = "") -> QInputDialog:
    """A one-line question, wide enough for its title (a narrow QInputDialog cut
    "新建案件" short in the title bar) and for a long name."""
    dlg = QInputDialog(parent)
    dlg.setWindowTitle(title)
    dlg.setLabelText(label)
    dlg.setTextEchoMode(QLineEdit.EchoMode.Normal)
    dlg.setTextValue(text)
    width = max(380, dlg.fontMetrics().horizontalAdvance(title) + TITLE_BAR_ROOM)
    # on the field: the dialog's layout sets the dialog's own minimum from its children
    field = dlg.findChild(QLineEdit)
    if field is not None:
        field.setMinimumWidth(width)
    dlg.setMinimumWidth(width)
    return dlg


def ask_text(parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
    dlg = text_dialog(parent, title, label, text)
    ok = dlg.exec() == QInputDialog.DialogCode.Accepted
    value = dlg.textValue().strip()
    return value if ok and value else None


def ask_restart(parent: QWidget | None, title: str, text: str) -> bool:
    """Restart now (True) or later; the buttons name what they do."""
    box = message_box(parent, QMessageBox.Icon.Question, title, text)
    now = box.addButton(
        QCoreApplication.translate("Dialogs", "Restart now"), QMessageBox.ButtonRole.AcceptRole
    )
    later = box.addButton(
        QCoreApplication.translate("Dialogs", "Later"), QMessageBox.ButtonRole.RejectRole
    )
    box.setDefaultButton(now)
    box.setEscapeButton(later)
    box.exec()
    return box.clickedButton() is now


def confirm(parent: QWidget | None, title: str, text: str, *, danger: bool = False) -> bool:
    icon = QMessageBox.Icon.Warning if danger else QMessageBox.Icon.Question
    box = message_box(parent, icon, title, text)
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return box.exec() == QMessageBox.StandardButton.Yes


def inform(parent: QWidget | None, title: str, text: str) -> None:
    message_box(parent, QMessageBox.Icon.Information, title, text).exec()


def error(parent: QWidget | None, title: str, text: str) -> None:
    message_box(parent, QMessageBox.Icon.Warning, title, text).exec()


def open_file(parent: QWidget | None, title: str, filters: str) -> str | None:
    path, _ = QFileDialog.getOpenFileName(parent, title, "", filters)
    return path or None


def open_files(parent: QWidget | None, title: str, filters: str) -> list[str]:
    paths, _ = QFileDialog.getOpenFileNames(parent, title, "", filters)
    return list(paths)


def save_file(parent: QWidget | None, title: str, name: str, filters: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(parent, title, name, filters)
    return path or None
