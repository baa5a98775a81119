"""One LexMem per data folder: a second instance must not become a second writer."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QLockFile


class DataFolderLock:
    """A QLockFile in the data folder; stale locks of crashed processes are taken over."""

    def __init__(self, path: Path) -> None:
        self._lock = QLockFile(str(path))
        # 0 = never stale by age; QLockFile still removes a lock whose process is gone
        self._lock.setStaleLockTime(0)

    def acquire(self, timeout_ms: int = 200) -> bool:
        return self._lock.tryLock(timeout_ms)

    def holder_pid(self) -> int | None:
        info = self._lock.getLockInfo()
        # PySide returns (pid, host, app) on success, or a bool/short tuple when there is no info
        if isinstance(info, tuple) and info and isinstance(info[0], int) and info[0] > 0:
            return info[0]
        return None

    def release(self) -> None:
        if self._lock.isLocked():
            self._lock.unlock()
