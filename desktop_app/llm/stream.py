"""A streamed chat reply that stops within a fraction of a second, in every phase.

The request runs in a worker thread of its own (inside an :class:`AbortScope`); the thread
that iterates the stream — the chat worker — waits on a queue in short slices and watches the
cancel event between them. So setting the event (the UI's Stop button does only that) or
calling :meth:`ChatStream.cancel` returns control within :data:`POLL_SECONDS` while the
request is connecting, while the server holds the headers (Ollama loading a model), or
between two slow chunks; the scope's sockets are shut down so the server stops too. The
partial answer stays, marked as stopped.

Iterating the stream yields the answer's text deltas only (reasoning is kept apart);
:meth:`ChatStream.events` yields every :class:`StreamEvent` (answer, reasoning, retract), for
a UI that shows the thinking collapsed. :meth:`ChatStream.result` sums it up.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from desktop_app.core.errors import ConnectionLostError, EndpointUnreachableError

from .abort import AbortScope
from .failures import map_openai_error
from .reasoning import ReplyParts, StreamEvent, ThinkSplitter
from .tokens import Usage, estimate_messages_tokens, estimate_tokens

log = logging.getLogger(__name__)

#: How often the iterating thread looks at the cancel event while nothing arrives.
POLL_SECONDS = 0.05

Status = Literal["complete", "stopped", "truncated"]


@dataclass(frozen=True, slots=True)
class StreamResult:
    """A finished (or stopped) reply. ``text`` is the answer only — what the chat stores and
    extracts from; ``reasoning`` the model's thinking, if it showed any."""

    text: str
    reasoning: str
    finish_reason: str | None
    stopped: bool
    usage: Usage
    model: str = ""

    @property
    def truncated(self) -> bool:
        """The token budget cut the reply off (``finish_reason: "length"``)."""
        return self.finish_reason == "length" and not self.stopped

    @property
    def status(self) -> Status:
        if self.stopped:
            return "stopped"
        return "truncated" if self.truncated else "complete"


_END = object()


