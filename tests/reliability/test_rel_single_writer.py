"""One writer per data folder, across processes.

Found by hand: ``lexmem-cli restore latest`` ran beside the running app, swapped the
database under it, and the app's next acknowledged notes went into the replaced file —
after a restart they were nowhere.  Every test here uses a real second process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from desktop_app.core.errors import DataFolderLockedError, StorageError
from desktop_app.memory import MemoryEngine
from desktop_app.memory.backups import BackupManager

REPO = Path(__file__).resolve().parents[2]


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=REPO, timeout=timeout
    )


def cli(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _run("-m", "desktop_app.cli", "--data-dir", str(data), *args)


def test_a_restore_beside_the_running_app_loses_no_acknowledged_note(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as app:
        case = app.create_case("张三诉某公司")
        app.add_note("入职时间为2021年3月1日", case_id=case.id)
        BackupManager(app).snapshot("manual")

        restore = cli(data, "restore", "latest")  # the user, in a terminal, app still open

        # the app goes on; the user sees these two notes saved
        kept = [
            app.add_note("月工资为两万五千元", case_id=case.id).note.id,
            app.add_note("公司未签订书面劳动合同", case_id=case.id).note.id,
        ]
    with MemoryEngine.open(data, embedder=embedder) as reopened:
        assert [n.id for n in reopened.list_notes(case.id)][1:] == kept  # none lost
        assert [reopened.get_note(i).content for i in kept] == [
            "月工资为两万五千元",
            "公司未签订书面劳动合同",
        ]
    # the restore refused, and said why
    assert restore.returncode == 2, restore.stdout
    assert "Another LexMem is already using this data folder" in restore.stderr


def test_a_second_process_cannot_open_the_folder_for_writing(tmp_path, embedder):
    data = tmp_path / "data"
    probe = textwrap.dedent(
        f"""
        import sys
        from desktop_app.core.errors import DataFolderLockedError
        from desktop_app.memory import MemoryEngine
        try:
            MemoryEngine.open({str(data)!r})
        except DataFolderLockedError as exc:
            print("locked:", exc.user_message)
            sys.exit(3)
        print("opened")
        """
    )
    with MemoryEngine.open(data, embedder=embedder) as app:
        app.add_note("第一条")
        proc = _run("-c", probe)
        assert proc.returncode == 3, proc.stdout + proc.stderr
        assert "Another LexMem is already using this data folder" in proc.stdout
        # a second writer in the same process is refused as well
        with pytest.raises(DataFolderLockedError):
            MemoryEngine.open(data, embedder=embedder)
    # closed: the folder is free again
    assert _run("-c", probe).stdout.strip() == "opened"


def test_the_lock_of_a_crashed_process_is_released_by_the_os(tmp_path, embedder):
    data = tmp_path / "data"
    crash = textwrap.dedent(
        f"""
        import os
        from desktop_app.memory import MemoryEngine
        engine = MemoryEngine.open({str(data)!r})
        engine.add_note("写完就崩溃")
        os._exit(9)  # no close, no clean-up: a crash
        """
    )
    crashed = _run("-c", crash)
    assert crashed.returncode == 9, crashed.stderr
    with MemoryEngine.open(data, embedder=embedder) as eng:
        assert [n.content for n in eng.list_notes(None)] == ["写完就崩溃"]


def test_read_only_commands_run_beside_the_app(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as app:
        case = app.create_case("旁边运行")
        app.add_note("检测报告认定屏幕存在出厂缺陷", case_id=case.id)
        stats = cli(data, "stats")
        assert stats.returncode == 0, stats.stderr
        assert json.loads(stats.stdout)["notes"] == 1
        hits = cli(data, "--json", "search", "屏幕有什么问题", "--case", case.id)
        assert hits.returncode == 0, hits.stderr
        assert "出厂缺陷" in json.loads(hits.stdout)[0]["content"]
        out = tmp_path / "out.jsonl"
        assert cli(data, "export", str(out), "--case", case.id).returncode == 0
        assert "出厂缺陷" in out.read_text(encoding="utf-8")
        # a writing command is refused with the clear message, and writes nothing
        add = cli(data, "add", "不应写入的记录")
        assert add.returncode == 2 and "Another LexMem" in add.stderr
        assert app.count_notes(None) == 0


def test_a_read_only_engine_never_writes(tmp_path, embedder):
    data = tmp_path / "data"
    with MemoryEngine.open(data, embedder=embedder) as eng:
        eng.add_note("只读测试")
    before = {p: p.stat().st_mtime_ns for p in data.rglob("*") if p.is_file()}
    with MemoryEngine.open(data, embedder=embedder, read_only=True) as ro:
        assert ro.read_only and [h.note.content for h in ro.search("只读")] == ["只读测试"]
        with pytest.raises(StorageError) as caught:
            ro.add_note("不行")
        assert "read-only" in caught.value.user_message
    after = {p: p.stat().st_mtime_ns for p in data.rglob("*") if p.is_file()}
    # SQLite's own -wal/-shm side files may appear for a reader of a WAL database; they
    # must hold nothing
    sidecars = {p for p in after if p.name.endswith(("-wal", "-shm"))}
    assert all(p.stat().st_size == 0 for p in sidecars if p.name.endswith("-wal"))
    changed = [p for p in after if before.get(p) != after[p] and p not in sidecars]
    assert changed == []
