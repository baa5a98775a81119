"""``lexmem --selftest``: prove an installed (frozen or not) LexMem works, then exit.

Offscreen, in a throw-away data folder: open the main window over a real engine, open a
MemoryEngine, add and find a Chinese and an English note, report the keyring backend and the
versions.  Prints one JSON report; exit code 0 when every check passed, 1 otherwise (the
failed checks carry the reason).  No Qt here: the window check lives in
``desktop_app.ui.selftest_gui`` and is imported lazily.

Windowed Windows builds have no stdout: ``--selftest-report FILE`` (or LEXMEM_SELFTEST_REPORT)
also writes the report to a file, which CI reads.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from desktop_app.core.versions import component_versions

REPORT_ENV = "LEXMEM_SELFTEST_REPORT"
#: the whole self-test must finish within this (a modal dialog or a dead lock in a frozen
#: build would otherwise hang CI); LEXMEM_SELFTEST_TIMEOUT overrides it, in seconds
TIMEOUT_S = 240.0

# (note, paraphrased query): the query shares meaning, not the exact wording, so vector
# search and the n-gram full-text index both have to work in the bundle.
NOTES: dict[str, tuple[str, str]] = {
    "zh": ("原告张三于2021年3月1日入职被告公司，月薪两万五千元。", "张三什么时候入职的？月薪多少"),
    "en": (
        "The lease between Smith and Acme Ltd ends on 31 March 2026; notice is three months.",
        "When does the Smith lease end?",
    ),
}
# unrelated notes, so "found first" means something
DISTRACTORS = [
    "被告公司的员工手册未经民主程序制定，也未向劳动者公示。",
    "Client prefers short answers with the statute cited at the end.",
    "证人李四是原告的部门经理，愿意出庭作证。",
]


def _check_engine(data_dir: Path) -> dict[str, Any]:
    """Everything the app asks of LanceDB (and so of pyarrow) in a bundle: table creation,
    batched adds, vector and n-gram full-text search, optimize, and a true delete (rewrite,
    full-text index rebuild, old versions removed) — a trimmed bundle missing a library any
    of these loads fails here, not at a lawyer's desk."""
    from desktop_app.memory import MemoryEngine

    engine = MemoryEngine.open(data_dir)
    try:
        case = engine.create_case("自检 self-test")
        engine.add_notes([{"content": text, "case_id": case.id} for text in DISTRACTORS])
        found: dict[str, Any] = {}
        added = {}
        for lang, (content, query) in NOTES.items():
            added[lang] = engine.add_note(content, case_id=case.id).note
            hits = engine.search(query, case_id=case.id, k=3)
            top = hits[0] if hits else None
            if top is None or top.note.id != added[lang].id:
                got = top.note.content if top else "no hits"
                raise AssertionError(f"{lang}: search {query!r} returned {got!r} first")
            if top.parts.text_rank is None or top.parts.vector_rank is None:
                raise AssertionError(f"{lang}: hit not found by both vector and full-text search")
            found[lang] = {"query": query, "score": round(float(top.score), 4)}
        engine.optimize()
        gone = added["zh"]
        engine.delete_note(gone.id)
        hits = engine.search(NOTES["zh"][1], case_id=case.id, k=5)
        if any(h.note.id == gone.id for h in hits):
            raise AssertionError("a deleted note is still found")
        needle = gone.content.encode("utf-8")
        left = [str(p) for p in data_dir.rglob("*") if p.is_file() and needle in p.read_bytes()]
        if left:
            raise AssertionError(f"deleted text still in {left}")
        found["delete"] = {"purged": True, "remaining_hits": len(hits)}
        return found
    finally:
        engine.close()


