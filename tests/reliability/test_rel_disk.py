"""A read-only data folder and a full disk: clear messages, nothing lost (issue 14, item 10).

The full disk is real where the tests may mount a small tmpfs (root), and injected everywhere
else with SQLite's ``max_page_count`` (which fails writes with the same SQLITE_FULL); the
read-only folder is a read-only bind mount (root) or a folder without write permission.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from reliability.scan_helpers import ROOT

from desktop_app.core.errors import DiskFullError, LexMemError, ReadOnlyFolderError, StorageError
from desktop_app.memory import MemoryEngine, backup_purge, backups
from desktop_app.memory.backups import BackupManager

pytestmark = pytest.mark.skipif(os.name != "posix", reason="mounts and modes are POSIX")

NOTES = [f"第{i}份证据：银行转账记录显示被告于三月{i}日收到货款" for i in range(1, 13)]


def _run(*cmd: str) -> bool:
    return subprocess.run(cmd, capture_output=True).returncode == 0


@contextlib.contextmanager
def _mounted(*cmd: str, target: Path) -> Iterator[bool]:
    ok = os.geteuid() == 0 and _run(*cmd)
    try:
        yield ok
    finally:
        if ok:
            _run("umount", "-l", str(target))


@contextlib.contextmanager
def read_only_view(folder: Path, view: Path) -> Iterator[Path]:
    """``folder`` seen read-only: a read-only bind mount as root, else no write permission."""
    view.mkdir()
    with _mounted("mount", "--bind", str(folder), str(view), target=view) as bound:
        if bound and _run("mount", "-o", "remount,ro,bind", str(view)):
            yield view
            return
        if os.geteuid() == 0:
            pytest.skip("root without mount: a mode cannot stop root from writing")
        os.chmod(folder, 0o500)
        try:
            yield folder
        finally:
            os.chmod(folder, 0o700)


def test_a_read_only_folder_gives_a_clear_message_and_changes_nothing(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        case = eng.create_case("只读")
        eng.add_notes([{"content": t, "case_id": case.id} for t in NOTES])
    before = {p: p.read_bytes() for p in data.rglob("*") if p.is_file()}
    with read_only_view(data, tmp_path / "ro") as ro:
        with pytest.raises(ReadOnlyFolderError) as err:
            MemoryEngine.open(ro, embedder=embedder)
        assert "只读" in err.value.user_message and "read-only" in err.value.user_message
        cli = subprocess.run(
            [sys.executable, "-m", "desktop_app.cli", "--data-dir", str(ro), "add", "一条新记录"],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert cli.returncode == 2 and "Traceback" not in cli.stderr, cli.stderr
        assert "read-only" in cli.stderr
    assert {p: p.read_bytes() for p in data.rglob("*") if p.is_file()} == before


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    disk = tmp_path / "disk"
    disk.mkdir()
    with _mounted("mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", str(disk), target=disk) as ok:
        if not ok:
            pytest.skip("cannot mount a tmpfs here (needs root); the injected variant runs")
        yield disk


def _fill(disk: Path) -> Path:
    """Take every free byte of the disk."""
    filler = disk / "filler.bin"
    chunk = b"\0" * (1 << 20)
    with filler.open("wb") as fh:
        with contextlib.suppress(OSError):
            while True:
                fh.write(chunk)
                fh.flush()
    with contextlib.suppress(OSError), filler.open("ab") as fh:
        while True:  # the last partial megabyte
            fh.write(b"\0" * 4096)
            fh.flush()
    return filler


def _write_until_full(eng: MemoryEngine, case_id: str) -> tuple[list[str], list[LexMemError]]:
    """Add, edit and back up until the disk refuses; returns (the ids of the notes whose add
    returned, the errors seen).  A raw error fails the test here."""
    added: list[str] = []
    errors: list[LexMemError] = []
    mgr = BackupManager(eng)
    for i in range(300):
        try:
            note = eng.add_note(f"磁盘写满前后的第{i}条记录：{'证据摘要' * 40}", case_id=case_id)
            added.append(note.note.id)
            eng.update_note(added[0], content=f"第0条记录的第{i}次修改：{'摘要' * 30}")
            if i % 5 == 0:
                mgr.snapshot("manual")
        except LexMemError as exc:
            errors.append(exc)
            if len(errors) >= 5:
                break
    return added, errors


def test_a_full_disk_says_so_and_loses_nothing(small_disk, embedder):
    data = small_disk / "data"
    eng = MemoryEngine.open(data, embedder=embedder)
    try:
        case = eng.create_case("磁盘已满")
        eng.add_notes([{"content": t, "case_id": case.id} for t in NOTES])
        filler = _fill(small_disk)
        added, errors = _write_until_full(eng, case.id)
        assert errors, "the disk never filled up"
        assert all(isinstance(e, StorageError) for e in errors), errors
        assert any(isinstance(e, DiskFullError) for e in errors), errors
        for e in errors:
            assert "disk is full" in e.user_message or "index" in e.user_message, e
        filler.unlink()  # the user frees some space: the app carries on
        later = eng.add_note("腾出空间之后的新记录", case_id=case.id).note
        hits = eng.search("腾出空间之后的新记录", case_id=case.id, k=3)
        assert later.id in [h.note.id for h in hits]
    finally:
        with contextlib.suppress(LexMemError):
            eng.close()
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert eng._store.integrity_ok()
        present = {n.id for n in eng.list_notes(case.id)}
        assert set(added) <= present and later.id in present
        assert eng.stats().index_rows == eng.stats().notes_total == len(present)
    assert not list(data.rglob(".tmp-*"))


def test_a_write_that_finds_no_space_is_refused_whole(engine):
    """The same without root: SQLite's page limit fails a write with SQLITE_FULL."""
    case = engine.create_case("页数上限")
    engine.add_notes([{"content": t, "case_id": case.id} for t in NOTES])
    writer = engine._store._writer
    pages = writer.execute("PRAGMA page_count").fetchone()[0]
    writer.execute(f"PRAGMA max_page_count = {pages + 2}")
    before = engine.stats().notes_total
    added, errors = _write_until_full(engine, case.id)
    assert errors and all(isinstance(e, DiskFullError) for e in errors), errors
    assert "磁盘空间已满" in errors[0].user_message and "not saved" in errors[0].user_message
    writer.execute("PRAGMA max_page_count = 1073741823")
    assert engine.stats().notes_total == before + len(added)
    engine.add_note("空间恢复后的记录", case_id=case.id)
    assert engine._store.integrity_ok()


