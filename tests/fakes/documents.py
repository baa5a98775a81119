"""Test documents written in code (no download): PDFs through pypdfium2's page-object API
(a CJK font embedded, or the standard Helvetica for Latin-only pages), scans (an image on a
page, no text layer), PNG screenshots with Pillow, DOCX with python-docx, and the bad ones:
a password-protected PDF (an /Encrypt dictionary the empty password does not open) and a
damaged one."""

from __future__ import annotations

import ctypes
import io
import os
from collections.abc import Sequence
from pathlib import Path

CJK_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
PAGE_W, PAGE_H = 595.0, 842.0  # A4 in points
LINE_CHARS = 36


def _wrap(text: str, width: int) -> list[str]:
    return [text[i : i + width] for i in range(0, len(text), width)] or [""]


def _set_text(raw, obj, text: str) -> None:
    wide = ctypes.create_string_buffer((text + "\0").encode("utf-16-le"))
    raw.FPDFText_SetText(obj, ctypes.cast(wide, ctypes.POINTER(raw.FPDF_WCHAR)))


def make_pdf(
    path: Path,
    pages: Sequence[Sequence[str]],
    *,
    cjk: bool = True,
    font_size: float = 12.0,
) -> Path:
    """A text PDF: each page a list of paragraphs, wrapped into lines."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument.new()
    keep = []
    if cjk:
        data = Path(CJK_FONT).read_bytes()
        buf = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
        keep.append(buf)
        font = raw.FPDFText_LoadFont(pdf.raw, buf, len(data), raw.FPDF_FONT_TRUETYPE, True)
    else:
        font = raw.FPDFText_LoadStandardFont(pdf.raw, b"Helvetica")
    width = LINE_CHARS if cjk else LINE_CHARS * 2
    for paragraphs in pages:
        page = pdf.new_page(PAGE_W, PAGE_H)
        y = PAGE_H - 72
        for paragraph in paragraphs:
            for line in _wrap(paragraph, width):
                obj = raw.FPDFPageObj_CreateTextObj(pdf.raw, font, font_size)
                _set_text(raw, obj, line)
                raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 60, y)
                raw.FPDFPage_InsertObject(page.raw, obj)
                y -= font_size * 1.6
            y -= font_size * 0.8
        raw.FPDFPage_GenerateContent(page.raw)
        page.close()
    pdf.save(str(path))
    pdf.close()
    return path


def render_text_image(lines: Sequence[str], *, width: int = 900, size: int = 30):
    """A screenshot-like image: dark text on white, one line each, like a chat record."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(CJK_FONT, size)
    height = 40 + len(lines) * int(size * 1.9)
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((30, 20 + i * int(size * 1.9)), line, font=font, fill=(20, 20, 20))
    return image


def make_png(path: Path, lines: Sequence[str], **kwargs) -> Path:
    render_text_image(lines, **kwargs).save(path, format="PNG")
    return path


def make_blank_png(path: Path, size: tuple[int, int] = (640, 480)) -> Path:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, (235, 240, 245))
    ImageDraw.Draw(image).ellipse((200, 140, 440, 340), fill=(90, 140, 200))  # a logo, no text
    image.save(path, format="PNG")
    return path


def make_scanned_pdf(path: Path, pages: Sequence[Sequence[str]]) -> Path:
    """A scan: each page one image of text, no text layer."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument.new()
    for lines in pages:
        image = render_text_image(lines, width=1240, size=36)
        page = pdf.new_page(PAGE_W, PAGE_H)
        obj = pdfium.PdfImage.new(pdf)
        jpeg = io.BytesIO()
        image.save(jpeg, format="JPEG", quality=90)
        jpeg.seek(0)
        obj.load_jpeg(jpeg, inline=True)
        w = PAGE_W - 40
        h = w * image.height / image.width
        obj.set_matrix(pdfium.PdfMatrix().scale(w, h).translate(20, PAGE_H - 20 - h))
        page.insert_obj(obj)
        page.gen_content()
        page.close()
    pdf.save(str(path))
    pdf.close()
    return path


def make_docx(
    path: Path,
    paragraphs: Sequence[str],
    table: Sequence[Sequence[str]] = (),
    image: bool = False,
) -> Path:
    import docx
    from docx.shared import Inches

    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
    if image:
        png = io.BytesIO()
        render_text_image(["图片里的文字不读取"], width=400).save(png, format="PNG")
        png.seek(0)
        document.add_picture(png, width=Inches(3))
    document.save(str(path))
    return path


def make_encrypted_pdf(path: Path) -> Path:
    """A PDF under the standard security handler whose user password is not empty: any
    reader asks for a password (the O/U entries are random, so no password opens it)."""
    body = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
        b"<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <"
        + os.urandom(32).hex().encode()
        + b"> /U <"
        + os.urandom(32).hex().encode()
        + b"> >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, obj in enumerate(body, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(body) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += (
        b"trailer\n<< /Size %d /Root 1 0 R /Encrypt 4 0 R /ID [<%s> <%s>] >>\n"
        % (len(body) + 1, b"00" * 16, b"00" * 16)
        + b"startxref\n%d\n%%%%EOF\n" % xref
    )
    path.write_bytes(bytes(out))
    return path


def make_corrupt_pdf(path: Path) -> Path:
    path.write_bytes(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R\n\x00\x01garbage")
    return path
