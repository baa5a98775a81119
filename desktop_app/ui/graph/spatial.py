"""A uniform grid over node positions for hit-testing (no Qt).

Hover runs on every mouse move; the grid answers "which node is under the cursor" by looking
at a handful of nodes in nearby cells instead of all of them.
"""

from __future__ import annotations

import numpy as np


class SpatialGrid:
    def __init__(
        self, positions: np.ndarray, radii: np.ndarray, candidates: np.ndarray | None = None
    ) -> None:
        """Index the nodes in ``candidates`` (a boolean mask; default all)."""
        n = len(positions)
        self.positions = positions
        self.radii = radii
        self.ids = np.flatnonzero(candidates) if candidates is not None else np.arange(n)
        # cells at least as big as the largest node, so a hit is always in a 3x3 block
        self.cell = float(max(2.0 * (radii.max() if n else 1.0), 1.0))
        pts = positions[self.ids]
        keys = self._keys(np.floor(pts / self.cell).astype(np.int64))
        order = np.argsort(keys, kind="stable")
        self.keys = keys[order]
        self.ids = self.ids[order]

    @staticmethod
    def _keys(cells: np.ndarray) -> np.ndarray:
        # pack (cx, cy) into one int64; coordinates stay far below 2**31 cells
        return (cells[..., 0] << 32) + (cells[..., 1] & 0xFFFFFFFF)

    def query(self, x: float, y: float, slop: float = 0.0) -> int:
        """The node whose disc (grown by ``slop`` scene units) contains (x, y), nearest
        centre first; -1 if none."""
        if len(self.ids) == 0:
            return -1
        cx, cy = int(np.floor(x / self.cell)), int(np.floor(y / self.cell))
        reach = 1 + int(np.ceil(slop / self.cell))
        found: list[np.ndarray] = []
        for dx in range(-reach, reach + 1):
            col = np.array([[cx + dx, cy + dy] for dy in range(-reach, reach + 1)], np.int64)
            keys = self._keys(col)
            lo = np.searchsorted(self.keys, keys, "left")
            hi = np.searchsorted(self.keys, keys, "right")
            found.extend(self.ids[a:b] for a, b in zip(lo, hi, strict=True) if b > a)
        if not found:
            return -1
        cand = np.concatenate(found)
        d2 = ((self.positions[cand] - (x, y)) ** 2).sum(1)
        ok = d2 <= (self.radii[cand] + slop) ** 2
        if not ok.any():
            return -1
        cand, d2 = cand[ok], d2[ok]
        return int(cand[np.argmin(d2)])
