"""Plain value types of the memory engine's public API."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Literal

#: The six knowledge categories, in display order.  Chinese is canonical (stored);
#: :data:`CATEGORY_LABELS_EN` gives the English label for the UI.
CATEGORIES: tuple[str, ...] = ("事实", "证据", "法条", "诉求", "时间线", "偏好")
CATEGORY_LABELS_EN: dict[str, str] = {
    "事实": "Fact",
    "证据": "Evidence",
    "法条": "Statute",
    "诉求": "Claim",
    "时间线": "Timeline",
    "偏好": "Preference",
}
DEFAULT_CATEGORY = "事实"
#: the title of a conversation before its first question names it
DEFAULT_CONVERSATION_TITLE = "新对话"

NOTE_STATUSES: tuple[str, ...] = ("active", "superseded", "archived")

LINK_KINDS: tuple[str, ...] = ("semantic", "evolution", "supersedes", "manual", "duplicate")

AddAction = Literal["added", "updated", "superseded", "unchanged"]


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    name: str
    description: str
    created_at: datetime
    archived: bool


@dataclass(frozen=True, slots=True)
class Note:
    id: str
    case_id: str | None  # None: global scope (preferences, reusable knowledge)
    content: str
    category: str
    keywords: tuple[str, ...]
    context: str
    tags: tuple[str, ...]
    source: str | None
    content_hash: str
    created_at: datetime
    updated_at: datetime
    valid_from: datetime | None
    invalid_at: datetime | None
    status: str
    pinned: bool
    retrieval_count: int
    last_accessed: datetime | None
    evolution_count: int

    @property
    def is_active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True, slots=True)
class ScoreParts:
    """Why a note came back: each part of its score, so the UI can explain it."""

    vector_rank: int | None  # 1-based rank in the vector candidates, None if absent
    text_rank: int | None  # 1-based rank in the full-text candidates, None if absent
    vector_similarity: float | None  # cosine similarity to the query
    fused: float  # rank fusion of the two lists
    recency: float  # multiplier-free recency bonus that was added
    link_bonus: float  # bonus from a one-hop link to a strong hit
    pinned: bool  # qualified because it is pinned in the case


@dataclass(frozen=True, slots=True)
class Hit:
    note: Note
    score: float
    parts: ScoreParts


@dataclass(frozen=True, slots=True)
class AddResult:
    note: Note
    action: AddAction
    #: ids of the notes this add linked to (semantic neighbours, possible duplicates)
    linked: tuple[str, ...] = ()
    #: for "updated"/"superseded": the id of the note that was merged into or replaced
    target_id: str | None = None


@dataclass(frozen=True, slots=True)
class Link:
    src: str
    dst: str
    kind: str
    strength: float
    reason: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    id: int
    note_id: str
    actor: str  # user / construction / evolution / decision / import
    action: str  # created / updated / superseded / expired / pinned / ...
    before: dict | None
    after: dict | None
    reason: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class GraphNode:
    id: str
    label: str  # short summary
    category: str
    status: str
    pinned: bool
    retrieval_count: int
    degree: int
    tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GraphEdge:
    src: str
    dst: str
    kind: str
    strength: float


@dataclass(frozen=True, slots=True)
class Graph:
    nodes: tuple[GraphNode, ...] = ()
    edges: tuple[GraphEdge, ...] = ()


@dataclass(frozen=True, slots=True)
class EngineStats:
    notes_total: int
    notes_active: int
    cases: int
    links: int
    pending_jobs: int
    index_rows: int
    embedder_id: str


@dataclass(slots=True)
class MemoryConfig:
    """Tunable retrieval and linking parameters (the Settings dialog edits these)."""

    #: cosine similarity above which a new note is linked to a neighbour (see embedder.py)
    link_threshold: float = 0.55
    #: cosine similarity above which a new note is flagged as a possible duplicate
    duplicate_threshold: float = 0.85
    neighbours: int = 5
    #: weight of the recency bonus; 0 disables it
    recency_weight: float = 0.1
    #: half-life of the recency decay, in days
    recency_half_life_days: float = 180.0
    #: how many one-hop linked notes may be added on top of k
    link_budget: int = 2
    #: candidates taken from each of the vector and full-text lists before fusion (a
    #: deeper pool lets good full-text hits survive a weak vector list: LoCoMo recall@10
    #: 0.649 at 40, 0.658 at 100; cost ~1 ms at 10k notes)
    candidate_depth: int = 100
    #: context bonus: a note written just before or after one of the ``context_hits`` best
    #: hits (same scope, within ``context_window_seconds``) gains ``context_weight`` times
    #: that hit's score.  0 disables it.  See retrieval.context_bonus for why.
    context_weight: float = 0.3
    context_hits: int = 10
    context_window_seconds: float = 3600.0
    #: for chat injection: the minimum vector similarity and the cap
    recall_threshold: float = 0.3
    max_memories: int = 5
    #: memory check-up (maintenance.py): on/off, how often (days), the age after which an
    #: unretrieved, unlinked note is proposed for archiving, and the similarity bands
    #: calibrated on USE-m3 (see maintenance.py): above ``maintenance_duplicate_threshold``
    #: with the same figures a possible duplicate; above ``maintenance_update_threshold``
    #: with different figures or dates a possible update ("月薪8000元" / "月薪9500元")
    maintenance_enabled: bool = True
    maintenance_period_days: float = 7.0
    maintenance_stale_days: float = 90.0
    maintenance_duplicate_threshold: float = 0.91
    maintenance_update_threshold: float = 0.80
    #: extra fields for callers; unknown keys are kept, not rejected
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Recall:
    """The memories chosen for one chat reply (the chat layer words them for the model:
    desktop_app.chat.memory_message)."""

    hits: tuple[Hit, ...]

    @property
    def notes(self) -> tuple[Note, ...]:
        return tuple(h.note for h in self.hits)


@dataclass(frozen=True, slots=True)
class Conversation:
    id: str
    case_id: str | None
    title: str
    created_at: datetime
    updated_at: datetime
    memory_enabled: bool


@dataclass(frozen=True, slots=True)
class Message:
    id: str
    conversation_id: str
    role: str  # user / assistant / system
    content: str
    created_at: datetime
    injected_note_ids: tuple[str, ...]


#: what the memory check-up proposes: archive a stale orphan, merge near-duplicates, let a
#: newer note replace an older one that differs only in its figures, expire a note whose
#: pending event (hearing, deadline) is over
MAINTENANCE_KINDS: tuple[str, ...] = ("stale", "duplicate", "update", "passed")


@dataclass(frozen=True, slots=True)
class MaintenanceItem:
    """One proposed change of the memory check-up, waiting for the lawyer's decision."""

    id: str
    case_id: str
    kind: str  # one of MAINTENANCE_KINDS
    #: the notes concerned: "duplicate" keeps the first and merges the others into it;
    #: "update" is (older, newer): the newer replaces the older
    note_ids: tuple[str, ...]
    score: float | None  # the similarity of a duplicate/update pair
    event_date: date | None  # the passed date of a "passed" item
    state: str  # open / accepted / dismissed
    created_at: datetime


@dataclass(frozen=True, slots=True)
class MaintenanceProposal:
    case_id: str
    items: tuple[MaintenanceItem, ...]
    ran_at: datetime | None  # None: never checked
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class MaintenanceOutcome:
    """What accepting items did: the ids applied, and those skipped because a note changed
    (or went) since the proposal was made."""

    applied: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
