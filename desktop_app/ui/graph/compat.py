"""Guard against a PySide6 6.12 / CPython 3.11 refcount bug (found while benchmarking).

With PySide6-Essentials 6.12.0 on Python 3.11, every binding call that returns nothing
(``QPainter.setPen``, ``QWidget.update``, ``QPointF.setX``…) hands back ``None`` without
taking a reference, so each call drops one reference from ``None``.  Python 3.12+ has an
immortal ``None`` and never notices; on 3.11 the process aborts with "Fatal Python error:
none_dealloc" after a few thousand calls — a painted graph frame makes hundreds.

:func:`guard_none_refcount` detects the bug (a few void calls, refcount before/after) and
only then makes ``None`` effectively immortal by raising its reference count far out of
reach, which is what CPython 3.12 does itself.  It is idempotent and cheap.  It belongs at
application start-up (and in the test conftest); the graph view calls it too so it is safe
however it is wired.
"""

from __future__ import annotations

import ctypes
import sys

_checked = False


def has_none_refcount_bug() -> bool:
    from PySide6.QtCore import QPointF

    pt = QPointF()
    before = sys.getrefcount(None)
    for _ in range(16):
        pt.setX(1.0)
    return before - sys.getrefcount(None) >= 16


def guard_none_refcount() -> bool:
    """Make ``None`` immortal if this PySide build leaks its references; True if applied."""
    global _checked
    if _checked or sys.version_info >= (3, 12):
        return False
    _checked = True
    if not has_none_refcount_bug():
        return False
    # ob_refcnt is the first field of every PyObject in release builds of CPython 3.11
    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 40
    return True
