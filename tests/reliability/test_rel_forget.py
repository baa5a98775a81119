"""Forget means gone: what the model derived from a note goes with it, "complete" is said only
after a scan of every file finds none of its distinctive terms, a model's error quoting the
note is not kept, and a whole case can be deleted with the same proof.

The scripted server plays the model (evolution copies the new fact into a neighbour's
context, as a real model does); every check is a byte scan of every file of the data folder
— database, WAL, index versions, backups, temporary copies, logs — plus SQL on each SQLite
file (issue 14, items 1, 4 and 5).
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes.llm_server import FakeLLMServer, Reply
from fakes.scripted_model import ScriptedModel
from reliability.scan_helpers import ROOT, holders

from desktop_app.core.logging_setup import setup_logging
from desktop_app.llm import JsonModeCache, LLMClient, TokenMeter
from desktop_app.memory import MemoryEngine
from desktop_app.memory.backups import BackupManager

SECRET = "证人赵六的真实住址是翡翠路Vellichor巷七号"
DERIVED_CONTEXT = "关联新记录：证人赵六住在翡翠路Vellichor巷七号"
DERIVED_TAG = "赵六住址Vellichor"
NEIGHBOUR = "证人赵六同意出庭作证，开庭时间待定"
OTHERS = ["原告张三于2024年3月15日购买笔记本电脑", "被告辩称屏幕损坏系人为造成"]
NEEDLES = ["Vellichor", "vellichor", "翡翠路", SECRET, DERIVED_CONTEXT]


def _alias(shown: dict[int, str], text: str) -> int | None:
    return next((n for n, content in shown.items() if text in content), None)


@pytest.fixture
def model() -> ScriptedModel:
    return ScriptedModel()


@pytest.fixture
def logged(tmp_path) -> Iterator[Path]:
    """The app's log in the data folder, at INFO (what a user's log holds)."""
    data = tmp_path / "data"
    handler = setup_logging(data / "logs" / "lexmem.log", level=logging.INFO)
    try:
        yield data
    finally:
        handler.flush()
        logging.getLogger().removeHandler(handler)
        handler.close()


@pytest.fixture
def agentic(logged, embedder, model) -> Iterator[MemoryEngine]:
    with FakeLLMServer(responder=model) as srv:
        llm = LLMClient(
            srv.config(), mode_cache=JsonModeCache(), meter=TokenMeter(), sleep=lambda s: None
        )
        eng = MemoryEngine.open(logged, embedder=embedder, llm=llm)
        try:
            yield eng
        finally:
            eng.close()


def _evolve_into_neighbour(model: ScriptedModel) -> None:
    """The model reads the new note and rewrites the neighbour's context and tags with it."""

    def answer(prompt: str, shown: dict[int, str]) -> dict:
        target = _alias(shown, NEIGHBOUR)
        if "Vellichor" not in prompt or target is None:
            return {"links": [], "tags": None, "neighbour_updates": []}
        return {
            "links": [{"target": target, "reason": "同一证人"}],
            "tags": None,
            "neighbour_updates": [
                {"target": target, "context": DERIVED_CONTEXT, "tags": [DERIVED_TAG]}
            ],
        }

    model.evolve_answer = answer


