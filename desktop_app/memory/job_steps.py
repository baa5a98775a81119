"""The steps of the durable memory jobs: the agentic A-MEM steps applied to stored notes.

``enrich`` (one note): construction → decision (ADD / UPDATE n / SUPERSEDE n / NOOP) →
link generation and evolution.  ``extract`` (one chat turn): knowledge items → add_notes,
each of which is then enriched.  Every change goes through the engine's public editing
methods (the :class:`StepEngine` protocol), so it leaves a history row and is re-embedded at
once.  The queue itself is jobs.py; the thread that runs due jobs is job_runner.py.
"""

from __future__ import annotations

import logging
import threading
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from desktop_app.core.errors import (
    BadResponseError,
    InvalidInputError,
    LLMError,
    NotFoundError,
    error_summary,
)
from desktop_app.memory import agentic
from desktop_app.memory.changes import Changes
from desktop_app.memory.jobs import ENRICH, EXTRACT, Job, JobQueue, turn_job_key
from desktop_app.memory.store import Store, from_iso, to_iso, utcnow
from desktop_app.memory.types import AddResult, Case, HistoryEntry, Note

log = logging.getLogger(__name__)


class StepEngine(Protocol):
    """What the job steps need from the engine: its public API, nothing private."""

    llm: Any

    def get_note(self, note_id: str) -> Note: ...
    def get_case(self, case_id: str) -> Case: ...
    def note_history(self, note_id: str) -> list[HistoryEntry]: ...
    def update_note(self, note_id: str, **fields: Any) -> Note: ...
    def delete_note(self, note_id: str) -> None: ...
    def supersede_note(
        self, old_id: str, new_id: str, actor: str = ..., reason: str = ...
    ) -> Note: ...
    def link_notes(
        self, src: str, dst: str, kind: str = ..., strength: float = ..., reason: str = ...
    ) -> None: ...
    def add_notes(self, items: Iterable[dict[str, Any]]) -> list[AddResult]: ...
    def neighbours_of(self, note: Note, k: int | None = None) -> list[Note]: ...
    def mark_reused(self, note_id: str) -> None: ...


@dataclass(frozen=True, slots=True)
class JobOutcome:
    """One finished job: its kind, its dedupe key and what its step returned."""

    kind: str
    key: str
    results: tuple[AddResult, ...] = ()


@dataclass(frozen=True, slots=True)
class JobReport:
    done: int = 0
    deferred: int = 0
    failed: int = 0
    #: the user-facing message of the last LLM problem (for the status bar), if any
    last_problem: str = ""
    #: the jobs that finished, in order
    outcomes: tuple[JobOutcome, ...] = ()
    #: what the jobs changed (filled by the engine, which records it)
    changes: Changes = field(default_factory=Changes)

    @property
    def anything_happened(self) -> bool:
        return bool(self.done or self.deferred or self.failed)


def _results(value: Any) -> tuple[AddResult, ...]:
    if isinstance(value, AddResult):
        return (value,)
    if isinstance(value, Sequence):
        return tuple(r for r in value if isinstance(r, AddResult))
    return ()


