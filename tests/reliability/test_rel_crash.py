"""Crash consistency, fast variant of tests/benchmarks/bench_reliability.py for CI: a child
process adding, editing and deleting notes is SIGKILLed 5 times; after each kill the database
passes integrity_check, every note whose add returned is there (with its last returned edit),
and the index is reconciled (a search finds each note)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_reliability.py"


def _harness():
    spec = importlib.util.spec_from_file_location("bench_reliability", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")
def test_sigkill_while_writing_loses_nothing_that_was_promised(tmp_path, embedder):
    harness = _harness()
    report = harness.run_crash_trials(
        5,
        seed=20261129,
        data_dir=tmp_path,
        kill_window=(0.3, 1.2),
        opening_share=0.2,
        sample_old=5,
        embedder=embedder,
    )
    print(report.markdown())
    assert report.trials >= 4  # a kill before the database existed is not counted
    assert report.failures == 0, report.markdown()
    # the kills did land while the child was writing, not only before its first call
    assert sum(r.ops_logged for r in report.results) > 0
