"""The one background runner of the durable memory jobs: a Qt-free thread that runs the due
jobs now and then, and at once when :meth:`JobRunner.kick` says there is new work (a chat
turn was queued, the endpoint is back).  The engine owns it (``start_background_work``);
the UI only starts and stops it and listens to ``on_report``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from desktop_app.core.errors import LexMemError
from desktop_app.memory.job_steps import JobReport

log = logging.getLogger(__name__)

#: seconds between two looks at the queue when nothing kicks the runner (jobs deferred by
#: an unreachable endpoint become due again on their own)
DEFAULT_INTERVAL_S = 20.0
#: jobs run per round before the report goes out (the UI shows progress between rounds)
JOBS_PER_ROUND = 5


class JobRunner:
    def __init__(
        self,
        run_round: Callable[[int], JobReport],
        *,
        interval: float = DEFAULT_INTERVAL_S,
        per_round: int = JOBS_PER_ROUND,
        on_report: Callable[[JobReport], None] | None = None,
    ) -> None:
        self._run_round = run_round
        self._interval = interval
        self._per_round = per_round
        self._on_report = on_report
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="lexmem-jobs", daemon=True)
        self._thread.start()

    def kick(self) -> None:
        """Look at the queue now rather than at the next interval."""
        self._wake.set()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop after the job in progress (a job is never cut in half)."""
        self._stop.set()
        self._wake.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            report = self._round()
            more = report is not None and report.done + report.failed >= self._per_round
            if more and not report.deferred:
                continue  # a full round: there may be more due right now
            self._wake.wait(self._interval)

    def _round(self) -> JobReport | None:
        try:
            report = self._run_round(self._per_round)
        except LexMemError:
            log.warning("job round failed", exc_info=True)
            return None
        except Exception:  # a bug must not kill the runner
            log.exception("job runner error")
            return None
        if self._on_report is not None and report.anything_happened:
            try:
                self._on_report(report)
            except Exception:
                log.exception("job report listener failed")
        return report
