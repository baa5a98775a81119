"""How the documents UI words things: kinds, extraction states, import progress, why an import
failed (per DocumentImportError reason, never the file's text nor Python's message), and a
passage's citation ("起诉状.pdf 第3页" / "complaint.pdf p. 3")."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from desktop_app.chat.citations import cite
from desktop_app.core.errors import DocumentImportError
from desktop_app.ui import i18n, texts

log = logging.getLogger(__name__)

# mirrors desktop_app.memory.readers.KIND_BY_SUFFIX without importing the memory package at
# start-up (a test keeps the two equal)
SUFFIX_KINDS: dict[str, str] = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".png": "image",
    ".jpg": "image",
    ".jpeg": "image",
    ".txt": "text",
    ".md": "text",
    ".markdown": "text",
}


def is_supported(path: Path) -> bool:
    return path.suffix.lower() in SUFFIX_KINDS


def file_filters() -> str:
    """The Import dialog's filters: every supported type first, then each kind."""
    every = " ".join(f"*{s}" for s in SUFFIX_KINDS)
    return ";;".join(
        (
            QCoreApplication.translate("Documents", "Case documents (%1)").replace("%1", every),
            QCoreApplication.translate("Documents", "PDF (*.pdf)"),
            QCoreApplication.translate("Documents", "Word (*.docx)"),
            QCoreApplication.translate("Documents", "Images (*.png *.jpg *.jpeg)"),
            QCoreApplication.translate("Documents", "Text and Markdown (*.txt *.md *.markdown)"),
        )
    )


def kind_label(kind: str, ocr: bool = False) -> str:
    label = {
        "pdf": QCoreApplication.translate("Documents", "PDF"),
        "docx": QCoreApplication.translate("Documents", "Word"),
        "image": QCoreApplication.translate("Documents", "Image"),
        "text": QCoreApplication.translate("Documents", "Text"),
    }.get(kind, kind)
    return (
        QCoreApplication.translate("Documents", "%1 (OCR)").replace("%1", label) if ocr else label
    )


def extraction_label(state: str) -> str:
    return {
        "none": "—",
        "waiting": QCoreApplication.translate("Documents", "Waiting for a model"),
        "running": QCoreApplication.translate("Documents", "Extracting…"),
        "done": QCoreApplication.translate("Documents", "Done"),
        "failed": QCoreApplication.translate("Documents", "Failed"),
    }.get(state, state)


def extraction_tip(state: str) -> str:
    return {
        "none": QCoreApplication.translate(
            "Documents", "No knowledge extraction was asked for this document."
        ),
        "waiting": QCoreApplication.translate(
            "Documents",
            "The facts in this document will be extracted as memories once a model is configured. "
            "Its passages are searchable already.",
        ),
        "running": QCoreApplication.translate(
            "Documents", "A model is reading this document for facts, evidence and dates."
        ),
        "done": QCoreApplication.translate(
            "Documents", "The facts found in this document are memories now."
        ),
        "failed": QCoreApplication.translate(
            "Documents", "Knowledge extraction failed; its passages are still searchable."
        ),
    }.get(state, "")


def phase_label(phase: str) -> str:
    return {
        "read": QCoreApplication.translate("Documents", "Reading"),
        "ocr": QCoreApplication.translate("Documents", "Recognising text (OCR)"),
        "embed": QCoreApplication.translate("Documents", "Embedding"),
        "index": QCoreApplication.translate("Documents", "Indexing"),
    }.get(phase, phase)


def progress_text(name: str, done: int, total: int, phase: str) -> str:
    if total > 0:
        return (
            QCoreApplication.translate("Documents", "%1 · %2 %3 of %4")
            .replace("%1", name)
            .replace("%2", phase_label(phase))
            .replace("%3", str(done))
            .replace("%4", str(total))
        )
    return (
        QCoreApplication.translate("Documents", "%1 · %2…")
        .replace("%1", name)
        .replace("%2", phase_label(phase))
    )


def import_error_text(exc: BaseException, name: str) -> str:
    """Why ``name`` was not imported, in the interface language.  Only our own wording and
    the file's name: never the file's text, never Python's exception text."""
    if isinstance(exc, DocumentImportError):
        kept = QCoreApplication.translate("Documents", "Nothing of it was kept.")
        reason = {
            "empty": QCoreApplication.translate(
                "Documents", "%1 is empty: there is no text in it to import."
            ),
            "encrypted": QCoreApplication.translate(
                "Documents",
                "%1 is protected by a password. Open it, save or print a copy without the "
                "password, and import that.",
            ),
            "corrupt": QCoreApplication.translate(
                "Documents",
                "%1 is damaged or not the kind of file its name says, and cannot be read.",
            ),
            "unsupported": QCoreApplication.translate(
                "Documents",
                "%1 is not a type LexMem can import. Supported: PDF, Word (.docx), images "
                "(PNG, JPG), text and Markdown.",
            ),
            "too_large": QCoreApplication.translate("Documents", "%1 is too large to import."),
            "cancelled": QCoreApplication.translate("Documents", "The import of %1 was cancelled."),
            "ocr_unavailable": QCoreApplication.translate(
                "Documents",
                "%1 needs text recognition (OCR), which is missing from this installation. "
                "Reinstall LexMem, or import a PDF with a text layer.",
            ),
            "no_text": QCoreApplication.translate(
                "Documents",
                "No readable text was found in %1 (a blank image or an unreadable scan).",
            ),
        }.get(exc.reason, QCoreApplication.translate("Documents", "%1 could not be imported."))
        return f"{reason.replace('%1', name)} {kept}"
    message = getattr(exc, "user_message", None)
    if message:  # our own exception tree: worded for users, in both languages
        failed = QCoreApplication.translate("Documents", "%1 could not be imported.")
        return f"{failed.replace('%1', name)} {texts.in_ui_language(message)}"
    log.warning("document import failed: %s", type(exc).__name__)
    return QCoreApplication.translate("Documents", "%1 could not be imported.").replace("%1", name)


def is_cancel(exc: BaseException) -> bool:
    return isinstance(exc, DocumentImportError) and exc.reason == "cancelled"


def citation_text(document_name: str, kind: str, page: int) -> str:
    """The citation the model was asked to use, in the interface language."""
    return cite(document_name, kind, page, i18n.current())
