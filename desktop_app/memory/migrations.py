"""Named, transactional schema migrations (applied in order at open, each exactly once)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "0001_initial",
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE cases (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            archived INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE notes (
            id TEXT PRIMARY KEY,
            case_id TEXT REFERENCES cases(id) ON DELETE CASCADE,
            content TEXT NOT NULL,
            category TEXT NOT NULL,
            keywords TEXT NOT NULL DEFAULT '[]',
            context TEXT NOT NULL DEFAULT '',
            tags TEXT NOT NULL DEFAULT '[]',
            source TEXT,
            content_hash TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            valid_from TEXT,
            invalid_at TEXT,
            status TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'superseded', 'archived')),
            pinned INTEGER NOT NULL DEFAULT 0,
            retrieval_count INTEGER NOT NULL DEFAULT 0,
            last_accessed TEXT,
            evolution_count INTEGER NOT NULL DEFAULT 0,
            -- 1 until the LanceDB index holds this version of the note (crash-safe reconcile)
            index_dirty INTEGER NOT NULL DEFAULT 1
        );
        CREATE INDEX notes_scope_hash ON notes (IFNULL(case_id, ''), content_hash);
        CREATE INDEX notes_case_status ON notes (case_id, status);
        CREATE INDEX notes_dirty ON notes (index_dirty) WHERE index_dirty = 1;
        CREATE TABLE links (
            src TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
            dst TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            strength REAL NOT NULL DEFAULT 1.0,
            reason TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            PRIMARY KEY (src, dst, kind)
        );
        CREATE INDEX links_dst ON links (dst);
        CREATE TABLE note_history (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            note_id TEXT NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            before TEXT,
            after TEXT,
            reason TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL
        );
        CREATE INDEX note_history_note ON note_history (note_id, id);
        -- ids removed from SQLite whose index rows may still exist (crash between the two)
        CREATE TABLE index_tombstones (note_id TEXT PRIMARY KEY);
        CREATE TABLE conversations (
            id TEXT PRIMARY KEY,
            case_id TEXT REFERENCES cases(id) ON DELETE CASCADE,
            title TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            memory_enabled INTEGER NOT NULL DEFAULT 1
        );
        CREATE INDEX conversations_case ON conversations (case_id, updated_at);
        CREATE TABLE messages (
            id TEXT PRIMARY KEY,
            conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            created_at TEXT NOT NULL,
            injected_note_ids TEXT NOT NULL DEFAULT '[]'
        );
        CREATE INDEX messages_conversation ON messages (conversation_id, created_at);
        CREATE TABLE jobs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL,
            dedupe_key TEXT UNIQUE,
            status TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'running', 'done', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            next_run_at TEXT NOT NULL,
            last_error TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE INDEX jobs_due ON jobs (status, next_run_at);
        CREATE TABLE graph_positions (
            note_id TEXT PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
            x REAL NOT NULL,
            y REAL NOT NULL
        );
        """,
    ),
    (
        # search's context bonus looks up the note written just before/after a hit in its
        # scope; without this index each lookup sorts the whole scope (100k notes: ~ms each)
        "0002_notes_scope_time",
        """
        CREATE INDEX notes_scope_time ON notes (case_id, status, created_at);
        """,
    ),
    (
        "0003_notes_pinned",
        """
        CREATE INDEX notes_pinned ON notes (case_id, status) WHERE pinned = 1;
        """,
    ),
    (
        # the memory check-up's proposal (one row per proposed item) and when each case was
        # last checked; a dismissed item keeps the versions of its notes, so it comes back
        # only when one of them changes.  Items hold note ids, never note text.
        "0007_maintenance",
        """
        CREATE TABLE maintenance_items (
            id TEXT PRIMARY KEY,
            case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            note_ids TEXT NOT NULL,
            versions TEXT NOT NULL,
            score REAL,
            event_date TEXT,
            state TEXT NOT NULL DEFAULT 'open'
                CHECK (state IN ('open', 'accepted', 'dismissed')),
            created_at TEXT NOT NULL,
            decided_at TEXT
        );
        CREATE INDEX maintenance_items_case ON maintenance_items (case_id, state);
        CREATE TABLE maintenance_runs (
            case_id TEXT PRIMARY KEY REFERENCES cases(id) ON DELETE CASCADE,
            ran_at TEXT NOT NULL,
            seconds REAL NOT NULL
        );
        """,
    ),
)


def apply_migrations(conn: sqlite3.Connection) -> list[str]:
    """Apply the pending migrations, each in its own transaction; return the names applied."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    done = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
    applied = []
    for name, sql in MIGRATIONS:
        if name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _split_statements(sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                (name, datetime.now(UTC).isoformat()),
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied


def _split_statements(sql: str) -> list[str]:
    # executescript() would commit the open transaction first; run statements one by one.
    statements, buffer = [], []
    for line in sql.splitlines():
        if line.strip().startswith("--"):
            continue
        buffer.append(line)
        candidate = "\n".join(buffer)
        if sqlite3.complete_statement(candidate):
            statements.append(candidate.strip())
            buffer = []
    if "".join(buffer).strip():
        raise ValueError(f"incomplete SQL in migration: {''.join(buffer)[:80]}")
    return statements
