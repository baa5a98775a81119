"""Force-directed layout of the memory graph, in pure numpy (no Qt: testable and thread-safe).

Fruchterman–Reingold forces with a cooling temperature.  Repulsion is the O(n²) part; above
:data:`EXACT_LIMIT` nodes it is approximated by a hierarchical grid (the interaction lists of
a fast multipole scheme, applied to cell centroids like Barnes–Hut):

* at every grid level the nodes feel the cells that are *well separated* at that level but
  were not already at the parent level (the children of the parent's 3×3 neighbours minus the
  node's own 3×3 neighbours: at most 27 cells), each cell acting as one mass at its centroid;
* at the finest level, the 3×3 neighbour cells are summed exactly, node by node (capped and
  rescaled when a cell is crowded).

Everything is vectorised over nodes, so one iteration at 2k nodes costs a few milliseconds and
numpy drops the GIL for most of it, which keeps the UI thread responsive while this runs in a
worker.  The layout is deterministic for a given seed.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

#: below this many nodes the exact pairwise repulsion is cheaper than building the grids
EXACT_LIMIT = 400
#: the most partners a node gets from one crowded neighbour cell (the rest is rescaled)
NEAR_CAP = 8
#: a grid cell of an unlinked note, in units of k: wide enough for its title under it
GRID_CELL_W, GRID_CELL_H = 2.6, 0.75
#: the most columns of one group's grid
GRID_COLUMNS = 3
#: the band above a group's grid that holds its heading, in cell heights
GRID_HEADER = 1.0
#: how often (iterations) a running layout re-packs its components and re-places the grids
#: (each costs O(n); in between the last placement is reused)
REARRANGE_EVERY = 10


@dataclass(frozen=True, slots=True)
class LayoutParams:
    k: float = 80.0  # ideal link length, in scene units (about 4 node radii)
    iterations: int = 130
    #: iterations when most nodes already have saved positions (only new ones move)
    incremental_iterations: int = 90
    gravity: float = 1.0  # linear pull to the centre: keeps lone notes and components near
    seed: int = 0
    #: how far old (saved) nodes may move relative to new ones; 0 pins them
    fixed_mobility: float = 0.0
    #: stop early once the mean move falls below this fraction of k
    tolerance: float = 0.002


@dataclass(frozen=True, slots=True)
class LayoutStep:
    iteration: int
    positions: np.ndarray  # (n, 2) float64, a copy owned by the receiver
    mean_move: float  # mean displacement in this iteration, scene units
    done: bool


def edge_index(n: int, edges: np.ndarray) -> np.ndarray:
    """Drop self-loops and out-of-range rows; return an (m, 2) int64 array."""
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    ok = (e[:, 0] != e[:, 1]) & (e >= 0).all(1) & (e < n).all(1)
    return e[ok]


def seed_positions(
    n: int,
    edges: np.ndarray,
    known: np.ndarray | None,
    *,
    k: float = 60.0,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Starting positions and the mask of nodes that were already placed.

    ``known`` is (n, 2) with NaN rows for nodes without a saved position.  A new node starts
    at the mean of its placed neighbours (plus a little jitter, so siblings do not coincide);
    this is repeated so chains of new notes grow outward from the placed ones.  Nodes with no
    placed neighbour at all start on a disc around the centre.
    """
    rng = np.random.default_rng(seed)
    e = edge_index(n, edges)
    pos = np.full((n, 2), np.nan) if known is None else np.array(known, dtype=np.float64)
    placed = ~np.isnan(pos).any(1)
    was_known = placed.copy()
    if n == 0:
        return pos.reshape(0, 2), was_known
    jitter = rng.normal(0.0, 0.35 * k, size=(n, 2))
    if placed.any():
        centre = pos[placed].mean(0)
        radius = max(k, float(np.sqrt(((pos[placed] - centre) ** 2).sum(1)).max()))
        src = np.concatenate([e[:, 0], e[:, 1]])
        dst = np.concatenate([e[:, 1], e[:, 0]])
        for _ in range(8):  # grow outward from the placed nodes, one hop per round
            todo = ~placed
            if not todo.any():
                break
            use = placed[src] & todo[dst]
            if not use.any():
                break
            cnt = np.bincount(dst[use], minlength=n)
            sx = np.bincount(dst[use], weights=pos[src[use], 0], minlength=n)
            sy = np.bincount(dst[use], weights=pos[src[use], 1], minlength=n)
            new = cnt > 0
            pos[new, 0] = sx[new] / cnt[new] + jitter[new, 0]
            pos[new, 1] = sy[new] / cnt[new] + jitter[new, 1]
            placed |= new
    else:
        centre = np.zeros(2)
        radius = k * np.sqrt(n) * 0.8
    rest = ~placed
    if rest.any():
        # orphans go on a ring just outside the existing map (fresh layout: inside a disc)
        m = int(rest.sum())
        ang = rng.uniform(0, 2 * np.pi, m)
        r = radius * (np.sqrt(rng.uniform(0, 1, m)) if not was_known.any() else 1.1)
        pos[rest, 0] = centre[0] + r * np.cos(ang)
        pos[rest, 1] = centre[1] + r * np.sin(ang)
    return pos, was_known


