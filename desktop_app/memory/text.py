"""Text normalisation, hashing and the full-text tokenisation shared by index and queries."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from desktop_app.core.errors import InvalidInputError
from desktop_app.memory.legal_terms import legal_terms

#: A note is a fact, not a document: longer pastes are refused with a message (the caller
#: may split them) rather than embedded into one meaningless vector.
MAX_NOTE_CHARS = 20_000

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b-\u200f\u2028\u2029\ufeff]")
_SPACES = re.compile(r"[ \t\u3000\xa0]+")
_TRAILING_PUNCT = re.compile(r"[\s。．.!！?？;；,，、]+$")
# CJK ideographs (incl. extension A and compatibility), kana, hangul: scripts without spaces.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W{_CJK}_]+", re.UNICODE)
_CJK_RUN = re.compile(rf"^[{_CJK}]+$")


def clean_content(text: str) -> str:
    """The stored form: control characters removed, spaces tidied, ends stripped.

    Raises InvalidInputError for empty or enormous text so nothing half-written is stored.
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"note content must be text, got {type(text).__name__}")
    text = _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    text = "\n".join(lines).strip()
    text = re.sub(r"\n{3,}", "\n\n", text)
    if not text:
        raise InvalidInputError(
            "empty note", user_message="记忆内容不能为空。 / A memory note cannot be empty."
        )
    if len(text) > MAX_NOTE_CHARS:
        raise InvalidInputError(
            f"note has {len(text)} characters (max {MAX_NOTE_CHARS})",
            user_message=(
                f"这段文字太长（{len(text)} 字），一条记忆最多 {MAX_NOTE_CHARS} 字，请拆分后再添加。 / "
                f"The text is too long ({len(text)} characters); a note holds at most "
                f"{MAX_NOTE_CHARS}. Split it first."
            ),
        )
    return text


_LETTER = re.compile(r"[^\W\d_]")
_CJK_CHAR = re.compile(rf"[{_CJK}]")


def content_language(*texts: str) -> str:
    """``"zh"`` when at least half of the letters are CJK, else ``"en"``: prompts are written
    in the language of the content they carry."""
    joined = " ".join(texts)
    letters = len(_LETTER.findall(joined))
    return "zh" if not letters or len(_CJK_CHAR.findall(joined)) * 2 >= letters else "en"


def normalise_for_hash(text: str) -> str:
    """Two notes with the same normal form are the same note (within one scope)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"\s+", " ", text).strip()
    return _TRAILING_PUNCT.sub("", text)


def content_hash(text: str) -> str:
    return hashlib.sha256(normalise_for_hash(text).encode("utf-8")).hexdigest()


def fts_terms(text: str, values: bool = True) -> list[str]:
    """Terms for the full-text index: CJK runs as overlapping character bigrams (so Chinese
    is found without a word segmenter), everything else as lower-cased words.

    The same function tokenises queries, so index and query always agree; the index's own
    tokenizer only splits on the spaces put here and stems the English words.  The normalised
    amount, article and date terms (legal_terms.py) come last: "8,999元" and "捌仟玖佰玖拾玖元"
    both carry ``amt8999``.  ``values=False`` leaves them out (for keyword lists, whose
    fragments joined together would read as numbers no one wrote).
    """
    extra = legal_terms(text) if values else []
    text = unicodedata.normalize("NFKC", text).lower()
    terms: list[str] = []
    for token in _TOKEN.findall(text):
        if _CJK_RUN.match(token):
            if len(token) == 1:
                terms.append(token)
            else:
                terms.extend(token[i : i + 2] for i in range(len(token) - 1))
        else:
            terms.append(token)
    return terms + extra


def fts_text(text: str, values: bool = True) -> str:
    return " ".join(fts_terms(text, values))
