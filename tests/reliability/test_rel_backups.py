"""Backups: scheduled online snapshots, keep-last-N, restore (also of a damaged database),
and "forget" reaching into every backup copy."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from desktop_app.core.errors import CorruptDatabaseError, InvalidInputError
from desktop_app.memory import MemoryEngine
from desktop_app.memory.backups import (
    BackupManager,
    find_in_backups,
    list_backups,
    restore_database,
)

SECRET = "证人赵六的真实住址是翡翠路Vellichor巷七号"
SECRET_V2 = "证人赵六现住翡翠路Vellichor巷九号"


def _fill(eng: MemoryEngine, case_id: str) -> None:
    eng.add_notes(
        [
            {"content": "原告张三于2024年3月15日购买笔记本电脑，价格8999元", "case_id": case_id},
            {"content": "电脑使用两周后屏幕出现花屏", "case_id": case_id},
            {"content": "The plaintiff kept the original invoice", "case_id": case_id},
        ]
    )


def _rows(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _ids(hits) -> list[str]:
    return [h.note.id for h in hits]


def test_snapshot_is_consistent_self_contained_and_private(engine):
    case = engine.create_case("备份案")
    _fill(engine, case.id)
    mgr = BackupManager(engine, keep=3)
    info = mgr.snapshot()
    assert info.kind == "manual" and info.path.parent == engine.data_dir / "backups"
    assert _rows(info.path, "PRAGMA integrity_check") == [("ok",)]
    assert _rows(info.path, "SELECT COUNT(*) FROM notes") == [(3,)]
    # a single file: rollback journal, no WAL beside it, nothing half-written left over
    assert _rows(info.path, "PRAGMA journal_mode") == [("delete",)]
    assert sorted(p.name for p in info.path.parent.iterdir()) == [info.path.name]
    if os.name == "posix":
        assert info.path.parent.stat().st_mode & 0o777 == 0o700
        assert info.path.stat().st_mode & 0o777 == 0o600


def test_keeps_the_last_n_of_each_kind(engine):
    engine.add_note("全局偏好：回复请简洁")
    mgr = BackupManager(engine, keep=3)
    autos = [mgr.snapshot("auto").path for _ in range(5)]
    manual = mgr.snapshot("manual").path
    left = mgr.list()
    assert [b.path for b in left if b.kind == "auto"] == autos[::-1][:3]  # the newest three
    assert manual in [b.path for b in left]
    assert mgr.latest().path == manual


def test_schedule_snapshots_while_the_engine_writes(engine):
    case = engine.create_case("定时")
    mgr = BackupManager(engine, keep=4, interval=0.3, check_every=0.05)
    assert mgr.due()
    mgr.start()
    try:
        deadline = time.monotonic() + 15
        n = 0
        while len(mgr.list("auto")) < 3 and time.monotonic() < deadline:
            engine.add_note(f"定时备份期间写入的第{n}条记录", case_id=case.id)
            n += 1
    finally:
        mgr.stop()
    autos = mgr.list("auto")
    assert len(autos) >= 3 and mgr.last_error is None
    for b in autos:
        assert _rows(b.path, "PRAGMA integrity_check") == [("ok",)]
    # the newest snapshot is consistent: every note row it holds has its creation history
    assert _rows(
        autos[0].path,
        "SELECT COUNT(*) FROM notes WHERE id NOT IN (SELECT note_id FROM note_history)",
    ) == [(0,)]
    assert not mgr.due()  # just taken; the next one waits for the interval


def test_restore_brings_back_the_old_state_and_the_index_follows(engine):
    case = engine.create_case("恢复")
    _fill(engine, case.id)
    edited = engine.add_note("被告于2024年4月1日拒绝退货", case_id=case.id).note
    expired = engine.add_note("双方约定在北京仲裁委员会仲裁", case_id=case.id).note
    mgr = BackupManager(engine)
    snap = mgr.snapshot()
    # after the snapshot: an edit, an expiry, a new note
    engine.update_note(edited.id, content="原告撤回了全部诉讼请求")
    engine.expire_note(expired.id)
    later = engine.add_note("原告另行起诉要求精神损害赔偿", case_id=case.id).note
    progress: list[tuple[int, int]] = []
    eng = mgr.restore(snap.path, progress=lambda d, t: progress.append((d, t)))
    try:
        assert eng is mgr.engine and eng is not engine
        assert eng.get_note(edited.id).content == "被告于2024年4月1日拒绝退货"
        assert eng.get_note(expired.id).status == "active"
        with pytest.raises(Exception, match="not found"):
            eng.get_note(later.id)
        stats = eng.stats()
        assert stats.index_rows == stats.notes_total == 5
        # the index holds the restored text and status, not the newer ones
        assert edited.id in _ids(eng.search("拒绝退货", case_id=case.id, k=3))
        assert expired.id in _ids(eng.search("北京仲裁委员会", case_id=case.id, k=3))
        assert later.id not in _ids(eng.search("精神损害赔偿", case_id=case.id, k=5))
        # the newer wording left no full-text terms behind (a stale row would match them)
        stale = [
            h
            for h in eng.search("撤回全部诉讼请求", case_id=case.id, k=5)
            if h.note.id == edited.id
        ]
        assert all(h.parts.text_rank is None for h in stale)
        assert progress and progress[-1][0] == progress[-1][1]
        # the replaced database was kept: the restore itself can be undone
        pre = mgr.list("pre-restore")
        assert len(pre) == 1
        assert _rows(pre[0].path, f"SELECT content FROM notes WHERE id = '{later.id}'") == [
            ("原告另行起诉要求精神损害赔偿",)
        ]
    finally:
        eng.close()


def test_a_bad_backup_is_refused_before_anything_changes(engine, tmp_path):
    engine.add_note("一条不应受影响的记录")
    mgr = BackupManager(engine)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CorruptDatabaseError) as err:
        mgr.restore(junk)
    assert "备份" in err.value.user_message and "damaged" in err.value.user_message
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(InvalidInputError, match="not a LexMem database"):
        mgr.restore(other)
    with pytest.raises(InvalidInputError):
        mgr.restore("latest")  # there is none yet
    assert mgr.engine is engine and engine.stats().notes_total == 1  # still open, untouched


def _damage(db: Path) -> None:
    """Overwrite pages in the middle of the file (the header stays valid)."""
    size = db.stat().st_size
    with db.open("r+b") as fh:
        for offset in range(4096, size, 8192):
            fh.seek(offset)
            fh.write(os.urandom(2048))


def test_a_damaged_database_is_moved_aside_and_restored(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("损坏")
        _fill(eng, case.id)
        eng.add_notes(
            [
                {"content": f"填充记录第{i}条，用于让数据库跨越多页", "case_id": case.id}
                for i in range(60)
            ]
        )
        BackupManager(eng).snapshot("auto")
    db = data / "lexmem.sqlite3"
    db.write_bytes(b"\x00" * 100 + db.read_bytes()[100:])  # header destroyed
    with pytest.raises(CorruptDatabaseError) as err:
        MemoryEngine.open(data, embedder=embedder)
    assert "备份" in err.value.user_message and "backup" in err.value.user_message
    # what the app (or `lexmem-cli restore latest`) does then, with no engine open:
    backup = next(b for b in list_backups(data) if b.kind == "auto").path
    kept = restore_database(data, backup)
    assert kept is not None and "damaged" in kept.name and kept.exists()
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng.stats().notes_total == 63 == eng.stats().index_rows
        assert (
            eng.search("花屏", case_id=case.id, k=1)[0].note.content == "电脑使用两周后屏幕出现花屏"
        )
    assert [b.kind for b in list_backups(data)].count("damaged") == 1


def test_restore_drops_a_stale_wal_of_another_database(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("wal")
        _fill(eng, case.id)
        snap = BackupManager(eng).snapshot()
    # A foreign WAL with committed frames (copied while its writer is still open), left
    # beside the database: SQLite would replay it into whatever file sits there.
    foreign = tmp_path / "foreign.sqlite3"
    conn = sqlite3.connect(foreign, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("CREATE TABLE notes (id TEXT, junk BLOB)")
    conn.executemany(
        "INSERT INTO notes VALUES (?, randomblob(3000))", [(str(i),) for i in range(50)]
    )
    (data / "lexmem.sqlite3-wal").write_bytes((tmp_path / "foreign.sqlite3-wal").read_bytes())
    conn.close()
    restore_database(data, snap.path)
    assert not (data / "lexmem.sqlite3-wal").exists()
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng._store.integrity_ok() and eng.stats().notes_total == 3


def test_forget_reaches_every_backup_and_says_which_still_hold_it(engine):
    case = engine.create_case("遗忘")
    _fill(engine, case.id)
    note = engine.add_note(SECRET, case_id=case.id).note
    engine.update_note(note.id, content=SECRET_V2)  # the first wording now lives in history
    mgr = BackupManager(engine, keep=5)
    first, second = mgr.snapshot("auto"), mgr.snapshot("manual")
    conv = engine.create_conversation(case.id, "会见记录")
    engine.add_message(conv.id, "user", f"记一下：{SECRET}")  # the chat quotes it too
    third = mgr.snapshot("auto")
    assert set(mgr.find_in_backups("Vellichor")) == {first.path, second.path, third.path}

    report = mgr.forget_note(note.id)
    assert set(report.purged) == {first.path, second.path, third.path}
    assert report.notes_removed == 3
    # the note is gone from every copy; the chat message still quotes it in the third one,
    # and the report says exactly that
    assert report.still_holding == [third.path] and not report.complete
    assert mgr.find_in_backups(SECRET_V2) == []
    assert mgr.find_in_backups(SECRET) == [third.path]

    report = mgr.purge_from_backups(text=SECRET)
    assert report.complete and report.purged == [third.path]
    assert find_in_backups(engine.data_dir, "Vellichor") == []
    for b in mgr.list():
        blob = b.path.read_bytes()
        assert b"Vellichor" not in blob and note.id.encode() not in blob
        # the other notes survive, and the copy is still a sound database
        assert _rows(b.path, "PRAGMA integrity_check") == [("ok",)]
        assert _rows(b.path, "SELECT COUNT(*) FROM notes") == [(3,)]
    assert _rows(third.path, "SELECT COUNT(*) FROM messages") == [(0,)]
    assert _rows(third.path, "SELECT COUNT(*) FROM conversations") == [(1,)]


def test_a_purge_by_text_reaches_a_link_that_quotes_it(engine):
    # links are a WITHOUT ROWID table (migration 0012): a purge that looked rows up by rowid
    # found none there and left the quoted text in the copy
    case = engine.create_case("链接")
    _fill(engine, case.id)
    a, b = (engine.add_note(t, case_id=case.id).note for t in ("证人赵六出庭作证", "证人证言笔录"))
    engine.link_notes(a.id, b.id, reason=f"两者都提到{SECRET}")
    mgr = BackupManager(engine, keep=5)
    copy = mgr.snapshot("manual")
    assert mgr.find_in_backups("Vellichor") == [copy.path]

    report = mgr.purge_from_backups(text=SECRET)
    assert report.complete and report.purged == [copy.path]
    assert b"Vellichor" not in copy.path.read_bytes()
    assert _rows(copy.path, "PRAGMA integrity_check") == [("ok",)]
    # only the link that quoted the text went; both notes stay
    assert _rows(copy.path, f"SELECT COUNT(*) FROM notes WHERE id IN ('{a.id}', '{b.id}')") == [
        (2,)
    ]
    assert _rows(
        copy.path, f"SELECT COUNT(*) FROM links WHERE src = '{a.id}' AND dst = '{b.id}'"
    ) == [(0,)]