class ChatStream:
    """Iterator of a streamed reply's answer deltas; see the module docstring.

    After the iteration: ``text`` (the answer), ``reasoning``, ``finish_reason``, ``usage``
    (the endpoint's final usage chunk, or an estimate), ``cancelled`` / ``stopped``,
    ``truncated``; :meth:`result` gives them as one value.
    """

    def __init__(
        self,
        open_stream: Callable[[], Any],
        messages: Sequence[Any],
        cancel: threading.Event | None,
        on_done: Callable[[Usage], None],
        *,
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self._open = open_stream
        self._messages = messages
        self._cancel = cancel or threading.Event()
        self._on_done = on_done
        self._poll = poll_seconds
        self._scope = AbortScope()
        self._parts = ReplyParts()
        self._splitter = ThinkSplitter()
        self._started = False
        self._reported: Usage | None = None
        self.usage: Usage | None = None
        self.finish_reason: str | None = None
        self.model: str = ""
        self.cancelled = False

    # -- state -------------------------------------------------------------------------------

    @property
    def text(self) -> str:
        return self._parts.answer_text

    @property
    def reasoning(self) -> str:
        return self._parts.reasoning_text

    @property
    def stopped(self) -> bool:
        return self.cancelled

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length" and not self.cancelled

    def result(self) -> StreamResult:
        usage = self.usage or Usage(
            estimate_messages_tokens(self._messages), estimate_tokens(self.text), True
        )
        return StreamResult(
            self.text, self.reasoning, self.finish_reason, self.cancelled, usage, self.model
        )

    def cancel(self) -> None:
        """Stop from any thread: the iteration ends within a poll interval, the request ends."""
        self._cancel.set()
        self._scope.abort()

    # -- iteration ---------------------------------------------------------------------------

    def __iter__(self) -> Iterator[str]:
        for event in self.events():
            if event.kind == "answer":
                yield event.text

    def events(self) -> Iterator[StreamEvent]:
        """Every piece of the reply as it comes: answer, reasoning, retract."""
        if self._started:
            raise RuntimeError("a ChatStream can be iterated once")
        self._started = True
        finished = False
        try:
            if self._cancel.is_set():
                self.cancelled = True
                return
            inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
            threading.Thread(
                target=self._produce, args=(inbox,), name="llm-stream", daemon=True
            ).start()
            while True:
                kind, item = self._next(inbox)
                if kind == "stop":
                    self.cancelled = True
                    break
                if kind == "error":
                    self._raise(item)
                if item is _END:
                    break
                for event in self._read_chunk(item):
                    yield event
                    if self._cancel.is_set():
                        break
                if self._cancel.is_set():
                    self.cancelled = True
                    break
            if not self.cancelled:
                for event in self._splitter.finish():
                    self._parts.add(event)
                    yield event
                if self.finish_reason is None:
                    # the server closed the stream early: a broken connection, not a bad answer
                    raise ConnectionLostError(
                        f"stream ended without a finish reason after {len(self.text)} chars (cut?)"
                    )
            finished = True
        finally:
            if not finished or self.cancelled:
                self._scope.abort()  # stopped, failed, or the consumer left early
            if self._reported is not None and not self.cancelled:
                self.usage = self._reported
            else:
                self.usage = Usage(
                    estimate_messages_tokens(self._messages), estimate_tokens(self.text), True
                )
            self._on_done(self.usage)

    def _next(self, inbox: queue.Queue[tuple[str, Any]]) -> tuple[str, Any]:
        while True:
            if self._cancel.is_set():
                return "stop", None
            try:
                return inbox.get(timeout=self._poll)
            except queue.Empty:
                continue

    def _read_chunk(self, chunk: Any) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        if getattr(chunk, "model", None):
            self.model = chunk.model
        usage = getattr(chunk, "usage", None)
        if usage is not None:
            self._reported = usage_from(usage) or self._reported
        for choice in getattr(chunk, "choices", None) or ():
            delta = getattr(choice, "delta", None)
            if delta is not None:
                thinking = getattr(delta, "reasoning_content", None) or getattr(
                    delta, "reasoning", None
                )
                if isinstance(thinking, str) and thinking:
                    events.append(StreamEvent("reasoning", thinking))
                content = getattr(delta, "content", None)
                if content:
                    events.extend(self._splitter.feed(content))
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason
        for event in events:
            self._parts.add(event)
        return events

    def _raise(self, exc: BaseException) -> None:
        err = map_openai_error(exc)
        if isinstance(err, EndpointUnreachableError) and (self.text or self.reasoning):
            # Bytes had arrived: the endpoint was reachable, the connection broke.
            err = ConnectionLostError(f"stream cut after {len(self.text)} chars: {exc}")
        raise err from exc

    # -- the request, in its own thread ----------------------------------------------------------

    def _produce(self, inbox: queue.Queue[tuple[str, Any]]) -> None:
        stream: Any = None
        try:
            with self._scope.bound():
                stream = self._open()
                self._scope.track_response(stream)
                for chunk in stream:
                    if self._scope.aborted:
                        return
                    inbox.put(("chunk", chunk))
            inbox.put(("end", _END))
        except BaseException as exc:
            if not self._scope.aborted:  # an abort's own error is nobody's business
                inbox.put(("error", exc))
        finally:
            if stream is not None:
                try:
                    stream.close()
                except Exception:  # closing a half-read socket may raise; it is closed either way
                    log.debug("closing a stream raised", exc_info=True)


def usage_from(usage: Any) -> Usage | None:
    if usage is None:
        return None
    p = getattr(usage, "prompt_tokens", None)
    c = getattr(usage, "completion_tokens", None)
    if p is None and c is None:
        return None
    return Usage(int(p or 0), int(c or 0), False)
