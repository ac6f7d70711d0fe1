"""The Settings window through the real app: categories on the left that switch pages
(by click and by keys), changes saved without any Save button, Undo (button and Ctrl+Z)
putting back the saved value on disk while leaving a change made elsewhere alone, and
refused or failed changes shown where they happened."""

from __future__ import annotations

import shutil

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton, QScrollArea

from desktop.core.models import ModelRef
from tests.support.settings_files import saved_settings, write_settings
from tests.support.ui_actions import click


def open_settings(driver, tmp_path):
    write_settings(tmp_path, "http://127.0.0.1:9/v1", models=("test-model", "other-model"))
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    dialog.activateWindow()  # its shortcuts work while it is the active window
    assert QTest.qWaitForWindowActive(dialog)
    return parley, dialog


def bar(dialog) -> tuple[str, str]:
    return dialog.bar.state.text(), dialog.bar.detail.text()


def test_the_category_list_switches_pages_by_click_and_by_keys(driver, tmp_path):
    parley, dialog = open_settings(driver, tmp_path)
    titles = dialog.titles()
    assert titles[0] == "Providers" and "Appearance" in titles and "Usage & models" in titles
    assert [dialog.nav.item(i).text() for i in range(dialog.nav.count())] == titles
    assert dialog.current_page() is dialog.providers and dialog.title.text() == "Providers"
    # Every name fits the list, and every page scrolls when it is longer than the window.
    metrics = dialog.nav.fontMetrics()
    assert max(metrics.horizontalAdvance(t) for t in titles) < dialog.nav.viewport().width()
    for page in dialog.pages():
        scroll = page.parentWidget().parentWidget()
        assert isinstance(scroll, QScrollArea) and scroll.widgetResizable()

    dialog.nav.setFocus()
    QTest.keyClick(dialog.nav, Qt.Key.Key_Down)
    assert dialog.current_page() is dialog.assistants
    assert dialog.title.text() == "Assistants" and dialog.assistants.isVisible()
    assert not dialog.providers.isVisible()

    row = titles.index("Appearance")
    where = dialog.nav.visualItemRect(dialog.nav.item(row)).center()
    QTest.mouseClick(dialog.nav.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert dialog.current_page() is dialog.appearance and dialog.title.text() == "Appearance"

    # Ctrl+PgDown / Ctrl+PgUp from inside a page, wrapping around at the ends.
    dialog.appearance.theme.setFocus()
    QTest.keyClick(
        dialog.appearance.theme, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier
    )
    assert dialog.current_page() is dialog.pages()[row + 1]
    dialog.show_page(dialog.providers)
    dialog.nav.setFocus()
    QTest.keyClick(dialog.nav, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert dialog.current_page() is dialog.pages()[-1]

    # Esc closes; opened again, the window shows the page last seen.
    dialog.show_page(dialog.network)
    QTest.keyClick(dialog.nav, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    parley.window.show_settings()
    assert parley.window._settings_dialog is dialog and dialog.isVisible()
    assert dialog.current_page() is dialog.network

    area = dialog.screen().availableGeometry()
    assert dialog.width() <= area.width() and dialog.height() <= area.height()


def test_a_change_is_saved_without_a_button_and_undo_puts_it_back(driver, tmp_path):
    parley, dialog = open_settings(driver, tmp_path)
    mine = (dialog.appearance, dialog.network, dialog.web_search, dialog.ocr, dialog.usage)
    buttons = [b.text() for page in (*mine, dialog.desktop) for b in page.findChildren(QPushButton)]
    assert not any("Save" in text for text in buttons), buttons
    assert bar(dialog) == ("", "Changes are saved as you make them.")
    assert not dialog.bar.undo_button.isEnabled()
    assert "keyring" in dialog.bar.undo_button.toolTip()

    appearance = dialog.appearance
    dialog.show_page(appearance)
    appearance.theme.setCurrentIndex(appearance.theme.findData("dark"))
    assert saved_settings(tmp_path)["appearance"] == {"theme": "dark"}
    assert parley.theme.dark
    assert bar(dialog) == ("Saved", "Theme changed")
    assert dialog.bar.undo_button.isEnabled()
    assert "Theme changed" in dialog.bar.undo_button.toolTip()

    # Meanwhile the composer remembers another model: not a Settings change.
    parley.settings.remember_model(ModelRef("local", "other-model"))

    click(dialog.bar.undo_button)
    saved = saved_settings(tmp_path)
    assert saved["appearance"] == {"theme": "system"}  # back to following the system
    assert saved["last_model"] == {"provider": "local", "model": "other-model"}  # kept
    assert appearance.theme.currentData() == "system"
    assert not parley.theme.dark
    assert bar(dialog) == ("Undone", "Theme changed")
    assert not dialog.bar.undo_button.isEnabled()


def test_ctrl_z_undoes_a_setting_unless_a_text_field_has_typing_to_undo(driver, tmp_path):
    _parley, dialog = open_settings(driver, tmp_path)
    appearance, network = dialog.appearance, dialog.network
    dialog.show_page(appearance)
    appearance.remote_images.click()
    assert saved_settings(tmp_path)["appearance"]["load_remote_images"] is True

    dialog.show_page(network)
    network.proxy_url.setEnabled(True)
    network.proxy_url.setFocus()
    QTest.keyClicks(network.proxy_url, "http://typed")
    QTest.keyClick(network.proxy_url, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert network.proxy_url.text() == ""  # the field's own undo
    assert saved_settings(tmp_path)["appearance"]["load_remote_images"] is True

    dialog.nav.setFocus()
    QTest.keyClick(dialog.nav, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "load_remote_images" not in saved_settings(tmp_path)["appearance"]
    assert not appearance.remote_images.isChecked()
    assert bar(dialog) == ("Undone", "Remote images changed")


def test_a_refused_value_shows_beside_its_field_and_a_failed_write_in_the_bar(driver, tmp_path):
    _parley, dialog = open_settings(driver, tmp_path)
    usage = dialog.usage
    dialog.show_page(usage)
    usage.currency.setFocus()
    usage.currency.clear()
    QTest.keyClicks(usage.currency, "U$")
    QTest.keyClick(usage.currency, Qt.Key.Key_Return)
    assert usage.currency_problem.isVisible() and usage.currency_problem.property("tone") == "error"
    assert "currency" in usage.currency_problem.text()
    assert usage.currency.text() == "U$"  # kept, to be mended
    assert "currency" not in saved_settings(tmp_path)
    assert bar(dialog) == ("", "Changes are saved as you make them.")

    usage.currency.clear()
    QTest.keyClicks(usage.currency, "eur")
    QTest.keyClick(usage.currency, Qt.Key.Key_Return)
    assert not usage.currency_problem.isVisible()
    assert saved_settings(tmp_path)["currency"] == "EUR"
    assert bar(dialog) == ("Saved", "Currency changed")

    path = tmp_path / "settings.json"
    kept = path.read_text(encoding="utf-8")
    path.unlink()
    path.mkdir()  # the file cannot be replaced, as on a read-only or full disk
    try:
        usage.titles.click()
        assert bar(dialog)[0] == "Not saved"
        assert bar(dialog)[1].startswith("Could not save settings: ")
        assert dialog.bar.detail.property("tone") == "error"
    finally:
        shutil.rmtree(path)
        path.write_text(kept, encoding="utf-8")
    assert dialog.bar.undo_button.isEnabled()  # the currency can still be undone


def test_empty_lists_say_what_would_be_there(driver, tmp_path):
    parley = driver.start(tmp_path)  # no settings yet: no providers, no engine
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    dialog.show_page(dialog.usage)
    assert not dialog.usage.table.isVisible()
    assert dialog.usage.no_models.isVisible()
    assert dialog.usage.no_models.text().startswith("No models yet")
    dialog.show_page(dialog.web_search)
    assert dialog.web_search.note.text() == "Models are not offered web search or web pages."
