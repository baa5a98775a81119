"""Small modal questions (name, confirm, message, file) behind functions tests can replace.

Every message box shows its text as plain text: it quotes notes, titles and errors, which
are untrusted (a ``<b>`` or an ``<img src=file:…>`` in a note is shown, never rendered)."""

from __future__ import annotations

from PySide6.QtCore import Qt
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


def ask_text(parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
    value, ok = QInputDialog.getText(parent, title, label, QLineEdit.EchoMode.Normal, text)
    value = value.strip()
    return value if ok and value else None


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
