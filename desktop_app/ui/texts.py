"""Translated wordings shared by several views (categories, statuses, error kinds)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from desktop_app.core.errors import split_languages
from desktop_app.ui import i18n

# mirrors desktop_app.memory.types without importing the memory package at start-up
# (its __init__ may pull lancedb, which must load only in the background)
CATEGORIES: tuple[str, ...] = ("事实", "证据", "法条", "诉求", "时间线", "偏好")
CATEGORY_LABELS_EN = {
    "事实": "Fact", "证据": "Evidence", "法条": "Statute",
    "诉求": "Claim", "时间线": "Timeline", "偏好": "Preference",
}


def app_name() -> str:
    """The product's name as the interface shows it (律记 in Chinese, LexMem in English)."""
    return QCoreApplication.translate("Texts", "LexMem")


def category_label(category: str | None) -> str:
    if not category:
        return ""
    if i18n.is_chinese():
        return category
    return CATEGORY_LABELS_EN.get(category, category)


def categories() -> list[tuple[str, str]]:
    """(stored value, label) for every category, in display order."""
    return [(c, category_label(c)) for c in CATEGORIES]


# mirrors desktop_app.memory.types (SOURCE_KINDS, LINK_TYPES): the stored values are Chinese
SOURCE_KINDS: tuple[str, ...] = ("当事人陈述", "对方主张", "证据显示", "法院认定", "律师判断", "偏好")
SOURCE_KIND_LABELS_EN = {
    "当事人陈述": "Client statement", "对方主张": "Opposing party's claim",
    "证据显示": "Shown by evidence", "法院认定": "Court finding",
    "律师判断": "Lawyer's assessment", "偏好": "Preference",
}
LINK_TYPES: tuple[str, ...] = ("证明", "适用", "矛盾", "补充", "取代", "相关")
LINK_TYPE_LABELS_EN = {
    "证明": "proves", "适用": "applies to", "矛盾": "contradicts",
    "补充": "adds to", "取代": "replaces", "相关": "related",
}


def source_kind_label(kind: str | None) -> str:
    """Who asserts a note (当事人陈述, 证据显示, …) in the interface language; "" if unknown."""
    if not kind:
        return ""
    return kind if i18n.is_chinese() else SOURCE_KIND_LABELS_EN.get(kind, kind)


def source_kinds() -> list[tuple[str, str]]:
    return [(k, source_kind_label(k)) for k in SOURCE_KINDS]


def link_type_label(label: str | None) -> str:
    label = label or "相关"
    return label if i18n.is_chinese() else LINK_TYPE_LABELS_EN.get(label, label)


def link_types() -> list[tuple[str, str]]:
    return [(t, link_type_label(t)) for t in LINK_TYPES]


def link_kind_label(kind: str) -> str:
    """How a link came about (related, evolved, manual, …)."""
    return {
        "semantic": QCoreApplication.translate("NoteDetail", "related"),
        "evolution": QCoreApplication.translate("NoteDetail", "evolved"),
        "supersedes": QCoreApplication.translate("NoteDetail", "supersedes"),
        "manual": QCoreApplication.translate("NoteDetail", "manual"),
        "duplicate": QCoreApplication.translate("NoteDetail", "possible duplicate"),
        "conflict": QCoreApplication.translate("NoteDetail", "conflict"),
    }.get(kind, kind)


def origin_label(origin: str) -> str:
    """Where a note came from."""
    return {
        "message": QCoreApplication.translate("Texts", "from a conversation"),
        "manual": QCoreApplication.translate("Texts", "added by hand"),
        "import": QCoreApplication.translate("Texts", "imported"),
    }.get(origin, origin)


def event_date_text(value: str | None) -> str:
    """An event date as shown: 2024-07-15 / 15 Jul 2024 (a month or a year as precise as
    stored)."""
    if not value:
        return ""
    if i18n.is_chinese():
        return value
    parts = value.split("-")
    months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
    try:
        if len(parts) == 3:
            return f"{int(parts[2])} {months[int(parts[1]) - 1]} {parts[0]}"
        if len(parts) == 2:
            return f"{months[int(parts[1]) - 1]} {parts[0]}"
    except (ValueError, IndexError):
        pass
    return value


