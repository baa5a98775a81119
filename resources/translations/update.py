"""Regenerate the Chinese translation: lupdate → fill from zh_CN.json → lrelease.

Run from anywhere: ``python resources/translations/update.py``. Source strings are English
(in the code, through tr()); zh_CN.json maps each to its Chinese text. A string missing from
the JSON is reported and left unfinished (Qt then shows the English source).
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TS = HERE / "lexmem_zh_CN.ts"
QM = HERE / "lexmem_zh_CN.qm"


def main() -> int:
    sources = sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "desktop_app" / "ui").rglob("*.py")
    )
    subprocess.run(
        ["pyside6-lupdate", *sources, "-no-obsolete", "-source-language", "en", "-target-language", "zh_CN", "-ts", str(TS)],
        cwd=ROOT,
        check=True,
    )
    glossary: dict[str, str] = json.loads((HERE / "zh_CN.json").read_text(encoding="utf-8"))
    tree = ET.parse(TS)
    missing = []
    for message in tree.getroot().iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        if translation is None:
            translation = ET.SubElement(message, "translation")
        text = glossary.get(source)
        if text is None:
            missing.append(source)
            translation.set("type", "unfinished")
            continue
        translation.attrib.pop("type", None)
        if message.get("numerus") == "yes":
            for child in list(translation):
                translation.remove(child)
            translation.text = None
            form = ET.SubElement(translation, "numerusform")
            form.text = text
        else:
            translation.text = text
    tree.write(TS, encoding="utf-8", xml_declaration=True)
    subprocess.run(["pyside6-lrelease", str(TS), "-qm", str(QM)], check=True)
    for s in missing:
        print("missing translation:", repr(s), file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
