"""Where a text still lives in the data folder: the proof behind "forget".

A forget (one note, or a whole case) is reported complete only when a search of every file
in the data folder — the database and its WAL, the index with its old versions, every backup,
temporary copies, logs — finds none of the forgotten text's **distinctive terms**:

- each text whole, and each of its clauses long enough to be specific (a clause a model
  copied into a neighbour's context is found even when the sentence around it changed);
- each long Latin or number token (a name, an account, a phone number);
- never a term that another surviving note states itself: that text is not the forgotten
  note's, and its presence proves nothing.

The index stores full-text terms pre-split (CJK bigrams, lower-cased words), so index files
are searched for that form too.  SQLite files are also searched with SQL, which sees a text
split across overflow pages that a byte scan can miss.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop_app.memory.text import fts_text

#: a clause shorter than this is too common to prove anything ("原告", "2024年")
MIN_CLAUSE_CHARS = 6
#: a Latin / number token shorter than this is too common ("screen", "2024")
MIN_TOKEN_CHARS = 7
_CLAUSE_SPLIT = re.compile(r"[，。；;,.!?！？\n、：:（）()【】\[\]“”\"'《》]+")
_LATIN_TOKEN = re.compile(rf"[A-Za-z0-9@._\-]{{{MIN_TOKEN_CHARS},}}")
_SQLITE_MAGIC = b"SQLite format 3\x00"
INDEX_FOLDER = "index"  # the engine's INDEX_DIR (not imported: the engine imports this)
#: a row whose text is shorter than this is stored in one cell, never split across
#: overflow pages (SQLite spills only payloads above ~4 KB with 4 KB pages): margin kept
SPLIT_FLOOR = 1500


def distinctive_terms(
    texts: Iterable[str], *, stated_elsewhere: Callable[[str], bool] | None = None
) -> list[str]:
    """The terms whose absence proves ``texts`` are gone (see the module docstring)."""
    found: dict[str, None] = {}
    for text in texts:
        text = (text or "").strip()
        if not text:
            continue
        candidates = [text]
        candidates += [c.strip() for c in _CLAUSE_SPLIT.split(text)]
        candidates += _LATIN_TOKEN.findall(text)
        for term in candidates:
            if len(term) >= MIN_CLAUSE_CHARS:
                found.setdefault(term, None)
    terms = list(found)
    if stated_elsewhere is not None:
        terms = [t for t in terms if not stated_elsewhere(t)]
    # the longest first: a report names the most telling one
    return sorted(terms, key=len, reverse=True)


def index_forms(term: str) -> list[str]:
    """How ``term`` looks inside the full-text index (pre-split terms), besides itself."""
    form = fts_text(term)
    return [form] if form and form != term and len(form) >= MIN_CLAUSE_CHARS else []


@dataclass(frozen=True, slots=True)
class Holding:
    """One file (or table) in which a term was found."""

    path: Path
    where: str  # "bytes" or the table names
    term_chars: int  # the length of the term found (the term itself is never reported)


def _needles(terms: Sequence[str], index_file: bool) -> list[bytes]:
    out: list[bytes] = []
    for term in terms:
        out.append(term.encode("utf-8"))
        if index_file:
            out.extend(form.encode("utf-8") for form in index_forms(term))
    return list(dict.fromkeys(out))


def sqlite_tables_holding(
    conn: sqlite3.Connection, terms: Sequence[str], skip_tables: frozenset[str] = frozenset()
) -> list[str]:
    """Tables of ``conn`` with a row long enough to be split across overflow pages that
    holds one of ``terms``.  A shorter row is stored in one piece, so the byte scan of the
    file has already looked at it: only the long ones are read (one query per table)."""
    holding = []
    for table in sorted(_tables(conn) - skip_tables):
        cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
        if not cols:
            continue
        size = " + ".join(f'IFNULL(length(CAST("{c}" AS BLOB)), 0)' for c in cols)
        picked = ", ".join(f'CAST("{c}" AS TEXT)' for c in cols)
        for row in conn.execute(f'SELECT {picked} FROM "{table}" WHERE {size} > ?', (SPLIT_FLOOR,)):
            text = "\x00".join(v for v in row if v)
            if any(term in text for term in terms):
                holding.append(table)
                break
    return holding


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {
        r[0]
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not r[0].startswith("sqlite_")
    }


def _sql_holding(path: Path, terms: Sequence[str], skip_tables: frozenset[str]) -> list[str]:
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return []
    try:
        return sqlite_tables_holding(conn, terms, skip_tables)
    except sqlite3.Error:  # a damaged or half-written copy: the byte scan has spoken
        return []
    finally:
        conn.close()


def scan_file(
    path: Path,
    terms: Sequence[str],
    *,
    index_file: bool = False,
    skip_tables: frozenset[str] = frozenset(),
) -> Holding | None:
    """Whether ``path`` holds one of ``terms``: its bytes (for an ``index_file`` also in the
    index's pre-split form), and for a SQLite file its rows."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    for needle in _needles(terms, index_file):
        if needle and needle in blob:
            return Holding(path, "bytes", len(needle.decode("utf-8", "replace")))
    if blob.startswith(_SQLITE_MAGIC) and not path.name.endswith(("-wal", "-shm", "-journal")):
        tables = _sql_holding(path, terms, skip_tables)
        if tables:
            return Holding(path, ", ".join(tables), 0)
    return None


def scan_folder(
    folder: Path,
    terms: Sequence[str],
    *,
    skip_tables: frozenset[str] = frozenset(),
    progress: Callable[[int, int], None] | None = None,
) -> list[Holding]:
    """Every file under ``folder`` that holds one of ``terms`` (bytes or rows)."""
    if not terms:
        return []
    files = sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
    found = []
    for n, path in enumerate(files, start=1):
        in_index = path.relative_to(folder).parts[0] == INDEX_FOLDER
        holding = scan_file(path, terms, index_file=in_index, skip_tables=skip_tables)
        if holding is not None:
            found.append(holding)
        if progress:
            progress(n, len(files))
    return found
