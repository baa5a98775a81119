"""What the LLM layer has learnt about each endpoint and model, and remembers.

Per (normalised base URL, model): the structured-output mode that worked (DeepSeek refuses
``json_schema``), the request parameters the endpoint refuses (gpt-5 and the o-series refuse
``temperature=0``; some servers refuse ``stream_options``), parameters it wants under another
name (``max_tokens`` → ``max_completion_tokens``) and its output-token limit (DeepSeek:
8192). Learning costs one refused request; after that every request is built right at once.

:class:`EndpointKnowledge` is thread-safe and shared by every client of the process; with a
store (:func:`settings_knowledge`) it also survives restarts, kept in the settings file.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from desktop_app.core.urls import normalize_base_url

log = logging.getLogger(__name__)

#: Structured-output modes, strongest first.
JSON_MODES: tuple[str, ...] = ("json_schema", "json_object", "text")
BUDGET_PARAMS: tuple[str, ...] = ("max_tokens", "max_completion_tokens")


@dataclass(frozen=True, slots=True)
class EndpointFacts:
    json_mode: str | None = None
    drop: frozenset[str] = frozenset()
    rename: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    max_output_tokens: int | None = None

    def apply(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """``params`` as this endpoint accepts them (dropped, renamed, capped)."""
        out: dict[str, Any] = {}
        for name, value in params.items():
            name = self.rename.get(name, name)
            if name in self.drop:
                continue
            if name in BUDGET_PARAMS and self.max_output_tokens and isinstance(value, int):
                value = min(value, self.max_output_tokens)
            out[name] = value
        return out

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.json_mode:
            data["json_mode"] = self.json_mode
        if self.drop:
            data["drop"] = sorted(self.drop)
        if self.rename:
            data["rename"] = dict(sorted(self.rename.items()))
        if self.max_output_tokens:
            data["max_output_tokens"] = self.max_output_tokens
        return data

    @classmethod
    def from_dict(cls, data: Any) -> EndpointFacts:
        """Facts from a stored entry; anything malformed (a hand-edited file) is ignored."""
        if not isinstance(data, Mapping):
            return cls()
        mode = data.get("json_mode")
        drop = data.get("drop")
        rename = data.get("rename")
        limit = data.get("max_output_tokens")
        return cls(
            json_mode=mode if mode in JSON_MODES else None,
            drop=frozenset(d for d in drop if isinstance(d, str))
            if isinstance(drop, list)
            else frozenset(),
            rename=MappingProxyType(
                {
                    k: v
                    for k, v in rename.items()
                    if k in BUDGET_PARAMS and v in BUDGET_PARAMS and k != v
                }
            )
            if isinstance(rename, Mapping)
            else MappingProxyType({}),
            max_output_tokens=limit
            if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0
            else None,
        )


class KnowledgeStore(Protocol):
    def load(self) -> Mapping[str, Mapping[str, Any]]: ...

    def save(self, base_url: str, model: str, entry: dict[str, Any]) -> None: ...


class EndpointKnowledge:
    """Thread-safe facts per (endpoint, model), optionally persisted through a store.

    ``get`` / ``set`` / ``clear`` keep the interface of the former ``JsonModeCache`` (the
    structured-output mode only).
    """

    def __init__(self, store: KnowledgeStore | None = None) -> None:
        self._lock = threading.Lock()
        self._store_lock = threading.Lock()
        self._store = store
        self._facts: dict[tuple[str, str], EndpointFacts] = {}
        if store is not None:
            try:
                loaded = store.load()
            except Exception:  # a damaged file must not stop the client
                log.warning("stored endpoint knowledge unreadable", exc_info=True)
                loaded = {}
            for url, models in (loaded or {}).items():
                if isinstance(models, Mapping):
                    for model, entry in models.items():
                        facts = EndpointFacts.from_dict(entry)
                        if facts != EndpointFacts():
                            self._facts[(normalize_base_url(url), str(model))] = facts

    def facts(self, base_url: str, model: str) -> EndpointFacts:
        with self._lock:
            return self._facts.get((normalize_base_url(base_url), model), EndpointFacts())

    def _update(
        self, base_url: str, model: str, change: Callable[[EndpointFacts], EndpointFacts]
    ) -> bool:
        """Apply ``change`` to the facts atomically (two threads learning two refused
        parameters at once keep both); store the result. False if nothing changed."""
        key = (normalize_base_url(base_url), model)
        with self._lock:
            old = self._facts.get(key, EndpointFacts())
            new = change(old)
            if new == old:
                return False
            self._facts[key] = new
        if self._store is not None:
            with self._store_lock:  # the latest facts win, whatever the threads' order
                latest = self.facts(*key)
                try:
                    self._store.save(key[0], model, latest.to_dict())
                except Exception:  # remembering is an optimisation: never fail a call for it
                    log.warning("could not store what was learnt about %s", key[0], exc_info=True)
        return True

    # -- the structured-output mode ------------------------------------------------------

    def get(self, base_url: str, model: str) -> str | None:
        return self.facts(base_url, model).json_mode

    def set(self, base_url: str, model: str, mode: str) -> None:
        self._update(base_url, model, lambda f: replace(f, json_mode=mode))

    def clear(self) -> None:
        with self._lock:
            self._facts.clear()

    # -- refused parameters ----------------------------------------------------------------

    def learn_refused(
        self,
        base_url: str,
        model: str,
        param: str,
        *,
        rename: str | None = None,
        limit: int | None = None,
    ) -> bool:
        """Remember how the endpoint refused ``param``; False if nothing new was learnt
        (the caller must then give up instead of sending the same request again)."""

        def change(facts: EndpointFacts) -> EndpointFacts:
            if rename is not None:
                return replace(facts, rename=MappingProxyType({**facts.rename, param: rename}))
            if limit is not None and param in BUDGET_PARAMS:
                if facts.max_output_tokens is None or limit < facts.max_output_tokens:
                    return replace(facts, max_output_tokens=limit)
                return facts
            return replace(facts, drop=facts.drop | {param})

        return self._update(base_url, model, change)


#: The former name: the mode cache grew into the endpoint's knowledge.
JsonModeCache = EndpointKnowledge

#: Shared by every client of the process: rebuilding the client after a settings change must
#: not pay for the refused modes again.
DEFAULT_MODE_CACHE = EndpointKnowledge()


def settings_knowledge(settings_path: Path) -> EndpointKnowledge:
    """Knowledge kept in the ``llm_endpoints`` section of this settings file."""
    from desktop_app.core.settings import EndpointKnowledgeFile

    return EndpointKnowledge(store=EndpointKnowledgeFile(settings_path))