def test_forget_rolls_back_what_evolution_derived_everywhere(agentic, model):
    eng = agentic
    data = eng.data_dir
    case = eng.create_case("遗忘：派生")
    _evolve_into_neighbour(model)
    neighbour = eng.add_note(NEIGHBOUR, case_id=case.id, wait=True).note
    for text in OTHERS:
        eng.add_note(text, case_id=case.id, wait=True)
    before = eng.get_note(neighbour.id)
    mgr = BackupManager(eng, keep=5)
    clean_copy = mgr.snapshot("auto").path  # taken before the note existed
    note = eng.add_note(SECRET, case_id=case.id, wait=True).note
    evolved = eng.get_note(neighbour.id)
    assert evolved.context == DERIVED_CONTEXT and DERIVED_TAG in evolved.tags  # the setup held
    eng.search("Vellichor 翡翠路", case_id=case.id, k=3)
    copies = [mgr.snapshot("auto").path, mgr.snapshot("manual").path]
    assert holders(data, ["Vellichor"])  # the scan sees it before the forget

    report = mgr.forget_note(note.id)

    assert holders(data, [*NEEDLES, note.id]) == []
    assert report.complete
    assert set(report.purged) == set(copies) and clean_copy not in report.purged
    after = eng.get_note(neighbour.id)
    assert after.context == before.context and list(after.tags) == list(before.tags)
    assert not any(
        "Vellichor" in json.dumps([h.before, h.after, h.reason], ensure_ascii=False)
        for h in eng.note_history(neighbour.id)
    )
    # the index serves the rolled-back neighbour: its terms no longer hold the derived text
    hits = eng.search("翡翠路 Vellichor", case_id=case.id, k=5)
    assert all(h.parts.text_rank is None for h in hits if h.note.id == neighbour.id)
    assert eng.stats().index_rows == eng.stats().notes_total == 1 + len(OTHERS)


def test_a_forgotten_supersede_makes_the_old_fact_current_again(agentic, model):
    eng = agentic
    case = eng.create_case("遗忘：取代")
    model.decide_rules.append(
        lambda note, shown: (
            {"action": "SUPERSEDE", "target": _alias(shown, "月薪8000元")}
            if "Quenby" in note and _alias(shown, "月薪8000元")
            else None
        )
    )
    old = eng.add_note("员工李四的月薪8000元", case_id=case.id, wait=True).note
    new = eng.add_note("员工李四的月薪调整为Quenby方案9500元", case_id=case.id, wait=True)
    assert new.action == "superseded" and eng.get_note(old.id).status == "superseded"
    report = BackupManager(eng).forget_note(new.note.id)
    restored = eng.get_note(old.id)
    assert restored.status == "active" and restored.invalid_at is None
    assert report.complete and old.id in report.reverted
    assert eng.search("李四月薪", case_id=case.id, k=3)[0].note.id == old.id
    assert holders(eng.data_dir, ["Quenby", new.note.id]) == []


def test_complete_is_said_only_when_no_file_holds_the_text(engine):
    case = engine.create_case("遗忘：聊天引用")
    note = engine.add_note(SECRET, case_id=case.id).note
    BackupManager(engine).snapshot("auto")  # holds the note, not the chat below
    conv = engine.create_conversation(case.id, "会见")
    engine.add_message(conv.id, "user", f"请记住：{SECRET}")  # the chat quotes the note
    report = BackupManager(engine).forget_note(note.id)
    # the note is gone from every copy, but a chat message in the live database still
    # quotes it: the forget says so instead of "complete"
    assert not report.complete
    assert any("lexmem.sqlite3" in place for place in report.live_places), report
    assert report.still_holding == []  # the backup never held the message
    assert holders(engine.data_dir, [note.id]) == []
    engine.delete_conversation(conv.id)
    assert holders(engine.data_dir, ["Vellichor"]) == []


# ------------------------------------------------------------- an endpoint quoting the note

QUOTED = "当事人王五的银行账号是6222Zephyrine0099"


def test_an_error_that_quotes_the_note_is_kept_by_class_and_status_only(logged, embedder):
    quoting = lambda body: Reply.fail(  # noqa: E731 - the endpoint quotes the input back
        400, f"Content rejected: '{QUOTED}' contains disallowed text", code="content_filter"
    )
    with FakeLLMServer(responder=quoting) as srv:
        llm = LLMClient(srv.config(), mode_cache=JsonModeCache(), sleep=lambda s: None)
        with MemoryEngine.open(logged, embedder=embedder, llm=llm) as eng:
            case = eng.create_case("报错引用")
            note = eng.add_note(QUOTED, case_id=case.id).note
            eng.run_pending_jobs()
            errors = [r[0] for r in eng._store.query("SELECT last_error FROM jobs")]
            assert errors and all(e == "RequestRejectedError (HTTP 400)" for e in errors), errors
            BackupManager(eng).snapshot("auto")
            report = eng.forget_note(note.id)
            assert report.complete, report
    for handler in logging.getLogger().handlers:
        handler.flush()
    assert (logged / "logs" / "lexmem.log").stat().st_size > 0
    assert holders(logged, ["Zephyrine", QUOTED]) == []


