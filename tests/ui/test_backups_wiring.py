"""The app's side of backups: Forget reaches the backups, a damaged database offers the
newest backup, and the restore goes through the verified path."""

from __future__ import annotations

from pathlib import Path

from desktop_app.core.settings import Settings
from desktop_app.memory import MemoryEngine
from desktop_app.memory.backups import BackupManager, list_backups
from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.main_window import MainWindow
from desktop_app.ui.notes.view import NotesView

SECRET = "证人化名Quorvandel提供了关键录音"


def _bytes_in(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


def test_delete_in_the_notes_view_forgets_the_text_in_backups_too(qtbot, make_host, no_dialogs):
    host = make_host()
    eng = host.engine
    case = eng.create_case("保密案件")
    note = eng.add_note(SECRET, case_id=case.id).note
    eng.add_note("其他无关的记录", case_id=case.id)
    conv = eng.create_conversation(case.id, "谈话")
    eng.add_message(conv.id, "user", f"请记住：{SECRET}")  # the chat quotes the note
    assert host.backups is not None
    host.backups.snapshot("manual")
    backups = host.data_dir / "backups"
    assert SECRET.encode() in _bytes_in(backups)

    view = NotesView(host)
    qtbot.addWidget(view)
    view.set_case(case.id)
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=10_000)
    view.detail.show_note(eng.get_note(note.id))
    with qtbot.waitSignal(view.statusMessage, timeout=30_000) as said:
        view.delete_note(note.id)  # confirm: yes; then "purge the backups too?": yes
    assert said.args == ["The text is gone from every backup."]
    assert SECRET.encode() not in _bytes_in(backups)
    assert eng.count_notes(case.id) == 1


def test_a_damaged_database_offers_the_newest_backup(qtbot, tmp_path, embedder, no_dialogs):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("恢复测试")
        kept = eng.add_note("备份里保存的记录", case_id=case.id).note
        BackupManager(eng).snapshot("manual")
    db = data / "lexmem.sqlite3"
    db.write_bytes(b"this is not a database" + db.read_bytes()[64:])

    host = EngineHost(
        data,
        Settings(language="en"),
        engine_factory=lambda path, llm, s: MemoryEngine.open(path, llm=llm, embedder=embedder),
        llm_factory=lambda s: None,
    )
    win = MainWindow(host)
    qtbot.addWidget(win)
    asked = []
    assert no_dialogs["confirm"] is True  # the user takes the offered backup
    host.stateChanged.connect(asked.append)
    host.open()
    qtbot.waitUntil(lambda: "failed" in asked and asked[-1] == "ready", timeout=30_000)
    try:
        assert host.error is None
        assert host.engine.get_note(kept.id).content == "备份里保存的记录"
        assert no_dialogs["errors"] == []  # offered a restore instead of only an error
        kinds = {b.kind for b in list_backups(data)}
        assert "damaged" in kinds  # the damaged file was kept aside, not destroyed
    finally:
        host.close()
