"""Write a case's 证据目录 (evidence list) as a Word document, in the layout courts expect:
the title, the case, a table 序号 / 证据名称 / 证据来源 / 证明目的 / 页码, then 提交人 and the
date.  An English interface gets an English document.

Every text goes in as the run's text (python-docx escapes it): a note's ``<b>`` stays the five
characters the lawyer sees.  The file appears whole or not at all (written beside the target,
then renamed over it).
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from desktop_app.memory.evidence_list import EvidenceRow

#: characters XML 1.0 cannot hold (lxml refuses them): dropped from what is written
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: the body font of Chinese court papers (宋体), with a Latin font beside it
_EAST_ASIAN_FONT = "宋体"
_LATIN_FONT = "Times New Roman"


@dataclass(frozen=True, slots=True)
class Wording:
    title: str
    case: str
    headers: tuple[str, str, str, str, str]
    submitted_by: str
    date_label: str
    english: bool

    def day(self, value: date) -> str:
        if self.english:
            return value.isoformat()
        return f"{value.year}年{value.month}月{value.day}日"


CHINESE = Wording(
    "证据目录",
    "案件：",
    ("序号", "证据名称", "证据来源", "证明目的", "页码"),
    "提交人：",
    "日期：",
    False,
)
ENGLISH = Wording(
    "Evidence List",
    "Case: ",
    ("No.", "Evidence", "Source", "Purpose of proof", "Pages"),
    "Submitted by: ",
    "Date: ",
    True,
)
#: relative column widths (in centimetres on an A4 page with 2.5 cm margins: 16 cm)
_WIDTHS_CM = (1.3, 4.6, 3.2, 5.4, 1.5)


def xml_safe(text: str) -> str:
    return _NOT_XML.sub("", text)


def write_evidence_docx(
    path: str | os.PathLike[str],
    case_name: str,
    rows: Sequence[EvidenceRow],
    *,
    english: bool = False,
    today: date | None = None,
) -> Path:
    """Write the list to ``path`` (a .docx) and return it."""
    from docx import Document  # loaded on first export only
    from docx.enum.table import WD_TABLE_ALIGNMENT
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Cm, Pt

    words = ENGLISH if english else CHINESE
    doc = Document()
    _set_fonts(doc)
    section = doc.sections[0]
    section.page_width, section.page_height = Cm(21.0), Cm(29.7)
    section.left_margin = section.right_margin = Cm(2.5)

    title = doc.add_paragraph()
    title.alignment = WD_ALIGN_PARAGRAPH.CENTER
    run = title.add_run(words.title)
    run.bold = True
    run.font.size = Pt(18)
    doc.add_paragraph(xml_safe(words.case + case_name))

    table = doc.add_table(rows=1, cols=len(words.headers))
    table.style = "Table Grid"
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    for cell, header in zip(table.rows[0].cells, words.headers, strict=True):
        cell.text = ""
        head = cell.paragraphs[0]
        head.alignment = WD_ALIGN_PARAGRAPH.CENTER
        head.add_run(header).bold = True
    for row in rows:
        cells = table.add_row().cells
        values = (str(row.number), row.name, row.source, row.purpose, row.pages)
        for i, (cell, value) in enumerate(zip(cells, values, strict=True)):
            cell.text = xml_safe(value)
            if i in (0, 4):
                cell.paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.CENTER
    for column, width in zip(table.columns, _WIDTHS_CM, strict=True):
        for cell in column.cells:
            cell.width = Cm(width)

    doc.add_paragraph()
    doc.add_paragraph(words.submitted_by)
    doc.add_paragraph(words.date_label + words.day(today or date.today()))
    return _save_whole(doc, Path(path))


def _set_fonts(doc: object) -> None:
    """宋体 for Chinese text, Times New Roman for Latin text, 12 pt (小四)."""
    from docx.oxml.ns import qn
    from docx.shared import Pt

    style = doc.styles["Normal"]  # type: ignore[attr-defined]
    style.font.name = _LATIN_FONT
    style.font.size = Pt(12)
    fonts = style.element.get_or_add_rPr().get_or_add_rFonts()
    fonts.set(qn("w:eastAsia"), _EAST_ASIAN_FONT)


def _save_whole(doc: object, target: Path) -> Path:
    handle, temp = tempfile.mkstemp(prefix=".evidence-", suffix=".docx", dir=target.parent)
    os.close(handle)
    try:
        doc.save(temp)  # type: ignore[attr-defined]
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return target
