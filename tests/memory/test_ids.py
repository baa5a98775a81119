"""Row ids are time-ordered: a batch's notes and links are appended at the end of the
indexes keyed by id instead of scattered through them (tests/benchmarks/README.md)."""

from __future__ import annotations

import time
import uuid

from desktop_app.memory import ids
from desktop_app.memory.ids import new_id


def test_ids_made_later_sort_after_earlier_ones_also_within_one_millisecond():
    made = [new_id() for _ in range(10_000)]
    assert made == sorted(made)
    assert len(set(made)) == len(made)


def test_an_id_is_a_version_7_uuid_of_32_hex_digits_carrying_the_time_it_was_made():
    before_ms = time.time_ns() // 1_000_000
    made = new_id()
    after_ms = time.time_ns() // 1_000_000
    assert len(made) == 32 and made == made.lower()
    as_uuid = uuid.UUID(hex=made)
    assert as_uuid.version == 7 and as_uuid.variant == uuid.RFC_4122
    assert before_ms <= int(made[:12], 16) <= after_ms


def test_ids_keep_increasing_when_the_clock_goes_back(monkeypatch):
    first = new_id()
    # the ids below run ahead of the real clock: its state is put back after the test, so
    # a later test's id still carries the time it was made
    monkeypatch.setattr(ids, "_last_ms", ids._last_ms)
    monkeypatch.setattr(ids, "_counter", ids._counter)
    monkeypatch.setattr(ids, "_clock_ns", lambda: 1_000_000_000)  # 1970
    later = [new_id() for _ in range(5_000)]  # past the 4,096 of one millisecond, too
    assert [first, *later] == sorted([first, *later])


def test_the_notes_of_one_batch_get_ids_in_the_order_they_were_given(engine):
    case = engine.create_case("顺序")
    added = engine.add_notes([{"content": f"事实 {i}", "case_id": case.id} for i in range(50)])
    note_ids = [r.note.id for r in added]
    assert note_ids == sorted(note_ids)
