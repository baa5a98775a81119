"""Every SQL statement on case documents and their passages, and the row mappers.

Reads run on the calling thread's reader connection; writes take the caller's open
transaction (``conn`` from ``Store.write()``), so one import or delete is one transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from desktop_app.core.errors import DocumentNotFoundError
from desktop_app.memory.doc_sources import document_job_prefix, document_source_prefix
from desktop_app.memory.store import Store, from_iso
from desktop_app.memory.types import Document, Passage

_CHUNK = 500  # ids per IN (...) list: well below SQLite's variable limit


@dataclass(frozen=True, slots=True)
class NewDocument:
    id: str
    case_id: str
    name: str
    kind: str
    file_name: str
    pages: int
    size_bytes: int
    sha256: str
    ocr: bool


def _like_prefix(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def row_to_passage(row: sqlite3.Row) -> Passage:
    boxes = json.loads(row["boxes"]) if row["boxes"] else None
    return Passage(
        id=row["id"],
        document_id=row["document_id"],
        case_id=row["case_id"],
        ordinal=row["ordinal"],
        page=row["page"],
        text=row["text"],
        boxes=tuple(tuple(b) for b in boxes) if boxes else None,
    )


def extraction_state(statuses: dict[str, int], llm_ready: bool) -> str:
    """Where a document's extraction stands, from its jobs' statuses."""
    if not statuses:
        return "none"
    if statuses.get("running"):
        return "running"
    if statuses.get("pending"):
        return "running" if llm_ready else "waiting"
    if statuses.get("failed"):
        return "failed"
    return "done"


class DocumentsRepository:
    def __init__(self, store: Store) -> None:
        self._store = store

    # -- writes (inside the caller's transaction) ---------------------------------------

    @staticmethod
    def insert(
        conn: sqlite3.Connection,
        doc: NewDocument,
        imported_at: str,
        passages: Sequence[tuple[str, int, int, str, str | None]],
    ) -> None:
        """``passages``: (id, ordinal, page, text, boxes as JSON)."""
        conn.execute(
            "INSERT INTO documents (id, case_id, name, kind, file_name, pages, size_bytes, "
            "sha256, ocr, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                doc.id,
                doc.case_id,
                doc.name,
                doc.kind,
                doc.file_name,
                doc.pages,
                doc.size_bytes,
                doc.sha256,
                int(doc.ocr),
                imported_at,
            ),
        )
        conn.executemany(
            "INSERT INTO passages (id, document_id, case_id, ordinal, page, text, boxes, "
            "index_dirty) VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
            [(pid, doc.id, doc.case_id, o, p, t, b) for pid, o, p, t, b in passages],
        )

    @staticmethod
    def exists(conn: sqlite3.Connection, document_id: str) -> bool:
        """Inside the caller's transaction: the document has not been deleted."""
        row = conn.execute("SELECT 1 FROM documents WHERE id = ?", (document_id,)).fetchone()
        return row is not None

    @staticmethod
    def delete(conn: sqlite3.Connection, document_id: str) -> list[str]:
        """Delete the document, its passages (tombstoned for the index) and its extraction
        jobs, a running one too (their payloads quote the document; a running job's later
        writes find no row, and its notes do not land: see :meth:`exists`); returns the
        passage ids."""
        ids = [
            r[0]
            for r in conn.execute("SELECT id FROM passages WHERE document_id = ?", (document_id,))
        ]
        conn.executemany(
            "INSERT OR IGNORE INTO passage_tombstones (passage_id) VALUES (?)", [(i,) for i in ids]
        )
        conn.execute("DELETE FROM passages WHERE document_id = ?", (document_id,))
        conn.execute("DELETE FROM documents WHERE id = ?", (document_id,))
        conn.execute(
            "DELETE FROM jobs WHERE dedupe_key LIKE ? ESCAPE '\\'",
            (_like_prefix(document_job_prefix(document_id)),),
        )
        return ids

    def mark_indexed(self, passage_ids: Sequence[str]) -> None:
        with self._store.write() as conn:
            for start in range(0, len(passage_ids), _CHUNK):
                chunk = list(passage_ids[start : start + _CHUNK])
                conn.execute(
                    f"UPDATE passages SET index_dirty = 0 WHERE id IN ({','.join('?' * len(chunk))})",
                    chunk,
                )

    def clear_tombstones(self, passage_ids: Sequence[str]) -> None:
        with self._store.write() as conn:
            conn.executemany(
                "DELETE FROM passage_tombstones WHERE passage_id = ?", [(i,) for i in passage_ids]
            )

    # -- reads -----------------------------------------------------------------------------

    def file_name(self, document_id: str) -> tuple[str, str]:
        """(case_id, stored file name) of a document."""
        row = self._store.query_one(
            "SELECT case_id, file_name FROM documents WHERE id = ?", (document_id,)
        )
        if row is None:
            raise DocumentNotFoundError(f"document {document_id} not found")
        return row[0], row[1]

    def get(self, document_id: str, llm_ready: bool) -> Document:
        docs = self._documents("d.id = ?", [document_id], llm_ready)
        if not docs:
            raise DocumentNotFoundError(f"document {document_id} not found")
        return docs[0]

    def in_case(self, case_id: str, llm_ready: bool) -> list[Document]:
        return self._documents("d.case_id = ?", [case_id], llm_ready)

    def _documents(self, where: str, params: list, llm_ready: bool) -> list[Document]:
        rows = self._store.query(
            "SELECT d.*, (SELECT COUNT(*) FROM passages p WHERE p.document_id = d.id) AS n "
            f"FROM documents d WHERE {where} ORDER BY d.imported_at, d.id",
            params,
        )
        out = []
        for row in rows:
            out.append(
                Document(
                    id=row["id"],
                    case_id=row["case_id"],
                    name=row["name"],
                    kind=row["kind"],
                    pages=row["pages"],
                    passages=row["n"],
                    size_bytes=row["size_bytes"],
                    imported_at=from_iso(row["imported_at"]),
                    notes_derived=len(self.derived_note_ids(row["id"])),
                    extraction=extraction_state(self.job_statuses(row["id"]), llm_ready),
                    ocr=bool(row["ocr"]),
                )
            )
        return out

    def job_statuses(self, document_id: str) -> dict[str, int]:
        rows = self._store.query(
            "SELECT status, COUNT(*) FROM jobs WHERE dedupe_key LIKE ? ESCAPE '\\' GROUP BY status",
            (_like_prefix(document_job_prefix(document_id)),),
        )
        return {r[0]: r[1] for r in rows}

    def derived_note_ids(self, document_id: str, active_only: bool = True) -> list[str]:
        status = " AND status = 'active'" if active_only else ""
        rows = self._store.query(
            f"SELECT id FROM notes WHERE source LIKE ? ESCAPE '\\'{status} ORDER BY created_at",
            (_like_prefix(document_source_prefix(document_id)),),
        )
        return [r[0] for r in rows]

    def passages_of(self, document_id: str, page: int | None = None) -> list[Passage]:
        sql = "SELECT * FROM passages WHERE document_id = ?"
        params: list = [document_id]
        if page is not None:
            sql += " AND page = ?"
            params.append(page)
        return [row_to_passage(r) for r in self._store.query(sql + " ORDER BY ordinal", params)]

    def by_ids(self, passage_ids: Sequence[str]) -> list[Passage]:
        out: list[Passage] = []
        for start in range(0, len(passage_ids), _CHUNK):
            chunk = list(passage_ids[start : start + _CHUNK])
            out += [
                row_to_passage(r)
                for r in self._store.query(
                    f"SELECT * FROM passages WHERE id IN ({','.join('?' * len(chunk))})", chunk
                )
            ]
        return out

    def names(self, document_ids: Sequence[str]) -> dict[str, str]:
        ids = list(dict.fromkeys(document_ids))
        if not ids:
            return {}
        rows = self._store.query(
            f"SELECT id, name FROM documents WHERE id IN ({','.join('?' * len(ids))})", ids
        )
        return {r[0]: r[1] for r in rows}

    def total_passages(self) -> int:
        return self._store.query_one("SELECT COUNT(*) FROM passages")[0]

    def all_passage_ids(self) -> list[str]:
        return [r[0] for r in self._store.query("SELECT id FROM passages ORDER BY rowid")]

    def dirty_passage_ids(self) -> list[str]:
        return [r[0] for r in self._store.query("SELECT id FROM passages WHERE index_dirty = 1")]

    def tombstones(self) -> list[str]:
        return [r[0] for r in self._store.query("SELECT passage_id FROM passage_tombstones")]

    def stored_files(self) -> set[tuple[str, str]]:
        """(case_id, file name) of every stored copy the database knows."""
        return {(r[0], r[1]) for r in self._store.query("SELECT case_id, file_name FROM documents")}
