"""One chat turn, without Qt: store the question, recall memories, stream, store, extract.

The UI runs these methods in a worker thread; nothing here blocks on the UI or knows it.
Memory is injected as its own system message (worded by memory_message.py in the UI's
language), never mixed into the user's text, and a conversation with memory switched off neither reads nor writes memory.

The stored reply is the answer only (model_reply.py): the model's thinking is handed to the UI
for this session and never stored nor learnt from. A reply that was stopped, cut off by the
token budget or broken off by a lost connection is stored with what came and its status, and
only a complete reply teaches memory.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from desktop_app.chat.citations import CitedPassage, cite_hits
from desktop_app.chat.memory_message import memory_message
from desktop_app.chat.model_reply import (
    STOPPED_BEFORE_SENDING,
    EventCallback,
    StreamedReply,
    read_reply,
)
from desktop_app.chat.prompts import system_prompt
from desktop_app.core.clock import local_now
from desktop_app.core.errors import ProviderNotConfiguredError

log = logging.getLogger(__name__)

#: how many earlier messages are sent with each request (the memory carries the rest)
HISTORY_LIMIT = 20


class StreamingLLM(Protocol):
    def stream_chat(
        self, messages: list[dict[str, str]], cancel: threading.Event | None = ...
    ) -> Iterable[str]: ...


@dataclass(slots=True)
class PreparedTurn:
    conversation_id: str
    case_id: str | None
    user_text: str
    memory_enabled: bool
    messages: list[dict[str, str]]
    injected: list[Any] = field(default_factory=list)  # Note objects shown by the memory chip
    #: the case's document passages given to the model, with the citation it was asked to use
    passages: list[CitedPassage] = field(default_factory=list)
    user_message_id: str | None = None
    #: when the question was asked, in the user's zone (aware: never stamped as UTC)
    started_at: datetime = field(default_factory=local_now)


@dataclass(slots=True)
class TurnOutcome:
    prepared: PreparedTurn
    reply: str  # the answer only
    cancelled: bool
    assistant_message: Any | None  # the stored Message
    #: complete / stopped / truncated / interrupted (stored with the message)
    status: str = ""
    reasoning: str = ""  # the model's thinking, shown collapsed this session; never stored
    error: BaseException | None = None  # what broke an interrupted reply

    def __post_init__(self) -> None:
        if not self.status:
            self.status = "stopped" if self.cancelled else "complete"

    @property
    def truncated(self) -> bool:
        return self.status == "truncated"

    @property
    def teaches(self) -> bool:
        """Whether this turn is learnt from: a complete reply in a conversation with memory."""
        return (
            self.prepared.memory_enabled and self.status == "complete" and bool(self.reply.strip())
        )


def collapse_retries(messages: Sequence[Any]) -> list[Any]:
    """Several assistant messages in a row mean Retry was used: only the last one counts."""
    out: list[Any] = []
    for m in messages:
        if out and m.role == "assistant" and out[-1].role == "assistant":
            out[-1] = m
        else:
            out.append(m)
    return out


class ChatPipeline:
    def __init__(
        self,
        engine: Any,
        llm: StreamingLLM | None,
        language: str = "zh_CN",
        *,
        unavailable: BaseException | None = None,
    ) -> None:
        """``unavailable``: why there is no ``llm`` (a proxy setting that cannot work…),
        raised by a turn instead of the generic "not configured"."""
        self.engine = engine
        self.llm = llm
        self.language = language
        self.unavailable = unavailable

    # -- step 1 -------------------------------------------------------------------------
    def prepare(
        self,
        conversation_id: str,
        case_id: str | None,
        user_text: str,
        *,
        memory_enabled: bool = True,
        retry: bool = False,
    ) -> PreparedTurn:
        """Store the question (unless retrying it) and build the request with recalled memory."""
        user_text = user_text.strip()
        earlier = collapse_retries(self.engine.list_messages(conversation_id))
        user_message_id = None
        if retry:
            # drop the reply being retried and the question it answered (re-added below);
            # the old reply is deleted so history shows only the new one
            delete = getattr(self.engine, "delete_message", None)
            for m in reversed(self.engine.list_messages(conversation_id)):
                if m.role != "assistant":
                    break
                if callable(delete):
                    delete(m.id)
            while earlier and earlier[-1].role == "assistant":
                earlier.pop()
            if earlier and earlier[-1].role == "user":
                user_message_id = earlier[-1].id
                user_text = user_text or earlier[-1].content
                earlier.pop()
        else:
            stored = self.engine.add_message(conversation_id, "user", user_text)
            user_message_id = getattr(stored, "id", None)

        messages: list[dict[str, str]] = [
            {"role": "system", "content": system_prompt(self.language)}
        ]
        injected: list[Any] = []
        passages: list[CitedPassage] = []
        if memory_enabled:
            recall = self.engine.recall_for_chat(user_text, case_id)
            injected = list(recall.notes)
            passages = cite_hits(self.engine, getattr(recall, "passages", ()), self.language)
            memory = memory_message(injected, passages, self.language)
            if memory:
                messages.append({"role": "system", "content": memory})
        for m in earlier[-HISTORY_LIMIT:]:
            if m.role in ("user", "assistant") and m.content:
                messages.append({"role": m.role, "content": m.content})
        messages.append({"role": "user", "content": user_text})
        return PreparedTurn(
            conversation_id=conversation_id,
            case_id=case_id,
            user_text=user_text,
            memory_enabled=memory_enabled,
            messages=messages,
            injected=injected,
            passages=passages,
            user_message_id=user_message_id,
        )

    # -- step 2 -------------------------------------------------------------------------
    def stream(
        self,
        prepared: PreparedTurn,
        on_delta: Callable[[str], None] | None = None,
        cancel: threading.Event | None = None,
        on_event: EventCallback | None = None,
    ) -> StreamedReply:
        """Stream the reply: ``on_delta`` gets the answer's text, ``on_event(kind, text)``
        every event (answer, reasoning, retract). Stopped before the request, nothing is
        sent. Raises LLM errors that come before any answer text."""
        if self.llm is None:
            if self.unavailable is not None:
                raise self.unavailable
            raise ProviderNotConfiguredError("no LLM client configured")
        cancel = cancel or threading.Event()
        if cancel.is_set():  # Stop came while the memories were recalled
            return STOPPED_BEFORE_SENDING
        stream = self.llm.stream_chat(prepared.messages, cancel=cancel)
        return read_reply(stream, cancel, on_delta, on_event)

    # -- step 3 -------------------------------------------------------------------------
    def finish(self, prepared: PreparedTurn, reply: StreamedReply) -> TurnOutcome:
        """Store the reply with the ids of the notes that were injected for it, and how it
        ended. A reply that did not complete is stored even when empty: its mark (and
        Retry) must survive a restart."""
        message = None
        if reply.text.strip() or reply.status != "complete":
            message = self.engine.add_message(
                prepared.conversation_id,
                "assistant",
                reply.text,
                injected_note_ids=tuple(n.id for n in prepared.injected),
                status=reply.status,
                passage_ids=tuple(p.passage_id for p in prepared.passages),
            )
        return TurnOutcome(
            prepared,
            reply.text,
            reply.status == "stopped",
            message,
            status=reply.status,
            reasoning=reply.reasoning,
            error=reply.error,
        )

    def run_turn(
        self,
        conversation_id: str,
        case_id: str | None,
        user_text: str,
        *,
        memory_enabled: bool = True,
        retry: bool = False,
        on_prepared: Callable[[PreparedTurn], None] | None = None,
        on_delta: Callable[[str], None] | None = None,
        cancel: threading.Event | None = None,
        on_event: EventCallback | None = None,
    ) -> TurnOutcome:
        prepared = self.prepare(
            conversation_id, case_id, user_text, memory_enabled=memory_enabled, retry=retry
        )
        if on_prepared is not None:
            on_prepared(prepared)
        reply = self.stream(prepared, on_delta, cancel, on_event)
        return self.finish(prepared, reply)

    # -- step 4 (background) ------------------------------------------------------------
    def extract(self, outcome: TurnOutcome) -> list[Any]:
        """Knowledge extraction after a complete turn; nothing when memory is off or the reply
        did not complete (stopped, cut off, broken)."""
        p = outcome.prepared
        if not outcome.teaches:
            return []
        results = self.engine.ingest_turn(
            p.user_text,
            outcome.reply,
            case_id=p.case_id,
            conversation_id=p.conversation_id,
            message_time=p.started_at,
            message_id=getattr(outcome.assistant_message, "id", None),
            # extraction already runs in a background worker: wait for it, so the UI can
            # show what was learned; offline the engine queues the job and returns []
            wait=True,
        )
        return [r for r in results if getattr(r, "learned", True)]
