"""Plain value types of the memory engine's public API."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Literal

from desktop_app.core.clock import local_date

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
#: how a stored reply ended: whole, stopped by the user, cut off by the token budget, or broken
#: off by a lost connection (the last three keep the part that came)
MESSAGE_STATUSES: tuple[str, ...] = ("complete", "stopped", "truncated", "interrupted")

NOTE_STATUSES: tuple[str, ...] = ("active", "superseded", "archived")

LINK_KINDS: tuple[str, ...] = (
    "semantic",
    "evolution",
    "supersedes",
    "manual",
    "duplicate",
    "conflict",
)
#: The relations a lawyer reads on a link (stored in Chinese, labelled in English by the UI):
#: a piece of evidence 证明 (proves) a fact, a statute 适用 (applies to) it, two notes 矛盾
#: (contradict), one 补充 (adds to) or 取代 (replaces) the other, or they are just 相关.
LINK_TYPES: tuple[str, ...] = ("证明", "适用", "矛盾", "补充", "取代", "相关")
LINK_TYPE_LABELS_EN: dict[str, str] = {
    "证明": "proves",
    "适用": "applies to",
    "矛盾": "contradicts",
    "补充": "adds to",
    "取代": "replaces",
    "相关": "related",
}
#: the type a link shows when none was given: what its kind already says
DEFAULT_LINK_TYPE: dict[str, str] = {"supersedes": "取代", "conflict": "矛盾"}

#: What kind of assertion a note is — in litigation most contradictions are disputes between
#: sources (the client says one thing, an exhibit another), not changes over time.
SOURCE_KINDS: tuple[str, ...] = (
    "当事人陈述",
    "对方主张",
    "证据显示",
    "法院认定",
    "律师判断",
    "偏好",
)
SOURCE_KIND_LABELS_EN: dict[str, str] = {
    "当事人陈述": "Client statement",
    "对方主张": "Opposing party's claim",
    "证据显示": "Shown by evidence",
    "法院认定": "Court finding",
    "律师判断": "Lawyer's assessment",
    "偏好": "Preference",
}
#: Where a note came from: a conversation message, typed by hand, or an imported file.
ORIGINS: tuple[str, ...] = ("message", "manual", "import")

#: What adding a note did.  ``added``: a new note; ``updated``: folded into ``target_id``
#: (the result's note is that note); ``superseded``: it replaces ``target_id``; ``outdated``:
#: it is older than ``target_id``, which replaces it (kept as history); ``conflict``: it
#: contradicts ``target_id`` from another source (both stay, flagged for the lawyer);
#: ``duplicate``: kept and linked as a possible duplicate of ``target_id``; ``unchanged``: the
#: same text was already there (nothing stored).
AddAction = Literal[
    "added", "updated", "superseded", "outdated", "conflict", "duplicate", "unchanged"
]
#: the actions after which the memory knows something it did not know before
LEARNED_ACTIONS: frozenset[str] = frozenset(
    {"added", "updated", "superseded", "outdated", "conflict"}
)


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
    #: when the fact happened or takes effect ("2024-07-15", "2024-07" or "2024"), as
    #: opposed to ``created_at``, when it was recorded; None when the note names no date
    event_date: str | None = None
    #: what kind of assertion it is (one of SOURCE_KINDS), None when unknown
    source_kind: str | None = None
    #: where it came from (one of ORIGINS); ``source`` holds the reference (conversation, file)
    origin: str = "manual"

    @property
    def is_active(self) -> bool:
        return self.status == "active"

    @property
    def effective_date(self) -> str:
        """The date the fact is current from: its event date, else the user's local day it
        was recorded."""
        return self.event_date or local_date(self.created_at).isoformat()


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
    #: the other note of the outcome (merged into, replaced, replacing, contradicted,
    #: duplicated); None for "added" and "unchanged"
    target_id: str | None = None

    @property
    def learned(self) -> bool:
        """The memory knows something new (see LEARNED_ACTIONS)."""
        return self.action in LEARNED_ACTIONS


@dataclass(frozen=True, slots=True)
class Link:
    src: str
    dst: str
    kind: str
    strength: float
    reason: str
    created_at: datetime
    #: the relation the lawyer reads (one of LINK_TYPES), None when not given
    label: str | None = None
    #: for a conflict: when the lawyer settled it (None: still open)
    resolved_at: datetime | None = None

    @property
    def type(self) -> str:
        """The relation shown: the given label, else what the kind says, else 相关."""
        return self.label or DEFAULT_LINK_TYPE.get(self.kind, "相关")


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two active notes that contradict each other (from different sources), open until the
    lawyer keeps one or both."""

    first: Note
    second: Note
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
    event_date: str | None = None
    source_kind: str | None = None
    origin: str = "manual"
    #: part of an open conflict
    conflicted: bool = False
    #: what the node is labelled with: the note's first clause, short (graph.short_title)
    title: str = ""
    #: the note's full text (the tooltip shows it, as plain text)
    content: str = ""


