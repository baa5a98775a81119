"""Damaged files: the LanceDB index (rebuilt at open, with progress) and the SQLite database
(a clear CorruptDatabaseError, never a raw sqlite3 error, and the file released so it can
be restored)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from desktop_app.core.errors import CorruptDatabaseError, LexMemError
from desktop_app.memory import MemoryEngine
from desktop_app.memory.backups import BackupManager, list_backups

NOTES = [
    "原告张三于2024年3月15日购买笔记本电脑，价格8999元",
    "电脑使用两周后屏幕出现花屏",
    "原告三次联系客服均被推诿",
    "The plaintiff kept the original invoice and chat logs",
    "被告辩称屏幕损坏系人为造成",
]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory, embedder) -> tuple[Path, str, dict[str, str]]:
    """A data folder with a few notes, copied fresh for each damage scenario."""
    data = tmp_path_factory.mktemp("pristine") / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("索引损坏")
        ids = {
            r.note.content: r.note.id
            for r in eng.add_notes([{"content": t, "case_id": case.id} for t in NOTES])
        }
        # padding so that the SQLite file has data pages well away from its schema pages
        eng.add_notes(
            [
                {"content": f"填充记录第{i}条：{'证据材料' * 30}", "case_id": case.id}
                for i in range(120)
            ]
        )
    return data, case.id, ids


def _copy(pristine, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(pristine[0], data)
    return data


def _truncate_files(folder: Path) -> None:
    for p in folder.rglob("*"):
        if p.is_file():
            p.write_bytes(p.read_bytes()[: max(1, p.stat().st_size // 3)])


def _garble_manifests(folder: Path) -> None:
    for p in folder.rglob("*.manifest"):
        p.write_bytes(os.urandom(p.stat().st_size))


def _drop_data_files(folder: Path) -> None:
    for p in folder.rglob("*.lance"):
        if p.is_file():
            p.unlink()


def _other_schema(folder: Path) -> None:
    """A `notes` table from "another version": other columns, 384-dim vectors."""
    import lancedb

    shutil.rmtree(folder)
    db = lancedb.connect(str(folder))
    db.create_table(
        "notes",
        data=[
            {"id": "x", "text": "旧版本的索引", "vector": np.zeros(384, dtype=np.float32).tolist()}
        ],
    )


def _empty_folder_file(folder: Path) -> None:
    shutil.rmtree(folder)
    folder.write_text("not a folder")  # the index path is a file now


DAMAGE = {
    "folder deleted": lambda f: shutil.rmtree(f),
    "files truncated": _truncate_files,
    "manifests garbled": _garble_manifests,
    "data files missing": _drop_data_files,
    "table of another schema": _other_schema,
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damaged_index_is_rebuilt_at_open_with_progress(pristine, tmp_path, embedder, damage):
    data = _copy(pristine, tmp_path)
    _, case_id, ids = pristine
    DAMAGE[damage](data / "index")
    progress: list[tuple[int, int]] = []
    with MemoryEngine.open(
        data, embedder=embedder, progress=lambda d, t: progress.append((d, t))
    ) as eng:
        stats = eng.stats()
        assert stats.index_rows == stats.notes_total == len(NOTES) + 120
        assert progress and progress[-1] == (stats.notes_total, stats.notes_total)
        for text, note_id in ids.items():
            assert note_id in [h.note.id for h in eng.search(text, case_id=case_id, k=3)], text
        # and it keeps working: a new note is found at once
        new = eng.add_note("重建之后新增的记录：鉴定机构出具报告", case_id=case_id).note
        assert eng.search("鉴定机构出具报告", case_id=case_id, k=1)[0].note.id == new.id
    # the rebuilt index is in step: the next open embeds nothing
    with MemoryEngine.open(
        data, embedder=embedder, progress=lambda d, t: progress.append((-1, t))
    ) as eng:
        assert eng.stats().index_rows == len(NOTES) + 121
    assert (-1, len(NOTES) + 121) not in progress


def _damage_page_holding(db: Path, needle: str) -> None:
    blob = db.read_bytes()
    at = blob.find(needle.encode())
    assert at > 0
    page = at // 4096
    with db.open("r+b") as fh:
        fh.seek(page * 4096)
        fh.write(os.urandom(4096))


def _open_fds_to(path: Path) -> list[str]:
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(path)):
            out.append(target)
    return out


@pytest.mark.parametrize("how", ["header", "half", "data page"])
def test_damaged_database_gives_a_clear_error_never_a_raw_one(pristine, tmp_path, embedder, how):
    data = _copy(pristine, tmp_path)
    _, case_id, ids = pristine
    db = data / "lexmem.sqlite3"
    if how == "header":
        db.write_bytes(os.urandom(100) + db.read_bytes()[100:])
    elif how == "half":
        db.write_bytes(db.read_bytes()[: db.stat().st_size // 2])
    else:
        _damage_page_holding(db, NOTES[1])
    try:
        eng = MemoryEngine.open(data, embedder=embedder)
    except CorruptDatabaseError as exc:
        assert "备份" in exc.user_message and "backup" in exc.user_message
        return
    # Opening may succeed when the damage sits in a data page; then every call must say
    # "damaged, restore from a backup" (or work) — a raw sqlite3 error reaches no caller.
    try:
        calls = {
            "list": lambda: eng.list_notes(case_id),
            "get": lambda: [eng.get_note(i) for i in ids.values()],
            "search": lambda: eng.search(NOTES[1], case_id=case_id, k=5),
            "add": lambda: eng.add_note("损坏后尝试新增的记录", case_id=case_id),
            "update": lambda: eng.update_note(ids[NOTES[0]], content="损坏后尝试修改的记录"),
            "backup": lambda: BackupManager(eng).snapshot(),
        }
        raw = {}
        for name, call in calls.items():
            try:
                call()
            except LexMemError as exc:
                assert isinstance(exc, CorruptDatabaseError), (name, exc)
            except sqlite3.DatabaseError as exc:
                raw[name] = str(exc)
        assert raw == {}, f"raw sqlite3 errors escaped: {raw}"
    finally:
        try:
            eng.close()
        except LexMemError:
            pass


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc (Linux)")
def test_a_failed_open_releases_the_database_file(pristine, tmp_path, embedder):
    # The app keeps the error to show the "restore from backup" dialog; on Windows a file
    # still open cannot be replaced, so a failed open must not hold it.
    data = _copy(pristine, tmp_path)
    db = data / "lexmem.sqlite3"
    db.write_bytes(db.read_bytes()[: db.stat().st_size // 2])
    with pytest.raises(CorruptDatabaseError) as kept:
        MemoryEngine.open(data, embedder=embedder)
    assert kept.value.__traceback__ is not None  # the error (and its frames) are still alive
    assert _open_fds_to(db) == []


def test_a_raw_copy_of_an_older_database_is_reindexed_by_content(tmp_path, embedder):
    """A database file put back by hand (or by a sync tool), not through restore(): notes
    edited or expired since have the same ids in index and database, so the id-set repair
    keeps their newer index rows."""
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("手工恢复")
        eng.add_notes([{"content": t, "case_id": case.id} for t in NOTES])
        expired = eng.add_note("双方约定在北京仲裁委员会仲裁", case_id=case.id).note
        eng.backup(tmp_path / "old.sqlite3")
        eng.expire_note(expired.id)
    shutil.copyfile(tmp_path / "old.sqlite3", data / "lexmem.sqlite3")
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng.get_note(expired.id).status == "active"
        hits = [h.note.id for h in eng.search("北京仲裁委员会", case_id=case.id, k=3)]
        assert expired.id in hits


# ------------------------------------------------------- issue 14: items 7, 8 and 9


@pytest.fixture(scope="module")
def with_backup(tmp_path_factory, embedder) -> tuple[Path, str, dict[str, str]]:
    """50 notes, their index, and one backup."""
    data = tmp_path_factory.mktemp("missing") / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("数据库丢失")
        ids = {
            r.note.content: r.note.id
            for r in eng.add_notes(
                [
                    {"content": f"第{i}条记录：{NOTES[i % len(NOTES)]}", "case_id": case.id}
                    for i in range(50)
                ]
            )
        }
        BackupManager(eng).snapshot("auto")
    return data, case.id, ids


def _index_rows(data: Path) -> int:
    import lancedb

    return lancedb.connect(str(data / "index")).open_table("notes").count_rows()


@pytest.mark.parametrize("how", ["deleted", "emptied", "deleted, no backup"])
def test_a_missing_database_is_refused_not_replaced_by_an_empty_one(
    with_backup, tmp_path, embedder, how
):
    data = tmp_path / "data"
    shutil.copytree(with_backup[0], data)
    db = data / "lexmem.sqlite3"
    if how == "emptied":
        db.write_bytes(b"")
    else:
        db.unlink()
    if "no backup" in how:
        shutil.rmtree(data / "backups")
    with pytest.raises(CorruptDatabaseError) as err:
        MemoryEngine.open(data, embedder=embedder)
    message = err.value.user_message
    assert "backup" in message and "备份" in message
    if "no backup" in how:
        assert "move this folder" in message  # what to do when there is nothing to restore
    assert _index_rows(data) == 50  # the index was not wiped
    assert not db.exists() or db.stat().st_size == 0  # no empty database was created
    if "no backup" in how:
        return
    # what the app offers (and `lexmem-cli restore latest` does): the newest backup
    from desktop_app.memory.backups import restore_database

    restore_database(data, list_backups(data)[0].path)
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng.stats().notes_total == 50 == eng.stats().index_rows


def _btree_pages(db: Path) -> dict[str, int]:
    """The first page of every table and index of the database (dbstat)."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT name, MIN(pageno) FROM dbstat WHERE name != 'sqlite_schema' GROUP BY name"
        ).fetchall()
    finally:
        conn.close()
    return dict(rows)


