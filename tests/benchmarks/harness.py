"""Engine set-up shared by the benchmarks: a memoising embedder wrapper, temp engines."""

from __future__ import annotations

import numpy as np

from desktop_app.memory.embedder import Embedder


class MemoEmbedder:
    """Wraps the real embedder and remembers vectors by text, so that ablation variants
    re-running the same queries measure ranking, not re-embedding.  Latency benchmarks use
    the real embedder directly (query embedding included)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.id = inner.id
        self.dim = inner.dim
        self._memo: dict[str, np.ndarray] = {}

    def prime(self, texts: list[str]) -> None:
        todo = [t for t in dict.fromkeys(texts) if t not in self._memo]
        if todo:
            for t, v in zip(todo, self.inner.embed(todo), strict=True):
                self._memo[t] = v

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        todo = [t for t in texts if t not in self._memo]
        if todo:
            return self.inner.embed(texts)  # note texts at ingest: not worth remembering
        return np.vstack([self._memo[t] for t in texts])
