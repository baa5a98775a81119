"""The Chat tab: a conversation's messages, the composer, and one streamed turn at a time."""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop_app.chat import describe_error
from desktop_app.chat.context_fit import check_message
from desktop_app.chat.conversation import ConversationController, TurnPlan
from desktop_app.core.errors import NotFoundError
from desktop_app.ui import dialogs, i18n, texts
from desktop_app.ui.chat.composer import Composer
from desktop_app.ui.chat.follow import StreamFollower
from desktop_app.ui.chat.memories_popup import MemoriesPopup
from desktop_app.ui.chat.message import ErrorCard, MessageWidget
from desktop_app.ui.engine_host import EngineHost
from desktop_app.ui.icons import icon
from desktop_app.ui.workers import Op

log = logging.getLogger(__name__)

CONTENT_WIDTH = 860  # readable line length, centred like the chat apps people like
RENDER_INTERVAL_MS = 50  # streamed Markdown is re-rendered at most this often


class _Turn:
    """The one reply being streamed."""

    def __init__(self, plan: TurnPlan, widget: MessageWidget) -> None:
        self.plan = plan
        self.widget = widget
        self.buffer = ""  # the answer so far
        self.reasoning = ""  # the model's thinking so far (shown collapsed)
        self.op: Op | None = None

    def add(self, kind: str, text: str) -> None:
        """One stream event (see desktop_app.chat.model_reply)."""
        if kind == "answer":
            self.buffer += text
        elif kind == "reasoning":
            self.reasoning += text
        elif kind == "retract":  # what was shown as answer was thinking: move it over
            self.reasoning = text + ("\n" + self.reasoning if self.reasoning else "")
            self.buffer = ""


