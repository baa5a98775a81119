"""Owns the memory engine and the LLM client for the UI; every call goes through a worker.

The engine is opened in the background after the window's first paint (``import lancedb``
and the embedder take seconds). Until it is ready, calls are queued and run as soon as it
opens, so views need not care about start-up order. Views learn about changes through the
``*Changed`` signals and re-query; nothing is cached here except the engine itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from desktop_app.core.errors import EndpointUnreachableError, LLMError
from desktop_app.core.settings import Settings
from desktop_app.ui import llm_setup
from desktop_app.ui.workers import Op, run_op

log = logging.getLogger(__name__)

JOBS_INTERVAL_MS = 20_000
#: how often the automatic-backup schedule is checked (a snapshot is taken when one is due)
BACKUP_CHECK_MS = 10 * 60_000

EngineFactory = Callable[[Path, Any, Settings], Any]


def default_engine_factory(data_dir: Path, llm: Any, settings: Settings) -> Any:
    # imported in the worker: lancedb and the embedder must not delay the first paint
    from desktop_app.memory import MemoryEngine

    engine = MemoryEngine.open(data_dir, llm=llm, config=memory_config(settings))
    warm_up_text_tools()
    return engine


def warm_up_text_tools() -> None:
    """Load jieba's dictionary while the loading indicator shows: its marshal load holds the
    GIL for ~0.4 s, which would otherwise freeze the UI at the user's first note or search."""
    try:
        from desktop_app.memory.construction import warm_up
    except ImportError:
        return
    warm_up()


def memory_config(settings: Settings) -> Any:
    from desktop_app.memory.types import MemoryConfig

    return MemoryConfig(
        recall_threshold=settings.recall_threshold,
        max_memories=settings.max_memories,
        recency_weight=settings.recency_weight,
    )


