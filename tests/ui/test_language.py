"""One language choice for the whole window: Parley's texts, Qt's, dates and numbers."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QDate, QLocale
from PySide6.QtWidgets import QLineEdit

from desktop.core import i18n
from desktop.core.errors import SettingsError
from desktop.core.settings import (
    AppearanceSettings,
    Language,
    Settings,
    dump_settings,
    parse_settings,
)
from desktop.engine.settings_service import SettingsService
from desktop.storage.secrets import SecretStore
from desktop.ui.language import (
    install_translations,
    remove_translations,
    system_language,
    window_locale,
)
from desktop.ui.viewmodels.date_groups import DateGroup
from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.viewmodels.tasks import TaskGroup
from tests.support.paths import ROOT

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def chinese(qapp, english):
    """The window's language set to 简体中文, as Parley does before its first window
    (whether this machine has a CJK font or not: the tests read texts, not pixels)."""
    install_translations(
        qapp, Language.CHINESE_SIMPLIFIED, QLocale("en_US"), can_draw_cjk=lambda: True
    )
    try:
        yield
    finally:
        install_translations(qapp, Language.ENGLISH, QLocale("en_US"))


@pytest.mark.parametrize(
    ("system", "expected"),
    [
        ("zh_CN", Language.CHINESE_SIMPLIFIED),
        ("zh_SG", Language.CHINESE_SIMPLIFIED),
        ("zh_Hans_HK", Language.CHINESE_SIMPLIFIED),
        ("zh_TW", Language.ENGLISH),  # traditional characters: not this translation
        ("zh_HK", Language.ENGLISH),
        ("en_GB", Language.ENGLISH),
        ("de_DE", Language.ENGLISH),
    ],
)
def test_following_the_system_picks_chinese_only_for_simplified_chinese(system, expected):
    assert system_language(QLocale(system)) == expected


def test_the_locale_matches_the_language_and_keeps_the_systems_region():
    british = window_locale(Language.SYSTEM, QLocale("en_GB"))
    assert british.name() == "en_GB"  # British English keeps its own dates
    german = window_locale(Language.SYSTEM, QLocale("de_DE"))
    assert german.language() == QLocale.Language.English  # no German: English words …
    assert german.territory() == QLocale.Country.Germany  # … in the person's region
    assert german.monthName(12) == "December"
    chosen = window_locale(Language.CHINESE_SIMPLIFIED, QLocale("en_US"))
    assert chosen.name() == "zh_CN"
    assert window_locale(Language.ENGLISH, QLocale("zh_CN")).language() == QLocale.Language.English


def test_the_language_is_kept_in_the_settings_file():
    chosen = Settings(appearance=AppearanceSettings(language=Language.CHINESE_SIMPLIFIED))
    data = dump_settings(chosen)
    assert data["appearance"]["language"] == "zh_CN"
    assert parse_settings(data).appearance.language == Language.CHINESE_SIMPLIFIED
    assert "language" not in dump_settings(Settings())["appearance"]  # following the system
    with pytest.raises(SettingsError) as raised:
        parse_settings({"appearance": {"language": "klingon"}})
    assert raised.value.field == "appearance.language"
    assert "zh_CN" in str(raised.value)


def test_chinese_reaches_parleys_texts_qts_texts_the_engine_dates_and_numbers(chinese):
    assert DateGroup.TODAY.label == "今天"
    assert QCoreApplication.translate("DateGroup", "Yesterday") == "昨天"
    engine_text = i18n.tr("Type a message first.")
    assert HAN.search(engine_text), engine_text
    # Qt's own texts: a text field's context menu.
    field = QLineEdit()
    menu = field.createStandardContextMenu()
    texts = [action.text() for action in menu.actions() if action.text()]
    assert texts and all(HAN.search(text) for text in texts), texts
    # Dates and numbers in the Chinese locale.
    assert (
        QLocale().toString(QDate(2026, 12, 2), QLocale.FormatType.LongFormat)
        == "2026年12月2日星期三"
    )


def test_lists_in_sentences_are_written_as_the_language_writes_them(qapp, english):
    names = ["a.pdf", "b.png", "c.txt"]
    assert i18n.joined(names) == "a.pdf, b.png, and c.txt"
    install_translations(
        qapp, Language.CHINESE_SIMPLIFIED, QLocale("en_US"), can_draw_cjk=lambda: True
    )
    try:
        assert i18n.joined(names) == "a.pdf、b.png和c.txt"
    finally:
        install_translations(qapp, Language.ENGLISH, QLocale("en_US"))
    remove_translations(qapp)
    try:
        assert i18n.joined(names) == "a.pdf, b.png, c.txt"  # no Qt: the engine's own
    finally:
        install_translations(qapp, Language.ENGLISH, QLocale("en_US"))


def test_english_plural_forms_come_from_the_english_file(qapp):
    source = translated_plural_source()
    assert source is not None, "parley_en.ts has no plural text"
    one = QCoreApplication.translate(source[0], source[1], None, 1)
    many = QCoreApplication.translate(source[0], source[1], None, 3)
    assert "(s)" not in one and "(s)" not in many and one != many
    remove_translations(qapp)  # without the file, the source text with its "(s)"
    try:
        assert "(s)" in QCoreApplication.translate(source[0], source[1], None, 3)
    finally:
        install_translations(qapp, Language.ENGLISH, QLocale("en_US"))


def translated_plural_source() -> tuple[str, str] | None:
    import xml.etree.ElementTree as ET

    ts = ROOT / "resources" / "translations" / "parley_en.ts"
    if not ts.is_file():
        return None
    for context in ET.parse(ts).getroot():
        for message in context.findall("message"):
            if message.get("numerus") == "yes":
                return (context.findtext("name") or "", message.findtext("source") or "")
    return None


def test_the_main_window_is_in_chinese(chinese, driver, tmp_path):
    parley = driver.start(tmp_path)
    window = parley.window
    menus = [action.text() for action in window.menuBar().actions()]
    assert menus and all(HAN.search(text) for text in menus), menus
    for action in window.menuBar().actions():
        for item in action.menu().actions():
            if item.text() and not item.isSeparator():
                assert HAN.search(item.text()), item.text()
    window.show_settings()
    dialog = window._settings_dialog
    titles = [dialog.nav.item(i).text() for i in range(dialog.nav.count())]
    assert titles == dialog.titles()
    assert all(HAN.search(text) for text in titles), titles
    appearance = dialog.appearance
    assert appearance.language.itemText(appearance.language.findData("zh_CN")) == "简体中文"


def test_the_appearance_page_saves_the_language_and_says_when_it_applies(driver, tmp_path):
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    page = parley.window._settings_dialog.appearance
    assert page.language.currentData() == "system" and page.language_note.isHidden()
    page.language.setCurrentIndex(page.language.findData("zh_CN"))
    saved = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert saved["appearance"]["language"] == "zh_CN"
    assert not page.language_note.isHidden()  # this window stays English until restart
    page.language.setCurrentIndex(page.language.findData("en"))
    assert page.language_note.isHidden()


def _smoke(data: Path, **env: str) -> str:
    """Start Parley as the desktop does (`--smoke-test`); the log of that run."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--smoke-test", "--data-dir", str(data)],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **env},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return (data / "logs" / "parley.log").read_text(encoding="utf-8")


