"""The write-ahead log reaches the database file on a thread of its own, not in the writer's
COMMIT (wal_checkpointer.py), and the store's own TRUNCATE and close still do what they
promise (true delete, a file that can be replaced)."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from desktop_app.memory.store import Store
from desktop_app.memory.wal_checkpointer import (
    BACKSTOP_PAGES,
    WAKE_AFTER_COMMITS,
    WAKE_AFTER_ROWS,
    WalCheckpointer,
)


@pytest.fixture
def store(tmp_path: Path):
    opened = Store(tmp_path / "db.sqlite3")
    yield opened
    opened.close()


def _wait_for(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def _checkpoint_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "lexmem-checkpoint"]


def _in_main_file_alone(store_path: Path, tmp_path: Path, key: str) -> str | None:
    """``key``'s meta value in the database file as it is on disk, without its log."""
    copy = tmp_path / "alone.sqlite3"
    shutil.copyfile(store_path, copy)
    alone = sqlite3.connect(copy)
    try:
        row = alone.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError:  # not even the schema is in the file yet
        return None
    finally:
        alone.close()
    return row[0] if row else None


def _write_rows(store: Store, rows: int, prefix: str = "row") -> None:
    with store.write() as conn:
        for n in range(rows):
            store.set_meta(conn, f"{prefix}{n}", "written")


def test_a_bulk_commit_reaches_the_database_file_on_the_background_thread(
    store: Store, tmp_path: Path
) -> None:
    _write_rows(store, WAKE_AFTER_ROWS)
    # SQLite's own checkpoint would wait for 1,000 pages of log (these are a few dozen),
    # or for the close
    _wait_for(lambda: _in_main_file_alone(store.path, tmp_path, "row0") == "written")


def test_small_commits_wait_for_enough_of_them(store: Store, tmp_path: Path) -> None:
    for n in range(WAKE_AFTER_COMMITS - 1):  # a chat message or an edit each
        _write_rows(store, 1, prefix=f"small{n}-")
    time.sleep(0.2)
    assert store._checkpointer.runs == 0
    assert _in_main_file_alone(store.path, tmp_path, "small0-0") is None
    _write_rows(store, 1, prefix="last")
    _wait_for(lambda: _in_main_file_alone(store.path, tmp_path, "small0-0") == "written")


def test_the_writers_own_checkpoint_is_only_a_backstop(store: Store) -> None:
    with store.write() as conn:
        pages = conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
    assert pages == BACKSTOP_PAGES > 1000  # SQLite's default would checkpoint in COMMIT


def test_a_store_that_is_only_read_starts_no_thread(tmp_path: Path) -> None:
    Store(tmp_path / "db.sqlite3").close()
    before = len(_checkpoint_threads())
    store = Store(tmp_path / "db.sqlite3")
    reader = Store(tmp_path / "db.sqlite3", read_only=True)
    try:
        assert store.get_meta("nothing") is None and reader.get_meta("nothing") is None
        assert len(_checkpoint_threads()) == before
    finally:
        reader.close()
        store.close()


def test_truncate_waits_for_a_background_checkpoint_under_way(store: Store, tmp_path: Path) -> None:
    with store.write() as conn:
        store.set_meta(conn, "secret", "x" * 50_000)
    outcome: list[bool] = []
    with store._checkpointer.lock:  # as if a background checkpoint were running
        worker = threading.Thread(target=lambda: outcome.append(store.checkpoint_truncate()))
        worker.start()
        worker.join(0.3)
        assert worker.is_alive() and not outcome  # it waits rather than half-failing
    worker.join(10)
    assert outcome == [True]
    assert (tmp_path / "db.sqlite3-wal").stat().st_size == 0


def test_close_ends_the_thread_and_closes_its_connection(tmp_path: Path) -> None:
    before = set(_checkpoint_threads())
    store = Store(tmp_path / "db.sqlite3")
    _write_rows(store, WAKE_AFTER_ROWS)
    mine = [t for t in _checkpoint_threads() if t not in before]
    assert len(mine) == 1
    store.close()
    assert not mine[0].is_alive()
    # nothing holds the file: it can be moved away and the folder emptied
    (tmp_path / "db.sqlite3").rename(tmp_path / "moved.sqlite3")
    assert not (tmp_path / "db.sqlite3-wal").exists()


def test_a_failed_checkpoint_is_logged_and_the_next_one_runs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "plain.sqlite3"
    sqlite3.connect(path).close()
    attempts: list[int] = []

    def connect() -> sqlite3.Connection:
        attempts.append(1)
        if len(attempts) == 1:
            raise sqlite3.OperationalError("unable to open database file")
        return sqlite3.connect(path, check_same_thread=False)

    checkpointer = WalCheckpointer(connect)
    try:
        checkpointer.wake()
        _wait_for(lambda: checkpointer.runs == 1)
        checkpointer.wake()
        _wait_for(lambda: checkpointer.runs == 2)
    finally:
        checkpointer.stop()
    assert len(attempts) == 2
    assert "background checkpoint failed: OperationalError" in caplog.text
    checkpointer.wake()  # after stop: ignored, no new thread
    assert checkpointer.runs == 2