@dataclass(frozen=True, slots=True)
class GraphEdge:
    src: str
    dst: str
    kind: str
    strength: float
    #: the relation shown on the edge (see Link.type)
    label: str = "相关"


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
    #: cosine similarity above which a close pair whose wording says different values about
    #: one thing ("月薪8000元" / "月薪调整为9500元", 0.78) is flagged too (sameness.py)
    same_matter_threshold: float = 0.6
    #: of two notes linked as possible duplicates, the one with the later (event) date
    #: ranks first (current_first.py); False ranks by the match alone
    current_first: bool = True
    neighbours: int = 5
    #: offline links per new note: only the strongest few above ``link_threshold``.  At 5 a
    #: note, chit-chat similarity filled SQLite with ~10 link rows a note (links are stored
    #: both ways): half of its size.  LoCoMo recall is the same at 2 (links never rank a note
    #: into the first k); see tests/benchmarks/README.md.
    max_semantic_links: int = 2
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
    #: the memory search's relevance cut-off (see ranking.is_relevant): a note is shown when
    #: its meaning is this close to the query, or ``search_text_threshold`` close with some
    #: of the query's words in it.  Measured on the demo case: unrelated queries ("离婚抚养权",
    #: "房屋租赁押金") peak at 0.26 with no shared words; wanted notes sit at 0.20-0.57, those
    #: below 0.30 all sharing words with the query ("电脑是什么时候买的" 0.23-0.29).
    search_threshold: float = 0.3
    search_text_threshold: float = 0.2
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


#: what a case document can be (desktop_app/memory/readers)
DOCUMENT_KINDS: tuple[str, ...] = ("pdf", "docx", "image", "text")
#: where a document's knowledge extraction stands
EXTRACTION_STATES: tuple[str, ...] = ("none", "waiting", "running", "done", "failed")


@dataclass(frozen=True, slots=True)
class Document:
    """A file imported into a case (the original is copied into the data folder)."""

    id: str
    case_id: str  # documents always belong to one case (never global)
    name: str  # the original file name, as the user knows it (display only)
    kind: str  # one of DOCUMENT_KINDS
    pages: int  # pages for pdf/image (image = 1); paragraph groups for docx/text
    passages: int
    size_bytes: int
    imported_at: datetime  # UTC, aware
    notes_derived: int  # active notes whose source is this document
    extraction: str  # one of EXTRACTION_STATES
    ocr: bool  # the text came from OCR (a scan or an image)


@dataclass(frozen=True, slots=True)
class Passage:
    """A piece of a document's text that is searched and cited on its own."""

    id: str
    document_id: str
    case_id: str
    ordinal: int  # 0-based order within the document
    page: int  # 1-based page (pdf/image) or paragraph number (docx/text)
    text: str
    #: where the passage sits on the page, in PDF points from the page's top-left, when
    #: known (pdf text layer, OCR boxes); None for docx/text
    boxes: tuple[tuple[float, float, float, float], ...] | None


@dataclass(frozen=True, slots=True)
class PassageHit:
    passage: Passage
    document_name: str
    score: float

    @property
    def citation(self) -> str:
        """The locale-neutral citation (name and page); the UI words it ("第3页")."""
        return f"{self.document_name} p{self.passage.page}"


@dataclass(frozen=True, slots=True)
class Recall:
    """The memories chosen for one chat reply (the chat layer words them for the model:
    desktop_app.chat.memory_message): notes in ``hits``, document passages of the case in
    ``passages``."""

    hits: tuple[Hit, ...]
    passages: tuple[PassageHit, ...] = ()

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
    #: how the reply ended: complete / stopped / truncated / interrupted (MESSAGE_STATUSES)
    status: str = "complete"
    #: the case's document passages the reply was given (and asked to cite), by id
    passage_ids: tuple[str, ...] = ()
    #: the notes the memory learned from this reply's turn (its "memory updated" chip)
    learned_note_ids: tuple[str, ...] = ()


#: what the memory check-up proposes: archive a stale orphan, merge near-duplicates, let a
#: newer note replace an older one that differs only in its figures, expire a note whose
#: pending event (hearing, deadline) is over, settle an open conflict (the lawyer picks
#: which note holds: accepting a conflict without that choice changes nothing)
MAINTENANCE_KINDS: tuple[str, ...] = ("stale", "duplicate", "update", "passed", "conflict")
#: the kinds that need the lawyer's choice when accepted (see MaintenanceChoice)
CHOICE_KINDS: frozenset[str] = frozenset({"duplicate", "conflict"})


@dataclass(frozen=True, slots=True)
class MaintenanceItem:
    """One proposed change of the memory check-up, waiting for the lawyer's decision."""

    id: str
    case_id: str
    kind: str  # one of MAINTENANCE_KINDS
    #: the notes concerned: "duplicate" keeps the first and merges the others into it;
    #: "update" is (older, newer): the newer replaces the older; "conflict" is the two
    #: contradicting notes
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
    #: conflicts accepted without a choice of the note that holds: left open, unchanged
    undecided: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MaintenanceChoice:
    """The lawyer's decision on an item that needs one.  A duplicate group: ``keep`` is the
    note the others merge into, ``merged_text`` the merged text (None: the kept text and what
    the others add).  A conflict: ``keep`` is the note that holds (the other is expired) or
    ``"both"``."""

    keep: str
    merged_text: str | None = None
