"""Readers of case documents: a file in, its text out, page by page (no Qt, no storage).

Each reader is a small module imported only when an import runs (pypdfium2, python-docx
and the OCR load in seconds and weigh tens of megabytes):

    text_reader.py    TXT / Markdown (utf-8, utf-8 with BOM, gb18030)
    pdf_reader.py     PDF text layer per page, with character boxes (pypdfium2); pages
                      without a text layer go to the OCR
    docx_reader.py    Word: paragraphs and tables in document order (python-docx)
    ocr.py            scans and images (RapidOCR, models shipped inside its wheel)

They raise DocumentImportError with a reason (empty, encrypted, corrupt, unsupported,
no_text, cancelled) and never put the file's text in a message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from desktop_app.core.errors import DocumentImportError

Box = tuple[float, float, float, float]
#: (done, total, phase): phases "read", "ocr", "embed", "index"
PhaseProgress = Callable[[int, int, str], None]
Cancel = Callable[[], bool]

KIND_BY_SUFFIX = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".png": "image",
    ".jpg": "image",
    ".jpeg": "image",
    ".txt": "text",
    ".md": "text",
    ".markdown": "text",
}
#: a file above this size is refused before it is read (a 500-page scan is ~100 MB)
MAX_FILE_BYTES = 512 * 1024 * 1024


@dataclass(slots=True)
class Block:
    """A run of text on a page (a line of the text layer, an OCR line, a paragraph), with
    its box in PDF points from the page's top-left when known."""

    text: str
    box: Box | None = None


@dataclass(slots=True)
class PageText:
    number: int  # 1-based page, or paragraph-group number for docx/text
    blocks: list[Block] = field(default_factory=list)


@dataclass(slots=True)
class ReadResult:
    kind: str
    pages: list[PageText]
    page_count: int  # pages of the file (pdf/image), groups for docx/text
    ocr: bool = False  # some text came from OCR


def kind_of(path: Path) -> str:
    kind = KIND_BY_SUFFIX.get(path.suffix.lower())
    if kind is None:
        raise DocumentImportError("unsupported", f"unsupported file type {path.suffix!r}")
    return kind


def check_cancel(cancel: Cancel | None) -> None:
    if cancel is not None and cancel():
        raise DocumentImportError("cancelled", "import cancelled")


def read_document(
    path: Path,
    *,
    progress: PhaseProgress | None = None,
    cancel: Cancel | None = None,
) -> ReadResult:
    """Read ``path`` by its kind (suffix).  Cancel is honoured between pages."""
    kind = kind_of(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DocumentImportError("corrupt", f"cannot read the file: {type(exc).__name__}") from exc
    if size == 0:
        raise DocumentImportError("empty", "0-byte file")
    if size > MAX_FILE_BYTES:
        raise DocumentImportError("too_large", f"{size} bytes")
    if kind == "text":
        from desktop_app.memory.readers.text_reader import read_text

        result = read_text(path)
    elif kind == "docx":
        from desktop_app.memory.readers.docx_reader import read_docx

        result = read_docx(path, cancel)
    elif kind == "pdf":
        from desktop_app.memory.readers.pdf_reader import read_pdf

        result = read_pdf(path, progress, cancel)
    else:
        from desktop_app.memory.readers.ocr import read_image

        result = read_image(path, progress, cancel)
    if progress is not None and kind in ("text", "docx"):
        progress(result.page_count, result.page_count, "read")
    if not any(b.text.strip() for page in result.pages for b in page.blocks):
        reason = "no_text" if kind in ("image", "pdf") else "empty"
        raise DocumentImportError(reason, f"no text found in the {kind} file")
    return result
