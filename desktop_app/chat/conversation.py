"""One conversation's logic, without Qt: which conversation is open, its memory switch, the
title taken from the first question, retry, and learning from a finished turn.

The chat view only displays what this decides (the model is Mu's ``logic.py``).  The
methods marked *worker* talk to the engine or the model and run off the UI thread; the
others only read or change this object's state and run on the UI thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from desktop_app.chat.citations import CitedPassage, cite_hits
from desktop_app.chat.model_reply import EventCallback
from desktop_app.chat.pipeline import ChatPipeline, PreparedTurn, TurnOutcome, collapse_retries

if TYPE_CHECKING:  # the memory modules load in a worker with the engine, after the first paint
    from desktop_app.memory.job_steps import JobReport
    from desktop_app.memory.types import Conversation, Message, Note

#: the English default title the sidebar gives a new conversation (the engine's own default
#: is memory.types.DEFAULT_CONVERSATION_TITLE)
UI_DEFAULT_TITLE = "New chat"
TITLE_CHARS = 28


def is_untitled(title: str) -> bool:
    """Has the conversation still a default title (its first question will name it)?"""
    from desktop_app.memory.types import DEFAULT_CONVERSATION_TITLE

    return title in (UI_DEFAULT_TITLE, DEFAULT_CONVERSATION_TITLE)


def title_from(text: str) -> str:
    """A conversation title from its first question: one line, at most TITLE_CHARS."""
    line = " ".join(text.split())
    return line[:TITLE_CHARS] + ("…" if len(line) > TITLE_CHARS else "")


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """What one turn will do, decided before it starts."""

    conversation_id: str
    case_id: str | None
    text: str
    retry: bool
    memory_enabled: bool
    #: the new title, when this first question names a conversation still untitled
    rename_to: str | None


class ConversationController:
    def __init__(
        self,
        engine: Callable[[], Any],
        llm: Callable[[], Any],
        language: Callable[[], str],
        llm_problem: Callable[[], BaseException | None] = lambda: None,
    ) -> None:
        #: getters: the engine is replaced by a restore, the LLM by Settings;
        #: ``llm_problem``: why there is no LLM client (raised by a turn instead of "not set up")
        self._engine = engine
        self._llm = llm
        self._language = language
        self._llm_problem = llm_problem
        self.case_id: str | None = None
        self.conversation: Conversation | None = None
        self.memory_enabled = True
        self.last_user_text = ""
        #: extraction jobs queued for turns shown now: job key -> the reply's message
        self._learning: dict[str, Any] = {}

    # -- what is open (UI thread) --------------------------------------------------------

    def set_case(self, case_id: str | None) -> bool:
        """Switch case; True when it changed (the open conversation is then closed)."""
        if case_id == self.case_id:
            return False
        self.case_id = case_id
        self.open(None)
        return True

    def open(self, conversation: Conversation | None) -> bool:
        """Show ``conversation`` (None: a new one, not created yet).  False when it is the
        one already open (only its details were refreshed)."""
        same = (
            conversation is not None
            and self.conversation is not None
            and conversation.id == self.conversation.id
        )
        self.conversation = conversation
        if same:
            return False
        self.memory_enabled = conversation.memory_enabled if conversation is not None else True
        self.last_user_text = ""
        self._learning.clear()
        return True

    def shown_messages(self, messages: Sequence[Message]) -> list[Message]:
        """The stored messages as the chat shows them (a retried reply replaced by the
        new one; no system messages); remembers the last question for Retry."""
        shown = [m for m in collapse_retries(messages) if m.role in ("user", "assistant")]
        for m in reversed(shown):
            if m.role == "user":
                self.last_user_text = m.content
                break
        return shown

    def cited_passages(self, messages: Sequence[Message]) -> dict[str, list[CitedPassage]]:
        """(worker) The document passages each stored reply was given, under the citations
        of the interface language; passages deleted since are left out."""
        wanted = [pid for m in messages for pid in getattr(m, "passage_ids", ())]
        if not wanted:
            return {}
        engine = self._engine()
        found = {
            c.passage_id: c
            for c in cite_hits(engine, engine.passages_by_ids(wanted), self._language())
        }
        return {
            m.id: [found[pid] for pid in m.passage_ids if pid in found]
            for m in messages
            if getattr(m, "passage_ids", ())
        }

    def memory_switch_changes(self, enabled: bool) -> bool:
        """Set the memory switch; True when the stored conversation must be updated."""
        self.memory_enabled = enabled
        conv = self.conversation
        return conv is not None and conv.memory_enabled != enabled

    def plan_turn(self, text: str, *, retry: bool) -> TurnPlan | None:
        """The next turn of the open conversation (None when there is nothing to send)."""
        conv = self.conversation
        if conv is None:
            return None
        if retry:
            text = self.last_user_text
        else:
            text = text.strip()
            if not text:
                return None
            self.last_user_text = text
        rename = None if retry or not is_untitled(conv.title) else title_from(text)
        return TurnPlan(conv.id, conv.case_id, text, retry, self.memory_enabled, rename)

    # -- talking to the engine and the model (worker) ------------------------------------

    def create_conversation(
        self, case_id: str | None, first_text: str, memory: bool
    ) -> Conversation:
        """*worker*: the conversation a first question opens, titled from it."""
        engine = self._engine()
        conv = engine.create_conversation(case_id, title_from(first_text))
        if not memory:
            conv = engine.set_conversation_memory(conv.id, False)
        return conv

    def store_memory_switch(self, conversation_id: str, enabled: bool) -> Conversation:
        """*worker*"""
        return self._engine().set_conversation_memory(conversation_id, enabled)

    def run_turn(
        self,
        plan: TurnPlan,
        *,
        on_prepared: Callable[[PreparedTurn], None] | None = None,
        on_delta: Callable[[str], None] | None = None,
        cancel: threading.Event | None = None,
        on_event: EventCallback | None = None,
    ) -> TurnOutcome:
        """*worker*: name the conversation if this is its first question, then ask, stream
        and store the reply (``on_event``: see :meth:`ChatPipeline.stream`)."""
        engine = self._engine()
        if plan.rename_to:
            engine.rename_conversation(plan.conversation_id, plan.rename_to)
        llm = self._llm()
        unavailable = self._llm_problem() if llm is None else None
        pipeline = ChatPipeline(engine, llm, self._language(), unavailable=unavailable)
        return pipeline.run_turn(
            plan.conversation_id,
            plan.case_id,
            plan.text,
            memory_enabled=plan.memory_enabled,
            retry=plan.retry,
            on_prepared=on_prepared,
            on_delta=on_delta,
            cancel=cancel,
            on_event=on_event,
        )

    def queue_learning(self, outcome: TurnOutcome) -> str | None:
        """*worker*: queue knowledge extraction for a finished turn as a durable job (the
        job runner takes it; nothing waits).  Returns the job's key, or None when nothing
        is to be learned (memory off, a reply that did not complete, an empty one)."""
        from desktop_app.memory.jobs import turn_job_key

        p = outcome.prepared
        if not outcome.teaches:
            return None
        self._engine().ingest_turn(
            p.user_text,
            outcome.reply,
            case_id=p.case_id,
            conversation_id=p.conversation_id,
            message_time=p.started_at,
            # the reply keeps what is learned: its chip comes back with the conversation
            message_id=getattr(outcome.assistant_message, "id", None),
        )
        return turn_job_key(p.user_text, outcome.reply, p.case_id, p.conversation_id)

    # -- what was learned (UI thread) ----------------------------------------------------

    def expect_learning(self, key: str, reply: Any) -> None:
        """Remember which shown reply waits for the job ``key``."""
        self._learning[key] = reply

    def learned(self, report: JobReport) -> list[tuple[Any, list[Note]]]:
        """For each shown reply whose extraction finished in ``report``: the reply and the
        notes learned from its turn (facts already known are left out)."""
        found = []
        for outcome in report.outcomes:
            reply = self._learning.pop(outcome.key, None)
            if reply is not None:
                notes = [r.note for r in outcome.results if r.learned]
                found.append((reply, notes))
        return found
