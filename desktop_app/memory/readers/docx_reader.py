"""Word (.docx): paragraphs and table rows in document order (python-docx).  Embedded
images are not read (no OCR inside Word files): a contract's text is in its paragraphs,
and a picture pasted into a Word file is better imported on its own, where the viewer can
show it; the import says nothing is lost of the text."""

from __future__ import annotations

import zipfile
from pathlib import Path

from desktop_app.core.errors import DocumentImportError
from desktop_app.memory.readers import Block, Cancel, PageText, ReadResult, check_cancel
from desktop_app.memory.readers.text_reader import paragraphs


def _texts(document) -> list[str]:
    """Body paragraphs and table rows (cells joined by " | "), in document order."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    out: list[str] = []
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            out.append(item.text)
        elif isinstance(item, Table):
            for row in item.rows:
                cells = list(dict.fromkeys(c.text.strip() for c in row.cells if c.text.strip()))
                if cells:
                    out.append(" | ".join(cells))
    return out


def read_docx(path: Path, cancel: Cancel | None = None) -> ReadResult:
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    if not zipfile.is_zipfile(path):
        raise DocumentImportError("corrupt", "not a Word (.docx) file")
    try:
        document = docx.Document(str(path))
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise DocumentImportError(
            "corrupt", f"Word file not readable: {type(exc).__name__}"
        ) from exc
    except Exception as exc:  # lxml raises its own errors on a damaged part
        raise DocumentImportError(
            "corrupt", f"Word file not readable: {type(exc).__name__}"
        ) from exc
    check_cancel(cancel)
    texts = [p for t in _texts(document) for p in paragraphs(t)]
    pages = [PageText(i, [Block(t)]) for i, t in enumerate(texts, start=1)]
    return ReadResult("docx", pages, len(pages))