def _choose(data: Path, language: str) -> None:
    data.mkdir(parents=True, exist_ok=True)
    settings = {"version": 1, "appearance": {"language": language}}
    (data / "settings.json").write_text(json.dumps(settings), encoding="utf-8")


def _fonts_draw_chinese() -> bool:
    listed = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True)
    return bool(listed.stdout.strip())


@pytest.mark.slow
@pytest.mark.skipif(not _fonts_draw_chinese(), reason="no CJK font: apt install fonts-noto-cjk")
def test_parley_starts_in_chinese_when_chosen_or_when_the_system_speaks_it(tmp_path):
    chinese = "language zh_CN (locale zh_CN), translations: ['qtbase_zh_CN', 'parley_zh_CN']"
    _choose(tmp_path / "chosen", "zh_CN")
    assert chinese in _smoke(tmp_path / "chosen", LANG="en_US.UTF-8", LC_ALL="")
    _choose(tmp_path / "system", "system")
    assert chinese in _smoke(tmp_path / "system", LANG="zh_CN.UTF-8", LC_ALL="")


def test_parley_starts_in_the_english_its_settings_name_on_a_chinese_system(tmp_path):
    _choose(tmp_path, "en")
    log = _smoke(tmp_path, LANG="zh_CN.UTF-8", LC_ALL="")
    # Qt's menus are English too: only Parley's English plural forms are loaded.
    assert "language en (locale en_US), translations: ['parley_en']" in log


def test_without_a_cjk_font_chinese_falls_back_to_english_and_says_why(tmp_path):
    fonts = tmp_path / "fonts.conf"
    dejavu = [p for p in ("/usr/share/fonts/truetype/dejavu",) if Path(p).is_dir()]
    if not dejavu:
        pytest.skip("no DejaVu fonts to stand for a system without CJK fonts")
    fonts.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        f"<dir>{dejavu[0]}</dir><cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>",
        encoding="utf-8",
    )
    data = tmp_path / "data"
    _choose(data, "zh_CN")
    log = _smoke(data, FONTCONFIG_FILE=str(fonts))
    assert "language en " in log
    assert "no font for CJK" in log and "fonts-noto-cjk" in log
    state = (data / "window.ini").read_text(encoding="utf-8")
    assert "cjk_font_missing=true" in state


def test_sentences_are_spaced_as_the_language_writes_them():
    assert i18n.sentences(["It failed.", "", "Try again."]) == "It failed. Try again."
    assert (
        i18n.sentences(["失败了。", "请重试。", "原因：", "磁盘已满"])
        == "失败了。请重试。原因：磁盘已满"
    )
    assert i18n.sentences(["已备份。", "Disk full."]) == "已备份。Disk full."
    assert i18n.sentences(["", ""]) == ""


def settings_problem(tmp_path: Path) -> str:
    """The start-up banner of a settings file that is not JSON, a copy of it kept."""
    path = tmp_path / "settings.json"
    path.write_text("{ not json", encoding="utf-8")
    service = SettingsService(path, SecretStore())
    try:
        assert service.load_error is not None and service.backup_path is not None
        return SettingsViewModel(service, TaskGroup()).load_problem
    finally:
        asyncio.run(service.aclose())


def test_a_banner_of_several_sentences_has_no_space_after_a_chinese_full_stop(
    qapp, chinese, tmp_path
):
    banner = settings_problem(tmp_path)
    assert HAN.search(banner) and banner.count("。") >= 2, banner
    assert not re.search(r"[。：] ", banner), banner


def test_a_banner_of_several_sentences_is_spaced_in_english(qapp, english, tmp_path):
    banner = settings_problem(tmp_path)
    assert re.search(r"\. A copy was kept at .+\. Parley started with default settings\.$", banner)
