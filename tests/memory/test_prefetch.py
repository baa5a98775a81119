"""The cache warm-up after an open (prefetch.py): it reads the database and the index files
once in the background, within its budget, stops when the engine closes, and never fails an
open or a search (a file removed meanwhile is skipped)."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path

from desktop_app.memory import MemoryEngine, prefetch
from desktop_app.memory.prefetch import Prefetch, files_under, unguarded


def _file(path: Path, size: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    return path


def test_an_open_reads_the_database_and_the_index_once(tmp_path, embedder):
    with MemoryEngine.open(tmp_path / "data", embedder=embedder) as eng:
        case = eng.create_case("c")
        eng.add_notes(
            [
                {"content": f"第{i}条：原告于2024年3月{i + 1}日付款", "case_id": case.id}
                for i in range(20)
            ]
        )
    with MemoryEngine.open(tmp_path / "data", embedder=embedder) as eng:
        warm = eng.prefetch
        assert warm is not None and warm.done.wait(30)
        db = tmp_path / "data" / "lexmem.sqlite3"
        assert files_under(tmp_path / "data" / "index" / "notes.lance")  # data and indices
        # the database whole, and index files after it
        assert warm.files_read > 1 and warm.bytes_read > db.stat().st_size
        assert eng.search("付款", case.id, k=3)  # and searches work beside it


def test_the_indices_come_first_then_the_largest_data(tmp_path):
    table = tmp_path / "notes.lance"
    small = _file(table / "data" / "a.lance", 10)
    large = _file(table / "data" / "b.lance", 1000)
    index = _file(table / "_indices" / "u" / "index.idx", 5)
    assert files_under(table) == [index, large, small]
    assert files_under(tmp_path / "missing") == []


def test_the_budget_and_a_stop_end_the_pass(tmp_path, monkeypatch):
    monkeypatch.setattr(prefetch, "_CHUNK", 1000)
    files = [_file(tmp_path / f"f{i}", 5000) for i in range(4)]
    within = Prefetch(lambda: [(f, unguarded) for f in files], budget=7000).start()
    assert within.done.wait(10)
    assert within.bytes_read == 7000 and within.files_read == 2

    release = threading.Event()

    @contextmanager
    def held():  # the first file waits, as behind a removal of old versions
        release.wait(10)
        yield

    stopped = Prefetch(lambda: [(f, held) for f in files]).start()
    stopped.stop(timeout=0)  # asked to stop while it waits for its first file
    release.set()
    stopped.stop()
    assert stopped.done.is_set() and stopped.bytes_read == 0  # nothing read once stopped


def test_a_file_removed_meanwhile_is_skipped(tmp_path):
    kept = _file(tmp_path / "kept", 300)
    gone = tmp_path / "pruned"  # listed, then removed before its turn
    warm = Prefetch(lambda: [(gone, unguarded), (kept, unguarded)]).start()
    assert warm.done.wait(10)
    assert warm.bytes_read == 300 and warm.files_read == 1


def test_a_zero_budget_reads_nothing(tmp_path, embedder, monkeypatch):
    monkeypatch.setattr(prefetch, "BUDGET_BYTES", 0)
    with MemoryEngine.open(tmp_path / "data", embedder=embedder) as eng:
        assert eng.prefetch.done.is_set() and eng.prefetch.bytes_read == 0


def test_a_reader_beside_the_app_warms_nothing(tmp_path, embedder):
    with MemoryEngine.open(tmp_path / "data", embedder=embedder):
        pass
    with MemoryEngine.open(tmp_path / "data", embedder=embedder, read_only=True) as reader:
        assert reader.prefetch is None