def test_a_garbled_page_of_any_table_or_index_is_found_at_open(pristine, tmp_path, embedder):
    source, case_id, ids = pristine
    pages = _btree_pages(source / "lexmem.sqlite3")
    assert {"notes", "note_history", "links", "notes_scope_time"} <= pages.keys()
    found_at_open, raw = [], {}
    for n, (name, page) in enumerate(sorted(pages.items())):
        data = tmp_path / f"d{n}"
        shutil.copytree(source, data)
        if n % 2:  # closed cleanly by LexMem first: the page is garbled in that very file
            MemoryEngine.open(data, embedder=embedder).close()
            assert (data / "lexmem.sqlite3.clean-close").exists()
        db = data / "lexmem.sqlite3"
        with db.open("r+b") as fh:
            fh.seek((page - 1) * 4096)
            fh.write(os.urandom(4096))
        try:
            eng = MemoryEngine.open(data, embedder=embedder)
        except CorruptDatabaseError as exc:
            assert "backup" in exc.user_message
            found_at_open.append(name)
            continue
        try:  # opened: every call must work or say "damaged" — never a raw sqlite3 error
            for call in (
                lambda e=eng: e.search(NOTES[1], case_id=case_id, k=5),
                lambda e=eng: e.list_notes(case_id),
                lambda e=eng: [e.note_history(i) for i in ids.values()],
                lambda e=eng: e.add_note("损坏后新增", case_id=case_id),
            ):
                try:
                    call()
                except LexMemError:
                    pass
                except sqlite3.Error as exc:
                    raw[name] = str(exc)
        finally:
            try:
                eng.close()
            except LexMemError:
                pass
    assert raw == {}, f"raw sqlite3 errors escaped: {raw}"
    assert sorted(found_at_open) == sorted(pages), set(pages) - set(found_at_open)


