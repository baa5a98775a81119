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
    "zh_CN": "电脑买了两周就花屏，客服三次推诿，我们能要求退货退款吗？依据是什么？",
    "en": "The laptop's screen failed after two weeks and support stalled three times. Can we demand a refund, and on what grounds?",
}
DEMO_ANSWER = {
    "zh_CN": (
        "**结论：可以主张退货退款。** 屏幕花屏属于商品质量问题，被告应承担退货责任。\n\n"
        "**依据**\n\n"
        "1. 《消费者权益保护法》第二十四条：商品不符合质量要求的，消费者可以要求退货、更换或修理；\n"
        "2. 《产品质量法》第四十条：不具备应当具备的使用性能的，销售者应负责退货；\n"
        "3. 官方售后检测报告：屏幕排线存在出厂缺陷，非人为损坏。\n\n"
        "**诉讼请求**\n\n"
        "| 项目 | 金额 |\n|---|---|\n| 退还货款 | 8,999 元 |\n| 交通费、检测费 | 600 元 |\n| 合计 | **9,599 元** |\n\n"
        "**风险**：三倍赔偿需证明欺诈，现有证据不足，建议不作主要诉求。"
    ),
    "en": (
        "**Conclusion: a refund can be claimed.** A failing screen is a quality defect, so the seller must take the laptop back.\n\n"
        "**Grounds**\n\n"
        "1. Consumer Rights Protection Law, Art. 24: goods below quality standards may be returned, replaced or repaired;\n"
        "2. Product Quality Law, Art. 40: the seller must take back goods lacking the expected performance;\n"
        "3. the brand service centre's report: a factory defect in the display cable, not user damage.\n\n"
        "**Claims**\n\n"
        "| Item | Amount |\n|---|---|\n| Refund of the price | CNY 8,999 |\n| Travel and inspection costs | CNY 600 |\n| Total | **CNY 9,599** |\n\n"
        "**Risk**: treble damages need proof of fraud, which the evidence does not give; keep it out of the main claims."
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
    from desktop_app.core.resources import demo_path
    from desktop_app.memory import MemoryEngine

    engine = MemoryEngine.open(data_dir)
    results = engine.import_jsonl(demo_path())
    case_id = next(r.note.case_id for r in results if r.note.case_id)
    _demo_conflict_and_typed_links(engine, case_id)
    return engine, case_id


def _demo_conflict_and_typed_links(engine: Any, case_id: str) -> None:
    """What the model's decision would find in the demo case (the screenshots run without
    one): the defendant's claim contradicts the service centre's report — a conflict the
    lawyer settles — and the report proves the fact it is about."""
    notes = engine.list_notes(case_id)

    def find(start: str) -> Any:
        return next(n for n in notes if n.content.startswith(start))

    report = find("品牌官方售后网点")
    claim = find("被告在答辩状中称")
    defect = find("花屏发生在签收后")
    engine.update_note(report.id, source_kind="证据显示", actor="import")
    engine.link_notes(claim.id, report.id, kind="conflict", reason="花屏原因说法相反", label="矛盾")
    engine.link_notes(report.id, defect.id, kind="evolution", strength=0.9,
                      reason="检测报告证明属质量问题", label="证明")
    statute = find("《中华人民共和国消费者权益保护法》第二十四")
    engine.link_notes(statute.id, defect.id, kind="evolution", strength=0.9,
                      reason="质量问题可依此退货", label="适用")


def _add_demo_conversation(engine: Any, case_id: str, lang: str) -> Any:
    title = "退货退款的依据与诉求" if lang == "zh_CN" else "Refund: grounds and claims"
    conv = engine.create_conversation(case_id, title)
    recall = engine.recall_for_chat(DEMO_QUESTION[lang], case_id)
    ids = tuple(n.id for n in recall.notes) or tuple(
        n.id for n in engine.list_notes(case_id, limit=4)
    )
    engine.add_message(conv.id, "user", DEMO_QUESTION[lang])
    engine.add_message(conv.id, "assistant", DEMO_ANSWER[lang], injected_note_ids=ids)
    other = "证据清单整理" if lang == "zh_CN" else "Evidence checklist"
    engine.create_conversation(case_id, other)
    return conv


def _dialog_shots(engine: Any, case_id: str, win: Any, shot: Any) -> None:
    """The merge dialog on two notes about the laptop's defect, and the check-up's conflict
    dialog on the demo's open conflict."""
    from desktop_app.ui.maintenance.conflict_dialog import ConflictDialog
    from desktop_app.ui.notes.merge_dialog import MergeDialog, load_merge_notes

    notes = engine.list_notes(case_id, status="active", limit=200)
    screen = [n for n in notes if "屏" in n.content][:2]
    if len(screen) == 2:
        dlg = MergeDialog(load_merge_notes(engine, [n.id for n in screen]), win)
        dlg.show()
        shot("merge", dlg)
        dlg.close()
    conflicts = engine.open_conflicts(case_id)
    if conflicts:
        pair = [conflicts[0].first.id, conflicts[0].second.id]
        dlg = ConflictDialog(load_merge_notes(engine, pair), win)
        dlg.show()
        shot("checkup-conflict", dlg)
        dlg.close()


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

                def shot(
                    name: str, widget: Any = None, _prefix: str = prefix, _win: Any = win
                ) -> None:
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
                    notes = win.notes
                    # a search that finds nothing says so
                    notes.search.setText("离婚抚养权" if lang == "zh_CN" else "child custody in a divorce")
                    notes.apply_filters()
                    _pump(app, 3.0, until=lambda n=notes: not n.model.loading and n.no_match.isVisible())
                    shot("notes-search-no-match")
                    notes.search.clear()
                    notes.apply_filters()
                    _pump(app, 1.0, until=lambda n=notes: n.model.rowCount() > 0)
                    # expiring a note says so and offers to take it back (then it is taken back)
                    victim = notes.model.note_at(0)
                    notes.expire_note(victim.id)
                    _pump(app, 2.0, until=lambda n=notes: n.undo_bar.isVisible())
                    shot("notes-expired-undo")
                    notes.undo_bar.undo_button.click()
                    _pump(app, 2.0, until=lambda n=notes, v=victim: n.model.row_of(v.id) >= 0)
                    win.notes.timeline_mode.click()
                    _pump(app, 0.6)
                    shot("timeline")
                    win.notes.table_mode.click()
                    # open conflicts: the badge, the filter and the detail pane's choices
                    win.notes.conflicts.setChecked(True)
                    _pump(app, 0.5, until=lambda w=win: w.notes.model.rowCount() > 0)
                    win.notes._select_row(0)
                    _pump(app, 0.6, until=lambda w=win: w.notes.detail.conflict_box.isVisible())
                    shot("conflicts")
                    win.notes.conflicts.setChecked(False)
                    _pump(app, 0.4)
                    _dialog_shots(engine, case_id, win, shot)
                win.tabs.setCurrentIndex(TAB_GRAPH)
                _pump(
                    app,
                    3.0,
                    until=lambda w=win: w.graph.view is None or not w.graph.view.is_laying_out(),
                )
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
                    host2 = EngineHost(
                        data_dir / "first-run", Settings(language=lang), llm_factory=lambda s: None
                    )
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
