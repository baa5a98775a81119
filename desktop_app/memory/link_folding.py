"""One pair of notes, one link: how a new link between two notes combines with the links
the pair already has.

A pair can be related in a plain way (the model found them similar, evolution tied them,
the lawyer linked them by hand) or in a telling way (a possible duplicate, a conflict).
The plain kinds fold into one row, the strongest kind winning (``manual`` over
``evolution`` over ``semantic``): a manual 关联 on a pair the model already linked upgrades
that link instead of adding a second one that the detail pane would list twice.  A telling
link says more than a plain one, so it replaces the plain rows of its pair, and a plain link
on a pair that already has a telling one adds nothing.  ``supersedes`` has a direction and
concerns a note that is no longer current: it is left as it is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

#: the plain kinds, weakest first (a fold keeps the strongest)
PLAIN_RANK: dict[str, int] = {"semantic": 0, "evolution": 1, "manual": 2}
#: kinds that say more about a pair than a plain relation (stored both ways)
TELLING_KINDS = frozenset({"duplicate", "conflict"})


def _pair_rows(conn: sqlite3.Connection, a: str, b: str, kinds: Iterable[str]) -> list[Any]:
    kinds = list(kinds)
    marks = ",".join("?" * len(kinds))
    return conn.execute(
        "SELECT src, dst, kind, strength, reason, created_at, label, resolved_at FROM links "
        f"WHERE kind IN ({marks}) AND ((src = ? AND dst = ?) OR (src = ? AND dst = ?))",
        (*kinds, a, b, b, a),
    ).fetchall()


def _delete_pair(conn: sqlite3.Connection, a: str, b: str, kinds: Iterable[str]) -> None:
    kinds = list(kinds)
    marks = ",".join("?" * len(kinds))
    conn.execute(
        f"DELETE FROM links WHERE kind IN ({marks}) "
        "AND ((src = ? AND dst = ?) OR (src = ? AND dst = ?))",
        (*kinds, a, b, b, a),
    )


def _write_both_ways(
    conn: sqlite3.Connection,
    a: str,
    b: str,
    kind: str,
    strength: float,
    reason: str,
    created_at: str,
    label: str | None,
    resolved_at: str | None = None,
) -> None:
    conn.executemany(
        "INSERT INTO links (src, dst, kind, strength, reason, created_at, label, resolved_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(src, dst, kind) DO UPDATE SET strength = MAX(strength, excluded.strength), "
        "reason = CASE WHEN excluded.reason != '' THEN excluded.reason ELSE reason END, "
        "label = COALESCE(excluded.label, label)",
        [
            (x, y, kind, float(strength), reason, created_at, label, resolved_at)
            for x, y in ((a, b), (b, a))
        ],
    )


def _folded(rows: list[dict[str, Any]], new: dict[str, Any] | None = None) -> dict[str, Any]:
    """One plain link for a pair from its rows (and the new one): the strongest kind, the
    largest strength, the earliest date; the new reason and label, else the strongest
    row's, else any."""
    every = [*rows, *([new] if new else [])]
    strongest = max((r["kind"] for r in every), key=PLAIN_RANK.__getitem__)
    preferred = [*([new] if new else []), *(r for r in rows if r["kind"] == strongest), *rows]
    return {
        "kind": strongest,
        "strength": max(r["strength"] for r in every),
        "reason": next((r["reason"] for r in preferred if r["reason"]), ""),
        "created_at": min(r["created_at"] for r in every),
        "label": next((r["label"] for r in preferred if r["label"]), None),
    }


def _replace_plain(conn: sqlite3.Connection, a: str, b: str, link: dict[str, Any]) -> None:
    _delete_pair(conn, a, b, PLAIN_RANK)
    _write_both_ways(
        conn, a, b, link["kind"], link["strength"], link["reason"], link["created_at"],
        link["label"],
    )  # fmt: skip


def link_pair(
    conn: sqlite3.Connection,
    a: str,
    b: str,
    kind: str,
    strength: float,
    reason: str,
    label: str | None = None,
    resolved_at: str | None = None,
) -> bool:
    """Link ``a`` and ``b`` (a symmetric kind) so that the pair keeps one link; returns
    False when the pair's telling link already says more and nothing was written."""
    # as store.to_iso writes it (store imports the migrations, which import this module)
    now = datetime.now(UTC).isoformat()
    if kind in PLAIN_RANK:
        if _pair_rows(conn, a, b, TELLING_KINDS):
            return False
        new = {"kind": kind, "strength": strength, "reason": reason, "created_at": now,
               "label": label}  # fmt: skip
        existing = [dict(r) for r in _pair_rows(conn, a, b, PLAIN_RANK)]
        _replace_plain(conn, a, b, _folded(existing, new))
        return True
    if kind in TELLING_KINDS:
        _delete_pair(conn, a, b, PLAIN_RANK)
    _write_both_ways(conn, a, b, kind, strength, reason, now, label, resolved_at)
    return True


def fold_existing(conn: sqlite3.Connection) -> int:
    """Fold the pairs that hold more than one link already (written before this rule);
    returns how many rows went.  A migration step: it runs once, inside its transaction."""
    before = conn.execute("SELECT COUNT(*) FROM links").fetchone()[0]
    kinds = [*PLAIN_RANK, *TELLING_KINDS]
    marks = ",".join("?" * len(kinds))
    crowded = conn.execute(
        "SELECT MIN(src, dst) AS a, MAX(src, dst) AS b FROM links "
        f"WHERE kind IN ({marks}) GROUP BY MIN(src, dst), MAX(src, dst) "
        "HAVING COUNT(DISTINCT kind) > 1",
        kinds,
    ).fetchall()
    for a, b in crowded:
        if _pair_rows(conn, a, b, TELLING_KINDS):
            _delete_pair(conn, a, b, PLAIN_RANK)
        else:
            _replace_plain(conn, a, b, _folded([dict(r) for r in _pair_rows(conn, a, b, PLAIN_RANK)]))
    return before - conn.execute("SELECT COUNT(*) FROM links").fetchone()[0]
