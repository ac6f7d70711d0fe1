"""The tray icon's menu, close to tray, and Settings → Desktop, through the real app.

Offscreen there is no tray host, which is the case Parley must survive: the icon is
never shown and closing quits. Where a test needs a tray, it says the desktop has one
(`tray.available`), the one platform fact it stands in for.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest

from desktop.engine.notices import Notice
from desktop.engine.settings_service import SettingsService
from desktop.storage.secrets import SecretStore
from desktop.ui.viewmodels.desktop_settings import DesktopSettingsModel
from desktop.ui.views.settings_pages.desktop_page import DesktopPage
from tests.support.settings_files import saved_settings, write_settings


def set_desktop(data_dir: Path, **values: object) -> None:
    data = saved_settings(data_dir)
    data["desktop"] = values
    (data_dir / "settings.json").write_text(json.dumps(data), encoding="utf-8")


def closed_count(parley) -> list[int]:
    count = [0]
    parley.window.closed.connect(lambda: count.__setitem__(0, count[0] + 1))
    return count


def test_without_a_tray_host_the_icon_stays_hidden_and_closing_quits(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    set_desktop(tmp_path, close_to_tray=True)
    parley = driver.start(tmp_path)
    tray = parley.shell.tray
    assert not tray.available and not tray.icon.isVisible()
    assert not tray.show_notice(Notice("", "Parley", "nowhere to show this"))
    closed = closed_count(parley)
    parley.window.close()
    assert closed == [1]  # the app ends: nothing could bring a hidden window back


def test_the_tray_menu_opens_a_chat_shows_the_window_toggles_floating_and_quits(
    driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    tray = parley.shell.tray
    assert [a.text() for a in tray.menu.actions() if not a.isSeparator()] == [
        "New Chat",
        "Show Parley",
        "Floating Chat",
        "Quit Parley",
    ]
    parley.chat_vm.workspace.set_folder(str(tmp_path))  # an open chat with a conversation
    first = parley.chat_vm.conversationId
    parley.window.hide()
    tray.new_chat_action.trigger()
    assert parley.window.isVisible() and parley.chat_vm.conversationId != first

    parley.window.hide()
    tray.icon.activated.emit(tray.icon.ActivationReason.Trigger)  # a left click
    assert parley.window.isVisible()

    assert tray.floating_action.isEnabled()
    tray.floating_action.trigger()
    assert parley.floating.isVisible()
    tray.floating_action.trigger()
    assert not parley.floating.isVisible()

    closed = closed_count(parley)
    tray.quit_action.trigger()
    assert closed == [1]


def test_close_to_tray_hides_the_window_hints_once_and_quit_really_quits(
    notification_daemon,
    driver,
    sse_server,
    tmp_path,
):
    write_settings(tmp_path, sse_server.base_url)
    set_desktop(tmp_path, close_to_tray=True)
    parley = driver.start(tmp_path)
    parley.shell.tray.available = True  # a desktop with a tray host
    closed = closed_count(parley)

    async def body() -> None:
        parley.window.close()
        assert not parley.window.isVisible() and closed == [0]
        await driver.until(lambda: len(notification_daemon.calls) == 1)
        assert "still running in the tray" in notification_daemon.calls[0].body

        parley.shell.tray.show_action.trigger()
        assert parley.window.isVisible()
        parley.window.close()  # hidden again, without a second hint
        assert not parley.window.isVisible() and closed == [0]

        parley.shell.tray.quit_action.trigger()  # works on the hidden window
        assert closed == [1]

    driver.run(body())
    assert len(notification_daemon.calls) == 1

    # The hint was once, not once a run.
    driver.close(parley)
    parley = driver.start(tmp_path)
    parley.shell.tray.available = True
    parley.window.close()
    assert not parley.window.isVisible()
    driver.run(driver.until(lambda: True))
    parley.window.quit()  # File → Quit
    assert len(notification_daemon.calls) == 1


def test_file_quit_quits_even_with_close_to_tray(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    set_desktop(tmp_path, close_to_tray=True)
    parley = driver.start(tmp_path)
    parley.shell.tray.available = True
    closed = closed_count(parley)
    quit_action = next(
        a for a in parley.window.menuBar().actions()[0].menu().actions() if a.text() == "&Quit"
    )
    quit_action.trigger()
    assert closed == [1]


def test_the_desktop_page_saves_its_choices_and_says_why_the_tray_is_off(
    driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    page = dialog.desktop
    assert dialog.title_of(page) == "Desktop"
    # No tray host offscreen: the choice is off, with the reason beside it.
    assert not page.close_to_tray.isEnabled() and not page.close_to_tray.isChecked()
    assert "no system tray" in page.tray_note.text()
    # Nor global shortcuts: the field shows the saved value and says why it is off.
    assert page.shortcut.keySequence() == QKeySequence("Ctrl+Alt+Space")
    assert not page.shortcut.isEnabled()
    assert "offscreen" in page.shortcut_note.text()

    assert page.notifications.isChecked()
    page.notifications.click()
    assert saved_settings(tmp_path)["desktop"] == {"notifications": False}
    assert (dialog.bar.state.text(), dialog.bar.detail.text()) == (
        "Saved",
        "Notifications changed",
    )
    assert not parley.settings.settings.desktop.notifications


def test_the_shortcut_is_registered_before_it_is_saved(tmp_path, qtbot):
    """The page with a desktop that has a tray and takes global shortcuts, but where
    another application already holds Ctrl+Alt+N."""
    registered: list[str] = []

    def register(sequence: str) -> str | None:
        if sequence == "Ctrl+Alt+N":
            return "Ctrl+Alt+N is taken by another application."
        registered.append(sequence)
        return None

    service = SettingsService(tmp_path / "settings.json", SecretStore())
    model = DesktopSettingsModel(service, tray_available=lambda: True)
    model.attach_global_shortcut(register, lambda: (True, ""))
    page = DesktopPage(model)
    qtbot.addWidget(page)
    assert page.close_to_tray.isEnabled() and page.shortcut.isEnabled()

    page.close_to_tray.click()
    assert saved_settings(tmp_path)["desktop"] == {"close_to_tray": True}

    page.shortcut.setFocus()
    QTest.keyClick(page.shortcut, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    assert registered == ["Ctrl+J"]
    assert saved_settings(tmp_path)["desktop"]["floating_shortcut"] == "Ctrl+J"

    page.shortcut.setFocus()
    QTest.keyClick(
        page.shortcut,
        Qt.Key.Key_N,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier,
    )
    assert page.shortcut_problem.text() == "Ctrl+Alt+N is taken by another application."
    assert page.shortcut_problem.property("tone") == "error"
    assert registered == ["Ctrl+J", "Ctrl+J"]  # the saved one put back
    assert saved_settings(tmp_path)["desktop"]["floating_shortcut"] == "Ctrl+J"
    assert page.shortcut.keySequence() == QKeySequence("Ctrl+J")

    page.no_shortcut.click()
    assert registered[-1] == ""
    assert saved_settings(tmp_path)["desktop"]["floating_shortcut"] == ""
    assert page.shortcut.keySequence().isEmpty() and not page.no_shortcut.isEnabled()
