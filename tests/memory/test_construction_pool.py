"""A large batch's offline construction is built in a helper process beside the embedding
(construction_pool.py): the notes come out exactly as an inline build makes them, a small
batch never starts a process, and a helper that cannot start or dies costs time, not notes."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import textwrap
import types
from datetime import date
from pathlib import Path

import numpy as np
import pytest

from desktop_app.core.clock import local_date
from desktop_app.memory import construction_pool
from desktop_app.memory.construction_pool import PROCESS_FROM, Draft
from desktop_app.memory.index_sync import terms_text

_TEXTS = [
    "张三于2023年3月5日购买冰箱一台，价款4999元",
    "The client says the invoice of 12 March 2024 was never paid",
    "《消费者权益保护法》第55条适用于本案",
    "我希望以后的文书都用简体中文",
    "昨天对方律师称已经退款",
]


def _batch(n: int, tag: str) -> list[dict]:
    return [{"content": f"{_TEXTS[i % len(_TEXTS)]}（{tag}{i}）"} for i in range(n)]


def _constructed(note) -> tuple:
    return (note.keywords, note.category, note.event_date, note.source_kind, terms_text(note))


@pytest.fixture
def fresh_helper(monkeypatch):
    """A helper of its own (no failures counted by an earlier test), stopped afterwards."""
    construction_pool.helper.stop()
    helper = construction_pool._Helper()
    monkeypatch.setattr(construction_pool, "helper", helper)
    yield helper
    helper.stop()


@pytest.fixture
def ready_helper(fresh_helper):
    assert fresh_helper.start_up()
    return fresh_helper


def test_a_large_batch_is_built_in_the_helper_exactly_as_inline(engine, ready_helper):
    case = engine.create_case("批量")
    items = [{**item, "case_id": case.id} for item in _batch(PROCESS_FROM, "批")]
    used, fallbacks = ready_helper.used, ready_helper.fallbacks
    added = engine.add_notes(items)
    assert ready_helper.used == used + 1  # this batch was built in the helper process
    assert ready_helper.fallbacks == fallbacks
    for result, item in zip(added, items, strict=True):
        note = result.note
        inline = construction_pool.build(Draft(item["content"], None, local_date(note.created_at)))
        assert note.keywords == inline.construction.keywords
        assert note.category == inline.construction.category
        assert note.event_date == inline.construction.event_date
        assert note.source_kind == inline.construction.source_kind
    # the index holds the same terms as a note built inline would get
    row_terms = engine._index._table.to_arrow().select(["id", "terms"]).to_pylist()
    by_id = {r["id"]: r["terms"] for r in row_terms}
    for result in added:
        assert by_id[result.note.id] == terms_text(result.note)


def test_a_batch_built_in_the_helper_finds_the_same_matter_with_the_parts_it_sent(
    engine, ready_helper
):
    """The helper also splits and masks each content for the same-matter check; the check
    of the batch uses what came back, and flags the pair as an inline check would."""
    from desktop_app.memory import sameness
    from desktop_app.memory.ingest import SAME_MATTER_REASON

    case = engine.create_case("同一事项")
    old, new = "原告月薪8000元", "原告月薪调整为9500元"
    items = [{"content": c, "case_id": case.id} for c in (old, new)]
    items += [{**item, "case_id": case.id} for item in _batch(PROCESS_FROM, "事")]
    used = ready_helper.used
    added = engine.add_notes(items)
    assert ready_helper.used == used + 1
    for text in (old, new):
        inline = tuple((part, sameness._tokens(part)) for part in sameness._parts(text))
        assert sameness._remembered[text] == inline
    flagged = [
        link
        for link in engine.links_of(added[1].note.id)
        if link.kind == "duplicate" and link.reason == SAME_MATTER_REASON
    ]
    assert added[0].note.id in {link.dst for link in flagged}


def test_a_large_batch_is_embedded_from_token_ids_the_helper_computed(
    engine, embedder, ready_helper
):
    """The embedder's pure-Python tokenizing (~11 % of the embedding) runs in the helper,
    ahead of the construction: the stored vectors are the ones the texts alone give."""
    from desktop_app.memory.index_sync import embedding_text

    case = engine.create_case("分词")
    items = [
        {**item, "case_id": case.id} for item in _batch(5 * construction_pool.TOKEN_PART, "词")
    ]
    taken = embedder.tokens_taken
    added = engine.add_notes(items)
    # ~2 s of embedding: the parts come back within a tenth of that; the first sub-batch
    # may be tokenized here before they do
    assert embedder.tokens_taken > taken
    notes = [r.note for r in added]
    stored = engine._index.vectors_for([n.id for n in notes])
    # the index keeps float16: the texts' own vectors, rounded as it stores them.  Within
    # two float16 steps, not bit for bit: which rows share a matrix product with which
    # depends on when the helper's parts come back, and BLAS's last float32 bits with it,
    # which now and then round to a neighbouring float16 (1 run in 3 failed on 6e-5; a
    # token part given to the wrong texts moves a vector by ~0.1)
    expected = embedder.embed([embedding_text(n) for n in notes]).astype(np.float16)
    for n, v in zip(notes, expected, strict=True):
        np.testing.assert_allclose(
            stored[n.id], v.astype(np.float32), rtol=2**-9, atol=2**-14, err_msg=n.content
        )


def test_a_single_large_import_starts_the_helper_for_its_token_ids(fresh_helper):
    """An import file is one batch: its token ids are sent to the helper even when that
    batch is the one that starts it, so the parts that come back while it is still being
    embedded (after the helper's ~2.5 s start-up) are taken."""
    from desktop_app.memory.embedder import use_tokens

    texts = [item["content"] for item in _batch(3 * construction_pool.TOKEN_PART + 5, "导")]
    assert not fresh_helper.running
    tokens = construction_pool.tokens(texts, use_tokens)
    assert tokens is not None and fresh_helper.started == 1
    for _first, _end, future in tokens._parts:
        future.result(timeout=60)
    assert tokens.part(0, len(texts)) == use_tokens(texts)
    assert tokens.shifted(100).part(0, 10) == use_tokens(texts[100:110])


def test_a_small_batch_is_tokenized_where_it_is_embedded(engine, embedder, fresh_helper):
    case = engine.create_case("少量分词")
    taken = embedder.tokens_taken
    engine.add_notes([{**i, "case_id": case.id} for i in _batch(PROCESS_FROM - 1, "少")])
    assert embedder.tokens_taken == taken and not fresh_helper.running


def test_the_first_large_batch_does_not_wait_for_the_helper_to_start(engine, fresh_helper):
    """Starting the process takes seconds: the batch that starts it is built here."""
    case = engine.create_case("首批")
    started, used = fresh_helper.started, fresh_helper.used
    added = engine.add_notes([{**i, "case_id": case.id} for i in _batch(PROCESS_FROM, "首")])
    assert fresh_helper.started == started + 1 and fresh_helper.used == used
    assert added[0].note.event_date == "2023-03-05" and added[0].note.keywords
    assert fresh_helper.start_up()  # it went on starting in the background


def test_a_small_batch_never_starts_a_process(engine, fresh_helper):
    case = engine.create_case("少量")
    started = fresh_helper.started
    engine.add_notes([{**i, "case_id": case.id} for i in _batch(PROCESS_FROM - 1, "少")])
    assert fresh_helper.started == started
    assert not fresh_helper.running


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX niceness")
def test_the_helper_runs_at_a_lower_cpu_priority_than_the_app(ready_helper):
    """It has time to spare; the embedding beside it has not."""
    import os

    helper_nice = ready_helper._pool.submit(os.nice, 0).result(timeout=30)
    assert helper_nice == min(19, os.nice(0) + construction_pool.NICE)


def test_a_helper_that_cannot_start_costs_time_not_notes(engine, fresh_helper, monkeypatch):
    def no_processes(method=None):
        raise OSError("process creation refused")

    monkeypatch.setattr(multiprocessing, "get_context", no_processes)
    case = engine.create_case("无进程")
    items = [{**i, "case_id": case.id} for i in _batch(PROCESS_FROM, "无")]
    fallbacks = fresh_helper.fallbacks
    added = engine.add_notes(items)
    assert [r.action for r in added] == ["added"] * len(items)
    assert fresh_helper.fallbacks == fallbacks + 1
    first = added[0].note
    assert first.event_date == "2023-03-05" and first.keywords


def test_a_helper_that_dies_costs_time_not_notes(engine, ready_helper, monkeypatch):
    fresh_helper = ready_helper
    monkeypatch.setattr(construction_pool, "build_all", _die_in_the_helper)
    case = engine.create_case("进程退出")
    items = [{**i, "case_id": case.id} for i in _batch(PROCESS_FROM, "死")]
    fallbacks = fresh_helper.fallbacks
    added = engine.add_notes(items)
    assert [r.action for r in added] == ["added"] * len(items)
    assert fresh_helper.fallbacks == fallbacks + 1 and not fresh_helper.running
    assert added[0].note.event_date == "2023-03-05"


def _die_in_the_helper(drafts):
    if multiprocessing.parent_process() is not None:  # in the helper: die abruptly
        import os

        os._exit(3)
    return [construction_pool.build(d) for d in drafts]


def test_build_resolves_relative_dates_against_the_day_written():
    built = construction_pool.build(Draft("昨天对方律师称已经退款", None, date(2024, 3, 1)))
    assert built.construction.event_date == "2024-02-29"
    assert built.written_terms


def test_after_repeated_failures_the_helper_is_not_started_again(engine, fresh_helper, monkeypatch):
    tries = []

    def no_processes(method=None):
        tries.append(method)
        raise OSError("process creation refused")

    monkeypatch.setattr(multiprocessing, "get_context", no_processes)
    case = engine.create_case("屡败")
    for round_ in range(construction_pool.MAX_FAILURES + 2):
        added = engine.add_notes(
            [{**i, "case_id": case.id} for i in _batch(PROCESS_FROM, f"败{round_}-")]
        )
        assert [r.action for r in added] == ["added"] * PROCESS_FROM
    # each failed start (a batch's token ids, then its construction) counts; after
    # MAX_FAILURES no more process starts
    assert len(tries) == construction_pool.MAX_FAILURES
    assert not fresh_helper.available and not fresh_helper.running


def _main_module(monkeypatch, name: str | None, path: Path | None) -> None:
    main = types.ModuleType("__main__")
    if name is not None:
        main.__spec__ = types.SimpleNamespace(name=name)
    else:
        main.__spec__ = None
    if path is not None:
        main.__file__ = str(path)
    monkeypatch.setitem(sys.modules, "__main__", main)


def test_the_helper_runs_only_under_a_main_module_that_a_child_can_import(tmp_path, monkeypatch):
    guarded, unguarded = tmp_path / "guarded.py", tmp_path / "unguarded.py"
    guarded.write_text('import sys\n\nif __name__ == "__main__":\n    sys.exit(0)\n')
    unguarded.write_text("from desktop_app.memory import MemoryEngine\nMemoryEngine.open('x')\n")
    cases = [
        (None, guarded, True),  # a script that keeps its work under the main guard
        (None, unguarded, False),  # a script that would run again in the child
        (None, tmp_path / "gone.py", False),  # a script that cannot be read
        (None, None, True),  # python -c, or an interactive session
        ("pytest.__main__", None, True),  # python -m pytest
        ("desktop_app.__main__", None, True),  # python -m desktop_app
        ("tests.benchmarks.bench_perf", None, True),  # the benchmarks
        ("someone.tool", unguarded, False),  # python -m a module that does its work on import
    ]
    for name, path, expected in cases:
        _main_module(monkeypatch, name, path)
        assert construction_pool.main_module_is_safe() is expected, (name, path)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert construction_pool.main_module_is_safe()  # the bundle: freeze_support


def test_a_script_without_a_main_guard_runs_once(tmp_path):
    """Before the rule, a spawned helper imported the script again: its top level opened
    the engine and imported the batch once more in the child, and again in the child's."""
    runs = tmp_path / "runs.txt"
    script = tmp_path / "import_script.py"
    script.write_text(
        textwrap.dedent(
            f"""
            from pathlib import Path

            from desktop_app.memory import MemoryEngine, construction_pool

            with open({str(runs)!r}, "a") as f:
                f.write("run\\n")
            with MemoryEngine.open(Path({str(tmp_path / "data")!r})) as eng:
                case = eng.create_case("脚本")
                for round_ in range(3):
                    eng.add_notes(
                        [
                            {{"content": f"第{{round_}}批第{{i}}条：原告于2024年3月{{i % 28 + 1}}日付款",
                              "case_id": case.id}}
                            for i in range(construction_pool.PROCESS_FROM)
                        ]
                    )
                print(len(eng.list_notes(case_id=case.id)), construction_pool.helper.started)
            """
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert runs.read_text().splitlines() == ["run"]
    notes, started = map(int, done.stdout.split())
    assert notes == 3 * construction_pool.PROCESS_FROM and started == 0
