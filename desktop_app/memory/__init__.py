"""The LexMem memory engine (A-MEM over SQLite + LanceDB).  No Qt here.

Public API::

    from desktop_app.memory import MemoryEngine
    engine = MemoryEngine.open(data_dir)
    case = engine.create_case("张三诉某电商")
    engine.add_note("原告张三于2024年3月15日购买笔记本电脑", case_id=case.id)
    hits = engine.search("什么时候买的电脑", case_id=case.id)

Where each responsibility lives (the engine is a façade over these):

    engine.py             MemoryEngine: open/close (writer lock, read-only mode), delegation
    store.py              SQLite connections, the one-writer transaction, meta, time stamps
    notes_repository.py   every SQL statement on notes, links and history; row mappers
    scope.py              the same-scope / visible-from-a-case rule, its SQL and index filters
    index.py              the LanceDB table (vector + full-text search, true delete)
    index_sync.py         keeping the index in step: reconcile, repair, rebuild, re-index,
                          stamps, and the embedding text of a note
    ingest.py             adding notes: prepare, dedupe, batched embedding, neighbour links
    editing.py            update, expire/restore, supersede, undo, merge, link, delete
    search.py             hybrid search, recall for a chat reply, a note's neighbours
    ranking.py            the pure ranking math (fusion, recency, context bonus)
    graph.py              the graph of a scope and its saved node positions
    cases.py              cases
    conversations.py      conversations and messages
    jobs.py               the durable job queue
    job_steps.py          what the jobs do (A-MEM construction, decision, evolution; extraction),
                          resumable step by step, under rules no model answer overrides
    agentic.py            the LLM steps: constructed extraction, construction, one batched
                          decision-and-evolution call (prompts in resources/prompts)
    dates.py              event dates by rules: absolute and relative, zh and en, local day
    legal_terms.py        normalised search terms: amounts, statute articles, dates
    sameness.py           two notes on one matter with different values (offline)
    current_first.py      the later of such a pair ranks first
    job_runner.py         the one background thread that runs due jobs
    backups.py            snapshots, their schedule, restore
    backup_files.py       backup names and listing, checks, private temporary copies
    backup_purge.py       true delete inside every backup copy
    forgetting.py         forget a note or delete a case: live data, index, backups, and
                          the scan that proves it (resumed at open after a crash)
    forget_sql.py         the SQL of forgetting, on the live database and on copies alike
                          (rolls back what the model derived from a note)
    text_scan.py          distinctive terms, and where a text still lives in the folder
    fallback_search.py    search from SQLite while the index waits for its rebuild
    input_checks.py       created_at and other values checked at the API's door
    maintenance.py        the memory check-up's detectors (stale, duplicates, updates, passed)
    maintenance_proposals.py  the check-up's stored proposal: run, accept, dismiss
    changes.py            Changes: what an operation changed (for the views)
    io.py                 JSON Lines / Markdown import and export
    documents.py          case documents: import (all or nothing), list, passage search
    documents_repository.py  every SQL statement on documents and passages
    document_delete.py    delete a document: copy, passages, index, backups, chosen notes
    passage_index.py      the passages' LanceDB table kept in step (reconcile at open)
    passage_split.py      pages cut into passages that keep their page and boxes
    doc_sources.py        "doc:<id>#p<page>": the source of a note from a document
    readers/              PDF, DOCX, TXT/Markdown, OCR (imported only when an import runs)
"""

from typing import TYPE_CHECKING, Any

from desktop_app.core.errors import (
    CaseNotFoundError,
    DocumentImportError,
    DocumentNotFoundError,
    InvalidInputError,
    LexMemError,
    NoteNotFoundError,
    StorageError,
)
from desktop_app.memory.changes import Changes
from desktop_app.memory.doc_sources import document_source, parse_document_source
from desktop_app.memory.types import (
    CATEGORIES,
    CATEGORY_LABELS_EN,
    DOCUMENT_KINDS,
    EXTRACTION_STATES,
    LINK_TYPE_LABELS_EN,
    LINK_TYPES,
    ORIGINS,
    SOURCE_KIND_LABELS_EN,
    SOURCE_KINDS,
    AddResult,
    Case,
    Conflict,
    Conversation,
    Document,
    EngineStats,
    Graph,
    GraphEdge,
    GraphNode,
    HistoryEntry,
    Hit,
    Link,
    MaintenanceChoice,
    MaintenanceItem,
    MaintenanceOutcome,
    MaintenanceProposal,
    MemoryConfig,
    Message,
    Note,
    Passage,
    PassageHit,
    Recall,
    ScoreParts,
)

if TYPE_CHECKING:
    from desktop_app.memory.embedder import Embedder, USEMultilingualEmbedder, default_embedder
    from desktop_app.memory.engine import MemoryEngine

# The engine and the embedder pull in numpy, pyarrow and (at open) lancedb: they load on first
# use, so the chat and the UI can import the value types above before the window paints.
_LAZY = {
    "MemoryEngine": "desktop_app.memory.engine",
    "Embedder": "desktop_app.memory.embedder",
    "USEMultilingualEmbedder": "desktop_app.memory.embedder",
    "default_embedder": "desktop_app.memory.embedder",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "CATEGORIES",
    "CATEGORY_LABELS_EN",
    "DOCUMENT_KINDS",
    "EXTRACTION_STATES",
    "LINK_TYPES",
    "LINK_TYPE_LABELS_EN",
    "ORIGINS",
    "SOURCE_KINDS",
    "SOURCE_KIND_LABELS_EN",
    "AddResult",
    "Case",
    "CaseNotFoundError",
    "Changes",
    "Conflict",
    "Conversation",
    "Document",
    "DocumentImportError",
    "DocumentNotFoundError",
    "Embedder",
    "EngineStats",
    "Graph",
    "GraphEdge",
    "GraphNode",
    "HistoryEntry",
    "Hit",
    "InvalidInputError",
    "LexMemError",
    "Link",
    "MaintenanceChoice",
    "MaintenanceItem",
    "MaintenanceOutcome",
    "MaintenanceProposal",
    "MemoryConfig",
    "MemoryEngine",
    "Message",
    "Note",
    "NoteNotFoundError",
    "Passage",
    "PassageHit",
    "Recall",
    "ScoreParts",
    "StorageError",
    "USEMultilingualEmbedder",
    "default_embedder",
    "document_source",
    "parse_document_source",
]
