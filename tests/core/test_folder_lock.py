"""The OS-level writer lock of a data folder (the engine-level behaviour, with real second
processes, is in tests/reliability/test_rel_single_writer.py)."""

from __future__ import annotations

import os

import pytest

from desktop_app.core.errors import DataFolderLockedError, StorageError
from desktop_app.core.folder_lock import FolderLock


def test_one_holder_at_a_time_and_the_pid_is_named(tmp_path):
    first = FolderLock(tmp_path).acquire()
    with pytest.raises(DataFolderLockedError) as caught:
        FolderLock(tmp_path).acquire()
    assert isinstance(caught.value, StorageError)  # in the one error tree
    assert f"PID {os.getpid()}" in str(caught.value)
    assert "Another LexMem" in caught.value.user_message
    first.release()
    with FolderLock(tmp_path) as again:
        assert again.held
    assert not again.held


def test_release_is_idempotent_and_a_holder_cannot_take_it_twice(tmp_path):
    lock = FolderLock(tmp_path).acquire()
    with pytest.raises(RuntimeError):
        lock.acquire()
    lock.release()
    lock.release()
    assert FolderLock(tmp_path).holder_pid() is None  # the PID text goes with the lock
