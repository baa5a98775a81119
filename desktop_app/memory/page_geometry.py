"""The size of a document's page in the units of its passages' boxes (PDF points for a PDF,
pixels for an image), so a viewer can lay the boxes over the rendered page."""

from __future__ import annotations

from pathlib import Path


def page_size(path: Path, kind: str, page: int) -> tuple[float, float] | None:
    """(width, height); None for docx / text (no pages) or a page out of range."""
    if kind == "pdf":
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(str(path))
        try:
            if not 1 <= page <= len(pdf):
                return None
            width, height = pdf.get_page_size(page - 1)
            return float(width), float(height)
        finally:
            pdf.close()
    if kind == "image" and page == 1:
        from PIL import Image

        with Image.open(path) as image:
            return float(image.width), float(image.height)
    return None