def add_result_message(action: str) -> str:
    """What adding a memory did, for the status bar."""
    return {
        "added": QCoreApplication.translate("Texts", "Memory added."),
        "updated": QCoreApplication.translate("Texts", "Merged into an existing memory."),
        "superseded": QCoreApplication.translate("Texts", "Added; it replaces an older memory."),
        "outdated": QCoreApplication.translate(
            "Texts", "Added as history: a memory with a later date replaces it."
        ),
        "conflict": QCoreApplication.translate(
            "Texts", "Added; it contradicts a memory from another source. Settle it in Conflicts."
        ),
        "duplicate": QCoreApplication.translate(
            "Texts", "Added and marked as a possible duplicate of an existing memory."
        ),
        "unchanged": QCoreApplication.translate("Texts", "That memory already exists."),
    }.get(action, "")


def status_label(status: str) -> str:
    return {
        "active": QCoreApplication.translate("Texts", "Active"),
        "superseded": QCoreApplication.translate("Texts", "Superseded"),
        # one word for the state everywhere: the action is "Expire", the state "Expired"
        "archived": QCoreApplication.translate("Texts", "Expired"),
    }.get(status, status)


def in_ui_language(message: str) -> str:
    """One language of a "中文 / English" message from the exception tree (or the whole
    message when it is not one)."""
    zh, en = split_languages(message)
    return zh if i18n.is_chinese() else en


def error_text(exc: BaseException) -> str:
    """What to tell the user about a failure, in the interface language: a LexMem error's
    own message, else a general one (the exception's text is for the log: it may be English,
    Python's wording, or quote a secret)."""
    message = getattr(exc, "user_message", None)
    if message:
        return in_ui_language(message)
    return QCoreApplication.translate("Texts", "Something went wrong. The details are in the log file.")


def one_language(zh: str, en: str) -> str:
    """The UI language's half of a wording kept in both languages by a lower layer."""
    return zh if i18n.is_chinese() else en


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def problem_text(kind: str, fallback: str, specific: bool = False) -> str:
    """The inline chat error for a Problem.kind, in the UI language. A ``specific`` message
    (it names this very cause: which proxy setting, a used-up quota, a timeout) is shown
    itself, never replaced by the kind's general wording."""
    if specific:
        return in_ui_language(fallback)
    texts = {
        "not_configured": QCoreApplication.translate("Texts",
            "No model provider is connected yet. Open Settings, pick a provider (DeepSeek, OpenAI, "
            "or a local Ollama / LM Studio) and enter its API key. Notes and the graph work without it.",
        ),
        "auth": QCoreApplication.translate("Texts", "The API key was rejected. Check the key in Settings."),
        "model_missing": QCoreApplication.translate("Texts", "The model does not exist on this endpoint. Pick another model in Settings."),
        "rate_limited": QCoreApplication.translate("Texts", "The provider is rate limiting requests. Wait a moment, then retry."),
        "unreachable": QCoreApplication.translate("Texts", "The model endpoint cannot be reached. Check the network or the base URL."),
        "proxy": QCoreApplication.translate("Texts", "The proxy setting cannot be used. Check it in Settings, or choose “No proxy”."),
        "connection_lost": QCoreApplication.translate("Texts",
            "The connection to the model broke during the answer. What came is kept above; retry to get the whole answer."),
        "truncated": QCoreApplication.translate("Texts",
            "The answer reached the model's length limit and was cut off. Retry, or ask for a shorter answer."),
        "context_too_long": QCoreApplication.translate("Texts",
            "This conversation is now longer than the model can read at once. Start a new chat; the case's memories come along."),
        "rejected": QCoreApplication.translate("Texts",
            "The model endpoint refused this request. Retry, or check the model in Settings."),
        "bad_response": QCoreApplication.translate("Texts", "The model sent an unusable answer. Try again."),
        "llm": QCoreApplication.translate("Texts", "The model call failed."),
        "storage": QCoreApplication.translate("Texts", "Reading or writing local data failed."),
    }
    return texts.get(kind) or in_ui_language(fallback)


def action_label(action: str) -> str:
    return {
        "settings": QCoreApplication.translate("Texts", "Open Settings"),
        "retry": QCoreApplication.translate("Texts", "Retry"),
        "new_chat": QCoreApplication.translate("Texts", "New chat"),
    }.get(action, action)
