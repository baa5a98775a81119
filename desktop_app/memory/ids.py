"""Row ids: time-ordered UUIDs (RFC 9562 version 7), as 32 hex digits.

Random ids (version 4) put each new row at a random place in every index keyed by id: at
50k notes in one case a batch of 500 touched a few thousand scattered pages of the notes'
id index and the links' (src, dst) table, and SQLite wrote them all to the WAL and again at
the checkpoint (``store.commit`` 6.7 s of a 50k import, against 4.2 s with ordered ids;
tests/benchmarks/README.md).  Ids made later sort after earlier ones, so a batch's rows
are appended at the end of those indexes.
"""

from __future__ import annotations

import os
import threading
import time

_clock_ns = time.time_ns  # the wall clock (a test sets it back)
_COUNTER_MAX = 0xFFF  # 12 bits beside the millisecond (RFC 9562, method 1)
_lock = threading.Lock()
_last_ms = 0
_counter = 0


def new_id() -> str:
    """A new id, greater than every id this process made before (also when the clock goes
    back or more than 4,096 are made in one millisecond: the time part then runs ahead)."""
    global _last_ms, _counter
    with _lock:
        now_ms = _clock_ns() // 1_000_000
        if now_ms > _last_ms:
            _last_ms, _counter = now_ms, 0
        elif _counter < _COUNTER_MAX:
            _counter += 1
        else:
            _last_ms, _counter = _last_ms + 1, 0
        ms, counter = _last_ms, _counter
    random_bits = int.from_bytes(os.urandom(8), "big") & ((1 << 62) - 1)
    value = (ms & ((1 << 48) - 1)) << 80 | 0x7 << 76 | counter << 64 | 0b10 << 62 | random_bits
    return f"{value:032x}"
