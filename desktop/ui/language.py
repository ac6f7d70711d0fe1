"""Which language Parley's window speaks, and the translators that make it so.

One choice decides three things together, so a window is never half one language:
Parley's own texts (`parley_<lang>.qm`), Qt's (context menus, standard buttons:
`qtbase_<lang>.qm`) and the locale that writes dates, sizes and numbers (`QLocale()`
everywhere in the UI is this default). The choice is read once, before the first window:
changing it takes effect at the next start.

English has a file too: it holds the English plural forms of the `%n` texts
("%n file(s)" → "1 file", "3 files").
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from desktop.core import i18n
from desktop.core.settings import Language
from desktop.ui.fonts import has_cjk_font
from desktop.ui.resources import resource_path

log = logging.getLogger(__name__)
_installed: list[QTranslator] = []
_default_before: list[QLocale] = []  # the default locale the first install replaced

# Territories whose Chinese is written in traditional characters: not our translation.
_TRADITIONAL = {QLocale.Country.Taiwan, QLocale.Country.HongKong, QLocale.Country.Macau}


def system_language(system: QLocale) -> Language:
    """The system's language if Parley has a translation for it, else English."""
    if system.language() == QLocale.Language.Chinese:
        script = system.script()
        if script == QLocale.Script.SimplifiedHanScript or (
            script != QLocale.Script.TraditionalHanScript and system.territory() not in _TRADITIONAL
        ):
            return Language.CHINESE_SIMPLIFIED
    return Language.ENGLISH


def window_locale(choice: Language, system: QLocale) -> QLocale:
    """The locale for `choice`: the system's own when it is in that language (British
    English keeps its dates), else the language as written in the system's territory
    where the locale data has it (English in Germany: English words, German numbers)."""
    language = system_language(system) if choice == Language.SYSTEM else choice
    if language == Language.CHINESE_SIMPLIFIED:
        if system_language(system) == Language.CHINESE_SIMPLIFIED:
            return system
        return QLocale(QLocale.Language.Chinese, QLocale.Script.SimplifiedHanScript)
    if system.language() == QLocale.Language.English:
        return system
    return QLocale(QLocale.Language.English, system.territory())


def language_of(locale: QLocale) -> Language:
    return (
        Language.CHINESE_SIMPLIFIED
        if locale.language() == QLocale.Language.Chinese
        else Language.ENGLISH
    )


def install_translations(
    app: QCoreApplication,
    choice: Language,
    system: QLocale | None = None,
    *,
    can_draw_cjk: Callable[[], bool] = has_cjk_font,
) -> QLocale:
    """Install the translators and default locale for `choice`; returns that locale.

    Called before any widget exists (widgets take their texts when made). A missing
    file leaves the English source texts (the Qt translations ship with PySide6,
    Parley's in `resources/translations`). Translators installed by an earlier call are
    removed first.
    """
    remove_translations(app)
    system = QLocale.system() if system is None else system
    locale = window_locale(choice, system)
    _default_before.append(QLocale())
    if language_of(locale) == Language.CHINESE_SIMPLIFIED and not can_draw_cjk():
        # Chinese without a font to draw it is boxes: English, and the window says why.
        locale = window_locale(Language.ENGLISH, system)
    QLocale.setDefault(locale)
    language = language_of(locale)
    files = [("parley", str(resource_path("translations")))]
    if language != Language.ENGLISH:  # Qt's own texts are English already
        qt_folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        files.insert(0, ("qtbase", qt_folder))
    loaded = []
    for name, folder in files:
        translator = QTranslator(app)
        if translator.load(f"{name}_{language.value}", folder):
            app.installTranslator(translator)
            _installed.append(translator)
            loaded.append(f"{name}_{language.value}")
        else:
            log.warning("no translation %s_%s in %s", name, language.value, folder)
    i18n.install(QCoreApplication.translate, _separated_list)
    log.info("language %s (locale %s), translations: %s", language.value, locale.name(), loaded)
    return locale


def _separated_list(items: list[str]) -> str:
    return QLocale().createSeparatedList(items)


def remove_translations(app: QCoreApplication) -> None:
    """Undo `install_translations` (the source texts and the system's locale again)."""
    while _installed:
        app.removeTranslator(_installed.pop())
    if _default_before:
        QLocale.setDefault(_default_before[0])
        _default_before.clear()
    i18n.uninstall()
