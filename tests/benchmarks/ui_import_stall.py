"""Longest UI-thread stall while a case document is imported and viewed (goal: ≤ 50 ms).

The probe of ui_stall.py (a 5 ms QTimer on the UI thread) runs while the Documents tab
imports a generated 40-page Chinese PDF in the background (read, embed, index, with progress
reports), then while the viewer renders a page with its passage highlighted.  Offscreen,
offline (no model: the extraction waits), real engine in a temp folder.

Run:  QT_QPA_PLATFORM=offscreen python tests/benchmarks/ui_import_stall.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from fakes.documents import make_pdf  # noqa: E402

from benchmarks.ui_stall import Probe  # noqa: E402

PARAGRAPH = "原告于2024年3月15日在被告网店购买笔记本电脑一台，价款8999元，签收两周后屏幕出现花屏。"
PAGES = 40


def session(app, data_dir: Path) -> dict:
    from desktop_app.core.settings import Settings
    from desktop_app.ui import excepthook, i18n, theme
    from desktop_app.ui.engine_host import EngineHost
    from desktop_app.ui.main_window import TAB_DOCUMENTS, MainWindow
    from desktop_app.ui.workers import wait_all

    excepthook.interactive = False
    i18n.install("zh_CN")
    theme.apply(app, "light")
    pdf = make_pdf(data_dir.parent / "卷宗.pdf", [[f"第{i}页", PARAGRAPH * 4] for i in range(1, PAGES + 1)])

    def wait(cond, timeout=180.0):
        end = time.monotonic() + timeout
        while not cond():
            app.processEvents()
            time.sleep(0.002)
            if time.monotonic() > end:
                raise TimeoutError(probe.phase)

    host = EngineHost(data_dir, Settings(language="zh_CN"), llm_factory=lambda s: None)
    win = MainWindow(host)
    win.resize(1280, 800)
    win.show()
    host.open()
    wait(lambda: host.state == "ready")
    case = host.engine.create_case("导入")
    win.sidebar.reload_cases(select=case.id)
    wait(lambda: win.sidebar.case_id == case.id)
    win.tabs.setCurrentIndex(TAB_DOCUMENTS)
    probe = Probe()
    probe.phase = "import"
    started = time.perf_counter()
    win.documents.import_files([pdf])
    wait(lambda: not win.documents.importer.busy)
    import_s = time.perf_counter() - started
    wait(lambda: win.documents.model.rowCount() == 1)
    probe.phase = "viewer"
    doc = win.documents.model.document_at(0)
    passage = host.engine.passages_of(doc.id, 2)[0]
    win.documents.open_document(doc.id, passage.id)
    wait(lambda: bool(win.documents._dialogs) and win.documents._dialogs[-1].loaded)
    probe.phase = "end"
    probe.timer.stop()
    win.close()
    wait_all(30_000)
    host.close()
    by_phase: dict[str, float] = {}
    for gap, phase in probe.gaps:
        by_phase[phase] = max(by_phase.get(phase, 0.0), gap)
    worst_gap = max(probe.cpu, key=lambda t: t[0])
    return {
        "import_s": round(import_s, 2),
        "max_stall_ms": round(max(g for g, _ in probe.gaps) * 1000, 1),
        "worst_stall_ui_cpu_ms": round(worst_gap[1] * 1000, 1),
        "by_phase_ms": {k: round(v * 1000, 1) for k, v in by_phase.items()},
        "ticks": len(probe.gaps),
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from desktop_app.ui.app import make_app

    app = make_app()
    results = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            results.append(session(app, Path(tmp) / "data"))
        print(json.dumps(results[-1], ensure_ascii=False))
    print(
        json.dumps(
            {
                "max_stall_ms_median": statistics.median(r["max_stall_ms"] for r in results),
                "max_stall_ms_worst": max(r["max_stall_ms"] for r in results),
                "import_s_median": statistics.median(r["import_s"] for r in results),
                "load_average": os.getloadavg()[0],
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
