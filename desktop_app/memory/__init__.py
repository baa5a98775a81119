"""The LexMem memory engine (A-MEM over SQLite + LanceDB).  No Qt here.

Public API::

    from desktop_app.memory import MemoryEngine
    engine = MemoryEngine.open(data_dir)
    case = engine.create_case("张三诉某电商")
    engine.add_note("原告张三于2024年3月15日购买笔记本电脑", case_id=case.id)
    hits = engine.search("什么时候买的电脑", case_id=case.id)
"""

from desktop_app.core.errors import (
    CaseNotFoundError,
    InvalidInputError,
    LexMemError,
    NoteNotFoundError,
    StorageError,
)
from desktop_app.memory.embedder import Embedder, USEMultilingualEmbedder, default_embedder
from desktop_app.memory.engine import MemoryEngine, format_memories
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
    MemoryConfig,
    Message,
    Note,
    Recall,
    ScoreParts,
)

__all__ = [
    "CATEGORIES",
    "CATEGORY_LABELS_EN",
    "AddResult",
    "Case",
    "CaseNotFoundError",
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
    "format_memories",
]
