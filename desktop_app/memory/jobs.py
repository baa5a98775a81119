"""Durable background work that needs the LLM (extraction, construction/decision/evolution).

Jobs are rows in SQLite, so they survive restarts and network loss.  A job is claimed
(status running), then completed, deferred with backoff, or failed with its reason.  Jobs
left "running" by a crash are handed back at open.  ``dedupe_key`` makes enqueueing
idempotent: the same turn or note is never queued twice.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from desktop_app.core.redaction import redact
from desktop_app.memory.store import Store, to_iso, utcnow

#: a job that keeps getting unusable answers gives up after this many attempts; network
#: outages and rate limits never count toward it (the job waits for the endpoint instead)
MAX_BAD_ATTEMPTS = 5
#: the kinds of job (their steps are in job_steps.py)
ENRICH = "enrich"  # one note: construction, decision, links, evolution
EXTRACT = "extract"  # one chat turn: knowledge items, each then added and enriched
BACKOFF_BASE_SECONDS = 5.0
BACKOFF_MAX_SECONDS = 3600.0


@dataclass(frozen=True, slots=True)
class Job:
    id: int
    kind: str
    payload: dict[str, Any]
    attempts: int
    last_error: str
    dedupe_key: str = ""


@dataclass(frozen=True, slots=True)
class JobCounts:
    pending: int
    running: int
    failed: int
    done: int


def turn_job_key(
    user_text: str, assistant_text: str, case_id: str | None, conversation_id: str | None
) -> str:
    """The dedupe key of one chat turn's extraction job (the same turn is never queued
    twice; the chat finds its job's outcome by it)."""
    digest = hashlib.sha256(f"{case_id}|{user_text}|{assistant_text}".encode()).hexdigest()[:32]
    return f"{EXTRACT}:{conversation_id or '-'}:{digest}"


def backoff_seconds(attempts: int) -> float:
    return min(BACKOFF_BASE_SECONDS * (2 ** max(attempts - 1, 0)), BACKOFF_MAX_SECONDS)


