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
    job_steps.py          what the jobs do (A-MEM construction, decision, evolution; extraction)
    job_runner.py         the one background thread that runs due jobs
    backups.py            snapshots, their schedule, restore, forget inside backups
    maintenance.py        the memory check-up's detectors (stale, duplicates, updates, passed)
    maintenance_proposals.py  the check-up's stored proposal: run, accept, dismiss
    changes.py            Changes: what an operation changed (for the views)
    io.py                 JSON Lines / Markdown import and export
"""

from typing import TYPE_CHECKING, Any

from desktop_app.core.errors import (
    CaseNotFoundError,
    InvalidInputError,
    LexMemError,
    NoteNotFoundError,
    StorageError,
)
from desktop_app.memory.changes import Changes
from desktop_app.memory.types import (
    CATEGORIES,
    CATEGORY_LABELS_EN,
    AddResult,
    Case,
    Conversation,
    EngineStats,
    Graph,
    GraphEdge,
    GraphNode,
    HistoryEntry,
    Hit,
    Link,
    MaintenanceItem,
    MaintenanceOutcome,
    MaintenanceProposal,
    MemoryConfig,
    Message,
    Note,
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
    "AddResult",
    "Case",
    "CaseNotFoundError",
    "Changes",
    "Conversation",
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
    "MaintenanceItem",
    "MaintenanceOutcome",
    "MaintenanceProposal",
    "MemoryConfig",
    "MemoryEngine",
    "Message",
    "Note",
    "NoteNotFoundError",
    "Recall",
    "ScoreParts",
    "StorageError",
    "USEMultilingualEmbedder",
    "default_embedder",
]
