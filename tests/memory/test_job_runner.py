"""The one job runner: a thread that runs due jobs, woken by kick(), reporting each round."""

from __future__ import annotations

import threading

from fakes.llm_server import FakeLLMServer, Reply

from desktop_app.core.errors import StorageError
from desktop_app.llm.client import LLMClient
from desktop_app.memory.job_runner import JobRunner
from desktop_app.memory.job_steps import JobReport


def test_a_queued_turn_is_run_by_the_engines_runner_and_reported(engine):
    case = engine.create_case("A")
    reports: list[JobReport] = []
    done = threading.Event()

    def heard(report: JobReport) -> None:
        reports.append(report)
        if any(o.kind == "extract" for o in report.outcomes):
            done.set()

    with FakeLLMServer() as srv:
        client = LLMClient(srv.config(), sleep=lambda s: None)
        engine.set_llm(client)
        srv.push(Reply.json({"items": [{"content": "张三主张加班费", "category": "诉求", "scope": "case"}]}))
        engine.start_background_work(on_jobs=heard, jobs_interval=3600, backups=False)
        try:
            assert engine.ingest_turn("张三要加班费", "好的", case_id=case.id) == []  # queued
            assert done.wait(60), "the runner never ran the queued turn"
        finally:
            engine.stop_background_work()
            client.close()
    extract = next(o for r in reports for o in r.outcomes if o.kind == "extract")
    assert [r.note.content for r in extract.results] == ["张三主张加班费"]
    assert any(r.changes.touches_notes(case.id, include_global=False) for r in reports)


def test_a_failing_round_does_not_stop_the_runner():
    calls: list[int] = []
    second = threading.Event()

    def run_round(n: int) -> JobReport:
        calls.append(n)
        if len(calls) == 1:
            raise StorageError("disk full")
        second.set()
        return JobReport()

    runner = JobRunner(run_round, interval=3600)
    runner.start()
    try:
        runner.kick()
        assert second.wait(10)
    finally:
        runner.stop()
    assert not runner.running and len(calls) >= 2