def _exact_repulsion(pos: np.ndarray, k2: float, floor2: float) -> np.ndarray:
    d = pos[:, None, :] - pos[None, :, :]
    d2 = np.maximum((d * d).sum(-1), floor2)
    np.fill_diagonal(d2, np.inf)
    return (d * (k2 / d2)[:, :, None]).sum(1)


def _grid_repulsion(pos: np.ndarray, k2: float, floor2: float, rot: int) -> np.ndarray:
    n = len(pos)
    lo = pos.min(0)
    span = float(np.ptp(pos, axis=0).max()) * (1 + 1e-9) + 1e-9
    u = (pos - lo) / span
    # finest level: about two nodes per cell on average
    top = max(2, int(np.ceil(np.log(max(n / 2.0, 4.0)) / np.log(4.0))))
    force = np.zeros_like(pos)
    off6 = np.arange(6) - 2
    for level in range(2, top + 1):
        g = 1 << level
        c = np.minimum((u * g).astype(np.int64), g - 1)
        cid = c[:, 0] * g + c[:, 1]
        mass = np.bincount(cid, minlength=g * g).astype(np.float64)
        safe = np.maximum(mass, 1.0)
        cx = np.bincount(cid, weights=pos[:, 0], minlength=g * g) / safe
        cy = np.bincount(cid, weights=pos[:, 1], minlength=g * g) / safe
        # Work per occupied cell, not per node: the far field is evaluated once at each
        # cell's centroid with its gradient (a first-order local expansion) and then
        # interpolated to the cell's nodes.  Coarse levels cost almost nothing this way.
        occ = np.flatnonzero(mass)
        ox, oy = occ // g, occ % g
        # interaction list: children of the parent's 3x3 neighbourhood (a 6x6 block) that
        # are not in the cell's own 3x3 neighbourhood
        x = ((ox >> 1) * 2)[:, None, None] + off6[None, :, None]  # (U, 6, 1)
        y = ((oy >> 1) * 2)[:, None, None] + off6[None, None, :]  # (U, 1, 6)
        far = (np.abs(x - ox[:, None, None]) > 1) | (np.abs(y - oy[:, None, None]) > 1)
        ok = far & (x >= 0) & (x < g) & (y >= 0) & (y < g)
        idx = np.where(ok, x * g + y, 0)
        m = np.where(ok, mass[idx], 0.0) * k2
        dx = cx[occ][:, None, None] - cx[idx]
        dy = cy[occ][:, None, None] - cy[idx]
        r2 = np.maximum(dx * dx + dy * dy, floor2)
        w = m / r2
        w2 = 2.0 * w / r2
        fx = (w * dx).sum((1, 2))
        fy = (w * dy).sum((1, 2))
        jxx = (w - w2 * dx * dx).sum((1, 2))  # d/dx of k^2 dx/r^2
        jyy = (w - w2 * dy * dy).sum((1, 2))
        jxy = -(w2 * dx * dy).sum((1, 2))
        slot = np.searchsorted(occ, cid)
        ex = pos[:, 0] - cx[cid]
        ey = pos[:, 1] - cy[cid]
        force[:, 0] += fx[slot] + jxx[slot] * ex + jxy[slot] * ey
        force[:, 1] += fy[slot] + jxy[slot] * ex + jyy[slot] * ey
    # near field at the finest level: exact pairs with the 3x3 neighbour cells
    g = 1 << top
    c = np.minimum((u * g).astype(np.int64), g - 1)
    cid = c[:, 0] * g + c[:, 1]
    order = np.argsort(cid, kind="stable")
    counts = np.bincount(cid, minlength=g * g)
    starts = np.cumsum(counts) - counts
    o3 = np.array([-1, 0, 1])
    nx = (c[:, 0, None, None] + o3[None, :, None]).repeat(3, 2).reshape(n, 9)
    ny = (c[:, 1, None, None] + o3[None, None, :]).repeat(3, 1).reshape(n, 9)
    ok = (nx >= 0) & (nx < g) & (ny >= 0) & (ny < g)
    nid = np.where(ok, nx * g + ny, 0)
    cnt = np.where(ok, counts[nid], 0)
    width = int(min(cnt.max(initial=0), NEAR_CAP))
    if width == 0:
        return force
    slots = np.arange(width)
    # crowded cells: a rotating window of NEAR_CAP members, rescaled to the cell's mass
    shift = (slots[None, None, :] + rot * width) % np.maximum(cnt, 1)[:, :, None]
    use = slots[None, None, :] < cnt[:, :, None]
    partner = order[np.where(use, starts[nid][:, :, None] + shift, 0)]
    use &= partner != np.arange(n)[:, None, None]
    scale = np.maximum(cnt / float(NEAR_CAP), 1.0)[:, :, None]
    dx = pos[:, 0, None, None] - pos[partner, 0]
    dy = pos[:, 1, None, None] - pos[partner, 1]
    w = np.where(use, scale * k2 / np.maximum(dx * dx + dy * dy, floor2), 0.0)
    force[:, 0] += (w * dx).sum((1, 2))
    force[:, 1] += (w * dy).sum((1, 2))
    return force