def _truncate_data_files(folder: Path) -> None:
    for p in (folder / "notes.lance" / "data").glob("*.lance"):
        p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def _delete_fulltext_files(folder: Path) -> None:
    for part in (folder / "notes.lance" / "_indices").iterdir():
        if any("invert" in f.name or "tokens" in f.name for f in part.iterdir()):
            shutil.rmtree(part)


@pytest.mark.parametrize(
    "damage", [_truncate_data_files, _delete_fulltext_files], ids=["truncated", "no-fulltext"]
)
def test_a_broken_index_is_searched_around_then_rebuilt_at_the_next_open(
    pristine, tmp_path, embedder, damage
):
    data = _copy(pristine, tmp_path)
    _, case_id, ids = pristine
    damage(data / "index")
    total = len(NOTES) + 120
    # 1st open: the damage is found by the first search, which answers from SQLite
    with MemoryEngine.open(data, embedder=embedder) as eng:
        for text, note_id in ids.items():
            hits = eng.search(text, case_id=case_id, k=3)
            assert note_id in [h.note.id for h in hits], text
        assert all(h.parts.vector_rank is None for h in hits)  # not from the index
        assert eng._index.broken is not None
        new = eng.add_note("索引损坏期间新增的记录：对方当庭认可", case_id=case_id).note
        assert eng.search("对方当庭认可", case_id=case_id, k=1)[0].note.id == new.id
    # 2nd open: the promise kept — rebuilt, searched through the index again
    progress: list[tuple[int, int]] = []
    with MemoryEngine.open(
        data, embedder=embedder, progress=lambda d, t: progress.append((d, t))
    ) as eng:
        assert progress and progress[-1] == (total + 1, total + 1)
        assert eng.stats().index_rows == eng.stats().notes_total == total + 1
        hits = eng.search(NOTES[1], case_id=case_id, k=3)
        assert hits[0].note.id == ids[NOTES[1]] and hits[0].parts.vector_rank is not None
        assert eng._index.broken is None
    # 3rd open: in step, nothing to redo
    progress.clear()
    with MemoryEngine.open(
        data, embedder=embedder, progress=lambda d, t: progress.append((d, t))
    ) as eng:
        assert progress == [] and eng.stats().index_rows == total + 1
