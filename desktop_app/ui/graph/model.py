"""The graph as numpy arrays, plus filters, search and neighbourhoods (no Qt).

The view paints and hit-tests thousands of nodes per frame, so the engine's tuple of
dataclasses is turned once into flat arrays indexed by node number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from desktop_app.memory.types import CATEGORIES, LINK_KINDS, NOTE_STATUSES, Graph, GraphNode

#: category index used for a category the UI does not know (drawn grey, never filtered out)
OTHER_CATEGORY = len(CATEGORIES)

#: node radius in scene units (the layout's ideal link length is 60)
MIN_RADIUS = 7.0
MAX_RADIUS = 22.0


@dataclass(slots=True)
class Filters:
    """What is shown.  Empty sets mean "nothing of that kind", not "everything"."""

    categories: set[str] = field(default_factory=lambda: set(CATEGORIES))
    statuses: set[str] = field(default_factory=lambda: set(NOTE_STATUSES))
    kinds: set[str] = field(default_factory=lambda: set(LINK_KINDS))


class GraphModel:
    def __init__(self, graph: Graph, size_by: str = "degree") -> None:
        self.graph = graph
        nodes = graph.nodes
        self.n = len(nodes)
        self.ids: list[str] = [nd.id for nd in nodes]
        self.index: dict[str, int] = {nid: i for i, nid in enumerate(self.ids)}
        cat_of = {c: i for i, c in enumerate(CATEGORIES)}
        self.category = np.array(
            [cat_of.get(nd.category, OTHER_CATEGORY) for nd in nodes], np.int64
        )
        status_of = {s: i for i, s in enumerate(NOTE_STATUSES)}
        self.status = np.array([status_of.get(nd.status, 0) for nd in nodes], np.int64)
        self.degree = np.array([nd.degree for nd in nodes], np.float64)
        self.retrievals = np.array([nd.retrieval_count for nd in nodes], np.float64)
        self.pinned = np.array([nd.pinned for nd in nodes], bool)
        self.conflicted = np.array([nd.conflicted for nd in nodes], bool)
        # edges whose ends are both known; others (e.g. a link to another case) are dropped
        kind_of = {k: i for i, k in enumerate(LINK_KINDS)}
        kept = [
            e
            for e in graph.edges
            if e.src in self.index and e.dst in self.index and e.src != e.dst
        ]
        rows = [(self.index[e.src], self.index[e.dst], kind_of.get(e.kind, 0), e.strength) for e in kept]
        #: the relation shown on each edge (证明 / 适用 / 矛盾 / 补充 / 取代 / 相关)
        self.edge_label: list[str] = [e.label for e in kept]
        arr = np.array(rows, np.float64).reshape(-1, 4)
        self.edges = arr[:, :2].astype(np.int64)
        self.kind = arr[:, 2].astype(np.int64)
        self.strength = arr[:, 3].copy()
        self.radius = np.zeros(self.n)
        self.set_size_by(size_by)
        #: notes with at least one link drawn: the force layout places them; the others
        #: sit in a grid per category (layout.arrange_unlinked)
        self.linked = np.zeros(self.n, bool)
        self.linked[self.edges.ravel()] = True
        #: the order within a grid: by event date (undated last), then as listed
        dated = sorted(range(self.n), key=lambda i: (nodes[i].event_date or "9999", i))
        self.order = np.empty(self.n, np.int64)
        self.order[dated] = np.arange(self.n)
        self.group = self.category
        #: a grid heading per group: a category, or a month ("2024-03"; None: no date)
        self.group_names: list[str | None] = [*CATEGORIES, "?"]
        self.set_group_by("category")

    def set_group_by(self, by: str) -> None:
        """Group the unlinked notes by "category" or by "time" (the month of the event)."""
        if by == "time":
            months = [(nd.event_date or "")[:7] for nd in self.graph.nodes]
            keys = sorted(set(months), key=lambda m: m or "9999")  # undated last
            index = {m: i for i, m in enumerate(keys)}
            self.group = np.array([index[m] for m in months], np.int64)
            self.group_names = [m or None for m in keys]
        else:
            self.group = self.category
            self.group_names = [*CATEGORIES, "?"]
        self.group_by = by
        self._search_text: list[str] | None = None

    # -- appearance -------------------------------------------------------------------
    def set_size_by(self, metric: str) -> None:
        """Node size grows with the square root of degree (or retrieval count)."""
        values = self.retrievals if metric == "retrievals" else self.degree
        self.radius = np.clip(MIN_RADIUS + 2.2 * np.sqrt(values), MIN_RADIUS, MAX_RADIUS)

    def current_count(self) -> int:
        """How many of the notes are active (the map shows replaced and expired ones too)."""
        return int((self.status == NOTE_STATUSES.index("active")).sum())

    def node(self, i: int) -> GraphNode:
        return self.graph.nodes[i]

    # -- filters --------------------------------------------------------------------
    def node_mask(self, filters: Filters) -> np.ndarray:
        cats = [i for i, c in enumerate(CATEGORIES) if c in filters.categories]
        cats.append(OTHER_CATEGORY)
        stats = [i for i, s in enumerate(NOTE_STATUSES) if s in filters.statuses]
        return np.isin(self.category, cats) & np.isin(self.status, stats)

    def edge_mask(self, filters: Filters, nodes: np.ndarray) -> np.ndarray:
        kinds = [i for i, k in enumerate(LINK_KINDS) if k in filters.kinds]
        if len(self.edges) == 0:
            return np.zeros(0, bool)
        return np.isin(self.kind, kinds) & nodes[self.edges[:, 0]] & nodes[self.edges[:, 1]]

    # -- search and neighbourhoods ----------------------------------------------------
    def search(self, text: str) -> np.ndarray:
        """Nodes whose summary, tags, category or id contain every word of ``text``."""
        words = [w for w in text.casefold().split() if w]
        if not words:
            return np.zeros(self.n, bool)
        if self._search_text is None:
            self._search_text = [
                " ".join((nd.label, " ".join(nd.tags), nd.category, nd.id)).casefold()
                for nd in self.graph.nodes
            ]
        return np.array([all(w in s for w in words) for s in self._search_text], bool)

    def neighbourhood(
        self, start: Iterable[int], hops: int, edges: np.ndarray | None = None
    ) -> np.ndarray:
        """Nodes within ``hops`` links of ``start`` (links in either direction)."""
        e = self.edges if edges is None else self.edges[edges]
        mask = np.zeros(self.n, bool)
        mask[list(start)] = True
        for _ in range(max(0, hops)):
            reach = mask[e[:, 0]] | mask[e[:, 1]]
            grown = mask.copy()
            grown[e[reach, 0]] = True
            grown[e[reach, 1]] = True
            if (grown == mask).all():
                break
            mask = grown
        return mask

    # -- positions ------------------------------------------------------------------
    def known_positions(self, saved: Mapping[str, tuple[float, float]] | None) -> np.ndarray:
        """(n, 2) array of saved positions, NaN for notes that have none yet."""
        pos = np.full((self.n, 2), np.nan)
        for nid, xy in (saved or {}).items():
            i = self.index.get(nid)
            if i is not None and len(xy) == 2 and all(np.isfinite(xy)):
                pos[i] = xy
        return pos

    def positions_dict(self, pos: np.ndarray) -> dict[str, tuple[float, float]]:
        return {
            nid: (round(float(x), 2), round(float(y), 2))
            for nid, (x, y) in zip(self.ids, pos, strict=True)
        }
