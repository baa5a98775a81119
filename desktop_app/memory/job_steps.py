"""The steps of the durable memory jobs: the agentic A-MEM steps applied to stored notes.

``enrich`` (one note typed by hand or imported): construction → decision and evolution
(ADD / UPDATE n / SUPERSEDE n / CONFLICT n / NOOP, typed links, tags) — two calls.
``extract`` (one chat turn): knowledge items already constructed → stored → one decision
and evolution call for all of them — two calls.  Each step's result is kept in the job
before the next runs, so a retried job resumes and never asks (or pays) twice; the model's
answers are applied under rules no answer overrides (see ``JobSteps._apply_plan``).

Every change goes through the engine's public editing methods (the :class:`StepEngine`
protocol), so it leaves a history row and is re-embedded at once.  The queue itself is
jobs.py; the thread that runs due jobs is job_runner.py.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Protocol

from desktop_app.core.clock import aware
from desktop_app.core.errors import (
    BadResponseError,
    InvalidInputError,
    LLMError,
    NotFoundError,
    error_summary,
)
from desktop_app.memory import agentic
from desktop_app.memory.changes import Changes
from desktop_app.memory.construction import Construction
from desktop_app.memory.dates import is_later
from desktop_app.memory.documents_repository import DocumentsRepository
from desktop_app.memory.ingest import DUPLICATE_REASON
from desktop_app.memory.jobs import ENRICH, EXTRACT, Job, JobQueue, turn_job_key
from desktop_app.memory.sameness import keeps_values
from desktop_app.memory.scope import same_scope, scope_key
from desktop_app.memory.store import Store, from_iso, to_iso, utcnow
from desktop_app.memory.types import AddResult, Case, HistoryEntry, Link, MemoryConfig, Note

log = logging.getLogger(__name__)


class _DocumentDeleted(Exception):
    """Rolls back the notes of an extraction whose document went meanwhile."""


class StepEngine(Protocol):
    """What the job steps need from the engine: its public API, nothing private."""

    llm: Any
    config: MemoryConfig

    def get_note(self, note_id: str) -> Note: ...
    def notes_by_ids(self, note_ids: Sequence[str]) -> list[Note]: ...
    def links_of(self, note_id: str) -> list[Link]: ...
    def get_case(self, case_id: str) -> Case: ...
    def note_history(self, note_id: str) -> list[HistoryEntry]: ...
    def update_note(self, note_id: str, **fields: Any) -> Note: ...
    def delete_note(self, note_id: str) -> None: ...
    def supersede_note(
        self, old_id: str, new_id: str, actor: str = ..., reason: str = ...
    ) -> Note: ...
    def link_notes(
        self,
        src: str,
        dst: str,
        kind: str = ...,
        strength: float = ...,
        reason: str = ...,
        label: str | None = ...,
    ) -> None: ...
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


#: adds notes without queueing their own jobs; ``also(conn, results)`` commits with them
AddNotes = Callable[
    [Iterable[dict[str, Any]], Callable[[sqlite3.Connection, list[AddResult]], None]],
    list[AddResult],
]


class JobSteps:
    def __init__(
        self, engine: StepEngine, queue: JobQueue, store: Store, add_notes: AddNotes
    ) -> None:
        self._engine = engine
        self._queue = queue
        self._store = store
        self._add_notes = add_notes
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
        message_id: str | None = None,
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
            # a naive time is the user's local time (the chat's clock), never UTC
            "message_time": to_iso(aware(message_time) if message_time else utcnow()),
            "source": source,
            "message_id": message_id,
        }
        with self._store.write() as conn:
            self._queue.enqueue(conn, EXTRACT, payload, key)
        if not wait or self._engine.llm is None:
            return []
        return list(self.run_inline(key) or [])

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
        """One note added by hand or imported: construction (one call), then its decision
        and evolution (one call).  Each step's result is kept in the job, so a retry goes
        on from where it stopped and never asks the model again for what it already said."""
        eng = self._engine
        payload = job.payload if job is not None else {}
        try:
            note = eng.get_note(note_id)
        except NotFoundError:
            return None  # deleted meanwhile: nothing to do
        if note.status != "active" and "decisions" not in payload:
            return None
        if not payload.get("constructed"):
            built = agentic.construct_note(eng.llm, note.content, note.created_at)
            note = self._apply_construction(note, built, set(payload.get("keep", ())))
            self._save_progress(job, constructed=True)
        return self._decide_and_apply(job, [note_id]).get(note_id)

    def _apply_construction(self, note: Note, built: Construction, keep: set[str]) -> Note:
        """The model's construction, except what the user chose: a category, a date or a
        source picked at add time (``keep``) or edited by hand since."""
        edited_by_user = any(h.actor == "user" for h in self._engine.note_history(note.id))
        if edited_by_user:
            keep |= {"category", "event_date", "source_kind"}
        return self._engine.update_note(
            note.id,
            keywords=built.keywords,
            context=built.context,
            tags=list(dict.fromkeys([*note.tags, *built.tags])),
            category=None if "category" in keep else built.category,
            event_date=None if "event_date" in keep else built.event_date,
            source_kind=None if "source_kind" in keep else built.source_kind,
            actor="construction",
            reason="LLM note construction",
        )

    def extract(self, payload: dict[str, Any], job: Job | None = None) -> list[AddResult]:
        """One chat turn: the knowledge items, already constructed (one call); stored as
        notes; then one decision-and-evolution call for all of them (siblings are never
        each other's neighbours).  Returns what happened to each item, in order."""
        eng = self._engine
        message_time = from_iso(payload.get("message_time")) or utcnow()
        if "items" not in payload:
            items = agentic.extract_knowledge(
                eng.llm,
                payload.get("user_text", ""),
                payload.get("assistant_text", ""),
                message_time,
            )
            self._save_progress(job, items=[_item_row(item) for item in items])
        items = payload.get("items") or []
        if not items:
            return []
        if "added" not in payload:
            rows = self._note_rows(payload, items, message_time)

            document_id = payload.get("document_id")

            def remember(conn: sqlite3.Connection, results: list[AddResult]) -> None:
                # the document deleted while the model answered: in the add's own
                # transaction, so no delete can slip in between the check and the notes
                if document_id and not DocumentsRepository.exists(conn, document_id):
                    raise _DocumentDeleted
                # in the add's own transaction: a retry finds exactly what this one added
                added = [{"note_id": r.note.id, "action": r.action} for r in results]
                self._save_progress(job, conn=conn, added=added)

            try:
                self._add_notes(rows, remember)
            except _DocumentDeleted:
                log.info("a document was deleted while its extraction ran; its notes dropped")
                return []
        added = payload["added"]
        new_ids = [a["note_id"] for a in added if a["action"] == "added"]
        outcomes = self._decide_and_apply(job, new_ids) if new_ids else {}
        results = []
        for entry in added:
            result = outcomes.get(entry["note_id"])
            if result is None:
                try:
                    note = eng.get_note(entry["note_id"])
                except NotFoundError:
                    continue  # deleted by the user meanwhile
                result = AddResult(note=note, action=entry["action"])
            results.append(result)
        if payload.get("message_id"):
            learned = [r.note.id for r in results if r.learned]
            if learned:
                eng.record_learned(payload["message_id"], learned)
        return results

    def _note_rows(
        self, payload: dict[str, Any], items: list[dict[str, Any]], message_time: datetime
    ) -> list[dict[str, Any]]:
        eng = self._engine
        case_id = payload.get("case_id")
        if case_id is not None:
            try:
                eng.get_case(case_id)
            except NotFoundError:
                case_id = None if all(i["scope"] == "global" for i in items) else case_id
        source = payload.get("source") or f"chat:{payload.get('conversation_id') or '-'}"
        # a case document's knowledge is the case's, whatever scope the model guessed
        from_document = bool(payload.get("document_id"))
        return [
            {
                "content": item["content"],
                "category": item["category"],
                "case_id": case_id if from_document or item["scope"] != "global" else None,
                "created_at": message_time,
                "source": source,
                "origin": "import" if from_document else "message",
                "keywords": item.get("keywords") or (),
                "context": item.get("context") or "",
                "tags": item.get("tags") or (),
                "event_date": item.get("event_date"),
                "source_kind": item.get("source_kind"),
            }
            for item in items
        ]

    # -- decision and evolution, resumable -----------------------------------------------

    def _decide_and_apply(self, job: Job | None, note_ids: Sequence[str]) -> dict[str, AddResult]:
        """Decide the new notes in one call (stored in the job before anything is applied),
        then apply each plan, recording each outcome: a retry re-applies only what was not
        applied yet, from the stored answer."""
        eng = self._engine
        payload = job.payload if job is not None else {}
        if "decisions" not in payload:
            notes = [n for n in eng.notes_by_ids(note_ids) if n.status == "active"]
            siblings = {n.id for n in notes}
            k = eng.config.neighbours
            batch = [
                agentic.NewNote(
                    n,
                    [x for x in eng.neighbours_of(n, k + len(siblings)) if x.id not in siblings][
                        :k
                    ],
                    scope_key(n.case_id),
                )
                for n in notes
            ]
            answer = agentic.decide_batch(eng.llm, batch) if batch else agentic.Decisions(())
            self._save_progress(job, decisions=_decisions_row(answer))
        answer = _decisions_from_row(payload["decisions"])
        outcomes: dict[str, list] = payload.setdefault("outcomes", {})
        for plan in answer.plans:
            if plan.note_id not in outcomes:
                action, target = self._apply_plan(plan)
                outcomes[plan.note_id] = [action, target]
                self._save_progress(job)
        if not payload.get("neighbours_updated"):
            self._apply_neighbour_updates(
                answer.neighbour_updates, [plan.note_id for plan in answer.plans]
            )
            self._save_progress(job, neighbours_updated=True)
        results = {}
        for note_id, (action, target) in outcomes.items():
            shown = target if action in ("updated", "unchanged") else note_id
            try:
                note = eng.get_note(shown)
            except NotFoundError:
                continue
            linked = tuple(link.dst for link in eng.links_of(note_id)) if shown == note_id else ()
            results[note_id] = AddResult(note=note, action=action, linked=linked, target_id=target)
        return results

    def _apply_plan(self, plan: agentic.Plan) -> tuple[str, str | None]:
        """Apply one decision; returns (the outcome's action, the other note).  The rules
        that no model answer overrides: nothing the user wrote is deleted unless its text
        is kept elsewhere; an earlier fact never replaces a later one; a contradiction
        between different sources is a conflict, not a replacement."""
        eng = self._engine
        try:
            note = eng.get_note(plan.note_id)
        except NotFoundError:
            return "unchanged", None  # the user deleted it meanwhile
        decision = plan.decision
        target = self._live_target(note, decision.target_id)
        action = decision.action if target is not None else "ADD"
        reason = decision.reason
        outcome: tuple[str, str | None] = ("added", None)
        if action == "NOOP":
            if target.content_hash == note.content_hash:
                eng.delete_note(note.id)  # the same text, already kept: nothing is lost
                eng.mark_reused(target.id)
                return "unchanged", target.id
            eng.link_notes(note.id, target.id, kind="duplicate", strength=1.0,
                           reason=reason or DUPLICATE_REASON)  # fmt: skip
            outcome = ("duplicate", target.id)
        elif action == "UPDATE":
            if keeps_values(decision.merged_content or "", note.content, target.content):
                eng.update_note(
                    target.id,
                    content=decision.merged_content,
                    tags=list(dict.fromkeys([*target.tags, *note.tags])),
                    actor="decision",
                    reason=f"{reason or '合并了新的表述 / merged a newer wording'}：{note.content}",
                    derived_from=note.id,
                )
                eng.delete_note(note.id)  # its text is in the merged note and its history
                return "updated", target.id
            # the merge dropped a value or a negation: keep both, one adds to the other
            eng.link_notes(note.id, target.id, kind="evolution", strength=0.9,
                           reason=reason, label="补充")  # fmt: skip
        elif action == "SUPERSEDE" and _different_sources(note, target):
            action = "CONFLICT"
        if action == "SUPERSEDE":
            if is_later(target.effective_date, note.effective_date):
                # the note is the earlier state of the matter: the later one stays current
                eng.supersede_note(note.id, target.id, actor="decision",
                                   reason=f"{reason}（较早的事实 / the earlier fact）")  # fmt: skip
                outcome = ("outdated", target.id)
            else:
                eng.supersede_note(target.id, note.id, actor="decision", reason=reason)
                outcome = ("superseded", target.id)
        elif action == "CONFLICT":
            eng.link_notes(note.id, target.id, kind="conflict", strength=1.0,
                           reason=reason, label="矛盾")  # fmt: skip
            outcome = ("conflict", target.id)
        self._apply_evolution(note.id, plan, skip=target.id if target is not None else None)
        return outcome

    def _live_target(self, note: Note, target_id: str | None) -> Note | None:
        """The decision's target if it can still be one: it exists, is active and shares
        the note's scope (a later plan of the same answer may have replaced it)."""
        if not target_id or target_id == note.id:
            return None
        try:
            target = self._engine.get_note(target_id)
        except NotFoundError:
            return None
        if target.status != "active" or not same_scope(target.case_id, note.case_id):
            return None
        return target

    def _apply_evolution(self, note_id: str, plan: agentic.Plan, skip: str | None) -> None:
        eng = self._engine
        for link in plan.links:
            if link.target_id == skip:
                continue  # the decision already linked them
            if self._live_target(eng.get_note(note_id), link.target_id) is None:
                continue
            eng.link_notes(note_id, link.target_id, kind="evolution", strength=0.9,
                           reason=link.reason, label=link.type)  # fmt: skip
        if plan.new_tags:
            current = eng.get_note(note_id)
            eng.update_note(
                note_id,
                tags=list(dict.fromkeys([*current.tags, *plan.new_tags])),
                actor="evolution",
                reason="evolution: refined tags",
            )

    def _apply_neighbour_updates(
        self, updates: Sequence[agentic.NeighbourUpdate], new_ids: Sequence[str]
    ) -> None:
        eng = self._engine
        new_notes = eng.notes_by_ids(new_ids)  # read once: the rewrites change neighbours only
        for upd in updates:
            source = _likely_source(upd, new_notes)
            try:
                eng.update_note(
                    upd.target_id,
                    context=upd.new_context,
                    tags=list(upd.new_tags) if upd.new_tags is not None else None,
                    actor="evolution",
                    reason="evolution after new notes",
                    derived_from=source,  # forgetting that note rolls this change back
                )
            except NotFoundError:
                continue  # deleted meanwhile

    def _save_progress(
        self, job: Job | None, conn: sqlite3.Connection | None = None, **fields: Any
    ) -> None:
        if job is None:
            return
        job.payload.update(fields)
        self._queue.save_payload(job, conn)


def _likely_source(upd: agentic.NeighbourUpdate, new_notes: Sequence[Note]) -> str | None:
    """The new note a neighbour's rewrite most likely came from: the only one, or the one
    sharing most characters with the new context and tags (forget also reverts any value
    that still holds a forgotten note's distinctive terms, whichever note is named)."""
    if len(new_notes) <= 1:
        return new_notes[0].id if new_notes else None
    written = set((upd.new_context or "") + "".join(upd.new_tags or ()))
    return max(new_notes, key=lambda n: len(written & set(n.content))).id


# -- what a job keeps between attempts (JSON in its payload) ------------------------------------


def _item_row(item: agentic.Item) -> dict[str, Any]:
    row = asdict(item)
    row["keywords"], row["tags"] = list(item.keywords), list(item.tags)
    return row


def _decisions_row(answer: agentic.Decisions) -> dict[str, Any]:
    """The model's answer with note ids (not the aliases it saw), so a retry applies it
    exactly as it was given."""
    return {
        "plans": [
            {
                "note_id": p.note_id,
                "action": p.decision.action,
                "target_id": p.decision.target_id,
                "merged_content": p.decision.merged_content,
                "reason": p.decision.reason,
                "links": [[lk.alias, lk.target_id, lk.reason, lk.type] for lk in p.links],
                "tags": list(p.new_tags) if p.new_tags is not None else None,
            }
            for p in answer.plans
        ],
        "neighbour_updates": [
            [u.target_id, u.new_context, list(u.new_tags) if u.new_tags is not None else None]
            for u in answer.neighbour_updates
        ],
    }


def _decisions_from_row(row: dict[str, Any]) -> agentic.Decisions:
    plans = tuple(
        agentic.Plan(
            p["note_id"],
            agentic.Decision(p["action"], p["target_id"], p["merged_content"], p["reason"]),
            tuple(agentic.EvolutionLink(*link) for link in p["links"]),
            tuple(p["tags"]) if p["tags"] is not None else None,
        )
        for p in row["plans"]
    )
    updates = tuple(
        agentic.NeighbourUpdate(target, context, tuple(tags) if tags is not None else None)
        for target, context, tags in row["neighbour_updates"]
    )
    return agentic.Decisions(plans, updates)


def _different_sources(a: Note, b: Note) -> bool:
    """Two assertions from different known sources (the client, an exhibit, the court)."""
    return bool(a.source_kind and b.source_kind and a.source_kind != b.source_kind)