class EngineHost(QObject):
    stateChanged = Signal(str)  # "loading" / "ready" / "failed"
    failed = Signal(object)  # the exception that stopped the engine from opening
    casesChanged = Signal()
    notesChanged = Signal(object, object)  # (case id or None for global, origin view or None)
    conversationsChanged = Signal(object)  # case id
    statsChanged = Signal(object)  # EngineStats
    llmChanged = Signal()
    connectivityChanged = Signal(str)  # "none" (not configured) / "online" / "offline" / "unknown"

    def __init__(
        self,
        data_dir: Path,
        settings: Settings,
        engine_factory: EngineFactory | None = None,
        llm_factory: Callable[[Settings], Any] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.data_dir = data_dir
        self.settings = settings
        self.engine: Any = None
        self.llm: Any = None
        self.state = "idle"
        self.error: BaseException | None = None
        self.connectivity = "unknown"
        self._factory = engine_factory or default_engine_factory
        self._llm_factory = llm_factory or llm_setup.build_llm
        self._queue: list[Callable[[], None]] = []
        self._stats_timer = QTimer(self)
        self._stats_timer.setSingleShot(True)
        self._stats_timer.setInterval(300)  # coalesce bursts of changes into one stats query
        self._stats_timer.timeout.connect(self._query_stats)
        self.last_stats: Any = None
        # pending memory jobs (queued while offline) are retried in a worker from time to time
        self._jobs_timer = QTimer(self)
        self._jobs_timer.setInterval(JOBS_INTERVAL_MS)
        self._jobs_timer.timeout.connect(self.run_pending_jobs)
        self._jobs_running = False
        #: automatic snapshots of the database (desktop_app.memory.backups), made in a worker
        self.backups: Any = None
        self._backup_timer = QTimer(self)
        self._backup_timer.setInterval(BACKUP_CHECK_MS)
        self._backup_timer.timeout.connect(self.snapshot_if_due)

    # -- life cycle ------------------------------------------------------------------------
    def open(self) -> None:
        if self.state in ("loading", "ready"):
            return
        self._set_state("loading")
        settings, data_dir, factory = self.settings, self.data_dir, self._factory
        build_llm = self._build_llm_quietly

        def work() -> tuple[Any, Any]:
            # both are slow (keyring over D-Bus; lancedb + embedder): never on the UI thread
            llm = build_llm(settings)
            return llm, factory(data_dir, llm, settings)

        run_op(work, on_success=self._opened, on_failure=self._open_failed, name="open-engine")

    def _build_llm_quietly(self, settings: Settings) -> Any:
        try:
            return self._llm_factory(settings)
        except Exception as exc:  # a broken keyring must not stop the app from opening
            log.warning("LLM client not built: %s", exc)
            return None

    def _opened(self, result: tuple[Any, Any]) -> None:
        self.llm, self.engine = result
        self.error = None
        self._set_connectivity("none" if self.llm is None else "unknown")
        self.llmChanged.emit()
        self._set_state("ready")
        queued, self._queue = self._queue, []
        for start in queued:
            start()
        self.casesChanged.emit()
        self.refresh_stats()
        self._jobs_timer.start()
        QTimer.singleShot(2000, self.run_pending_jobs)
        from desktop_app.memory.backups import BackupManager

        self.backups = BackupManager(self.engine)
        self._backup_timer.start()
        QTimer.singleShot(5000, self.snapshot_if_due)

    def snapshot_if_due(self) -> None:
        """An automatic snapshot when the schedule says one is due (in a worker; a failed
        backup is logged by the manager and never disturbs the user)."""
        manager = self.backups
        if manager is not None and self.engine is not None:
            run_op(manager.maybe_snapshot, name="auto-backup")

    def _open_failed(self, exc: BaseException) -> None:
        log.error("engine failed to open", exc_info=exc)
        self.error = exc
        self._set_state("failed")
        self.failed.emit(exc)

    def _set_state(self, state: str) -> None:
        self.state = state
        self.stateChanged.emit(state)

    def close(self) -> None:
        self._jobs_timer.stop()
        self._backup_timer.stop()
        self.backups = None
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                engine.close()
            except Exception:
                log.exception("engine close failed")
        if self.llm is not None and hasattr(self.llm, "close"):
            try:
                self.llm.close()
            except Exception:
                log.debug("llm close failed", exc_info=True)

    def restore_from(self, backup: Path, on_done: Callable[[BaseException | None], None]) -> None:
        """Close the engine (if open), put the backup in place of the database and reopen.
        Works after a failed open too (a damaged database): the backup is verified first,
        the replaced database is kept as a "pre-restore" backup, and the index catches up
        with the restored notes at open."""
        engine, self.engine = self.engine, None
        self.backups = None
        self._backup_timer.stop()
        self._set_state("loading")
        data_dir, llm, settings, factory = self.data_dir, self.llm, self.settings, self._factory

        def work() -> tuple[Any, Any]:
            from desktop_app.memory.backups import restore_database

            if engine is not None:
                engine.close()
            restore_database(data_dir, Path(backup))
            return llm, factory(data_dir, llm, settings)

        def ok(result: tuple[Any, Any]) -> None:
            self._opened(result)
            on_done(None)

        def failed(exc: BaseException) -> None:
            self._open_failed(exc)
            on_done(exc)

        run_op(work, on_success=ok, on_failure=failed, name="restore")

    # -- calls -----------------------------------------------------------------------------
    def call(
        self,
        fn: Callable[[Any], Any],
        on_success: Callable[[Any], None] | None = None,
        on_failure: Callable[[BaseException], None] | None = None,
        *,
        name: str = "",
        on_finally: Callable[[], None] | None = None,
    ) -> Op | None:
        """Run ``fn(engine)`` in a worker; queued until the engine is open.

        Returns the :class:`Op`, or None when the call was queued.
        """
        def start() -> Op:
            engine = self.engine
            return run_op(
                lambda: fn(engine),
                on_success=on_success,
                on_failure=on_failure,
                on_finally=on_finally,
                name=name or getattr(fn, "__name__", "engine-call"),
            )

        if self.engine is not None:
            return start()
        if self.state == "failed":
            if on_failure is not None:
                on_failure(self.error or RuntimeError("engine not available"))
            return None
        self._queue.append(start)
        return None

    def run_pending_jobs(self) -> None:
        """Run a few due memory jobs (extraction, construction) when a model is configured."""
        engine = self.engine
        if engine is None or self.llm is None or self._jobs_running or not hasattr(engine, "run_pending_jobs"):
            return
        self._jobs_running = True

        def done(report: Any) -> None:
            if getattr(report, "done", 0):
                self.notify_notes_changed(None)
            problem = getattr(report, "last_problem", "")
            if problem:
                log.info("memory jobs deferred: %s", problem)
            self.refresh_stats()

        def finish() -> None:
            self._jobs_running = False

        run_op(
            lambda: engine.run_pending_jobs(max_jobs=5),
            on_success=done,
            on_failure=lambda exc: log.warning("memory jobs failed: %r", exc),
            on_finally=finish,
            name="memory-jobs",
        )

    def refresh_stats(self) -> None:
        self._stats_timer.start()

    def _query_stats(self) -> None:
        self.call(lambda e: e.stats(), self._got_stats, lambda exc: log.warning("stats: %s", exc), name="stats")

    def _got_stats(self, stats: Any) -> None:
        self.last_stats = stats
        self.statsChanged.emit(stats)

    def notify_notes_changed(self, case_id: str | None, origin: object = None) -> None:
        """Tell every view that notes of ``case_id`` changed; ``origin`` already shows it."""
        self.notesChanged.emit(case_id, origin)
        self.refresh_stats()

    # -- the LLM ---------------------------------------------------------------------------
    def apply_settings(self, settings: Settings) -> None:
        """New provider / model / key or memory parameters: rebuild the client (in a worker,
        the keyring may be slow), then hand it and the memory parameters to the engine."""
        self.settings = settings
        run_op(
            lambda: self._build_llm_quietly(settings),
            on_success=lambda llm: self._use_llm(llm, settings),
            name="build-llm",
        )

    def _use_llm(self, llm: Any, settings: Settings) -> None:
        old, self.llm = self.llm, llm
        self._set_connectivity("none" if llm is None else "unknown")
        if self.engine is not None:
            # the new client serves the next call at once; making the waiting jobs due
            # again is a database write, so that part runs in a worker
            self.engine.llm = llm
            if llm is not None:
                self.call(lambda e: e.retry_jobs_now(), name="retry-jobs")
            self.engine.set_config(memory_config(settings))
        if old is not None and old is not llm and hasattr(old, "close"):
            try:
                old.close()
            except Exception:
                log.debug("old llm close failed", exc_info=True)
        self.llmChanged.emit()

    def report_llm_result(self, exc: BaseException | None) -> None:
        """The chat tells us how the last LLM call went: drives the offline indicator."""
        if self.llm is None:
            self._set_connectivity("none")
        elif exc is None:
            self._set_connectivity("online")
        elif isinstance(exc, EndpointUnreachableError):
            self._set_connectivity("offline")
        elif isinstance(exc, LLMError):
            self._set_connectivity("online")  # it answered, just not the way we wanted

    def _set_connectivity(self, value: str) -> None:
        if value != self.connectivity:
            self.connectivity = value
            self.connectivityChanged.emit(value)
