"""Translated wordings shared by several views (categories, statuses, error kinds)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from desktop_app.ui import i18n

# mirrors desktop_app.memory.types without importing the memory package at start-up
# (its __init__ may pull lancedb, which must load only in the background)
CATEGORIES: tuple[str, ...] = ("事实", "证据", "法条", "诉求", "时间线", "偏好")
CATEGORY_LABELS_EN = {
    "事实": "Fact",
    "证据": "Evidence",
    "法条": "Statute",
    "诉求": "Claim",
    "时间线": "Timeline",
    "偏好": "Preference",
}


def category_label(category: str | None) -> str:
    if not category:
        return ""
    if i18n.is_chinese():
        return category
    return CATEGORY_LABELS_EN.get(category, category)


def categories() -> list[tuple[str, str]]:
    """(stored value, label) for every category, in display order."""
    return [(c, category_label(c)) for c in CATEGORIES]


def status_label(status: str) -> str:
    return {
        "active": QCoreApplication.translate("Texts", "Active"),
        "superseded": QCoreApplication.translate("Texts", "Superseded"),
        "archived": QCoreApplication.translate("Texts", "Archived"),
    }.get(status, status)


def problem_text(kind: str, fallback: str) -> str:
    """The inline chat error for a Problem.kind, in the UI language."""
    texts = {
        "not_configured": QCoreApplication.translate(
            "Texts",
            "No model provider is connected yet. Open Settings, pick a provider (DeepSeek, OpenAI, "
            "or a local Ollama / LM Studio) and enter its API key. Notes and the graph work without it.",
        ),
        "auth": QCoreApplication.translate(
            "Texts", "The API key was rejected. Check the key in Settings."
        ),
        "model_missing": QCoreApplication.translate(
            "Texts", "The model does not exist on this endpoint. Pick another model in Settings."
        ),
        "rate_limited": QCoreApplication.translate(
            "Texts", "The provider is rate limiting requests. Wait a moment, then retry."
        ),
        "unreachable": QCoreApplication.translate(
            "Texts", "The model endpoint cannot be reached. Check the network or the base URL."
        ),
        "bad_response": QCoreApplication.translate(
            "Texts", "The model sent an unusable answer. Try again."
        ),
        "llm": QCoreApplication.translate("Texts", "The model call failed."),
        "storage": QCoreApplication.translate("Texts", "Reading or writing local data failed."),
    }
    return texts.get(kind, fallback)


def action_label(action: str) -> str:
    return {
        "settings": QCoreApplication.translate("Texts", "Open Settings"),
        "retry": QCoreApplication.translate("Texts", "Retry"),
    }.get(action, action)
