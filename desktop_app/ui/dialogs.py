"""Small modal questions (name, confirm, message, file) behind functions tests can replace."""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox, QWidget


def ask_text(parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
    value, ok = QInputDialog.getText(parent, title, label, QLineEdit.EchoMode.Normal, text)
    value = value.strip()
    return value if ok and value else None


def confirm(parent: QWidget | None, title: str, text: str, *, danger: bool = False) -> bool:
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning if danger else QMessageBox.Icon.Question)
    box.setWindowTitle(title)
    box.setText(text)
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return box.exec() == QMessageBox.StandardButton.Yes


def inform(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.information(parent, title, text)


def error(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.warning(parent, title, text)


def open_file(parent: QWidget | None, title: str, filters: str) -> str | None:
    path, _ = QFileDialog.getOpenFileName(parent, title, "", filters)
    return path or None


def save_file(parent: QWidget | None, title: str, name: str, filters: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(parent, title, name, filters)
    return path or None
