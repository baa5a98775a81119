"""``lexmem --screenshots DIR``: render each view offscreen with the demo case, in Chinese and
English, light and dark, to PNG files (for the README and for looking at the UI)."""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

DEMO_QUESTION = {
    "zh_CN": "公司以旷工为由解除合同，我们的胜算如何？赔偿金怎么算？",
    "en": "The company dismissed him for absence. How strong is our case, and how is the compensation computed?",
}
DEMO_ANSWER = {
    "zh_CN": (
        "**结论：胜算较大。** 公司的解除很可能构成违法解除。\n\n"
        "**依据**\n\n"
        "1. 张三5月15日至17日的居家办公经部门经理批准（企业微信记录已公证），不构成旷工；\n"
        "2. 员工手册未经民主程序、未向张三公示，不能作为解除依据；\n"
        "3. 公司未出具书面解除通知。\n\n"
        "**赔偿金**：《中华人民共和国劳动合同法》第八十七条，按第四十七条经济补偿标准的二倍计算：\n\n"
        "| 项目 | 数额 |\n|---|---|\n| 月工资 | 25,000 元 |\n| 工作年限 | 3.5 年 → 4 个月 |\n| 赔偿金 | 4 × 25,000 × 2 = **200,000 元** |\n\n"
        "**风险**：公司可能主张居家办公审批不合规，需准备李四的证人证言。"
    ),
    "en": (
        "**Conclusion: a strong case.** The dismissal is most likely unlawful.\n\n"
        "**Grounds**\n\n"
        "1. Working from home on 15–17 May was approved by his manager (notarised WeChat record), so it was not absence;\n"
        "2. the staff handbook never went through the democratic procedure and was never shown to him;\n"
        "3. no written notice of dismissal was given.\n\n"
        "**Compensation**: Labour Contract Law, Article 87 — twice the Article 47 severance:\n\n"
        "| Item | Amount |\n|---|---|\n| Monthly wage | CNY 25,000 |\n| Service | 3.5 years → 4 months |\n| Compensation | 4 × 25,000 × 2 = **CNY 200,000** |\n\n"
        "**Risk**: the company may dispute the approval; prepare Li Si's witness statement."
    ),
}


def _pump(app: Any, seconds: float = 0.3, until: Any = None) -> None:
    from desktop_app.ui.workers import wait_all

    deadline = time.monotonic() + max(seconds, 0.05)
    while True:
        app.processEvents()
        wait_all(50)
        app.processEvents()
        done = until() if until is not None else False
        if (until is not None and done) or time.monotonic() > deadline:
            if until is None or done or time.monotonic() > deadline + 10:
                break


def _prepare_engine(data_dir: Path) -> tuple[Any, str]:
    from desktop_app.memory import MemoryEngine
    from desktop_app.ui.resources import demo_dir

    engine = MemoryEngine.open(data_dir)
    results = engine.import_jsonl(sorted(demo_dir().glob("*.jsonl"))[0])
    case_id = next(r.note.case_id for r in results if r.note.case_id)
    return engine, case_id


def _add_demo_conversation(engine: Any, case_id: str, lang: str) -> Any:
    title = "违法解除的胜算与赔偿金" if lang == "zh_CN" else "Unlawful dismissal: odds and compensation"
    conv = engine.create_conversation(case_id, title)
    recall = engine.recall_for_chat(DEMO_QUESTION[lang], case_id)
    ids = tuple(n.id for n in recall.notes) or tuple(n.id for n in engine.list_notes(case_id, limit=4))
    engine.add_message(conv.id, "user", DEMO_QUESTION[lang])
    engine.add_message(conv.id, "assistant", DEMO_ANSWER[lang], injected_note_ids=ids)
    other = "加班费证据清单" if lang == "zh_CN" else "Overtime evidence list"
    engine.create_conversation(case_id, other)
    return conv


def run_screenshots(out_dir: str) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    out = Path(out_dir).resolve()
    out.mkdir(parents=True, exist_ok=True)

    from PySide6.QtCore import QSize

    from desktop_app.core.settings import Settings
    from desktop_app.ui import excepthook, i18n, theme
    from desktop_app.ui.app import make_app
    from desktop_app.ui.engine_host import EngineHost
    from desktop_app.ui.main_window import TAB_CHAT, TAB_GRAPH, TAB_NOTES, MainWindow

    excepthook.interactive = False
    app = make_app()
    tmp = tempfile.TemporaryDirectory(prefix="lexmem-shots-")
    data_dir = Path(tmp.name) / "data"
    engine, case_id = _prepare_engine(data_dir)
    written: list[Path] = []
    try:
        for lang in ("zh_CN", "en"):
            for old in engine.list_conversations(case_id):
                engine.delete_conversation(old.id)
            conv = _add_demo_conversation(engine, case_id, lang)
            for look in ("light", "dark"):
                i18n.install(lang)
                theme.apply(app, look)
                settings = Settings(language=lang, theme=look, last_case_id=case_id)
                host = EngineHost(data_dir, settings, llm_factory=lambda s: None)
                win = MainWindow(host)
                win.resize(QSize(1280, 800))
                win.show()
                host._opened((None, engine))
                _pump(app, 0.5, until=lambda w=win: w.sidebar.current_conversation() is not None)
                win.sidebar.reload_conversations(select=conv.id)
                _pump(app, 0.8)
                prefix = f"{lang}-{look}"

                def shot(name: str, widget: Any = None, _prefix: str = prefix, _win: Any = win) -> None:
                    _pump(app, 0.3)
                    path = out / f"{_prefix}-{name}.png"
                    (widget or _win).grab().save(str(path))
                    written.append(path)

                win.tabs.setCurrentIndex(TAB_CHAT)
                shot("chat")
                win.tabs.setCurrentIndex(TAB_NOTES)
                _pump(app, 0.5, until=lambda w=win: w.notes.model.rowCount() > 0)
                win.notes._select_row(0)
                _pump(app, 0.5)
                shot("notes")
                if look == "light":
                    win.notes.timeline_mode.click()
                    _pump(app, 0.6)
                    shot("timeline")
                    win.notes.table_mode.click()
                win.tabs.setCurrentIndex(TAB_GRAPH)
                _pump(app, 3.0, until=lambda w=win: w.graph.view is None or not w.graph.view.is_laying_out())
                shot("graph")
                if look == "light":
                    from desktop_app.ui.settings.dialog import SettingsDialog

                    dlg = SettingsDialog(host, win)
                    dlg.show()
                    shot("settings", dlg)
                    dlg.tabs.setCurrentIndex(1)
                    shot("settings-memory", dlg)
                    dlg.close()
                    # first run: no case, no model
                    host2 = EngineHost(data_dir / "first-run", Settings(language=lang), llm_factory=lambda s: None)
                    win2 = MainWindow(host2)
                    win2.resize(QSize(1280, 800))
                    win2.show()
                    host2._set_state("loading")
                    host2.stateChanged.emit("loading")
                    shot("loading", win2)
                    win2.close()
                    win2.deleteLater()
                win.close()
                win.deleteLater()
                _pump(app, 0.1)
    finally:
        from desktop_app.ui.workers import wait_all

        wait_all(10_000)
        engine.close()
        tmp.cleanup()
    for p in written:
        print(p)
    sys.stdout.flush()
    return 0
