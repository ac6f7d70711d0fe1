"""Setting up a provider as a newcomer does, and what happens with bad settings or no keyring."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import keyring
from keyring.backends import fail
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.settings_files import write_settings
from tests.support.sse_server import json_response, models_body


def default_model_saved(data_dir: Path) -> str | None:
    """The first provider's default model in the settings file, once there is one."""
    path = data_dir / "settings.json"
    providers = json.loads(path.read_text(encoding="utf-8"))["providers"] if path.exists() else []
    return providers[0].get("default_model") if providers else None


def test_a_newcomer_is_greeted_and_sets_up_a_provider(driver, sse_server, tmp_path, memory_keyring):
    parley = driver.start(tmp_path)
    chat_view = parley.window.chat_view
    assert chat_view.pages.currentWidget() is chat_view.onboarding

    QTest.mouseClick(chat_view.onboarding.setup_button, Qt.MouseButton.LeftButton)
    dialog = parley.window._settings_dialog
    assert dialog is not None and dialog.isVisible()
    page = dialog.providers
    assert page.adding  # adding starts from the preset picker
    QTest.mouseClick(page.picker.buttons["custom"], Qt.MouseButton.LeftButton)
    form = page.form
    QTest.keyClicks(form.name, "My Server")
    QTest.keyClicks(form.base_url, sse_server.base_url)
    QTest.keyClicks(form.api_key, "sk-test-secret-123")

    sse_server.enqueue(json_response(models_body(["llama3.2", "qwen2.5"])))

    async def body() -> None:
        QTest.mouseClick(form.fetch_button, Qt.MouseButton.LeftButton)
        await driver.until(lambda: form.models.toPlainText() == "llama3.2\nqwen2.5")
        assert sse_server.requests[-1].path.endswith("/v1/models")
        assert sse_server.requests[-1].headers["authorization"] == "Bearer sk-test-secret-123"
        form.default_model.setCurrentText("qwen2.5")  # saved as chosen: no Save button
        await driver.until(lambda: default_model_saved(tmp_path) == "qwen2.5")

    driver.run(body())
    assert chat_view.pages.currentWidget() is not chat_view.onboarding
    # The composer took the provider's models as soon as they were saved (the first,
    # the default then); the default chosen afterwards is the provider's from now on.
    assert chat_view.composer.model_picker.currentText().endswith(" — My Server")

    saved = (tmp_path / "settings.json").read_text(encoding="utf-8")
    assert "sk-test-secret-123" not in saved
    assert json.loads(saved)["providers"][0]["id"] == "my-server"
    assert memory_keyring.passwords[("Parley", "my-server")] == "sk-test-secret-123"
    log = tmp_path / "logs" / "parley.log"
    assert not log.exists() or "sk-test-secret-123" not in log.read_text(encoding="utf-8")


def test_the_stored_key_is_sent_with_chat_requests(driver, sse_server, tmp_path, memory_keyring):
    write_settings(tmp_path, sse_server.base_url)
    memory_keyring.passwords[("Parley", "local")] = "sk-stored-key-456"
    parley = driver.start(tmp_path)

    async def body() -> None:
        assert parley.chat_vm.submit("hi")
        await driver.until(lambda: len(sse_server.requests) == 1)

    driver.run(body())
    assert sse_server.requests[0].headers["authorization"] == "Bearer sk-stored-key-456"


def test_an_invalid_settings_file_is_explained_kept_and_the_app_still_starts(
    driver, sse_server, tmp_path
):
    bad = '{"version": 1, "providers": [{"id": "local", "base_url": "localhost:8080"}]}'
    (tmp_path / "settings.json").write_text(bad, encoding="utf-8")
    parley = driver.start(tmp_path)
    banner = parley.window.chat_view.banner
    assert banner.isVisible()
    assert "providers[0].base_url" in banner.text()
    assert (tmp_path / "settings.json").read_text(encoding="utf-8") == bad  # untouched
    backups = list(tmp_path.glob("settings.invalid-*.json"))
    assert len(backups) == 1 and backups[0].read_text(encoding="utf-8") == bad
    assert str(backups[0]) in banner.text()
    assert parley.window.chat_view.pages.currentWidget() is parley.window.chat_view.onboarding


def test_without_a_keyring_settings_say_so_and_a_keyless_provider_still_works(
    driver, sse_server, tmp_path
):
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        write_settings(tmp_path, sse_server.base_url)
        parley = driver.start(tmp_path)
        parley.window.show_settings()
        page = parley.window._settings_dialog.providers
        assert page.keyring_note.isVisible() and "keyring" in page.keyring_note.text().lower()
        assert not page.form.api_key.isEnabled()

        async def body() -> None:
            assert parley.chat_vm.submit("hello without a key")
            await driver.until(lambda: not parley.chat_vm.busy and len(sse_server.requests) == 1)

        driver.run(body())
        assert "authorization" not in sse_server.requests[0].headers
        path = parley.chat.active_path(parley.chat_vm.conversationId)
        assert path[-1].text == "Hello from the test server."
    finally:
        keyring.set_keyring(previous)


def test_a_chosen_file_keyring_is_used_and_the_window_says_what_it_is(
    driver, sse_server, tmp_path, monkeypatch
):
    """PYTHON_KEYRING_BACKEND naming keyrings.alt's plain-text file, as the README says
    for a machine without a Secret Service: keys can be saved, and the note says where
    and that they are not encrypted, instead of "no keyring"."""
    from keyrings.alt.file import PlaintextKeyring

    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    previous = keyring.get_keyring()
    keyring.set_keyring(PlaintextKeyring())
    try:
        write_settings(tmp_path / "data", sse_server.base_url)
        parley = driver.start(tmp_path / "data")
        parley.window.show_settings()
        page = parley.window._settings_dialog.providers
        note = page.keyring_note.text()
        assert page.keyring_note.isVisible()
        assert "no system keyring" not in note.lower() and "insecure" not in note
        assert "stored by PlaintextKeyring in" in note and "not encrypted" in note
        assert page.form.api_key.isEnabled()
        page.form.api_key.setText("sk-file-keyring-321")

        async def body() -> None:
            QTest.keyClick(page.form.api_key, Qt.Key.Key_Return)  # saved when finished
            await driver.until(lambda: page.status.text() == "Saved.")

        driver.run(body())
        assert (tmp_path / "xdg" / "python_keyring" / "keyring_pass.cfg").is_file()
        assert PlaintextKeyring().get_password("Parley", "local") == "sk-file-keyring-321"
    finally:
        keyring.set_keyring(previous)


def test_theme_and_text_size_apply_at_once_and_are_saved(driver, tmp_path):
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    appearance = parley.window._settings_dialog.appearance
    appearance.theme.setCurrentIndex(appearance.theme.findData("dark"))
    assert parley.theme.dark
    assert parley.window.palette().window().color().lightness() < 80
    appearance.font_size.setValue(15)
    driver.run(asyncio.sleep(0.05))  # font changes reach widgets as events
    assert parley.window.font().pointSize() == 15
    appearance.font_size.setValue(appearance.font_size.minimum())  # "System"
    driver.run(asyncio.sleep(0.05))
    assert parley.window.font().pointSize() != 15
    saved = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert saved["appearance"] == {"theme": "dark"}
