"""Longest UI-thread stall during a scripted session (goal: ≤ 50 ms).

A 5 ms QTimer probe runs on the UI thread; every gap between two ticks beyond the interval
is time the event loop could not run (a stall). The session, offscreen, against the scripted
OpenAI-compatible server:

  open the engine (background) → load the demo case → a streamed reply (~2,000 characters
  in 200 chunks) → knowledge extraction → Notes tab → a text search → a category filter
  change → timeline mode → Graph tab (layout).

Run:  QT_QPA_PLATFORM=offscreen python tests/benchmarks/ui_stall.py [--runs 3] [--json out.json]
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

from fakes.llm_server import FakeLLMServer, Reply  # noqa: E402

REPLY = (
    "**结论：胜算较大。**\n\n" + "".join(
        f"{i}. 根据《中华人民共和国劳动合同法》第八十七条，用人单位违法解除劳动合同的，应当支付赔偿金；"
        f"本案中公司未出具书面通知，且员工手册未经民主程序。\n" for i in range(1, 25)
    )
)


def responder(body: dict) -> Reply:
    fmt = body.get("response_format") or {}
    name = fmt.get("json_schema", {}).get("name", "") if fmt.get("type") == "json_schema" else ""
    system = body["messages"][0]["content"] if body.get("messages") else ""
    if body.get("stream"):
        chunks = [REPLY[i : i + 10] for i in range(0, len(REPLY), 10)]
        return Reply.text(REPLY, chunks=chunks, chunk_delay=0.01)
    if name == "knowledge_extraction" or "knowledge_extraction" in system:
        return Reply.json({"items": [
            {"content": "公司未出具书面解除通知", "category": "事实", "scope": "case"},
            {"content": "员工手册未经民主程序制定", "category": "证据", "scope": "case"},
            {"content": "律师希望结论先行", "category": "偏好", "scope": "global"},
        ]})
    if name == "note_construction" or "note_construction" in system:
        return Reply.json({"keywords": ["解除"], "context": "背景", "tags": ["劳动"], "category": "事实"})
    # decision and evolution of the turn's new notes, one call: every one ADD
    return Reply.json({"decisions": [], "neighbour_updates": []})


class Probe:
    def __init__(self, interval_ms: int = 5) -> None:
        from PySide6.QtCore import QTimer

        self.interval = interval_ms / 1000
        self.phase = "start"
        self.gaps: list[tuple[float, str]] = []
        #: (gap, UI-thread CPU seconds inside the gap): separates work done on the UI thread
        #: from time it merely waited (a worker holding the GIL, or the OS giving the core
        #: to another process — this machine's 2 cores are shared)
        self.cpu: list[tuple[float, float, str]] = []
        self._last = time.perf_counter()
        self._last_cpu = time.thread_time()
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        self.gaps.append((now - self._last - self.interval, self.phase))
        self.cpu.append((now - self._last - self.interval, cpu - self._last_cpu, self.phase))
        self._last, self._last_cpu = now, cpu

    def worst(self) -> tuple[float, str]:
        return max(self.gaps, default=(0.0, ""))


def session(app, srv: FakeLLMServer, data_dir: Path) -> dict:
    from desktop_app.core.settings import Settings
    from desktop_app.llm.client import LLMClient
    from desktop_app.ui import excepthook, i18n, theme
    from desktop_app.ui.chat.message import MessageWidget
    from desktop_app.ui.engine_host import EngineHost
    from desktop_app.ui.main_window import TAB_CHAT, TAB_GRAPH, TAB_NOTES, MainWindow
    from desktop_app.ui.workers import wait_all

    excepthook.interactive = False
    i18n.install("zh_CN")
    theme.apply(app, "light")

    def wait(cond, timeout=60.0):
        end = time.monotonic() + timeout
        while not cond():
            app.processEvents()
            time.sleep(0.002)
            if time.monotonic() > end:
                raise TimeoutError(probe.phase)

    client = LLMClient(srv.config(), sleep=lambda s: None)
    host = EngineHost(data_dir, Settings(language="zh_CN"), llm_factory=lambda s: client)
    # the real factory (MemoryEngine.open + jieba warm-up), not a test shortcut
    win = MainWindow(host)
    win.resize(1280, 800)
    probe = Probe()
    win.show()
    probe.phase = "open engine"
    host.open()
    wait(lambda: host.state == "ready")
    probe.phase = "load demo"
    win.load_demo()
    wait(lambda: win.sidebar.case_id is not None)
    wait(lambda: not win.notes.model.loading and win.notes.model.rowCount() > 0)

    probe.phase = "streamed reply"
    win.tabs.setCurrentIndex(TAB_CHAT)
    win.chat.composer.set_text("公司以旷工为由解除合同，我们的胜算如何？")
    win.chat.send(win.chat.composer.text())
    wait(lambda: win.chat._turn is not None or win.chat.conversation is not None)
    wait(lambda: not win.chat.streaming)
    probe.phase = "extraction"
    reply = [w for w in win.chat._messages if isinstance(w, MessageWidget)][-1]
    wait(lambda: reply.learned_chip.isVisible(), timeout=60)

    probe.phase = "notes tab"
    win.tabs.setCurrentIndex(TAB_NOTES)
    wait(lambda: not win.notes.model.loading)
    probe.phase = "notes search"
    win.notes.search.setText("开庭时间是哪天")
    win.notes.apply_filters()
    wait(lambda: not win.notes.model.loading and win.notes.model.rowCount() > 0)
    probe.phase = "filter change"
    win.notes.search.clear()
    win.notes.category.setCurrentIndex(win.notes.category.findData("证据"))
    wait(lambda: not win.notes.model.loading)
    probe.phase = "timeline"
    win.notes.timeline_mode.click()
    t_end = time.monotonic() + 0.5
    wait(lambda: time.monotonic() > t_end)
    probe.phase = "graph tab"
    win.tabs.setCurrentIndex(TAB_GRAPH)
    t_end = time.monotonic() + 2.0
    wait(lambda: time.monotonic() > t_end)
    probe.phase = "end"
    probe.timer.stop()
    win.close()
    wait_all(30_000)
    host.close()
    client.close()
    gaps = sorted(g for g, _ in probe.gaps)
    worst, where = probe.worst()
    by_phase: dict[str, float] = {}
    for g, ph in probe.gaps:
        by_phase[ph] = max(by_phase.get(ph, 0.0), g)
    busy = max(probe.cpu, key=lambda t: t[1])
    worst_gap = max(probe.cpu, key=lambda t: t[0])
    return {
        "max_stall_ms": round(worst * 1000, 1),
        "worst_stall_ui_cpu_ms": round(worst_gap[1] * 1000, 1),
        "max_ui_cpu_between_ticks_ms": round(busy[1] * 1000, 1),
        "max_ui_cpu_phase": busy[2],
        "worst_phase": where,
        "p99_stall_ms": round(gaps[int(0.99 * (len(gaps) - 1))] * 1000, 1),
        "ticks": len(gaps),
        "by_phase_ms": {k: round(v * 1000, 1) for k, v in by_phase.items()},
    }


def main() -> int:
    import faulthandler

    faulthandler.dump_traceback_later(float(os.environ.get("UI_STALL_HANG_DUMP", "0")) or 1e9, exit=True)
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    from desktop_app.ui.app import make_app

    app = make_app()
    results = []
    for _ in range(args.runs):
        with FakeLLMServer(responder=responder) as srv, tempfile.TemporaryDirectory() as tmp:
            results.append(session(app, srv, Path(tmp) / "data"))
        print(json.dumps(results[-1], ensure_ascii=False))
    summary = {
        "runs": results,
        "max_stall_ms_median": statistics.median(r["max_stall_ms"] for r in results),
        "max_stall_ms_worst": max(r["max_stall_ms"] for r in results),
        "max_ui_cpu_ms_worst": max(r["max_ui_cpu_between_ticks_ms"] for r in results),
        "load_average": os.getloadavg()[0],
    }
    print(json.dumps({k: v for k, v in summary.items() if k != "runs"}))
    if args.json:
        args.json.write_text(json.dumps(summary, ensure_ascii=False, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