class ChatView(QWidget):
    """Displays one conversation; what to do (titles, retry, memory switch, learning) is
    decided by the Qt-free :class:`ConversationController`."""

    settingsRequested = Signal()
    newChatRequested = Signal()  # this conversation is too long for the model
    showNotesRequested = Signal(object)  # list of note ids
    #: a cited passage was clicked: (document id, passage id)
    passageRequested = Signal(str, str)
    conversationCreated = Signal(object)  # Conversation
    demoRequested = Signal()
    newCaseRequested = Signal()

    def __init__(self, host: EngineHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.controller = ConversationController(
            lambda: host.engine, lambda: host.llm, i18n.current, lambda: host.llm_error
        )
        #: the client whose warnings the user dismissed (shown again for a new client)
        self._warnings_dismissed_for: Any = None
        self._turn: _Turn | None = None
        self._creating = False  # a first message is waiting for its conversation to exist
        self._load_token = 0
        self._messages: list[QWidget] = []

        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)

        header = QHBoxLayout()
        header.setContentsMargins(20, 10, 16, 6)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)  # untrusted text
        self.title.setObjectName("AppTitle")
        header.addWidget(self.title, 1)
        self.memory_toggle = QToolButton()
        self.memory_toggle.setCheckable(True)
        self.memory_toggle.setChecked(True)
        self.memory_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.memory_toggle.toggled.connect(self._memory_toggled)
        header.addWidget(self.memory_toggle)
        lay.addLayout(header)

        self.banner = QFrame()
        self.banner.setObjectName("Banner")
        self.banner.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        b_lay = QHBoxLayout(self.banner)
        b_lay.setContentsMargins(14, 10, 10, 10)
        self.banner_label = QLabel()
        self.banner_label.setTextFormat(Qt.TextFormat.PlainText)  # untrusted text
        self.banner_label.setWordWrap(True)
        b_lay.addWidget(self.banner_label, 1)
        self.banner_buttons = QHBoxLayout()
        b_lay.addLayout(self.banner_buttons)
        banner_wrap = QHBoxLayout()
        banner_wrap.setContentsMargins(20, 0, 20, 6)
        banner_wrap.addWidget(self.banner)
        lay.addLayout(banner_wrap)
        self.banner.hide()

        self.scroll = QScrollArea()
        self.scroll.setObjectName("ChatScroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        canvas = QWidget()
        canvas.setObjectName("ChatCanvas")
        outer = QHBoxLayout(canvas)
        outer.setContentsMargins(20, 8, 20, 8)
        self.column = QWidget()
        self.column.setMaximumWidth(CONTENT_WIDTH)
        self.column.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.column_layout = QVBoxLayout(self.column)
        self.column_layout.setContentsMargins(0, 0, 0, 0)
        self.column_layout.setSpacing(10)
        self.empty = QLabel()
        self.empty.setObjectName("EmptyState")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.column_layout.addStretch(1)
        self.column_layout.addWidget(self.empty)
        self.column_layout.addStretch(1)
        outer.addWidget(self.column)
        self.scroll.setWidget(canvas)
        lay.addWidget(self.scroll, 1)
        self.follower = StreamFollower(self.scroll)

        comp_wrap = QHBoxLayout()
        comp_wrap.setContentsMargins(20, 6, 20, 14)
        self.composer = Composer()
        self.composer.setMaximumWidth(CONTENT_WIDTH)
        comp_wrap.addWidget(self.composer)
        lay.addLayout(comp_wrap)
        self.composer.sendRequested.connect(self.send)
        self.composer.stopRequested.connect(self.stop)

        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(RENDER_INTERVAL_MS)
        self._render_timer.timeout.connect(self._render_stream)

        stop = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        stop.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        stop.activated.connect(self.stop)

        host.stateChanged.connect(lambda _s: self._refresh_chrome())
        host.llmChanged.connect(self._refresh_chrome)
        host.jobsReported.connect(self._jobs_reported)
        self._update_memory_toggle()
        self._refresh_chrome()

    # -- public ----------------------------------------------------------------------------
    @property
    def case_id(self) -> str | None:
        return self.controller.case_id

    @property
    def conversation(self) -> Any:
        return self.controller.conversation

    @property
    def memory_enabled(self) -> bool:
        return self.controller.memory_enabled

    @property
    def streaming(self) -> bool:
        return self._turn is not None or self._creating

    def set_case(self, case_id: str | None) -> None:
        if self.controller.case_id != case_id:
            if self._turn is not None:
                self._abandon_turn()
            self.controller.set_case(case_id)
            self._update_memory_toggle()
            self._clear_messages()
            self.follower.jump_to_latest()
        self._refresh_chrome()

    def set_conversation(self, conv: Any) -> None:
        if conv is not None and self.conversation is not None and conv.id == self.conversation.id:
            self.controller.open(conv)
            self._refresh_chrome()
            return
        if self._turn is not None:
            self._abandon_turn()
        self.controller.open(conv)
        self._update_memory_toggle()
        self._clear_messages()
        self._refresh_chrome()
        if conv is not None:
            self._load_token += 1
            token = self._load_token
            controller = self.controller

            def history(e: Any) -> tuple[list[Any], dict[str, Any], dict[str, list[Any]]]:
                messages, learned = _messages_and_learned(e, conv.id)
                return messages, learned, controller.cited_passages(messages)

            self.host.call(
                history,
                lambda found: self._show_history(token, *found),
                lambda exc: self._add_error(exc),
                name="list-messages",
            )

    def focus_composer(self) -> None:
        self.composer.input.setFocus()

    # -- chrome ----------------------------------------------------------------------------
    def _refresh_chrome(self) -> None:
        ready = self.host.engine is not None
        self.title.setText(self.conversation.title if self.conversation else self.tr("New chat"))
        self.composer.setEnabled(ready and self.case_id is not None)
        while self.banner_buttons.count():
            w = self.banner_buttons.takeAt(0).widget()
            if w is not None:
                w.hide()
                w.deleteLater()
        if self.host.state == "loading":
            self._banner(self.tr("Loading the memory library…"), [])
        elif self.host.state == "failed":
            self._banner(
                texts.in_ui_language(getattr(self.host.error, "user_message", None) or "") or self.tr("The memory library could not be opened."),
                [],
            )
        elif ready and self.case_id is None:
            self._banner(
                self.tr(
                    "No case yet. Create one, or load the demo case (Zhang San's sales-contract dispute with an "
                    "online shop over a faulty laptop) to look around."
                ),
                [(self.tr("Load demo case"), self.demoRequested), (self.tr("New case"), self.newCaseRequested)],
            )
        elif self.host.llm is None and self.host.llm_error is not None:
            # the setup cannot work (a proxy setting…): say what, not "not configured"
            problem = describe_error(self.host.llm_error)
            self._banner(
                texts.problem_text(problem.kind, problem.user_message, problem.specific),
                [(self.tr("Open Settings"), self.settingsRequested)],
            )
        elif self.host.llm is None:
            self._banner(
                self.tr(
                    "No model is connected yet. Open Settings, choose a provider and enter its API key; "
                    "local Ollama or LM Studio need no key. Notes and the graph already work."
                ),
                [(self.tr("Open Settings"), self.settingsRequested)],
            )
        elif self._connection_warnings():
            # e.g. the key would travel over plain http to a host that is not local
            self._banner(
                "\n".join(texts.in_ui_language(w.user_message) for w in self._connection_warnings()),
                [(self.tr("Open Settings"), self.settingsRequested), (self.tr("Got it"), self._dismiss_warnings)],
            )
        else:
            self.banner.hide()
        if self._messages:
            self.empty.hide()
        else:
            self.empty.setText(
                self.tr("Ask anything about this case.\nLexMem recalls the case's memories for every reply and learns from the conversation.")
                if self.case_id
                else ""
            )
            self.empty.setVisible(bool(self.case_id))

    def _banner(self, text: str, buttons: list[tuple[str, Any]]) -> None:
        self.banner_label.setText(text)
        for i, (label, signal) in enumerate(buttons):
            b = QPushButton(label)
            if i == 0:
                b.setProperty("role", "primary")
            b.clicked.connect(signal)
            self.banner_buttons.addWidget(b)
        self.banner.show()

    def _connection_warnings(self) -> tuple[Any, ...]:
        llm = self.host.llm
        if llm is None or llm is self._warnings_dismissed_for:
            return ()
        return tuple(getattr(llm, "warnings", ()) or ())

    def _dismiss_warnings(self) -> None:
        self._warnings_dismissed_for = self.host.llm
        self._refresh_chrome()

    def _memory_toggled(self, on: bool) -> None:
        store = self.controller.memory_switch_changes(on)
        self._update_memory_toggle()
        conv = self.conversation
        if store and conv is not None:
            controller = self.controller
            self.host.call(
                lambda _e: controller.store_memory_switch(conv.id, on),
                self._conversation_stored,
                origin=self,
                name="set-memory",
            )

    def _conversation_stored(self, conv: Any) -> None:
        if self.conversation is not None and conv.id == self.conversation.id:
            self.controller.open(conv)

    def _update_memory_toggle(self) -> None:
        on = self.memory_enabled
        self.memory_toggle.blockSignals(True)
        self.memory_toggle.setChecked(on)
        self.memory_toggle.blockSignals(False)
        self.memory_toggle.setIcon(icon("memory" if on else "shield"))
        self.memory_toggle.setText(self.tr("Memory on") if on else self.tr("Memory off"))
        self.memory_toggle.setToolTip(
            self.tr("Memories are recalled and learned in this conversation. Click to turn memory off for privileged talk.")
            if on
            else self.tr("Memory is off: nothing is recalled or learned in this conversation.")
        )

    # -- messages --------------------------------------------------------------------------
    def _clear_messages(self) -> None:
        for w in self._messages:
            self.column_layout.removeWidget(w)
            w.deleteLater()
        self._messages.clear()

    def _append(self, widget: QWidget) -> None:
        # before the trailing stretch, so messages stack from the top
        self.column_layout.insertWidget(self.column_layout.count() - 1, widget)
        self._messages.append(widget)
        self.empty.hide()

    def _add_message(self, role: str, text: str) -> MessageWidget:
        w = MessageWidget(role, text)
        if role == "assistant":
            w.retryRequested.connect(self.retry)
            w.memoriesRequested.connect(self._open_memories)
            w.passageRequested.connect(self.passageRequested)
            w.learnedRequested.connect(self._open_learned)
        self._append(w)
        self._update_retry_buttons()
        return w

    def _add_error(self, exc: BaseException) -> ErrorCard:
        problem = describe_error(exc)
        card = ErrorCard(
            texts.problem_text(problem.kind, problem.user_message, problem.specific),
            [(a, texts.action_label(a)) for a in problem.actions],
            problem.technical,
        )
        card.actionRequested.connect(self._error_action)
        self._append(card)
        return card

    def _error_action(self, action: str) -> None:
        if action == "settings":
            self.settingsRequested.emit()
        elif action == "retry":
            self.retry()
        elif action == "new_chat":
            self.newChatRequested.emit()

    def _show_history(
        self,
        token: int,
        messages: list[Any],
        learned: dict[str, Any] | None = None,
        passages: dict[str, list[Any]] | None = None,
    ) -> None:
        if token != self._load_token:
            return
        self._clear_messages()
        learned = learned or {}
        for m in self.controller.shown_messages(messages):
            w = self._add_message(m.role, m.content)
            if m.role == "assistant":
                w.set_injected(list(m.injected_note_ids or ()))
                w.set_passages((passages or {}).get(m.id, []))
                w.set_status(m.status)
                # what this turn taught, kept with the reply (notes deleted since are left out)
                ids = getattr(m, "learned_note_ids", ())
                w.set_learned([learned[i] for i in ids if i in learned])
        self._update_retry_buttons()
        self._refresh_chrome()
        self.follower.jump_to_latest()

    def _update_retry_buttons(self) -> None:
        last = next((w for w in reversed(self._messages) if isinstance(w, MessageWidget)), None)
        # an error card under the last reply offers Retry itself: one Retry on screen
        tail = self._messages[-1] if self._messages else None
        card_retries = isinstance(tail, ErrorCard) and "retry" in tail.buttons
        for w in self._messages:
            if isinstance(w, MessageWidget):
                w.set_retry_visible(w is last and not self.streaming and not card_retries)

    # -- a turn ----------------------------------------------------------------------------
    def send(self, text: str) -> None:
        text = text.strip()
        if not text or self.streaming or self.host.engine is None or self.case_id is None:
            return
        if not self._fits_the_model(text):
            return  # the text stays in the composer to be shortened
        self.composer.set_text("")
        if self.conversation is None:
            case_id, memory, controller = self.case_id, self.memory_enabled, self.controller
            self._creating = True
            self.composer.setEnabled(False)

            def failed(exc: BaseException) -> None:
                self._creating = False
                self.composer.setEnabled(True)
                self._add_error(exc)

            self.host.call(
                lambda _e: controller.create_conversation(case_id, text, memory),
                lambda conv: self._created_then_send(conv, text),
                failed,
                origin=self,
                name="create-conversation",
            )
            return
        self._start_turn(text, retry=False)

    def _fits_the_model(self, text: str) -> bool:
        """Ask before sending a message longer than the chat model can read."""
        settings = self.host.settings
        fit = check_message(text, settings.chat_model, settings.provider)
        if fit.fits:
            return True
        return dialogs.confirm(
            self,
            self.tr("Long message"),
            self.tr(
                "This message is about %1 tokens; the model %2 reads about %3 at a time, together with "
                "the case's memories and its answer. It will probably be refused or cut.\n\n"
                "Shorten it, or add the document to the memories instead (Memories › Add or Import). Send anyway?"
            )
            .replace("%1", f"{fit.message_tokens:,}")
            .replace("%2", settings.chat_model or "?")
            .replace("%3", f"{fit.context_tokens:,}"),
        )

    def _created_then_send(self, conv: Any, text: str) -> None:
        self._creating = False
        self.composer.setEnabled(True)
        self.controller.open(conv)
        self._refresh_chrome()
        self.conversationCreated.emit(conv)
        self._start_turn(text, retry=False)

    def retry(self) -> None:
        if self._turn is not None or self.conversation is None or self.host.engine is None:
            return
        # drop the last reply (and any error card) from the view; the pipeline re-asks
        while self._messages and not (
            isinstance(self._messages[-1], MessageWidget) and self._messages[-1].role == "user"
        ):
            w = self._messages.pop()
            self.column_layout.removeWidget(w)
            w.deleteLater()
        self._start_turn("", retry=True)

    def stop(self) -> None:
        if self._turn is not None and self._turn.op is not None:
            # only the event: the worker still returns, so the partial reply is stored
            self._turn.op.cancel_event.set()

    def _abandon_turn(self) -> None:
        turn, self._turn = self._turn, None
        if turn is not None and turn.op is not None:
            turn.op.cancel_event.set()
        self._render_timer.stop()
        self.composer.set_streaming(False)

    def _start_turn(self, text: str, *, retry: bool) -> None:
        plan = self.controller.plan_turn(text, retry=retry)
        if plan is None:
            return
        if not retry:
            self._add_message("user", plan.text)
        # the user just asked: show them the answer coming, wherever they had scrolled to
        self.follower.jump_to_latest()
        widget = self._add_message("assistant", "")
        widget.set_pending(True)
        turn = _Turn(plan, widget)
        self._turn = turn
        self.composer.set_streaming(True)
        self._update_retry_buttons()
        controller = self.controller

        def work(_engine: Any, report: Any, cancel: Any) -> Any:
            return controller.run_turn(
                plan,
                on_prepared=lambda p: report(("prepared", [n.id for n in p.injected])),
                on_event=lambda kind, text: report((kind, text)),
                cancel=cancel,
            )

        turn.op = self.host.call(
            work,
            on_progress=lambda v: self._turn_progress(turn, v),
            on_success=lambda outcome: self._turn_done(turn, outcome),
            on_failure=lambda exc: self._turn_failed(turn, exc),
            origin=self,
            name="chat-turn",
        )

    def _turn_progress(self, turn: _Turn, value: tuple[str, Any]) -> None:
        if turn is not self._turn:
            return
        kind, payload = value
        if kind == "prepared":
            turn.widget.set_injected(payload)
            return
        turn.add(kind, payload)
        if not self._render_timer.isActive():
            self._render_timer.start()

    def _render_stream(self) -> None:
        turn = self._turn
        if turn is None:
            return
        turn.widget.set_pending(False)
        turn.widget.set_reasoning(turn.reasoning)
        turn.widget.set_text(turn.buffer)  # the follower keeps the end in view if the user is there

    def _finish_turn_ui(self, turn: _Turn) -> bool:
        """Common end of a turn; False when the view has moved on (another conversation)."""
        if turn is not self._turn:
            return False
        self._turn = None
        self._render_timer.stop()
        self.composer.set_streaming(False)
        return True

    def _turn_done(self, turn: _Turn, outcome: Any) -> None:
        # a reply broken off by a lost connection comes back with its error (the part is kept)
        self.host.report_llm_result(outcome.error)
        if not self._finish_turn_ui(turn):
            return
        turn.widget.set_pending(False)
        turn.widget.set_reasoning(outcome.reasoning)
        turn.widget.set_text(outcome.reply)
        turn.widget.set_injected([n.id for n in outcome.prepared.injected])
        turn.widget.set_passages(outcome.prepared.passages)
        turn.widget.set_status(outcome.status)
        if outcome.error is not None:
            self._add_error(outcome.error)
        self._update_retry_buttons()
        self._learn(turn.widget, outcome)

    def _turn_failed(self, turn: _Turn, exc: BaseException) -> None:
        log.info("chat turn failed: %r", exc)
        self.host.report_llm_result(exc)
        if not self._finish_turn_ui(turn):
            return
        if turn.buffer.strip():
            turn.widget.set_pending(False)
            turn.widget.set_text(turn.buffer)
        else:
            self._messages.remove(turn.widget)
            self.column_layout.removeWidget(turn.widget)
            turn.widget.deleteLater()
        self._add_error(exc)
        self._update_retry_buttons()

    def _learn(self, widget: MessageWidget, outcome: Any) -> None:
        """Queue what this turn teaches as a memory job; the engine's job runner takes it,
        and the reply's chip shows the result when its report comes (``_jobs_reported``)."""
        controller = self.controller

        def queued(key: str | None) -> None:
            if key is not None:
                controller.expect_learning(key, widget)

        self.host.call(
            lambda _e: controller.queue_learning(outcome),
            queued,
            lambda exc: log.warning("extraction not queued: %r", exc),
            origin=self,
            name="queue-extraction",
        )

    def _jobs_reported(self, report: Any) -> None:
        for widget, notes in self.controller.learned(report):
            try:
                widget.set_learned(notes)
            except RuntimeError:  # the widget was closed meanwhile
                pass

    # -- chips -----------------------------------------------------------------------------
    def _open_memories(self, note_ids: list[str]) -> None:
        def fetch(e: Any) -> tuple[list[Any], int]:
            notes, missing = [], 0
            for nid in note_ids:
                try:
                    notes.append(e.get_note(nid))
                except NotFoundError:
                    missing += 1
            return notes, missing

        self.host.call(
            fetch,
            lambda r: self._popup(self.tr("Memories used for this reply"), r[0], r[1]),
            name="fetch-memories",
        )

    def _open_learned(self, notes: list[Any]) -> None:
        self._popup(self.tr("Learned from this turn"), notes, 0)

    def _popup(self, title: str, notes: list[Any], missing: int) -> None:
        popup = MemoriesPopup(title, notes, missing, self)
        popup.openInNotes.connect(self.showNotesRequested)
        popup.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        popup.open()
        self._last_popup = popup


def _messages_and_learned(engine: Any, conversation_id: str) -> tuple[list[Any], dict[str, Any]]:
    """*worker*: a conversation's messages, and the notes its replies taught (by id)."""
    messages = engine.list_messages(conversation_id)
    ids = [i for m in messages for i in getattr(m, "learned_note_ids", ())]
    return messages, {n.id: n for n in engine.notes_by_ids(ids)} if ids else {}
