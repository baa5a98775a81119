"""A page of a stored document as a PNG, for the viewer (pdf: rendered by pypdfium2;
image: scaled with Pillow); None for docx/text, which have no pages to show."""

from __future__ import annotations

import io
from pathlib import Path

#: the widest page image the viewer may ask for (a 4k screen's width)
MAX_WIDTH_PX = 4096


def render_page(path: Path, kind: str, page: int, width_px: int) -> bytes | None:
    width_px = max(16, min(int(width_px), MAX_WIDTH_PX))
    if kind == "pdf":
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(str(path))
        try:
            if not 1 <= page <= len(pdf):
                return None
            pdf_page = pdf[page - 1]
            scale = width_px / max(pdf_page.get_width(), 1.0)
            image = pdf_page.render(scale=scale).to_pil()
            pdf_page.close()
        finally:
            pdf.close()
    elif kind == "image":
        if page != 1:
            return None
        from PIL import Image

        with Image.open(path) as source:
            source.load()
            ratio = width_px / max(source.width, 1)
            image = source.convert("RGB").resize((width_px, max(1, round(source.height * ratio))))
    else:
        return None
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
