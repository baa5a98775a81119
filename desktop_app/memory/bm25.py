"""The full-text index's analysis and BM25 scoring, done in Python for the scopes kept in
memory (vector_cache.py), so that a small case's text search costs a fraction of a
millisecond instead of LanceDB's fixed ~4–6 ms (its planning and scans, the critical path of
a search at 1k notes).

The analysis mirrors the LanceDB index built in ``NoteIndex._create_fts`` (whitespace split
of ``text.fts_terms``' output, tokens of 64 bytes or more dropped, lower case, English
Snowball stem, the stop words below matched on the stem, ASCII folding); the scoring is
LanceDB's BM25 (k1 = 1.2, b = 0.75, idf = ln(1 + (N − n + 0.5) / (n + 0.5)), a repeated query
term counted again).  Both were probed against LanceDB 0.40 and are checked by
tests/memory/test_bm25.py, so a search scores the same whether LanceDB or memory answers.

One difference is chosen: N, the average length and n are those of the scope searched (its
active notes and the global ones), where LanceDB counts every row of the table.  For a
lawyer with one case they are the same rows; with many cases a term common in THIS case
weighs less here, which is what a search within the case should do.  (LanceDB's own figures
are not one collection either: rows added since its last index update are scored with
their own statistics.)
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

K1 = 1.2
B = 0.75
#: tokens of this many UTF-8 bytes or more are not indexed (the index's max_token_length)
MAX_TOKEN_BYTES = 64

# The stop list LanceDB applies for English (probed word by word: it is matched after
# stemming, so "because" -> "becaus" is kept while "having" -> "have" is dropped).
# Apostrophes never reach it: text.fts_terms splits words on them.
STOP_WORDS = frozenset(
    """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his
    himself she her hers herself it its itself they them their theirs themselves what which
    who whom this that these those am is are was were be been being have has had having do
    does did doing a an the and but if or because as until while of at by for with about
    against between into through during before after above below to from up down in out on
    off over under again further then once here there when where why how all any both each
    few more most other some such no nor not only own same so than too very s t can will
    just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma
    mightn mustn needn shan shouldn wasn weren won wouldn
    """.split()
)


@lru_cache(maxsize=1)
def _stemmer():
    import snowballstemmer  # small and pure Python; loaded with the first kept scope

    return snowballstemmer.stemmer("english")


#: tokens the analysis leaves as they are (and need no room in _analysed's cache)
_UNCHANGED = re.compile(r"^[0-9\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+$")


@lru_cache(maxsize=65_536)
def _analysed(token: str) -> str | None:
    """One whitespace-split term as the index keeps it, None when it is dropped."""
    if len(token.encode("utf-8")) >= MAX_TOKEN_BYTES:
        return None
    token = token.lower()
    if any("a" <= ch <= "z" for ch in token):  # CJK bigrams and numbers stem to themselves
        token = _stemmer().stemWord(token)
    if token in STOP_WORDS:
        return None
    return _ascii_folded(token)


def _ascii_folded(token: str) -> str:
    if token.isascii():
        return token
    decomposed = unicodedata.normalize("NFKD", token)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def analyse(terms: str) -> list[str]:
    """The tokens the index keeps of an ``fts_text`` string (a note's or a query's)."""
    out = []
    for token in terms.split():
        if _UNCHANGED.match(token) and len(token) < MAX_TOKEN_BYTES // 4:
            out.append(token)  # CJK bigrams and numbers: nothing to stem, fold or stop
            continue
        kept = _analysed(token)
        if kept is not None:
            out.append(kept)
    return out


#: (term frequencies, document length) of one row
Counted = tuple[Counter[str], int]


def term_counts(terms: str) -> Counted:
    """(term frequencies, document length) of one row's ``terms``."""
    tokens = analyse(terms)
    return Counter(tokens), len(tokens)


def idf(docs: int, containing: int) -> float:
    return math.log(1.0 + (docs - containing + 0.5) / (containing + 0.5))


def query_counts(terms: str) -> Iterable[tuple[str, int]]:
    """A query's distinct tokens and how often each occurs (each occurrence scores)."""
    return Counter(analyse(terms)).items()
