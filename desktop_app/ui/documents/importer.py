"""Imports files into a case in the background, one at a time, with progress and Cancel.

Each import is one EngineHost call (a worker thread): the engine reports (done, total, phase)
and polls the op's cancel flag; only plain values cross to the UI thread, as signals.  A
cancelled or failed import leaves nothing behind (the engine's all-or-nothing rule); the
reason is worded per DocumentImportError reason (wording.py)."""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from desktop_app.ui.documents.wording import import_error_text, is_cancel

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ImportJob:
    case_id: str
    path: Path

    @property
    def name(self) -> str:
        return self.path.name


class DocumentImporter(QObject):
    started = Signal(object)  # ImportJob
    progressed = Signal(object, int, int, str)  # ImportJob, done, total, phase
    imported = Signal(object, object)  # ImportJob, Document
    failed = Signal(object, str)  # ImportJob, the worded reason
    cancelled = Signal(object)  # ImportJob
    idle = Signal()  # nothing left to import

    def __init__(self, host: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self._queue: deque[ImportJob] = deque()
        self.current: ImportJob | None = None
        self._op: Any = None
        self._cancelling = False

    @property
    def busy(self) -> bool:
        return self.current is not None or bool(self._queue)

    @property
    def waiting(self) -> int:
        return len(self._queue)

    def enqueue(self, case_id: str, paths: list[Path]) -> None:
        self._queue.extend(ImportJob(case_id, Path(p)) for p in paths)
        if self.current is None:
            self._next()

    def cancel(self) -> None:
        """Stop the running import (it keeps nothing) and drop the ones waiting."""
        self._queue.clear()
        if self._op is not None and not self._cancelling:
            self._cancelling = True
            # only the flag: the callbacks stay, so what happened is what is said (an import
            # that finished just before the click is reported as imported, not cancelled)
            self._op.cancel_event.set()

    def _next(self) -> None:
        if not self._queue:
            self.current = None
            self.idle.emit()
            return
        job = self.current = self._queue.popleft()
        self._cancelling = False
        self.started.emit(job)

        def work(engine: Any, report: Any, cancel: Any) -> Any:
            return engine.import_document(
                job.case_id,
                job.path,
                progress=lambda done, total, phase: report((done, total, phase)),
                cancel=cancel.is_set,
            )

        self._op = self.host.call(
            work,
            lambda doc: self.imported.emit(job, doc),
            lambda exc: self._failed(job, exc),
            on_progress=lambda value: self.progressed.emit(job, *value),
            on_finally=lambda: self._finished(job),
            origin=self,
            name="import-document",
        )

    def _failed(self, job: ImportJob, exc: BaseException) -> None:
        if is_cancel(exc):
            self.cancelled.emit(job)
            return
        self.failed.emit(job, import_error_text(exc, job.name))

    def _finished(self, job: ImportJob) -> None:
        self._op = None
        self._cancelling = False
        self.current = None
        self._next()
