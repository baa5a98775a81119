"""One writer per data folder: an OS-level lock held by the process that writes there.

``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows.  The operating system drops the lock
when its process dies, so a crash never leaves the folder locked; a second process — or a
second engine in the same process — that asks for it gets :class:`DataFolderLockedError` at
once instead of silently writing beside the first (a restore beside the running app once
made its next notes vanish).  The file holds the holder's PID, for the error message.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from desktop_app.core.errors import DataFolderLockedError, storage_os_error

LOCK_FILE = "lexmem.writer.lock"
#: Windows locks byte ranges: lock one byte far past the PID text, so others can still read it
_WINDOWS_LOCK_OFFSET = 1 << 30


def writer_lock_path(data_dir: Path) -> Path:
    return Path(data_dir) / LOCK_FILE


def _try_lock(fd: int) -> bool:
    if os.name == "nt":
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # BlockingIOError (EWOULDBLOCK), or EACCES on some systems
        return False
    return True


def _unlock(fd: int) -> None:
    if os.name == "nt":
        import msvcrt

        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


class FolderLock:
    """The writer lock of one data folder.  Use as a context manager or call
    :meth:`acquire` / :meth:`release`; acquiring twice from the same object is an error."""

    def __init__(self, data_dir: Path) -> None:
        self.path = writer_lock_path(data_dir)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> FolderLock:
        """Take the lock or raise DataFolderLockedError (never waits)."""
        if self._fd is not None:
            raise RuntimeError("lock already held by this object")
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:  # a read-only folder or disk: say so, not errno 30
            raise storage_os_error(exc, self.path.parent) from exc
        if not _try_lock(fd):
            os.close(fd)
            pid = self.holder_pid()
            raise DataFolderLockedError(
                f"{self.path.parent} is being written by another process"
                + (f" (PID {pid})" if pid else "")
            )
        self._fd = fd
        # the PID is for messages only: the lock is the OS lock, never this text
        with contextlib.suppress(OSError):  # a full disk must not stop the lock, only the PID
            os.lseek(fd, 0, os.SEEK_SET)
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        return self

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            _unlock(fd)
        finally:
            os.close(fd)

    def holder_pid(self) -> int | None:
        try:
            text = self.path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return int(text) if text.isdigit() else None

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


# -- files in use ------------------------------------------------------------------------


def hold_in_use(fd: int) -> bool:
    """Mark the open file ``fd`` as in use by this process (an OS lock, dropped when the
    process dies): a temporary copy being written is never removed as "stale" by another
    process's clean-up.  False if another holder has it."""
    return _try_lock(fd)


def in_use_by_another(path: Path) -> bool:
    """Whether some other open file (in any process) holds ``path`` in use."""
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return False
    try:
        if not _try_lock(fd):
            return True
        _unlock(fd)
        return False
    finally:
        os.close(fd)
