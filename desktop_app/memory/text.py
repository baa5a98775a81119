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

#: control characters, zero-width characters and the bidirectional overrides and isolates
#: (an RTL override makes "exe.txt" read "txt.exe": never kept in stored text)
_CONTROL = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e"
    r"\u2060-\u2064\u2066-\u2069\ufeff]"
)
_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: the longest case name or conversation title
MAX_LABEL_CHARS = 200
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
    _refuse_surrogates(text, "note content")
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
def _refuse_surrogates(text: str, what: str) -> None:
    # "\ud800" alone is not a character: it cannot be stored as UTF-8 (SQLite would raise
    # UnicodeEncodeError deep inside a write); JSON can carry one escaped
    if _SURROGATE.search(text):
        raise InvalidInputError(
            f"{what} holds a lone surrogate (invalid Unicode)",
            user_message=(
                "文本中含有无效的字符（孤立的 Unicode 代理项），请检查来源文件。 / "
                "The text holds an invalid character (a lone Unicode surrogate); check its source."
            ),
        )


def without_surrogates(text: str) -> str:
    """``text`` with lone surrogates dropped: for text that is read, not stored (a search
    query) or that a model wrote (it cannot be sent back for a fix)."""
    return _SURROGATE.sub("", text)


def clean_label(text: object, what: str = "name", max_chars: int = MAX_LABEL_CHARS) -> str:
    """A case name or conversation title as stored: one line, no control, zero-width or
    bidirectional-override characters, spaces tidied.  Refused (InvalidInputError) when it
    is not text, holds invalid Unicode, is too long, or nothing visible remains."""
    if not isinstance(text, str):
        raise InvalidInputError(
            f"{what} must be text, got {type(text).__name__}",
            user_message=f"名称必须是文字。 / The {what} must be text.",
        )
    _refuse_surrogates(text, what)
    text = _SPACES.sub(" ", _invisible_dropped(unicodedata.normalize("NFC", text))).strip()
    if not text:
        raise InvalidInputError(
            f"empty {what}",
            user_message=(
                "名称不能为空（也不能只有看不见的字符）。 / "
                f"The {what} cannot be empty or made only of invisible characters."
            ),
        )
    if len(text) > max_chars:
        raise InvalidInputError(
            f"{what} has {len(text)} characters (max {max_chars})",
            user_message=f"名称太长（最多 {max_chars} 字）。 / The {what} is too long "
            f"(at most {max_chars} characters).",
        )
    return text


def _invisible_dropped(text: str) -> str:
    """Every control, format (zero-width, bidirectional), private-use or unassigned
    character removed, and line breaks made spaces: what is left is what a reader sees."""
    return "".join(
        " " if ch in "\n\r\t\u2028\u2029\x85" else ch
        for ch in text
        if ch in "\n\r\t\u2028\u2029\x85" or unicodedata.category(ch)[0] != "C"
    )


def clean_inline(text: str) -> str:
    """A model-written field (a note's context): control and override characters and lone
    surrogates dropped, spaces tidied.  Never refused: there is nobody to ask."""
    text = _CONTROL.sub("", without_surrogates(text).replace("\r\n", "\n"))
    return _SPACES.sub(" ", text).strip()


def clean_label_list(values: object) -> list[str]:
    """Tags or keywords: each must be text; cleaned like a label, empty ones dropped."""
    if isinstance(values, str | bytes) or not hasattr(values, "__iter__"):
        raise InvalidInputError(
            f"tags must be a list of strings, got {type(values).__name__}",
            user_message="标签必须是文字列表。 / Tags must be a list of text.",
        )
    out = []
    for value in values:  # type: ignore[attr-defined]
        if not isinstance(value, str):
            raise InvalidInputError(
                f"tag {value!r} is not text",
                user_message="标签必须是文字。 / Tags must be text.",
            )
        cleaned = _SPACES.sub(" ", _invisible_dropped(without_surrogates(value))).strip()
        if cleaned:
            out.append(cleaned[:MAX_LABEL_CHARS])
    return out


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