# -------------------------------------------------------------------------- delete a case

CASE_NAME = "王五诉Marrowgate物业合同纠纷"
CASE_NOTES = [
    "物业公司Marrowgate于2023年5月停止供暖",
    "王五已缴纳2023年度物业费4800元",
    "小区业主群聊天记录可以证明停暖时间",
]
CASE_MESSAGE = "王五说Marrowgate物业的经理姓欧阳"
OTHER_NOTES = ["另案：赵钱孙李劳动仲裁已立案", "另案：仲裁庭定于下月开庭"]


def _fill_case(eng: MemoryEngine) -> tuple[str, str]:
    case = eng.create_case(CASE_NAME, "一起物业服务合同纠纷")
    other = eng.create_case("另一个案件")
    results = eng.add_notes([{"content": t, "case_id": case.id} for t in CASE_NOTES])
    eng.add_notes([{"content": t, "case_id": other.id} for t in OTHER_NOTES])
    first, second = (r.note.id for r in results[:2])
    eng.update_note(first, content=CASE_NOTES[0] + "（业主多次投诉）")  # history
    eng.link_notes(first, second, reason="同一合同")
    eng.save_graph_positions(case.id, {first: (1.0, 2.0), second: (3.0, 4.0)})
    conv = eng.create_conversation(case.id, "Marrowgate首次会见")
    eng.add_message(conv.id, "user", CASE_MESSAGE)
    eng.add_message(conv.id, "assistant", "好的，我记下了经理的信息。")
    eng.ingest_turn(CASE_MESSAGE, "好的", case_id=case.id, conversation_id=conv.id)  # a job
    return case.id, other.id


def test_deleting_a_case_removes_everything_in_it_everywhere(engine):
    case_id, other_id = _fill_case(engine)
    mgr = BackupManager(engine, keep=5)
    copies = [mgr.snapshot("auto").path, mgr.snapshot("manual").path]
    contents = engine.case_contents(case_id)
    assert (contents.notes, contents.conversations, contents.messages, contents.jobs) == (
        3,
        1,
        2,
        1,
    )
    assert contents.backups == 2 and contents.case.name == CASE_NAME

    report = engine.delete_case(case_id)

    assert report.complete, report
    assert set(report.purged) == set(copies)
    needles = ["Marrowgate", "marrowgate", CASE_NAME, CASE_MESSAGE, *CASE_NOTES, case_id]
    assert holders(engine.data_dir, needles) == []
    # nothing of the other case was touched, live or in the backups
    assert [n.content for n in engine.list_notes(other_id)] == OTHER_NOTES
    for copy in copies:
        conn = sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True)
        try:
            kept = {r[0] for r in conn.execute("SELECT content FROM notes")}
            assert kept == set(OTHER_NOTES)
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        finally:
            conn.close()
    assert [c.id for c in engine.list_cases(include_archived=True)] == [other_id]
    assert engine.stats().index_rows == engine.stats().notes_total == len(OTHER_NOTES)


def test_the_cli_deletes_a_case_only_when_told_twice(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case_id, _other = _fill_case(eng)
        BackupManager(eng).snapshot("auto")
    asked = run_child_cli(data, "delete-case", CASE_NAME)
    assert asked.returncode == 1, asked.stderr
    assert "3" in asked.stdout and "--yes" in asked.stdout  # says what would go, and how
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng.get_case(case_id).name == CASE_NAME  # nothing happened
    done = run_child_cli(data, "delete-case", CASE_NAME, "--yes")
    assert done.returncode == 0, done.stderr
    assert holders(data, ["Marrowgate", CASE_MESSAGE, *CASE_NOTES]) == []


def run_child_cli(data: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "desktop_app.cli", "--data-dir", str(data), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