def repulsion(pos: np.ndarray, k: float, rot: int = 0) -> np.ndarray:
    """FR repulsion k²/d on every node, exact for small graphs, grid-approximated above."""
    k2 = k * k
    floor2 = (0.05 * k) ** 2  # caps the force between (nearly) coincident nodes
    if len(pos) <= EXACT_LIMIT:
        return _exact_repulsion(pos, k2, floor2)
    return _grid_repulsion(pos, k2, floor2, rot)


def attraction(pos: np.ndarray, edges: np.ndarray, weights: np.ndarray, k: float) -> np.ndarray:
    """FR attraction d²/k along each link, scaled by link strength."""
    n = len(pos)
    force = np.zeros_like(pos)
    if len(edges) == 0:
        return force
    a, b = edges[:, 0], edges[:, 1]
    d = pos[b] - pos[a]
    f = d * (np.sqrt((d * d).sum(1)) * weights / k)[:, None]
    for axis in (0, 1):  # bincount is far faster than np.add.at
        force[:, axis] += np.bincount(a, weights=f[:, axis], minlength=n)
        force[:, axis] -= np.bincount(b, weights=f[:, axis], minlength=n)
    return force


def linked_mask(n: int, edges: np.ndarray) -> np.ndarray:
    """The nodes with at least one link."""
    linked = np.zeros(n, bool)
    linked[edge_index(n, edges).ravel()] = True
    return linked


