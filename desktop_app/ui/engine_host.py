"""Owns the memory engine and the LLM client for the UI; every call goes through a worker.

The engine is opened in the background after the window's first paint (``import lancedb``
and the embedder take seconds). Until it is ready, calls are queued and run as soon as it
opens, so views need not care about start-up order.

What changed reaches the views through ONE signal, ``operationDidExecute(changes, origin)``
(Anki's pattern): every :meth:`EngineHost.call` records what the engine changed
(a :class:`desktop_app.memory.changes.Changes`), and so does each round of the engine's job
runner.  Each view refreshes only when the changes concern what it shows, and skips the
operations it started itself (``origin``).  Views never emit the host's signals.

The engine's background work (the job runner, the backup schedule) is the engine's own; the
host only starts it when the engine opens and stops it with the engine.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from desktop_app.core.errors import (
    ConnectionLostError,
    EndpointUnreachableError,
    LLMError,
    ProviderNotConfiguredError,
    ProxyConfigError,
)
from desktop_app.core.settings import Settings
from desktop_app.ui import llm_setup
from desktop_app.ui.workers import Op, run_op

log = logging.getLogger(__name__)

EngineFactory = Callable[[Path, Any, Settings], Any]


@dataclass(frozen=True, slots=True)
class NoLLM:
    """No client could be built from the settings, and why (for the UI to name)."""

    error: LLMError


def _client_and_error(built: Any) -> tuple[Any, LLMError | None]:
    """A client (or None), or a :class:`NoLLM`, as ``(client, why there is none)``."""
    return (None, built.error) if isinstance(built, NoLLM) else (built, None)


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
        maintenance_enabled=settings.maintenance_enabled,
        maintenance_period_days=float(settings.maintenance_period_days),
        maintenance_stale_days=float(settings.maintenance_stale_days),
        maintenance_duplicate_threshold=settings.maintenance_duplicate_threshold,
    )


class EngineHost(QObject):
    stateChanged = Signal(str)  # "loading" / "ready" / "failed"
    failed = Signal(object)  # the exception that stopped the engine from opening
    #: (Changes, the view that started the operation or None): what an operation changed
    operationDidExecute = Signal(object, object)
    #: a round of the job runner finished (JobReport): the chat picks what it learned
    jobsReported = Signal(object)
    statsChanged = Signal(object)  # EngineStats
    llmChanged = Signal()
    #: "none" (not configured) / "misconfigured" (the setup cannot work: ``llm_error`` says
    #: why) / "online" / "offline" / "unknown"
    connectivityChanged = Signal(str)
    #: the job runner's reports, hopping from its thread to the UI thread
    _jobsFromRunner = Signal(object)

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
        #: why there is no client although the settings ask for one (a proxy that cannot
        #: work, …): the chat names it instead of "not configured"
        self.llm_error: LLMError | None = None
        self.state = "idle"
        self.error: BaseException | None = None
        self.connectivity = "unknown"
        self._factory = engine_factory or default_engine_factory
        self._llm_factory = llm_factory or (
            lambda s: llm_setup.build_llm(s, data_dir=data_dir)
        )
        self._queue: list[Callable[[], None]] = []
        self._stats_timer = QTimer(self)
        self._stats_timer.setSingleShot(True)
        self._stats_timer.setInterval(300)  # coalesce bursts of changes into one stats query
        self._stats_timer.timeout.connect(self._query_stats)
        self.last_stats: Any = None
        self._jobsFromRunner.connect(self._jobs_reported)

    # -- life cycle ------------------------------------------------------------------------
    def open(self) -> None:
        if self.state in ("loading", "ready"):
            return
        self._set_state("loading")
        settings, data_dir, factory = self.settings, self.data_dir, self._factory
        build_llm = self._build_llm_quietly

        def work() -> tuple[Any, Any]:
            # both are slow (keyring over D-Bus; lancedb + embedder): never on the UI thread
            built = build_llm(settings)
            return built, factory(data_dir, _client_and_error(built)[0], settings)

        run_op(work, on_success=self._opened, on_failure=self._open_failed, name="open-engine")

    def _build_llm_quietly(self, settings: Settings) -> Any:
        """The client, None, or :class:`NoLLM` with the reason: an LLM error (a proxy
        setting that cannot work…) is kept for the UI to name; anything else (a broken
        keyring) is logged and must not stop the app from opening."""
        try:
            return self._llm_factory(settings)
        except LLMError as exc:
            log.warning("LLM client not built: %s: %s", type(exc).__name__, exc)
            return NoLLM(exc)
        except Exception as exc:
            log.warning("LLM client not built: %s", exc)
            return None

    def _opened(self, result: tuple[Any, Any]) -> None:
        """``result``: (the client, None or a NoLLM; the open engine)."""
        built, self.engine = result
        self.llm, self.llm_error = _client_and_error(built)
        self.error = None
        self._set_connectivity(self._idle_connectivity())
        self.llmChanged.emit()
        self._set_state("ready")
        queued, self._queue = self._queue, []
        for start in queued:
            start()
        self.refresh_stats()
        # the engine's own threads: the job runner (its reports hop to the UI thread through
        # a queued signal) and the backup schedule
        self.engine.start_background_work(on_jobs=self._jobsFromRunner.emit)

    @property
    def backups(self) -> Any:
        """The backups of the open engine (snapshots, restore, forget), or None."""
        return self.engine.backups if self.engine is not None else None

    def _open_failed(self, exc: BaseException) -> None:
        log.error("engine failed to open", exc_info=exc)
        self.error = exc
        self._set_state("failed")
        self.failed.emit(exc)

    def _set_state(self, state: str) -> None:
        self.state = state
        self.stateChanged.emit(state)

    def close(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                engine.close()  # stops its job runner and backup schedule first
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
        self._set_state("loading")
        data_dir, llm, settings, factory = self.data_dir, self.llm, self.settings, self._factory
        built = llm if self.llm_error is None else NoLLM(self.llm_error)

        def work() -> tuple[Any, Any]:
            from desktop_app.memory.backups import restore_and_reopen

            reopen = lambda folder: factory(folder, llm, settings)  # noqa: E731
            return built, restore_and_reopen(data_dir, Path(backup), engine, reopen)

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
        fn: Callable[..., Any],
        on_success: Callable[[Any], None] | None = None,
        on_failure: Callable[[BaseException], None] | None = None,
        *,
        name: str = "",
        on_finally: Callable[[], None] | None = None,
        on_progress: Callable[[Any], None] | None = None,
        origin: object = None,
    ) -> Op | None:
        """Run ``fn(engine)`` in a worker; queued until the engine is open.

        ``fn`` may also take ``report`` and ``cancel`` (see workers.run_op).  What the
        engine changed meanwhile is published once the callbacks ran, as
        ``operationDidExecute(changes, origin)`` (also after a failure: a turn may have
        stored the question before the model failed).  Returns the :class:`Op`, or None
        when the call was queued.
        """
        try:
            wanted = {p for p in inspect.signature(fn).parameters if p in ("report", "cancel")}
        except (TypeError, ValueError):
            wanted = set()

        def start() -> Op:
            engine = self.engine
            recorded: list[Any] = []

            def work(report: Callable[[Any], None], cancel: Any) -> Any:
                extra = {"report": report, "cancel": cancel}
                with engine.recording() as change_log:
                    try:
                        return fn(engine, **{k: extra[k] for k in wanted})
                    finally:
                        recorded.append(change_log)

            def published(callback: Callable[[Any], None] | None) -> Callable[[Any], None]:
                def deliver(value: Any) -> None:
                    try:
                        if callback is not None:
                            callback(value)
                    finally:
                        if recorded:
                            self._publish(recorded[0].changes, origin)

                return deliver

            return run_op(
                work,
                on_success=published(on_success),
                on_failure=published(on_failure) if on_failure is not None else None,
                on_progress=on_progress,
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

    def _publish(self, changes: Any, origin: object) -> None:
        if changes:
            self.operationDidExecute.emit(changes, origin)
            self.refresh_stats()

    def _jobs_reported(self, report: Any) -> None:
        """A round of the engine's job runner finished (UI thread)."""
        if report.last_problem:
            log.info("memory jobs deferred: %s", report.last_problem)
        self.jobsReported.emit(report)
        self._publish(report.changes, None)
        self.refresh_stats()

    def refresh_stats(self) -> None:
        self._stats_timer.start()

    def _query_stats(self) -> None:
        self.call(
            lambda e: e.stats(),
            self._got_stats,
            lambda exc: log.warning("stats: %s", exc),
            name="stats",
        )

    def _got_stats(self, stats: Any) -> None:
        self.last_stats = stats
        self.statsChanged.emit(stats)

    # -- the LLM ---------------------------------------------------------------------------
    def apply_settings(self, settings: Settings) -> None:
        """New provider / model / key or memory parameters: rebuild the client (in a worker,
        the keyring may be slow), then hand it and the memory parameters to the engine."""
        self.settings = settings
        run_op(
            lambda: self._build_llm_quietly(settings),
            on_success=lambda built: self._use_llm(built, settings),
            name="build-llm",
        )

    def _use_llm(self, built: Any, settings: Settings) -> None:
        """``built``: the new client, None, or a NoLLM (see :meth:`_build_llm_quietly`)."""
        llm, error = _client_and_error(built)
        old, self.llm, self.llm_error = self.llm, llm, error
        self._set_connectivity(self._idle_connectivity())
        config = memory_config(settings)

        def close_old() -> None:
            if old is not None and old is not llm and hasattr(old, "close"):
                try:
                    old.close()
                except Exception:
                    log.debug("old llm close failed", exc_info=True)

        if self.engine is not None:
            # through the engine's own methods, in a worker (making the waiting jobs due
            # again is a database write); the old client is closed once the engine holds
            # the new one
            def hand_over(e: Any) -> None:
                e.set_config(config)
                e.set_llm(llm)

            self.call(hand_over, on_finally=close_old, name="use-llm")
        else:
            close_old()
        self.llmChanged.emit()

    def report_llm_result(self, exc: BaseException | None) -> None:
        """The chat tells us how the last LLM call went: drives the offline indicator."""
        if isinstance(exc, ProxyConfigError) or (
            self.llm is None and isinstance(exc, LLMError) and exc is self.llm_error
        ):
            self._set_connectivity("misconfigured")  # a setup problem, not the network's
        elif self.llm is None or isinstance(exc, ProviderNotConfiguredError):
            self._set_connectivity(self._idle_connectivity())
        elif exc is None:
            self._set_connectivity("online")
        elif isinstance(exc, EndpointUnreachableError | ConnectionLostError):
            # unreachable, or the connection broke mid-answer: not online, whatever came
            self._set_connectivity("offline")
        elif isinstance(exc, LLMError):
            self._set_connectivity("online")  # it answered, just not the way we wanted

    def _idle_connectivity(self) -> str:
        """Before any call: no client ("none", or "misconfigured" when the setup cannot
        work) or "unknown"."""
        if self.llm is not None:
            return "unknown"
        return "misconfigured" if self.llm_error is not None else "none"

    def _set_connectivity(self, value: str) -> None:
        if value != self.connectivity:
            self.connectivity = value
            self.connectivityChanged.emit(value)
