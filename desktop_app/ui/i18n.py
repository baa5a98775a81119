"""Language: English source strings, Chinese from resources/translations/lexmem_zh_CN.qm."""

from __future__ import annotations

import logging

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QGuiApplication

from desktop_app.ui.resources import translations_dir

log = logging.getLogger(__name__)

_installed: list[QTranslator] = []
_current = "en"


def resolve(language: str) -> str:
    """'' (follow the system) → 'zh_CN' or 'en'."""
    if language in ("zh_CN", "en"):
        return language
    name = QLocale.system().name()  # e.g. zh_CN, zh_TW, en_US, C
    return "zh_CN" if name.lower().startswith("zh") else "en"


def current() -> str:
    return _current


def is_chinese() -> bool:
    return _current.startswith("zh")


# Qt's file dialog labels whose Qt 6 wording the bundled qtbase_zh_CN.qm lacks (it has the
# Qt 5 "Look in:"): translated in our own catalogue under Qt's context
_QT_STRINGS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)


def install(language: str) -> str:
    """Install the translators for ``language`` (replacing earlier ones); returns the code used."""
    global _current
    app = QCoreApplication.instance()
    for tr in _installed:
        app.removeTranslator(tr)
    _installed.clear()
    lang = resolve(language)
    _current = lang
    if lang == "en":
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        _name_the_app()
        return lang
    QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China))
    ours = QTranslator(app)
    if ours.load(f"lexmem_{lang}", str(translations_dir())):
        app.installTranslator(ours)
        _installed.append(ours)
    else:
        log.warning("no translation for %s in %s", lang, translations_dir())
    # Qt's own strings (standard buttons, context menus); absent in some builds: that is fine
    qt_tr = QTranslator(app)
    if qt_tr.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_tr)
        _installed.append(qt_tr)
    _name_the_app()
    return lang


def _name_the_app() -> None:
    """Window titles end with the application's display name: the language's own."""
    if isinstance(QCoreApplication.instance(), QGuiApplication):
        QGuiApplication.setApplicationDisplayName(QCoreApplication.translate("Texts", "LexMem"))
