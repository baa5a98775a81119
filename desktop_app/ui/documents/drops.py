"""Files dropped on the window: which can be imported, and why the others cannot."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QMimeData

from desktop_app.ui.documents.wording import is_supported


def local_paths(mime: QMimeData) -> list[Path]:
    """The local files and folders a drag carries (web addresses are not files)."""
    if not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]


@dataclass(slots=True)
class SortedDrop:
    files: list[Path] = field(default_factory=list)
    folders: list[Path] = field(default_factory=list)
    unsupported: list[Path] = field(default_factory=list)

    def refusal(self) -> str:
        """Why some of the drop is not imported ("" when all of it is)."""
        parts = []
        if self.folders:
            parts.append(
                QCoreApplication.translate(
                    "Documents", "Folders are not imported; drop the files themselves: %1"
                ).replace("%1", ", ".join(p.name or str(p) for p in self.folders))
            )
        if self.unsupported:
            parts.append(
                QCoreApplication.translate(
                    "Documents",
                    "Not a type LexMem can import (PDF, Word .docx, PNG/JPG images, text, Markdown): %1",
                ).replace("%1", ", ".join(p.name for p in self.unsupported))
            )
        return "\n\n".join(parts)


def sort_drop(paths: Sequence[Path]) -> SortedDrop:
    out = SortedDrop()
    for path in paths:
        if path.is_dir():
            out.folders.append(path)
        elif path.is_file() and is_supported(path):
            out.files.append(path)
        else:  # an unknown kind, or something that is not a regular file
            out.unsupported.append(path)
    return out
