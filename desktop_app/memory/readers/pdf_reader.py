"""PDF: the text layer page by page (pypdfium2), each line with its box; a page without a
text layer (a scan) is rendered and read by the OCR."""

from __future__ import annotations

from pathlib import Path

from desktop_app.core.errors import DocumentImportError
from desktop_app.memory.readers import (
    Block,
    Cancel,
    PageText,
    PhaseProgress,
    ReadResult,
    check_cancel,
)

#: a page with fewer characters than this in its text layer is treated as a scan
MIN_TEXT_CHARS = 8
#: scans are rendered at this resolution for the OCR (PDF points are 1/72 inch)
OCR_DPI = 150
#: pdfium's FPDF_GetLastError codes
_ERR_FORMAT, _ERR_PASSWORD, _ERR_SECURITY = 3, 4, 5


def _open(path: Path):
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        code = raw.FPDF_GetLastError()
        if code in (_ERR_PASSWORD, _ERR_SECURITY):
            raise DocumentImportError("encrypted", "password-protected PDF") from exc
        raise DocumentImportError("corrupt", f"PDF not readable (pdfium error {code})") from exc


def _lines(page) -> list[Block]:
    """The text layer's lines (pdfium's text rectangles), boxes from the page's top-left."""
    textpage = page.get_textpage()
    try:
        height = page.get_height()
        blocks = []
        for i in range(textpage.count_rects()):
            left, bottom, right, top = textpage.get_rect(i)
            text = textpage.get_text_bounded(left, bottom, right, top)
            text = (
                text.replace("\r", "")
                .replace("\n", " ")
                .replace("\x00", "")
                .replace("\xa0", " ")
                .strip()
            )
            if text:
                blocks.append(Block(text, (left, height - top, right, height - bottom)))
        return blocks
    finally:
        textpage.close()


def read_pdf(
    path: Path, progress: PhaseProgress | None = None, cancel: Cancel | None = None
) -> ReadResult:
    pdf = _open(path)
    try:
        total = len(pdf)
        if total == 0:
            raise DocumentImportError("empty", "PDF without pages")
        pages: list[PageText] = []
        used_ocr = False
        for number in range(1, total + 1):
            check_cancel(cancel)
            page = pdf[number - 1]
            try:
                blocks = _lines(page)
                if sum(len(b.text) for b in blocks) < MIN_TEXT_CHARS:
                    blocks = _ocr_page(page, progress, number, total)
                    used_ocr = used_ocr or bool(blocks)
            except DocumentImportError:
                raise
            except Exception as exc:  # pdfium raises plain errors on a damaged page
                raise DocumentImportError(
                    "corrupt", f"page {number}: {type(exc).__name__}"
                ) from exc
            finally:
                page.close()
            pages.append(PageText(number, blocks))
            if progress:
                progress(number, total, "read")
        return ReadResult("pdf", pages, total, ocr=used_ocr)
    finally:
        pdf.close()


def _ocr_page(page, progress: PhaseProgress | None, number: int, total: int) -> list[Block]:
    from desktop_app.memory.readers.ocr import ocr_image

    scale = OCR_DPI / 72
    image = page.render(scale=scale).to_pil()
    if progress:
        progress(number - 1, total, "ocr")
    # OCR boxes are in pixels of the rendering: back to PDF points
    return [
        Block(b.text, tuple(v / scale for v in b.box) if b.box else None) for b in ocr_image(image)
    ]