def arrange_unlinked(
    pos: np.ndarray,
    linked: np.ndarray,
    groups: np.ndarray,
    k: float,
    order: np.ndarray | None = None,
) -> np.ndarray:
    """The notes without links in a grid per group (groups in ascending order, each grid at
    most GRID_COLUMNS wide, ``order`` within it), the grids stacked in columns to the right
    of the linked notes: scattered by the force layout, nothing but gravity holds them, and
    25 lone dots read as noise.  Returns new positions; linked notes keep theirs."""
    out = np.array(pos, dtype=np.float64, copy=True)
    rest = np.flatnonzero(~linked)
    if len(rest) == 0:
        return out
    cw, ch = GRID_CELL_W * k, GRID_CELL_H * k
    placed = linked & ~np.isnan(out).any(1)
    if placed.any():
        lo, hi = out[placed].min(0), out[placed].max(0)
        left, top, height = hi[0] + 0.8 * cw, lo[1], max(hi[1] - lo[1], 12 * ch)
    else:
        left, top, height = 0.0, 0.0, max(12 * ch, ch * math.sqrt(len(rest)) * 1.5)
    rank = np.arange(len(out)) if order is None else np.asarray(order)
    x, y, widest = left, top, 0.0
    for g in np.unique(groups[rest]):
        members = rest[groups[rest] == g]
        members = members[np.argsort(rank[members], kind="stable")]
        # a short list under its heading reads best; wider only when it would grow long
        cols = min(GRID_COLUMNS, 1 if len(members) <= 6 else (2 if len(members) <= 16 else 3))
        rows = math.ceil(len(members) / cols)
        block = (GRID_HEADER + rows) * ch
        if y > top and y + block > top + height:  # this column is full: start the next
            x, y, widest = x + widest + 0.6 * cw, top, 0.0
        j = np.arange(len(members))
        out[members, 0] = x + (j % cols) * cw
        out[members, 1] = y + (GRID_HEADER + j // cols) * ch
        y += block + 0.6 * ch
        widest = max(widest, cols * cw)
    return out


def components(n: int, edges: np.ndarray) -> np.ndarray:
    """The connected component of each node (numbered from 0 in order of first node): every
    node takes the smallest label among itself and its neighbours, with pointer jumping,
    until nothing changes — a few vectorised passes instead of a Python loop per link."""
    e = edge_index(n, edges)
    label = np.arange(n)
    if len(e) == 0:
        return label
    a, b = e[:, 0], e[:, 1]
    while True:
        low = np.minimum(label[a], label[b])
        nxt = label.copy()
        np.minimum.at(nxt, a, low)
        np.minimum.at(nxt, b, low)
        nxt = nxt[nxt]  # pointer jumping: follow the label's own label
        if np.array_equal(nxt, label):
            break
        label = nxt
    _, comp = np.unique(label, return_inverse=True)
    return comp.reshape(-1)


def pack_components(pos: np.ndarray, comp: np.ndarray, k: float) -> np.ndarray:
    """The force layout's components moved next to each other, biggest first, in rows about
    as wide as the whole is tall: separate components repel each other to the far corners
    of the map, and the fitted view then shrinks every label out of sight."""
    count = int(comp.max()) + 1 if len(comp) else 0
    if count <= 1:
        return pos
    lo = np.full((count, 2), np.inf)
    hi = np.full((count, 2), -np.inf)
    np.minimum.at(lo, comp, pos)
    np.maximum.at(hi, comp, pos)
    size = hi - lo + 1.2 * k  # room for the labels around each component
    order = np.argsort(-(size[:, 0] * size[:, 1]), kind="stable")
    row_width = max(float(np.sqrt((size[:, 0] * size[:, 1]).sum()) * 1.4), float(size[:, 0].max()))
    target = np.zeros((count, 2))
    x = y = row_height = 0.0
    for c in order.tolist():
        if x > 0 and x + size[c, 0] > row_width:
            x, y, row_height = 0.0, y + row_height, 0.0
        target[c] = (x, y)
        x += size[c, 0]
        row_height = max(row_height, size[c, 1])
    return pos + (target - lo)[comp]


def run_layout(
    n: int,
    edges: np.ndarray,
    strengths: np.ndarray | None = None,
    known: np.ndarray | None = None,
    params: LayoutParams | None = None,
    groups: np.ndarray | None = None,
    order: np.ndarray | None = None,
) -> Iterator[LayoutStep]:
    """Yield one :class:`LayoutStep` per iteration; the last one has ``done=True``.

    Callers that only want the result take the last step; the view's worker forwards a step
    every few tens of milliseconds so the map animates as it settles.  With ``groups`` (a
    group number per node, e.g. its category) only the linked notes are force-laid-out and
    the others sit in a grid per group beside them (:func:`arrange_unlinked`).
    """
    if groups is None:
        yield from _force_layout(n, edges, strengths, known, params)
        return
    p = params or LayoutParams()
    e = edge_index(n, edges)
    keep = _kept_rows(n, edges)
    linked = linked_mask(n, e)
    sub = np.flatnonzero(linked)
    remap = np.full(n, -1, np.int64)
    remap[sub] = np.arange(len(sub))
    sub_known = None if known is None else np.asarray(known, np.float64)[sub]
    sub_strengths = None if strengths is None else np.asarray(strengths, np.float64)[keep]
    full = np.full((n, 2), np.nan)
    if len(sub) == 0:
        yield LayoutStep(0, arrange_unlinked(full, linked, groups, p.k, order), 0.0, True)
        return
    # a fresh map packs its components; an incremental one keeps where the lawyer left them
    fresh = sub_known is None or np.isnan(sub_known).any(1).all()
    comp = components(len(sub), remap[e]) if fresh else None
    shift = np.zeros((len(sub), 2))
    lone = np.zeros((0, 2))
    for step in _force_layout(len(sub), remap[e], sub_strengths, sub_known, p):
        arranged = np.empty((n, 2))
        if step.done or step.iteration % REARRANGE_EVERY == 0:
            packed = step.positions if comp is None else pack_components(step.positions, comp, p.k)
            shift = packed - step.positions
            full[sub] = packed
            arranged = arrange_unlinked(full, linked, groups, p.k, order)
            lone = arranged[~linked]
        else:  # in between, the components and the grids keep their last placement
            arranged[sub] = step.positions + shift
            arranged[~linked] = lone
        yield LayoutStep(step.iteration, arranged, step.mean_move, step.done)


def _force_layout(
    n: int,
    edges: np.ndarray,
    strengths: np.ndarray | None = None,
    known: np.ndarray | None = None,
    params: LayoutParams | None = None,
) -> Iterator[LayoutStep]:
    p = params or LayoutParams()
    e = edge_index(n, edges)
    s = np.ones(len(e)) if strengths is None else np.asarray(strengths, np.float64).reshape(-1)
    if strengths is not None:
        s = s[_kept_rows(n, edges)]
    weights = 0.5 + np.clip(s, 0.0, 1.0)  # strong links pull harder, weak ones still pull
    pos, was_known = seed_positions(n, e, known, k=p.k, seed=p.seed)
    if n <= 1 or (was_known.all() and n > 0):
        yield LayoutStep(0, pos.copy(), 0.0, True)
        return
    mobility = np.where(was_known, p.fixed_mobility, 1.0)
    # notes without links have nothing but gravity to hold them against the repulsion of
    # the whole map; a stronger pull keeps them at its rim instead of far out in the void
    linked = np.zeros(n, bool)
    linked[e.ravel()] = True
    # small maps need little pull (it would crush clusters); big ones need it to stay round
    g = p.gravity * min(1.0, np.sqrt(n / 1000.0))
    pull = g * np.where(linked, 1.0, 4.0)[:, None]
    incremental = bool(was_known.any())
    iters = p.incremental_iterations if incremental else p.iterations
    # a fresh layout may travel across the whole map; an incremental one only locally
    t0 = p.k * (3.0 if incremental else max(4.0, 0.25 * np.sqrt(n)))
    t_end = 0.02 * p.k
    decay = (t_end / t0) ** (1.0 / max(iters - 1, 1))
    t = t0
    for it in range(iters):
        centre = pos[was_known].mean(0) if incremental else pos.mean(0)
        f = repulsion(pos, p.k, rot=it) + attraction(pos, e, weights, p.k)
        f -= pull * (pos - centre)
        norm = np.sqrt((f * f).sum(1))
        step = np.minimum(norm, t) / np.maximum(norm, 1e-12)
        move = f * (step * mobility)[:, None]
        pos += move
        mean_move = float(np.sqrt((move * move).sum(1))[mobility > 0].mean())
        t *= decay
        done = it == iters - 1 or mean_move < p.tolerance * p.k
        yield LayoutStep(it, pos.copy(), mean_move, done)
        if done:
            return


def _kept_rows(n: int, edges: np.ndarray) -> np.ndarray:
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    return (e[:, 0] != e[:, 1]) & (e >= 0).all(1) & (e < n).all(1)


def layout(
    n: int,
    edges: np.ndarray,
    strengths: np.ndarray | None = None,
    known: np.ndarray | None = None,
    params: LayoutParams | None = None,
    groups: np.ndarray | None = None,
    order: np.ndarray | None = None,
) -> np.ndarray:
    """Run the layout to the end and return the (n, 2) positions."""
    last = None
    for last in run_layout(n, edges, strengths, known, params, groups, order):  # noqa: B007
        pass
    return np.zeros((0, 2)) if last is None else last.positions