def _no_space(*_args: object, **_kwargs: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_backup_that_finds_no_space_says_so_and_keeps_the_others(engine, monkeypatch):
    """The disk fills up while a snapshot is moved into place (injected: the rename fails
    with ENOSPC): DiskFullError with the disk-full message, never a raw OSError; the
    existing backups are as they were and no temporary copy is left."""
    case = engine.create_case("备份时磁盘满")
    engine.add_notes([{"content": t, "case_id": case.id} for t in NOTES[:3]])
    mgr = BackupManager(engine)
    kept = mgr.snapshot("manual").path
    before = kept.read_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(backups.os, "replace", _no_space)
        with pytest.raises(DiskFullError) as err:
            mgr.snapshot("manual")
    assert "磁盘空间已满" in err.value.user_message
    assert [b.path for b in mgr.list("manual")] == [kept] and kept.read_bytes() == before
    assert not list(engine.data_dir.rglob(".tmp-*"))


def test_a_purge_that_finds_no_space_names_the_backup_and_finishes_later(engine, monkeypatch):
    """Purging a note from a backup copies the backup first; when that copy finds no space
    the purge names the backup as still holding the note (never a raw OSError), leaves it
    intact, and purges it once there is space again."""
    case = engine.create_case("清除时磁盘满")
    note = engine.add_note(NOTES[0], case_id=case.id).note
    mgr = BackupManager(engine)
    copy = mgr.snapshot("manual").path
    before = copy.read_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(backup_purge.shutil, "copyfile", _no_space)
        report = mgr.purge_from_backups(note_id=note.id)
    assert report.still_holding == [copy] and not report.complete
    assert copy.read_bytes() == before
    assert not list(engine.data_dir.rglob(".tmp-*"))
    again = mgr.purge_from_backups(note_id=note.id)
    assert again.complete and again.purged == [copy]
    assert note.id.encode() not in copy.read_bytes()


def test_the_cli_on_a_folder_it_cannot_create(tmp_path):
    target = tmp_path / "parent"
    target.mkdir()
    with read_only_view(target, tmp_path / "ro") as ro:
        cli = subprocess.run(
            [sys.executable, "-m", "desktop_app.cli", "--data-dir", str(ro / "new"), "stats"],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert cli.returncode == 2 and "Traceback" not in cli.stderr, cli.stderr
    shutil.rmtree(target)
