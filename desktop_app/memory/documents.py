"""Case documents: import (read, split, embed, store, index — all or nothing), list, search
the passages of one case, render a page, and delete with the same proof as a forget.

An import, in order (each step leaves nothing behind if it fails or is cancelled):

1. read and split the file (readers/, passage_split.py) and embed the passages — nothing
   written yet; Cancel is honoured between pages and between embedding batches;
2. copy the original to ``documents/<case_id>/<doc_id><ext>`` (owner-only, like the rest);
3. **one SQLite transaction**: the document, its passages (marked unindexed) and its
   extraction jobs.  This is the commit point: a crash before it leaves at most a copied
   file that no row names, which the next open removes (:meth:`DocumentLibrary.sweep_files`);
4. the passages' index rows; a crash here leaves them unindexed, and the next open indexes
   them (passage_index.PassageIndexSync.reconcile).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from desktop_app.core.errors import DocumentImportError, DocumentNotFoundError, InvalidInputError
from desktop_app.core.paths import ensure_private_dir
from desktop_app.memory.cases import Cases
from desktop_app.memory.doc_sources import document_job_prefix
from desktop_app.memory.documents_repository import DocumentsRepository, NewDocument
from desktop_app.memory.jobs import EXTRACT, JobQueue
from desktop_app.memory.passage_index import PassageIndexSync
from desktop_app.memory.passage_split import Piece, split_pages
from desktop_app.memory.ranking import FusionParams, fuse, params_for_query
from desktop_app.memory.readers import check_cancel, kind_of, read_document
from desktop_app.memory.scope import index_filter
from desktop_app.memory.store import Store, to_iso, utcnow
from desktop_app.memory.text import fts_text, without_surrogates
from desktop_app.memory.types import Document, Passage, PassageHit

log = logging.getLogger(__name__)

DOCUMENTS_DIR = "documents"
#: (done, total, phase): phases "read", "ocr", "embed", "index"
ProgressCallback = Callable[[int, int, str], None]
#: the longest file name kept for display (a name is never a path)
MAX_NAME_CHARS = 255
#: one extraction job reads at most this much of a page (a dense page is cut in parts)
EXTRACT_CHARS = 4000
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def display_name(path: Path) -> str:
    """The file name as the user knows it: no directory, no control characters."""
    name = _CONTROL.sub("", without_surrogates(path.name)).strip() or "document"
    return name[:MAX_NAME_CHARS]


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def extraction_chunks(pieces: Sequence[Piece]) -> list[tuple[int, str]]:
    """(page, text) of each extraction job: a page's passages joined, cut at EXTRACT_CHARS."""
    by_page: dict[int, list[str]] = {}
    for piece in pieces:
        by_page.setdefault(piece.page, []).append(piece.text)
    out = []
    for page, texts in by_page.items():
        current = ""
        for text in texts:
            if current and len(current) + len(text) > EXTRACT_CHARS:
                out.append((page, current))
                current = ""
            current = f"{current}\n{text}" if current else text
        if current:
            out.append((page, current))
    return out


