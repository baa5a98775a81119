"""What an operation changed, as a typed value (the model is Anki's ``OpChanges``).

Every mutation of the engine records what it touched — notes added, changed or removed per
scope, links, cases, conversations, messages, jobs — into the :class:`ChangeLog` open on the
calling thread (``with engine.recording() as log:``).  ``log.changes`` is then one
:class:`Changes` value: the UI hands it to every view through one signal, and each view
refreshes only when the change concerns what it shows.  Nothing is recorded when no log is
open (the CLI, most tests).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

Scope = str | None  # a case id, or None for the global notes


@dataclass(frozen=True, slots=True)
class Changes:
    """Immutable; combine two with ``|``.  Empty (falsy) when nothing changed."""

    #: (scope, note id) of the notes created, edited (text, status, pin...) and deleted
    added: frozenset[tuple[Scope, str]] = frozenset()
    changed: frozenset[tuple[Scope, str]] = frozenset()
    removed: frozenset[tuple[Scope, str]] = frozenset()
    #: scopes whose links changed (the graph's edges, a note's link list)
    links: frozenset[Scope] = frozenset()
    #: a case was created, renamed or archived
    cases: bool = False
    #: scopes whose list of conversations changed (created, renamed, deleted, memory switch)
    conversations: frozenset[Scope] = frozenset()
    #: conversations whose messages changed
    messages: frozenset[str] = frozenset()
    #: the job queue changed (queued, done, failed)
    jobs: bool = False
    #: the memory check-up's proposal changed (a new check, an item accepted or dismissed)
    maintenance: bool = False

    def __bool__(self) -> bool:
        return bool(
            self.added
            or self.changed
            or self.removed
            or self.links
            or self.cases
            or self.conversations
            or self.messages
            or self.jobs
            or self.maintenance
        )

    def __or__(self, other: Changes) -> Changes:
        return Changes(
            self.added | other.added,
            self.changed | other.changed,
            self.removed | other.removed,
            self.links | other.links,
            self.cases or other.cases,
            self.conversations | other.conversations,
            self.messages | other.messages,
            self.jobs or other.jobs,
            self.maintenance or other.maintenance,
        )

    @property
    def note_scopes(self) -> frozenset[Scope]:
        """Every scope in which a note was added, changed or removed."""
        return frozenset(scope for scope, _id in self.added | self.changed | self.removed)

    def touches_notes(self, case_id: Scope, *, include_global: bool = True) -> bool:
        """Did notes (or links) shown for ``case_id`` change?  A case's views show the global
        notes too, unless ``include_global`` is False."""
        scopes = self.note_scopes | self.links
        return case_id in scopes or (include_global and None in scopes)

    def note_ids(self, kind: str = "any") -> frozenset[str]:
        groups = {
            "added": self.added,
            "changed": self.changed,
            "removed": self.removed,
            "any": self.added | self.changed | self.removed,
        }[kind]
        return frozenset(note_id for _scope, note_id in groups)


@dataclass(slots=True)
class ChangeLog:
    """The changes of one ``recording()`` block, collected as they happen."""

    added: set[tuple[Scope, str]] = field(default_factory=set)
    changed: set[tuple[Scope, str]] = field(default_factory=set)
    removed: set[tuple[Scope, str]] = field(default_factory=set)
    links: set[Scope] = field(default_factory=set)
    cases: bool = False
    conversations: set[Scope] = field(default_factory=set)
    messages: set[str] = field(default_factory=set)
    jobs: bool = False
    maintenance: bool = False

    @property
    def changes(self) -> Changes:
        return Changes(
            frozenset(self.added),
            # a note added and then edited in the same operation is simply new
            frozenset(self.changed - self.added - self.removed),
            frozenset(self.removed),
            frozenset(self.links),
            self.cases,
            frozenset(self.conversations),
            frozenset(self.messages),
            self.jobs,
            self.maintenance,
        )

    def merge(self, changes: Changes) -> None:
        self.added |= changes.added
        self.changed |= changes.changed
        self.removed |= changes.removed
        self.links |= changes.links
        self.cases = self.cases or changes.cases
        self.conversations |= changes.conversations
        self.messages |= changes.messages
        self.jobs = self.jobs or changes.jobs
        self.maintenance = self.maintenance or changes.maintenance


class ChangeRecorder:
    """Hands the engine's components one place to say what they changed.  Thread-aware:
    each thread records into its own innermost open log; a nested log is merged into the
    outer one when it closes."""

    def __init__(self) -> None:
        self._local = threading.local()

    def _stack(self) -> list[ChangeLog]:
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    @contextmanager
    def recording(self) -> Iterator[ChangeLog]:
        stack = self._stack()
        log = ChangeLog()
        stack.append(log)
        try:
            yield log
        finally:
            stack.pop()
            if stack:
                stack[-1].merge(log.changes)

    def _current(self) -> ChangeLog | None:
        stack = self._stack()
        return stack[-1] if stack else None

    # -- what the components call --------------------------------------------------------

    def notes_added(self, notes: Iterable[tuple[Scope, str]]) -> None:
        if (log := self._current()) is not None:
            log.added.update(notes)

    def notes_changed(self, notes: Iterable[tuple[Scope, str]]) -> None:
        if (log := self._current()) is not None:
            log.changed.update(notes)

    def notes_removed(self, notes: Iterable[tuple[Scope, str]]) -> None:
        if (log := self._current()) is not None:
            log.removed.update(notes)

    def links_changed(self, scope: Scope) -> None:
        if (log := self._current()) is not None:
            log.links.add(scope)

    def cases_changed(self) -> None:
        if (log := self._current()) is not None:
            log.cases = True

    def conversations_changed(self, scope: Scope) -> None:
        if (log := self._current()) is not None:
            log.conversations.add(scope)

    def messages_changed(self, conversation_id: str) -> None:
        if (log := self._current()) is not None:
            log.messages.add(conversation_id)

    def jobs_changed(self) -> None:
        if (log := self._current()) is not None:
            log.jobs = True

    def maintenance_changed(self, _scope: Scope) -> None:
        if (log := self._current()) is not None:
            log.maintenance = True