class JobSteps:
    def __init__(self, engine: StepEngine, queue: JobQueue, store: Store) -> None:
        self._engine = engine
        self._queue = queue
        self._store = store
        self._run_lock = threading.Lock()

    # ----------------------------------------------------------------- queueing

    def ingest_turn(
        self,
        user_text: str,
        assistant_text: str,
        case_id: str | None,
        conversation_id: str | None,
        message_time: datetime | None,
        source: str | None,
        wait: bool,
    ) -> list[AddResult]:
        """Queue the extraction of one chat turn (see MemoryEngine.ingest_turn); with
        ``wait`` run it now and enrich what it added."""
        if not (user_text or "").strip() and not (assistant_text or "").strip():
            return []
        if case_id is not None:
            self._engine.get_case(case_id)  # CaseNotFoundError before anything is queued
        key = turn_job_key(user_text, assistant_text, case_id, conversation_id)
        payload = {
            "user_text": user_text or "",
            "assistant_text": assistant_text or "",
            "case_id": case_id,
            "conversation_id": conversation_id,
            "message_time": to_iso(message_time or utcnow()),
            "source": source,
        }
        with self._store.write() as conn:
            self._queue.enqueue(conn, EXTRACT, payload, key)
        if not wait or self._engine.llm is None:
            return []
        results = []
        for result in self.run_inline(key) or []:
            if result.action == "added":
                upgraded = self.run_inline(f"{ENRICH}:{result.note.id}")
                results.append(upgraded or result)
            else:
                results.append(result)
        return results

    # ----------------------------------------------------------------- running jobs

    def run_pending(self, max_jobs: int | None = None, now: datetime | None = None) -> JobReport:
        """Run due jobs until none is left (or ``max_jobs``); returns what happened."""
        if self._engine.llm is None:
            return JobReport()
        done = deferred = failed = 0
        problem = ""
        outcomes: list[JobOutcome] = []
        with self._run_lock:
            while max_jobs is None or done + deferred + failed < max_jobs:
                job = self._queue.claim_due(now)
                if job is None:
                    break
                status, message, result = self.run_job(job)
                if status == "done":
                    done += 1
                    outcomes.append(JobOutcome(job.kind, job.dedupe_key, _results(result)))
                elif status == "failed":
                    failed += 1
                else:
                    deferred += 1
                    problem = message
                    # the endpoint is down or refusing: stop hammering it this round
                    break
        return JobReport(done, deferred, failed, problem, tuple(outcomes))

    def run_job(self, job: Job) -> tuple[str, str, Any]:
        """Run one claimed job; returns (status, the user message of a problem, the step's
        result)."""
        try:
            if job.kind == ENRICH:
                result = self.enrich(job.payload["note_id"], job)
            elif job.kind == EXTRACT:
                result = self.extract(job.payload, job)
            else:
                raise InvalidInputError(f"unknown job kind {job.kind!r}")
        # What is stored and logged of an error is its class and HTTP status (error_summary),
        # never its text: an endpoint may quote the note, or echo the API key, in its message.
        except BadResponseError as exc:
            log.warning("job %s (%s): unusable answer: %s", job.id, job.kind, error_summary(exc))
            status = self._queue.defer(job, error_summary(exc), counts_as_attempt=True)
            return status, exc.user_message, None
        except LLMError as exc:
            # network down, rate limit, wrong key, missing model: wait for the endpoint or
            # the user, without using up the job's attempts
            log.info("job %s (%s) deferred: %s", job.id, job.kind, error_summary(exc))
            self._queue.defer(job, error_summary(exc), counts_as_attempt=False)
            return "pending", exc.user_message, None
        except (InvalidInputError, NotFoundError) as exc:
            log.warning("job %s (%s) cannot run: %s", job.id, job.kind, error_summary(exc))
            self._queue.fail(job, error_summary(exc))
            return "failed", exc.user_message, None
        except Exception as exc:  # a bug must not kill the runner; the job keeps its class
            log.error(
                "job %s (%s) crashed: %s\n%s",
                job.id,
                job.kind,
                error_summary(exc),
                "".join(traceback.format_tb(exc.__traceback__)),
            )
            status = self._queue.defer(job, error_summary(exc), counts_as_attempt=True)
            return status, error_summary(exc), None
        self._queue.complete(job)
        return "done", "", result

    def run_inline(self, dedupe_key: str) -> Any:
        """Run the job with this key now, in the caller's thread (``wait=True`` adds).
        Returns the step's result, or None if it could not run (it stays queued)."""
        job_id = self._queue.job_id_for(dedupe_key)
        job = self._queue.claim(job_id) if job_id is not None else None
        if job is None:
            return None
        _status, _message, result = self.run_job(job)
        return result

    # ---------------------------------------------------------------------- steps

    def enrich(self, note_id: str, job: Job | None = None) -> AddResult | None:
        eng = self._engine
        llm = eng.llm
        try:
            note = eng.get_note(note_id)
        except NotFoundError:
            return None  # deleted meanwhile: nothing to do
        if note.status != "active":
            return None

        # 1. construction (skipped on a retry that already did it)
        if not (job and job.payload.get("constructed")):
            built = agentic.construct_note(llm, note.content, note.created_at)
            user_edited = any(h.actor == "user" for h in eng.note_history(note_id))
            note = eng.update_note(
                note_id,
                keywords=built.keywords,
                context=built.context,
                tags=list(dict.fromkeys([*note.tags, *built.tags])),
                category=None if user_edited else built.category,
                actor="construction",
                reason="LLM note construction",
            )
            if job is not None:
                self._save_progress(job, constructed=True)

        # 2. decision against the nearest neighbours in the same scope
        neighbours = eng.neighbours_of(note)
        decision = agentic.decide(llm, note.content, neighbours)
        result = AddResult(note=note, action="added", linked=tuple(n.id for n in neighbours))
        if decision.action == "NOOP":
            target = decision.target_id
            eng.delete_note(note_id)  # the fact is already known: the new copy goes
            if target:
                eng.mark_reused(target)
                result = AddResult(note=eng.get_note(target), action="unchanged", target_id=target)
            else:
                result = AddResult(note=note, action="unchanged")
            return result
        if decision.action == "UPDATE" and decision.target_id:
            target = eng.get_note(decision.target_id)
            merged = eng.update_note(
                target.id,
                content=decision.merged_content,
                tags=list(dict.fromkeys([*target.tags, *note.tags])),
                actor="decision",
                reason=decision.reason or f"merged a newer wording ({note.source or 'chat'})",
                derived_from=note_id,
            )
            eng.delete_note(note_id)  # its content now lives in the merged note
            result = AddResult(note=merged, action="updated", target_id=target.id)
            return result
        if decision.action == "SUPERSEDE" and decision.target_id:
            eng.supersede_note(
                decision.target_id, note_id, actor="decision", reason=decision.reason
            )
            neighbours = [n for n in neighbours if n.id != decision.target_id]
            result = AddResult(note=note, action="superseded", target_id=decision.target_id)

        # 3. link generation and evolution
        evolution = agentic.evolve(llm, note, neighbours)
        for link in evolution.links:
            eng.link_notes(
                note_id, link.target_id, kind="evolution", strength=0.9, reason=link.reason
            )
        if evolution.new_tags_for_note:
            eng.update_note(
                note_id,
                tags=list(
                    dict.fromkeys([*eng.get_note(note_id).tags, *evolution.new_tags_for_note])
                ),
                actor="evolution",
                reason="evolution: refined tags",
            )
        for upd in evolution.neighbour_updates:
            eng.update_note(
                upd.target_id,
                context=upd.new_context,
                tags=list(upd.new_tags) if upd.new_tags is not None else None,
                actor="evolution",
                reason=f"evolution after {note_id}",
                derived_from=note_id,  # forgetting the note rolls this back
            )
        result = AddResult(
            note=eng.get_note(note_id),
            action=result.action,
            linked=tuple(link.target_id for link in evolution.links) or result.linked,
            target_id=result.target_id,
        )
        return result

    def extract(self, payload: dict[str, Any], job: Job | None = None) -> list[AddResult]:
        eng = self._engine
        message_time = from_iso(payload.get("message_time")) or utcnow()
        items = agentic.extract_knowledge(
            eng.llm, payload.get("user_text", ""), payload.get("assistant_text", ""), message_time
        )
        case_id = payload.get("case_id")
        if case_id is not None:
            try:
                eng.get_case(case_id)
            except NotFoundError:
                case_id = None if all(i.scope == "global" for i in items) else case_id
        source = payload.get("source") or f"chat:{payload.get('conversation_id') or '-'}"
        rows = [
            {
                "content": item.content,
                "category": item.category,
                "case_id": None if item.scope == "global" else case_id,
                "created_at": message_time,
                "source": source,
            }
            for item in items
        ]
        results = eng.add_notes(rows) if rows else []
        return results

    def _save_progress(self, job: Job, **fields: Any) -> None:
        job.payload.update(fields)
        self._queue.save_payload(job)
