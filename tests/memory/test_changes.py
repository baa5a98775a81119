"""Every mutation says what it changed (Changes), recorded per thread."""

from __future__ import annotations

import threading

from desktop_app.memory.changes import Changes


def test_each_mutation_records_what_it_changed(engine):
    with engine.recording() as log:
        case = engine.create_case("A")
    assert log.changes == Changes(cases=True)

    with engine.recording() as log:
        note = engine.add_note("原告月工资两万五千元", case_id=case.id).note
        glob = engine.add_note("回复先给结论").note
    assert log.changes.added == {(case.id, note.id), (None, glob.id)}
    assert log.changes.touches_notes(case.id) and not log.changes.touches_notes("other", include_global=False)

    with engine.recording() as log:
        engine.update_note(note.id, content="原告月工资两万六千元")
    assert log.changes.changed == {(case.id, note.id)} and not log.changes.added

    other = engine.add_note("原告入职于2021年", case_id=case.id).note
    with engine.recording() as log:
        engine.link_notes(note.id, other.id)
    assert log.changes.links == {case.id} and not log.changes.note_scopes

    with engine.recording() as log:
        engine.delete_note(other.id)
    assert log.changes.removed == {(case.id, other.id)}

    with engine.recording() as log:
        conv = engine.create_conversation(case.id)
        engine.add_message(conv.id, "user", "你好")
    assert log.changes.conversations == {case.id} and log.changes.messages == {conv.id}


def test_reads_record_nothing_and_nothing_is_recorded_outside_a_block(engine):
    case = engine.create_case("A")
    engine.add_note("一条记录", case_id=case.id)
    with engine.recording() as log:
        engine.search("记录", case.id)
        engine.list_notes(case.id)
        engine.stats()
    assert not log.changes


def test_nested_blocks_merge_and_threads_keep_their_own(engine):
    seen: list[Changes] = []

    def elsewhere() -> None:
        with engine.recording() as log:
            engine.create_case("B")
        seen.append(log.changes)

    with engine.recording() as outer:
        with engine.recording() as inner:
            engine.add_note("内层")
        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
    assert inner.changes.note_scopes == {None}
    assert outer.changes.note_scopes == {None} and not outer.changes.cases  # not the thread's
    assert seen == [Changes(cases=True)]


def test_changes_combine():
    a = Changes(added=frozenset({("c", "1")}))
    b = Changes(links=frozenset({"c"}), jobs=True)
    both = a | b
    assert both.added == a.added and both.links == b.links and both.jobs
    assert not Changes() and both
