"""Why a file could not be read or written, in the interface language (the system's own
message is English and may be anything; these name the usual causes)."""

from __future__ import annotations

import errno

from PySide6.QtCore import QCoreApplication


def os_error_text(exc: OSError) -> str:
    code = exc.errno
    if isinstance(exc, PermissionError) or code in (errno.EACCES, errno.EPERM, errno.EROFS):
        return QCoreApplication.translate("Files", "no permission to write there")
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        return QCoreApplication.translate("Files", "the disk is full")
    if isinstance(exc, FileNotFoundError) or code == errno.ENOENT:
        return QCoreApplication.translate("Files", "the folder does not exist")
    if code == getattr(errno, "ENAMETOOLONG", -1):
        return QCoreApplication.translate("Files", "the file name is too long")
    return QCoreApplication.translate("Files", "the system refused it")
