"""Named, transactional schema migrations (applied in order at open, each exactly once).

A migration is ``(name, sql)`` or ``(name, sql, step)``: ``step(conn)`` is Python run after
the SQL in the same transaction, for data the SQL alone cannot derive (dates read from text).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

from desktop_app.core.clock import local_date
from desktop_app.memory.construction import guess_source_kind
from desktop_app.memory.dates import event_date_of
from desktop_app.memory.link_folding import fold_existing


def _event_dates_and_sources(conn: sqlite3.Connection) -> None:
    """Existing notes get the event date their text names (relative dates resolved against
    the local day they were recorded: a hand-added "2024年7月15日…开庭" is filed under
    2024-07-15, not the day it was typed) and the source kind their wording shows."""
    rows = conn.execute("SELECT id, content, category, created_at FROM notes").fetchall()
    updates = []
    for note_id, content, category, created_at in rows:
        recorded = local_date(datetime.fromisoformat(created_at))
        updates.append(
            (event_date_of(content, recorded), guess_source_kind(content, category), note_id)
        )
    conn.executemany("UPDATE notes SET event_date = ?, source_kind = ? WHERE id = ?", updates)


Migration = tuple[str, str] | tuple[str, str, Callable[[sqlite3.Connection], object]]

MIGRATIONS: tuple[Migration, ...] = (
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
        # issue 12: when a fact happened (not when it was typed), who asserts it and where it
        # came from; typed links (证明 / 适用 / 矛盾 / 补充 / 取代 / 相关) and conflicts the
        # lawyer settles.  Nothing is dropped or rewritten: columns are added and filled.
        "0004_event_dates_provenance_conflicts",
        """
        ALTER TABLE notes ADD COLUMN event_date TEXT;
        ALTER TABLE notes ADD COLUMN source_kind TEXT;
        ALTER TABLE notes ADD COLUMN origin TEXT NOT NULL DEFAULT 'manual';
        UPDATE notes SET origin = CASE
            WHEN source LIKE 'chat:%' THEN 'message'
            WHEN source IS NULL OR source = 'manual' THEN 'manual'
            ELSE 'import' END;
        CREATE INDEX notes_scope_event ON notes (case_id, status, event_date);
        ALTER TABLE links ADD COLUMN label TEXT;
        ALTER TABLE links ADD COLUMN resolved_at TEXT;
        UPDATE links SET label = '取代' WHERE kind = 'supersedes';
        CREATE INDEX links_open_conflicts ON links (src) WHERE kind = 'conflict' AND resolved_at IS NULL;
        """,
        _event_dates_and_sources,
    ),
    (
        # how a reply ended: the chat marks a stopped, cut-off (token budget) or broken
        # (connection lost) reply, also after a restart; older replies were complete
        "0005_messages_status",
        """
        ALTER TABLE messages ADD COLUMN status TEXT NOT NULL DEFAULT 'complete'
            CHECK (status IN ('complete', 'stopped', 'truncated', 'interrupted'));
        """,
    ),
    (
        # Forget: which note a model-made change came from (evolution rewrote a neighbour's
        # context because of it), and the forgets still to finish in backups and files.
        # Stored job errors keep their class and HTTP status, never the endpoint's text.
        "0006_forget_provenance_pending_purges",
        """
        ALTER TABLE note_history ADD COLUMN derived_from TEXT;
        CREATE INDEX note_history_derived ON note_history (derived_from)
            WHERE derived_from IS NOT NULL;
        UPDATE note_history SET derived_from = substr(reason, 17)
            WHERE actor = 'evolution' AND reason LIKE 'evolution after %';
        CREATE TABLE pending_purges (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            -- what to forget and the terms to look for, masked (see forgetting.py)
            sealed TEXT NOT NULL,
            created_at TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0
        );
        UPDATE jobs SET last_error = CASE
            WHEN last_error = '' THEN ''
            WHEN instr(last_error, ':') > 0 THEN substr(last_error, 1, instr(last_error, ':') - 1)
            ELSE 'error' END;
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
    (
        # case documents (issue 17): the imported file (its copy lives in
        # documents/<case_id>/<id><ext>) and its passages, each with its page and, when known,
        # its boxes on the page.  The passages are indexed in LanceDB's "passages" table
        # (index_dirty as for notes: 1 until the index holds the row).
        "0008_case_documents",
        """
        CREATE TABLE documents (
            id TEXT PRIMARY KEY,
            case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('pdf', 'docx', 'image', 'text')),
            file_name TEXT NOT NULL,
            pages INTEGER NOT NULL,
            size_bytes INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            ocr INTEGER NOT NULL DEFAULT 0,
            imported_at TEXT NOT NULL
        );
        CREATE INDEX documents_case ON documents (case_id, imported_at);
        CREATE TABLE passages (
            id TEXT PRIMARY KEY,
            document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            page INTEGER NOT NULL,
            text TEXT NOT NULL,
            boxes TEXT,
            index_dirty INTEGER NOT NULL DEFAULT 1
        );
        CREATE INDEX passages_document ON passages (document_id, ordinal);
        CREATE INDEX passages_case ON passages (case_id);
        CREATE INDEX passages_dirty ON passages (index_dirty) WHERE index_dirty = 1;
        CREATE TABLE passage_tombstones (passage_id TEXT PRIMARY KEY);
        """,
    ),
    (
        # the order in which the lawyer arranged a case's evidence for its 证据目录 (evidence
        # list).  Ids and positions only, never text: forgetting a note removes its row
        # with it (the cascade), and the list has nothing of it left to scan for.  And the
        # document passages a reply was given (ids only), so its citations survive a restart.
        "0009_evidence_order",
        """
        CREATE TABLE evidence_order (
            case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
            note_id TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            PRIMARY KEY (case_id, note_id)
        );
        CREATE INDEX evidence_order_note ON evidence_order (note_id);
        ALTER TABLE messages ADD COLUMN passage_ids TEXT NOT NULL DEFAULT '[]';
        """,
    ),
    (
        # what the memory learned from a reply's turn (the note ids), kept with the reply so
        # its "记忆已更新 · N" chip comes back with the conversation, also after a restart
        # (0008 and 0009 are the documents' migrations)
        "0010_message_learned",
        """
        ALTER TABLE messages ADD COLUMN learned_note_ids TEXT NOT NULL DEFAULT '[]';
        """,
    ),
    (
        # one pair of notes, one link (link_folding.py): a manual 关联 on a pair the model
        # had linked was stored as a second row and listed twice ("手动" and "相关")
        "0011_fold_duplicate_links",
        "",
        fold_existing,
    ),
    (
        # issue 18 (disk): links keyed by their pair alone.  A rowid table kept each link
        # twice, once in the table and once in the primary key's automatic index (together
        # 50 MB of 223 at 50k notes in one case); WITHOUT ROWID stores the row in the key's
        # b-tree.  Same columns, same rows.
        "0012_links_keyed_by_pair",
        """
        CREATE TABLE links_by_pair (
            src TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
            dst TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            strength REAL NOT NULL DEFAULT 1.0,
            reason TEXT NOT NULL DEFAULT '',
            created_at TEXT NOT NULL,
            label TEXT,
            resolved_at TEXT,
            PRIMARY KEY (src, dst, kind)
        ) WITHOUT ROWID;
        INSERT INTO links_by_pair (src, dst, kind, strength, reason, created_at, label, resolved_at)
            SELECT src, dst, kind, strength, reason, created_at, label, resolved_at FROM links;
        DROP TABLE links;
        ALTER TABLE links_by_pair RENAME TO links;
        CREATE INDEX links_dst ON links (dst);
        CREATE INDEX links_open_conflicts ON links (src) WHERE kind = 'conflict' AND resolved_at IS NULL;
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
    for name, sql, *step in MIGRATIONS:
        if name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _split_statements(sql):
                conn.execute(statement)
            for run in step:
                run(conn)
            conn.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                (name, datetime.now(UTC).isoformat()),
            )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # a failed COMMIT (full disk) may have rolled back already
                with contextlib.suppress(sqlite3.Error):
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
