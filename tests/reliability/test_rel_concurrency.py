"""Concurrency: the UI (adds, edits, searches), imports, backups and the job runner on one
engine at once, for a bounded time — no "database is locked", no lost update."""

from __future__ import annotations

import json
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from desktop_app.memory import MemoryEngine
from desktop_app.memory.backups import BackupManager

DURATION_S = 8.0


def test_writers_readers_imports_and_backups_at_once(tmp_path: Path, embedder):
    eng = MemoryEngine.open(tmp_path / "data", embedder=embedder)
    case = eng.create_case("并发")
    editable = [
        r.note.id
        for r in eng.add_notes(
            [{"content": f"待修改的记录{i}", "case_id": case.id} for i in range(3)]
        )
    ]
    mgr = BackupManager(eng, keep=3)
    stop = time.monotonic() + DURATION_S
    errors: list[str] = []
    added: dict[str, str] = {}  # id -> content, for every add that returned
    last_edit: dict[str, str] = {}
    counts: dict[str, int] = {}
    lock = threading.Lock()

    def loop(name: str, step: Callable[[int], None]) -> None:
        n = 0
        try:
            while time.monotonic() < stop:
                step(n)
                n += 1
        except Exception as exc:  # every error is a failure; "locked" ones especially
            errors.append(f"{name}: {type(exc).__name__}: {exc}")
        with lock:
            counts[name] = n

    def adder(tag: str) -> Callable[[int], None]:
        def step(n: int) -> None:
            content = f"线程{tag}写入的第{n}条记录 t{tag}n{n}"
            r = eng.add_note(content, case_id=case.id)
            with lock:
                added[r.note.id] = content

        return step

    def editor(n: int) -> None:
        note_id = editable[n % len(editable)]
        content = f"待修改的记录，第{n}次修改"
        eng.update_note(note_id, content=content)
        last_edit[note_id] = content

    def importer(n: int) -> None:
        path = tmp_path / f"import-{n}.jsonl"
        lines = [
            json.dumps({"content": f"导入批次{n}第{i}条 imp{n}x{i}"}, ensure_ascii=False)
            for i in range(3)
        ]
        path.write_text("\n".join(lines), encoding="utf-8")
        for r in eng.import_jsonl(path, case_id=case.id):
            with lock:
                added[r.note.id] = r.note.content

    def reader(n: int) -> None:
        eng.search(f"第{n % 20}条记录", case_id=case.id, k=5)
        eng.list_notes(case.id, limit=50)
        eng.stats()

    def backup(n: int) -> None:
        mgr.snapshot("auto")
        time.sleep(0.5)

    def jobs(n: int) -> None:
        eng.run_pending_jobs()  # no LLM: a no-op that still reads the queue
        eng.pending_jobs()
        time.sleep(0.05)

    workers = {
        "adder-a": adder("a"),
        "adder-b": adder("b"),
        "editor": editor,
        "importer": importer,
        "reader-1": reader,
        "reader-2": reader,
        "backup": backup,
        "jobs": jobs,
    }
    threads = [
        threading.Thread(target=loop, args=(name, fn), name=name) for name, fn in workers.items()
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(DURATION_S + 60)
    hung = [t for t in threads if t.is_alive()]
    if hung:  # show where they wait (a lock-order deadlock looks like this)
        frames = sys._current_frames()
        dump = "\n".join(
            f"--- {t.name}\n" + "".join(traceback.format_stack(frames[t.ident])) for t in hung
        )
        raise AssertionError(f"workers hung: {[t.name for t in hung]}\n{dump}")
    try:
        print("operations:", counts)
        assert errors == [], errors
        assert all(counts[name] > 0 for name in workers), counts
        # no lost update: every returned add is there with its text, every last edit stuck
        for note_id, content in added.items():
            assert eng.get_note(note_id).content == content
        for note_id, content in last_edit.items():
            assert eng.get_note(note_id).content == content
        stats = eng.stats()
        assert stats.notes_total == len(added) + len(editable)
        assert stats.index_rows == stats.notes_total
        sample = list(added.items())[:: max(1, len(added) // 15)]
        for note_id, content in sample:
            token = content.rsplit(" ", 1)[-1]
            assert note_id in [h.note.id for h in eng.search(token, case_id=case.id, k=5)], content
        assert eng._store.integrity_ok()
        assert all(b.size > 0 for b in mgr.list())
    finally:
        eng.close()
