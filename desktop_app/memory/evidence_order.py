"""The order in which the lawyer arranged a case's evidence (for its 证据目录).

Only ids and positions are stored (table ``evidence_order``, migration 0009): a forgotten
note takes its row with it (foreign-key cascade), and a deleted case takes all of them.
Evidence notes the lawyer has not placed yet follow the placed ones, by when their facts
happened, so a new piece of evidence shows up at the end instead of vanishing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from desktop_app.core.errors import InvalidInputError
from desktop_app.memory.doc_sources import parse_document_source
from desktop_app.memory.evidence_list import EvidenceEntry, entry_for
from desktop_app.memory.notes_repository import NotesRepository
from desktop_app.memory.store import Store
from desktop_app.memory.types import Note

EVIDENCE_CATEGORY = "证据"
#: the link type a lawyer reads as "this evidence proves that fact"
PROVES = "证明"


class EvidenceOrder:
    def __init__(
        self,
        store: Store,
        notes: NotesRepository,
        document_names: Callable[[Sequence[str]], dict[str, str]],
    ) -> None:
        """``document_names(ids)``: the names of the documents that still exist."""
        self._store = store
        self._notes = notes
        self._document_names = document_names

    def positions(self, case_id: str) -> dict[str, int]:
        rows = self._store.query(
            "SELECT note_id, position FROM evidence_order WHERE case_id = ?", (case_id,)
        )
        return {row["note_id"]: row["position"] for row in rows}

    def evidence_notes(self, case_id: str) -> list[Note]:
        """The case's active evidence notes, in the lawyer's order (unplaced ones last, by
        their event date, then by when they were recorded)."""
        notes = self._notes.list(case_id, False, "active", EVIDENCE_CATEGORY, order_by="event_date")
        placed = self.positions(case_id)
        unplaced = len(placed)
        ranked = [(placed.get(note.id, unplaced), i, note) for i, note in enumerate(notes)]
        return [note for _pos, _i, note in sorted(ranked, key=lambda r: (r[0], r[1]))]

    def set_order(self, case_id: str, note_ids: Sequence[str]) -> list[Note]:
        """Store ``note_ids`` as the case's evidence order (replacing the earlier one) and
        return the evidence notes in the new order.  Every id must be an evidence note of
        this case: an id from another case is refused, never stored."""
        ids = list(dict.fromkeys(note_ids))
        known = {n.id for n in self._notes.list(case_id, False, None, EVIDENCE_CATEGORY)}
        strangers = [i for i in ids if i not in known]
        if strangers:
            raise InvalidInputError(
                f"{len(strangers)} id(s) are not evidence notes of case {case_id!r}",
                user_message=(
                    "证据目录只能排列本案的证据记忆。 / "
                    "The evidence list can only arrange this case's evidence."
                ),
            )
        with self._store.write() as conn:
            conn.execute("DELETE FROM evidence_order WHERE case_id = ?", (case_id,))
            conn.executemany(
                "INSERT INTO evidence_order (case_id, note_id, position) VALUES (?, ?, ?)",
                [(case_id, note_id, pos) for pos, note_id in enumerate(ids)],
            )
        return self.evidence_notes(case_id)

    def entries(self, notes: Sequence[Note]) -> list[EvidenceEntry]:
        """The list's entries for ``notes`` (in that order): each with what it is linked to
        as proving, among the active notes of the same case, and the document page it was
        drawn from (when that document is still there)."""
        pages = {n.id: parse_document_source(n.source) for n in notes}
        names = self._document_names([p[0] for p in pages.values() if p is not None])
        entries = []
        for note in notes:
            proved_ids = [link.dst for link in self._notes.links_of(note.id) if link.type == PROVES]
            proved = [
                n.content
                for n in self._notes.by_ids(proved_ids)
                if n.is_active and n.case_id == note.case_id
            ]
            doc_id, page = pages[note.id] or (None, None)
            name = names.get(doc_id) if doc_id else None
            entries.append(entry_for(note, proved, name, page if name else None))
        return entries
