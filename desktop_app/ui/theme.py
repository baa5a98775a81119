"""Light and dark looks: the Fusion style, a palette and one small stylesheet."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from desktop_app.ui.resources import resources_dir

LIGHT = {
    "window": "#ffffff",
    "sidebar": "#f6f7f9",
    "base": "#ffffff",
    "alt": "#fafbfc",
    "text": "#1f2328",
    "muted": "#6b7280",
    "border": "#e4e7ec",
    "hover": "#eceef2",
    "selected": "#e3e8f4",
    "accent": "#2563eb",
    "accent_hover": "#1d4ed8",
    "user_bubble": "#eef2ff",
    "chip": "#eff4ff",
    "chip_text": "#1d4ed8",
    "chip_hover": "#dbe6ff",
    "danger": "#dc2626",
    "error_bg": "#fef2f2",
    "error_border": "#fecaca",
    "error_text": "#991b1b",
    "scroll": "#cfd4dc",
    "link": "#2563eb",
}
DARK = {
    "window": "#1d1e22",
    "sidebar": "#17181b",
    "base": "#25272c",
    "alt": "#2a2c32",
    "text": "#e6e7ea",
    "muted": "#9aa0aa",
    "border": "#33363d",
    "hover": "#2c2f36",
    "selected": "#323a4d",
    "accent": "#3b82f6",
    "accent_hover": "#2563eb",
    "user_bubble": "#283149",
    "chip": "#1f2a40",
    "chip_text": "#9ec1ff",
    "chip_hover": "#28365a",
    "danger": "#f87171",
    "error_bg": "#3a1f22",
    "error_border": "#5b2a2f",
    "error_text": "#fca5a5",
    "scroll": "#454955",
    "link": "#7fb0ff",
}

#: category colours shared by the notes table, the chips and (if it wants) the graph view
CATEGORY_COLORS = {
    "事实": "#2563eb",
    "证据": "#059669",
    "法条": "#7c3aed",
    "诉求": "#dc2626",
    "时间线": "#d97706",
    "偏好": "#0891b2",
}

_current: dict[str, str] = LIGHT


def resolve(theme: str) -> str:
    """'system' → 'light' or 'dark' from the OS colour scheme."""
    if theme in ("light", "dark"):
        return theme
    hints = QGuiApplication.styleHints()
    scheme = hints.colorScheme() if hints is not None else Qt.ColorScheme.Unknown
    return "dark" if scheme == Qt.ColorScheme.Dark else "light"


def tokens() -> dict[str, str]:
    return _current


def is_dark() -> bool:
    return _current is DARK


def _palette(t: dict[str, str]) -> QPalette:
    p = QPalette()
    c = {k: QColor(v) for k, v in t.items()}
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        p.setColor(group, QPalette.ColorRole.Window, c["window"])
        p.setColor(group, QPalette.ColorRole.WindowText, c["text"])
        p.setColor(group, QPalette.ColorRole.Base, c["base"])
        p.setColor(group, QPalette.ColorRole.AlternateBase, c["alt"])
        p.setColor(group, QPalette.ColorRole.Text, c["text"])
        p.setColor(group, QPalette.ColorRole.Button, c["base"])
        p.setColor(group, QPalette.ColorRole.ButtonText, c["text"])
        p.setColor(group, QPalette.ColorRole.Highlight, c["accent"])
        p.setColor(group, QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
        p.setColor(group, QPalette.ColorRole.ToolTipBase, c["base"])
        p.setColor(group, QPalette.ColorRole.ToolTipText, c["text"])
        p.setColor(group, QPalette.ColorRole.PlaceholderText, c["muted"])
        p.setColor(group, QPalette.ColorRole.Link, c["link"])
        p.setColor(group, QPalette.ColorRole.Mid, c["border"])
    disabled = QPalette.ColorGroup.Disabled
    for role in (
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
    ):
        p.setColor(disabled, role, c["muted"])
    p.setColor(disabled, QPalette.ColorRole.Base, c["window"])
    p.setColor(disabled, QPalette.ColorRole.Button, c["window"])
    return p


def stylesheet(t: dict[str, str]) -> str:
    try:
        qss = (resources_dir() / "styles" / "base.qss").read_text(encoding="utf-8")
    except OSError:
        return ""
    for key, value in t.items():
        qss = qss.replace("{" + key + "}", value)
    return qss.replace("{icons}", (resources_dir() / "icons").as_posix())


def ui_font() -> QFont:
    """A font that renders Chinese well on each OS (falls back cleanly)."""
    font = QFont()
    font.setFamilies(
        [
            "Segoe UI",
            "Microsoft YaHei UI",
            "PingFang SC",
            "Noto Sans CJK SC",
            "Noto Sans",
            "sans-serif",
        ]
    )
    font.setPointSizeF(10.0)
    font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    return font


def apply(app: QApplication, theme: str) -> str:
    """Apply ``theme`` ('system' / 'light' / 'dark'); returns the resolved look."""
    global _current
    look = resolve(theme)
    _current = DARK if look == "dark" else LIGHT
    app.setStyle("Fusion")
    app.setFont(ui_font())
    app.setPalette(_palette(_current))
    app.setStyleSheet(stylesheet(_current))
    return look