class JobQueue:
    def __init__(self, store: Store) -> None:
        self._store = store

    def enqueue(
        self,
        conn: sqlite3.Connection,
        kind: str,
        payload: dict[str, Any],
        dedupe_key: str | None = None,
    ) -> None:
        """Queue inside the caller's transaction, so the job exists iff its data does."""
        now = to_iso(utcnow())
        conn.execute(
            "INSERT INTO jobs (kind, payload, dedupe_key, status, attempts, next_run_at, created_at, updated_at) "
            "VALUES (?, ?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT(dedupe_key) DO NOTHING",
            (kind, json.dumps(payload, ensure_ascii=False), dedupe_key, now, now, now),
        )

    @staticmethod
    def drop_waiting_turns(conn: sqlite3.Connection, conversation_id: str) -> None:
        """The extraction jobs of a conversation being deleted: their payload quotes it."""
        conn.execute(
            "DELETE FROM jobs WHERE kind = ? AND status != 'running' "
            "AND json_extract(payload, '$.conversation_id') = ?",
            (EXTRACT, conversation_id),
        )

    def recover_interrupted(self) -> int:
        with self._store.write() as conn:
            return conn.execute(
                "UPDATE jobs SET status = 'pending' WHERE status = 'running'"
            ).rowcount

    def claim_due(
        self, now: datetime | None = None, kinds: tuple[str, ...] | None = None
    ) -> Job | None:
        now_iso = to_iso(now or utcnow())
        where = "status = 'pending' AND next_run_at <= ?"
        params: list[Any] = [now_iso]
        if kinds:
            where += f" AND kind IN ({','.join('?' * len(kinds))})"
            params += list(kinds)
        return self._claim(f"SELECT * FROM jobs WHERE {where} ORDER BY id LIMIT 1", params)

    def _claim(self, select: str, params: list[Any]) -> Job | None:
        """Mark the first job ``select`` finds as running, in one write transaction, so two
        runners never take the same job."""
        with self._store.write() as conn:
            row = conn.execute(select, params).fetchone()
            if row is None:
                return None
            conn.execute(
                "UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ? "
                "WHERE id = ?",
                (to_iso(utcnow()), row["id"]),
            )
        return Job(
            row["id"],
            row["kind"],
            json.loads(row["payload"]),
            row["attempts"] + 1,
            row["last_error"],
            row["dedupe_key"] or "",
        )

    def claim(self, job_id: int) -> Job | None:
        """Claim one specific pending job now (used when a caller waits for its own job)."""
        return self._claim("SELECT * FROM jobs WHERE id = ? AND status = 'pending'", [job_id])

    def job_id_for(self, dedupe_key: str) -> int | None:
        row = self._store.query_one("SELECT id FROM jobs WHERE dedupe_key = ?", (dedupe_key,))
        return row[0] if row else None

    def complete(self, job: Job) -> None:
        with self._store.write() as conn:
            # the payload may quote case text; a finished job keeps none of it
            conn.execute(
                "UPDATE jobs SET status = 'done', payload = '{}', last_error = '', updated_at = ? WHERE id = ?",
                (to_iso(utcnow()), job.id),
            )

    def defer(self, job: Job, error: str, *, counts_as_attempt: bool) -> str:
        """Back off and retry later; after too many bad answers the job fails for good.
        Returns the new status.  ``error`` is a summary (class, HTTP status: see
        core.errors.error_summary), never an endpoint's text."""
        attempts = job.attempts if counts_as_attempt else max(job.attempts - 1, 0)
        status = "failed" if counts_as_attempt and attempts >= MAX_BAD_ATTEMPTS else "pending"
        next_run = utcnow() + timedelta(seconds=backoff_seconds(max(job.attempts, 1)))
        with self._store.write() as conn:
            conn.execute(
                "UPDATE jobs SET status = ?, attempts = ?, last_error = ?, next_run_at = ?, updated_at = ?, "
                # a job given up for good keeps its reason, not the chat text it carried
                "payload = CASE WHEN ? = 'failed' THEN '{}' ELSE payload END WHERE id = ?",
                (
                    status,
                    attempts,
                    redact(error)[:200],
                    to_iso(next_run),
                    to_iso(utcnow()),
                    status,
                    job.id,
                ),
            )
        return status

    def fail(self, job: Job, reason: str) -> None:
        """Give up at once (the job can never succeed, e.g. its input is invalid)."""
        with self._store.write() as conn:
            # a job that will never run keeps its reason, not the chat text it carried
            conn.execute(
                "UPDATE jobs SET status = 'failed', payload = '{}', last_error = ?, updated_at = ? "
                "WHERE id = ?",
                (redact(reason)[:200], to_iso(utcnow()), job.id),
            )

    def save_payload(self, job: Job, conn: sqlite3.Connection | None = None) -> None:
        """Record a step's progress so a retry does not redo (or re-pay for) it; with
        ``conn``, inside the caller's transaction (the step's writes and its record commit
        together)."""
        row = (json.dumps(job.payload, ensure_ascii=False), to_iso(utcnow()), job.id)
        sql = "UPDATE jobs SET payload = ?, updated_at = ? WHERE id = ?"
        if conn is not None:
            conn.execute(sql, row)
            return
        with self._store.write() as wconn:
            wconn.execute(sql, row)

    def retry_now(self) -> int:
        """Make every waiting job due at once (the endpoint is back, or the user asked)."""
        with self._store.write() as conn:
            return conn.execute(
                "UPDATE jobs SET next_run_at = ? WHERE status = 'pending'", (to_iso(utcnow()),)
            ).rowcount

    def counts(self) -> JobCounts:
        rows = dict(self._store.query("SELECT status, COUNT(*) FROM jobs GROUP BY status"))
        return JobCounts(
            rows.get("pending", 0),
            rows.get("running", 0),
            rows.get("failed", 0),
            rows.get("done", 0),
        )

    def failed(self) -> list[Job]:
        rows = self._store.query("SELECT * FROM jobs WHERE status = 'failed' ORDER BY id")
        return [
            Job(
                r["id"],
                r["kind"],
                json.loads(r["payload"]),
                r["attempts"],
                r["last_error"],
                r["dedupe_key"] or "",
            )
            for r in rows
        ]