class DocumentLibrary:
    def __init__(
        self,
        data_dir: Path,
        store: Store,
        repo: DocumentsRepository,
        cases: Cases,
        sync: PassageIndexSync,
        jobs: JobQueue,
        llm_ready: Callable[[], bool],
    ) -> None:
        self._data_dir = data_dir
        self._store = store
        self._repo = repo
        self._cases = cases
        self._sync = sync
        self._jobs = jobs
        self._llm_ready = llm_ready

    # -- files ---------------------------------------------------------------------------

    @property
    def folder(self) -> Path:
        return self._data_dir / DOCUMENTS_DIR

    def file_of(self, document_id: str) -> Path:
        case_id, file_name = self._repo.file_name(document_id)
        return self.folder / case_id / file_name

    def sweep_files(self) -> int:
        """Remove stored copies no document row names (an import a crash cut off before its
        commit, a delete cut off after it); returns how many."""
        if not self.folder.is_dir():
            return 0
        known = self._repo.stored_files()
        removed = 0
        for case_dir in self.folder.iterdir():
            if not case_dir.is_dir():
                continue
            for path in case_dir.iterdir():
                if (case_dir.name, path.name) not in known:
                    path.unlink(missing_ok=True)
                    removed += 1
            if not any(case_dir.iterdir()):
                case_dir.rmdir()
        if removed:
            log.info("removed %d document copies no document names", removed)
        return removed

    # -- import --------------------------------------------------------------------------

    def import_document(
        self,
        case_id: str,
        path: Path,
        progress: ProgressCallback | None = None,
        cancel: Callable[[], bool] | None = None,
    ) -> Document:
        self._cases.get(case_id)  # CaseNotFoundError before any work
        path = Path(path)
        if not path.is_file():
            raise InvalidInputError(
                f"not a file: {path.name}",
                user_message=f"找不到文件：{path.name} / File not found: {path.name}",
            )
        kind = kind_of(path)
        result = read_document(path, progress=progress, cancel=cancel)
        pieces = split_pages(result.pages)
        if not pieces:
            raise DocumentImportError("empty", "no text to import")
        vectors = self._sync.embed(
            [p.text for p in pieces],
            progress=(lambda d, t: progress(d, t, "embed")) if progress else None,
            cancel=lambda: check_cancel(cancel),
        )
        check_cancel(cancel)
        doc_id = uuid.uuid4().hex
        new = NewDocument(
            id=doc_id,
            case_id=case_id,
            name=display_name(path),
            kind=kind,
            file_name=doc_id + path.suffix.lower(),
            pages=result.page_count,
            size_bytes=path.stat().st_size,
            sha256=_sha256(path),
            ocr=result.ocr,
        )
        target = ensure_private_dir(self.folder / case_id) / new.file_name
        passages = [
            Passage(
                id=uuid.uuid4().hex,
                document_id=doc_id,
                case_id=case_id,
                ordinal=i,
                page=piece.page,
                text=piece.text,
                boxes=piece.boxes,
            )
            for i, piece in enumerate(pieces)
        ]
        try:
            self._copy(path, target)
            with self._store.write() as conn:
                self._cases.get(case_id)  # deleted meanwhile: nothing is kept
                self._repo.insert(
                    conn,
                    new,
                    to_iso(utcnow()),
                    [
                        (p.id, p.ordinal, p.page, p.text, json.dumps(p.boxes) if p.boxes else None)
                        for p in passages
                    ],
                )
                self._enqueue_extraction(conn, new, pieces)
        except BaseException:
            target.unlink(missing_ok=True)
            raise
        if progress:
            progress(0, len(passages), "index")
        self._sync.write(passages, vectors)
        if progress:
            progress(len(passages), len(passages), "index")
        return self._repo.get(doc_id, self._llm_ready())

    @staticmethod
    def _copy(source: Path, target: Path) -> None:
        partial = target.with_name(target.name + ".partial")
        try:
            shutil.copyfile(source, partial)
            os.chmod(partial, 0o600)
            with partial.open("rb+") as fh:
                os.fsync(fh.fileno())
            os.replace(partial, target)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise

    def _enqueue_extraction(self, conn, doc: NewDocument, pieces: Sequence[Piece]) -> None:
        """One extraction job per page (or part of a dense page): knowledge found there
        becomes notes whose source is the document and that page."""
        for n, (page, text) in enumerate(extraction_chunks(pieces)):
            payload = {
                "user_text": f"《{doc.name}》第{page}页：\n{text}",
                "assistant_text": "",
                "case_id": doc.case_id,
                "conversation_id": None,
                "message_time": to_iso(utcnow()),
                "source": f"doc:{doc.id}#p{page}",
                "document_id": doc.id,
            }
            self._jobs.enqueue(conn, EXTRACT, payload, f"{document_job_prefix(doc.id)}{n}")

    # -- reading -------------------------------------------------------------------------

    def get(self, document_id: str) -> Document:
        return self._repo.get(document_id, self._llm_ready())

    def list(self, case_id: str) -> list[Document]:
        self._cases.get(case_id)
        return self._repo.in_case(case_id, self._llm_ready())

    def passages_of(self, document_id: str, page: int | None = None) -> list[Passage]:
        self._repo.file_name(document_id)  # DocumentNotFoundError for an unknown id
        return self._repo.passages_of(document_id, page)

    def get_passage(self, passage_id: str) -> Passage:
        found = self._repo.by_ids([passage_id])
        if not found:
            raise DocumentNotFoundError(f"passage {passage_id} not found")
        return found[0]

    # -- search --------------------------------------------------------------------------

    def search(
        self,
        query: str,
        case_id: str | None,
        k: int = 10,
        query_vector: np.ndarray | None = None,
    ) -> list[tuple[PassageHit, float, int | None]]:
        """(hit, cosine similarity, full-text rank) of the case's passages, best first.
        Never the global scope, never another case: documents belong to one case.
        ``query_vector``: the query's vector, when the caller has embedded it already."""
        query = (query or "").strip()
        if not query or k <= 0 or case_id is None:
            return []
        index = self._sync.index
        where = index_filter(case_id, include_global=False)
        depth = max(k * 4, 40)
        qvec = self._sync.embed([query])[0] if query_vector is None else query_vector
        vector_hits = index.vector_search(qvec, where, depth)
        text_hits = index.text_search(fts_text(query), where, depth)
        # the notes' fusion (score fusion, a lower text share for Chinese queries)
        fused = fuse(vector_hits, text_hits, params_for_query(FusionParams(), query))
        ranked = sorted(fused.items(), key=lambda kv: -kv[1].score)[: k * 2]
        passages = {p.id: p for p in self._repo.by_ids([i for i, _f in ranked])}
        names = self._repo.names([p.document_id for p in passages.values()])
        hits = []
        for passage_id, f in ranked:
            passage = passages.get(passage_id)
            if passage is None or passage.case_id != case_id:  # the double check
                continue
            hit = PassageHit(passage, names.get(passage.document_id, ""), f.score)
            hits.append((hit, f.vector_similarity or 0.0, f.text_rank))
            if len(hits) >= k:
                break
        return hits
