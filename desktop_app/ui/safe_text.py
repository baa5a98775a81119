"""Untrusted text on screen: model output, note text, titles and error messages are shown as
text — never interpreted as HTML — and a link in them opens only a web address, only after
the user has seen where it goes.

Qt guesses "rich text" (``Qt.AutoText``) for any string that starts like a tag: a ``<b>`` in a
note made a confirmation bold, and an ``<img src=file:///…>`` would load a local file.  Every
label, message box and tooltip that can show such text goes through this module.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

#: the only schemes a link in untrusted text may open (file:, javascript:, data: never)
WEB_SCHEMES = frozenset({"http", "https"})


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A QLabel that shows ``text`` as written."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    return label


def make_plain(widget: QLabel | QMessageBox) -> None:
    widget.setTextFormat(Qt.TextFormat.PlainText)


def plain_tooltip(text: str) -> str:
    """A tooltip that shows ``text`` as written (tooltips have no text format of their own)."""
    # escaped inside a paragraph: Qt then renders it as (rich) text that shows the tags
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>" if text else ""


def is_web_link(url: QUrl) -> bool:
    return url.isValid() and url.scheme().lower() in WEB_SCHEMES and bool(url.host())


def open_link(parent: QWidget | None, url: QUrl, confirm) -> bool:
    """Open ``url`` in the browser if it is a web address and the user agrees after seeing
    it (``confirm(parent, title, text) -> bool``).  Anything else opens nothing.  Returns
    whether it was opened."""
    if not is_web_link(url):
        return False
    address = url.toString(QUrl.ComponentFormattingOption.FullyEncoded)
    question = QCoreApplication.translate(
        "Links", "Open this address in your web browser?\n\n%1"
    ).replace("%1", address)
    title = QCoreApplication.translate("Links", "Open link")
    if not confirm(parent, title, question):
        return False
    return bool(QDesktopServices.openUrl(url))