def _check_helper_process(data_dir: Path) -> dict[str, Any]:
    """A large batch is built in a helper process (memory/construction_pool.py): in a bundle
    that process is this executable started again, which must run the helper (the launcher's
    ``freeze_support``), not a second app, and hand back what it built."""
    from desktop_app.memory import MemoryEngine, construction_pool

    helper = construction_pool.helper
    t0 = time.perf_counter()
    if not helper.start_up():
        raise AssertionError("the helper process did not start")
    start_up = time.perf_counter() - t0
    used, fallbacks = helper.used, helper.fallbacks
    engine = MemoryEngine.open(data_dir)
    try:
        case = engine.create_case("自检 helper")
        items = [
            {"content": f"2024年3月{1 + i % 28}日 第{i}号收据 receipt {i}", "case_id": case.id}
            for i in range(construction_pool.PROCESS_FROM)
        ]
        t0 = time.perf_counter()
        added = engine.add_notes(items)
        seconds = time.perf_counter() - t0
    finally:
        engine.close()
        helper.stop()
    if helper.fallbacks != fallbacks:
        raise AssertionError("the helper process failed; the batch was built inline")
    if helper.used != used + 1:
        raise AssertionError("the batch was not built in the helper process")
    if added[0].note.event_date != "2024-03-01" or not added[0].note.keywords:
        raise AssertionError(f"the helper built {added[0].note!r}")
    return {"notes": len(added), "seconds": round(seconds, 2), "start_up": round(start_up, 2)}


def _write_selftest_pdf(path: Path, text: str) -> None:
    """One page with ``text`` in Helvetica, written through pdfium itself."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument.new()
    font = raw.FPDFText_LoadStandardFont(pdf.raw, b"Helvetica")
    page = pdf.new_page(595, 842)
    obj = raw.FPDFPageObj_CreateTextObj(pdf.raw, font, 14.0)
    wide = ctypes.create_string_buffer((text + "\0").encode("utf-16-le"))
    raw.FPDFText_SetText(obj, ctypes.cast(wide, ctypes.POINTER(raw.FPDF_WCHAR)))
    raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 60, 760)
    raw.FPDFPage_InsertObject(page.raw, obj)
    raw.FPDFPage_GenerateContent(page.raw)
    page.close()
    pdf.save(str(path))
    pdf.close()


def _check_documents(data_dir: Path) -> dict[str, Any]:
    """Case documents in the bundle: pdfium's library (PDF text and a page image), the OCR's
    models and onnxruntime (a screenshot read back), all through an import and a search."""
    from PIL import Image, ImageDraw, ImageFont

    from desktop_app.memory import MemoryEngine

    data_dir.mkdir(parents=True, exist_ok=True)
    pdf_path, png_path = data_dir.parent / "selftest.pdf", data_dir.parent / "selftest.png"
    _write_selftest_pdf(pdf_path, "Invoice 4471: the buyer paid 12800 yuan on 15 March 2024.")
    image = Image.new("RGB", (720, 90), "white")
    ImageDraw.Draw(image).text(
        (20, 25), "Refund request 5593 rejected", font=ImageFont.load_default(32), fill="black"
    )
    image.save(png_path)
    engine = MemoryEngine.open(data_dir)
    try:
        case = engine.create_case("自检 documents")
        started = time.perf_counter()
        pdf = engine.import_document(case.id, pdf_path)
        png = engine.import_document(case.id, png_path)
        seconds = time.perf_counter() - started
        for query, doc in (("invoice 4471 paid", pdf), ("refund request 5593", png)):
            hits = engine.search_passages(query, case.id, k=1)
            if not hits or hits[0].passage.document_id != doc.id:
                raise AssertionError(f"passage search {query!r} missed {doc.kind}")
        if not (engine.render_page(pdf.id, 1, 200) or b"").startswith(b"\x89PNG"):
            raise AssertionError("the PDF page did not render")
        return {"ocr": png.ocr, "import_s": round(seconds, 2)}
    finally:
        engine.close()


def _check_keyring() -> dict[str, Any]:
    from desktop_app.core.secrets import SecretStore

    store = SecretStore()
    return {"backend": store.backend_name(), "persistent": store.is_persistent}


def _check_resources() -> dict[str, Any]:
    from desktop_app.core.resources import resources_dir
    from desktop_app.llm.prompts import render_prompt  # noqa: F401  (import proves it loads)

    root = resources_dir()
    needed = {
        "prompts": any((root / "prompts").glob("*")),
        "translations_qm": any((root / "translations").glob("*.qm")),
        "icons": (root / "icons" / "lexmem.svg").is_file(),
        "styles": any((root / "styles").glob("*.qss")),
    }
    missing = [k for k, ok in needed.items() if not ok]
    if missing:
        raise FileNotFoundError(f"missing in {root}: {', '.join(missing)}")
    return {"dir": str(root)}


def _emit(report: dict[str, Any], report_path: str | None) -> None:
    text = json.dumps(report, ensure_ascii=False, indent=2)
    try:
        print(text, flush=True)
    except UnicodeEncodeError:  # a Windows console/pipe in a legacy code page
        print(json.dumps(report, ensure_ascii=True, indent=2), flush=True)
    out = report_path or os.environ.get(REPORT_ENV)
    if out:
        Path(out).write_text(text + "\n", encoding="utf-8")


def run(report_path: str | None = None, *, window: bool = True) -> int:
    t_start = time.perf_counter()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed, none shown
    report: dict[str, Any] = {
        "selftest": "lexmem",
        "frozen": bool(getattr(sys, "frozen", False)),
        "executable": sys.executable,
        "platform": platform.platform(),
        "versions": component_versions(),
        "checks": {},
    }
    tmp = Path(tempfile.mkdtemp(prefix="lexmem-selftest-"))
    report["data_dir"] = str(tmp)

    current = {"name": "start"}

    def watchdog() -> None:
        # runs in a timer thread: report what hung and leave at once (no clean-up possible)
        report["checks"].setdefault(current["name"], {})["ok"] = False
        report["checks"][current["name"]]["error"] = f"timed out after {timeout:.0f} s"
        failed = [n for n, c in report["checks"].items() if not c.get("ok")]
        report["ok"], report["failed"] = False, failed
        try:
            _emit(report, report_path)
        finally:
            os._exit(3)

    timeout = float(os.environ.get("LEXMEM_SELFTEST_TIMEOUT", TIMEOUT_S))
    timer = threading.Timer(timeout, watchdog)
    timer.daemon = True
    timer.start()

    def check(name: str, fn: Callable[[], Any]) -> None:
        current["name"] = name
        t0 = time.perf_counter()
        entry: dict[str, Any] = {}
        try:
            entry["result"] = fn()
            entry["ok"] = True
        except BaseException as exc:  # a self-test reports everything, even SystemExit
            entry["ok"] = False
            entry["error"] = f"{type(exc).__name__}: {exc}"
            entry["traceback"] = traceback.format_exc(limit=8)
        entry["ms"] = round(1000 * (time.perf_counter() - t0))
        report["checks"][name] = entry

    try:
        check("resources", _check_resources)
        check("keyring", _check_keyring)
        check("engine", lambda: _check_engine(tmp / "engine"))
        check("helper_process", lambda: _check_helper_process(tmp / "helper"))
        check("documents", lambda: _check_documents(tmp / "documents" / "data"))
        if window:

            def _window() -> Any:
                from desktop_app.ui.selftest_gui import open_main_window

                info = open_main_window(tmp / "window")
                report["versions"]["qt"] = info["qt"]
                return info

            check("window", _window)
    finally:
        timer.cancel()
        shutil.rmtree(tmp, ignore_errors=True)
    failed = [name for name, c in report["checks"].items() if not c["ok"]]
    report["ok"] = not failed
    report["failed"] = failed
    report["total_ms"] = round(1000 * (time.perf_counter() - t_start))
    _emit(report, report_path)
    return 0 if not failed else 1
