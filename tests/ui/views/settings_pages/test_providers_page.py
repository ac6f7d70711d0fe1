"""The provider form: presets, test connection, custom headers and extra body, and
per-model capability overrides, through the real settings window. There is no Save
button: a change is saved as it is made, and what cannot be saved says so beside its
field."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QLineEdit, QMessageBox, QPushButton

from desktop.app import Parley
from desktop.ui.views.labels import MarkupLabel
from desktop.ui.views.settings_pages.providers_page import ProvidersPage
from tests.support.app_driver import AppDriver
from tests.support.settings_files import saved_settings, write_settings
from tests.support.sse_server import (
    Sleep,
    completion_body,
    error_response,
    json_response,
    models_body,
)
from tests.support.ui_actions import click


def providers_page(parley: Parley) -> ProvidersPage:
    parley.window.show_settings()
    return parley.window._settings_dialog.providers


def open_providers(driver: AppDriver, data_dir: Path) -> ProvidersPage:
    return providers_page(driver.start(data_dir))


def saved_providers(data_dir: Path) -> list[dict[str, Any]]:
    """The providers in the settings file as it is on disk now (none before one)."""
    path = data_dir / "settings.json"
    return saved_settings(data_dir).get("providers", []) if path.exists() else []


def until(driver: AppDriver, predicate: Callable[[], bool]) -> None:
    driver.run(driver.until(predicate))


def finish(edit: QLineEdit, text: str) -> None:
    """Type `text` over what `edit` holds and press Enter, as a person finishes a field."""
    edit.setFocus()
    edit.selectAll()
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def test_choosing_a_preset_makes_the_provider_at_once_and_changes_are_saved_as_made(
    driver, tmp_path, memory_keyring
):
    page = open_providers(driver, tmp_path)
    assert page.adding
    assert set(page.picker.buttons) == {
        "openai",
        "anthropic",
        "gemini",
        "ollama",
        "deepseek",
        "openrouter",
        "groq",
        "lmstudio",
        "custom",
    }
    assert page.list.placeholder() == "No providers yet — choose a service on the right."
    assert not [b for b in page.findChildren(QPushButton) if b.text().startswith("Save")]

    click(page.picker.buttons["anthropic"])
    form = page.form
    assert not page.adding
    assert form.name.text() == "Anthropic"
    assert form.kind.currentData() == "anthropic"
    assert form.base_url.text() == "https://api.anthropic.com"
    assert form.api_key.placeholderText() == "Required for this service"
    assert "console.anthropic.com" in form.key_link.text() and form.key_link.isVisible()
    assert page.window().focusWidget() is form.api_key
    # Made at once, without a Save, and selected in the list.
    until(driver, lambda: page.list.count() == 1)
    assert saved_providers(tmp_path) == [
        {
            "id": "anthropic",
            "name": "Anthropic",
            "kind": "anthropic",
            "base_url": "https://api.anthropic.com",
            "models": [],
        }
    ]
    assert page.list.currentItem().text() == "Anthropic"
    assert page.list.placeholder() == ""
    assert not page.list.currentItem().icon().isNull()  # its monogram

    click(page.add_button)
    assert page.adding
    click(page.picker.buttons["ollama"])
    assert (form.name.text(), form.kind.currentData(), form.base_url.text()) == (
        "Ollama",
        "ollama",
        "http://127.0.0.1:11434",
    )
    assert form.api_key.placeholderText() == "Not needed for most local servers"
    assert not form.kind_hint.isVisible()
    assert not form.key_link.isVisible()
    until(driver, lambda: page.list.count() == 2)

    # A custom server waits for its name and address: nothing is made yet.
    click(page.add_button)
    click(page.picker.buttons["custom"])
    assert (form.name.text(), form.base_url.text(), form.kind.currentData()) == (
        "",
        "",
        "openai_chat",
    )
    assert not any(label.error for label in form.errors.values())  # nothing typed yet
    assert len(saved_providers(tmp_path)) == 2

    click(page.add_button)
    click(page.picker.buttons["openai"])
    assert form.base_url.text() == "https://api.openai.com/v1"
    assert form.kind_hint.isVisible()
    assert form.kind_hint.text() == "This service also speaks: OpenAI Responses"
    until(driver, lambda: page.list.count() == 3)
    form.kind.setCurrentIndex(form.kind.findData("openai_responses"))  # OpenAI speaks both
    finish(form.api_key, "sk-openai-1")  # saved to the keyring when the field is left
    form.models.setFocus()
    QTest.keyClicks(form.models, "gpt-5")  # saved once typing pauses

    until(driver, lambda: saved_providers(tmp_path)[-1].get("models") == ["gpt-5"])
    assert saved_providers(tmp_path)[-1] == {
        "id": "openai",
        "name": "OpenAI",
        "kind": "openai_responses",
        "base_url": "https://api.openai.com/v1",
        "models": ["gpt-5"],
        "default_model": "gpt-5",
    }
    assert memory_keyring.passwords[("Parley", "openai")] == "sk-openai-1"
    until(driver, lambda: form.api_key.text() == "")  # never shown again
    assert form.api_key.placeholderText() == "Saved in the keyring — leave empty to keep it"
    assert page.list.currentItem().text() == "OpenAI"
    assert [page.list.item(i).text() for i in range(3)] == ["Anthropic", "Ollama", "OpenAI"]


def test_test_connection_lists_the_models_without_blocking_the_window(driver, sse_server, tmp_path):
    page = open_providers(driver, tmp_path)
    click(page.picker.buttons["custom"])
    form = page.form
    QTest.keyClicks(form.base_url, sse_server.base_url)
    QTest.keyClicks(form.api_key, "sk-typed-key")
    sse_server.enqueue(Sleep(0.3), json_response(models_body(["llama3.2", "qwen3:8b"])))

    async def body() -> None:
        click(form.test_button)
        await driver.until(lambda: len(sse_server.requests) == 1)
        # Meanwhile the window goes on working.
        assert not form.test_button.isEnabled()
        assert form.connection_status.text() == "Connecting…"
        QTest.keyClicks(form.name, "Typed while testing")
        assert not (tmp_path / "settings.json").exists()  # testing saves nothing
        await driver.until(lambda: form.test_button.isEnabled())

    driver.run(body())
    assert form.connection_status.text() == "Connected: 2 models available."
    assert form.connection_status.property("tone") == "ok"
    assert form.model_ids() == ["llama3.2", "qwen3:8b"]  # the empty list was filled
    assert form.name.text() == "Typed while testing"
    request = sse_server.requests[0]
    assert (request.method, request.path) == ("GET", "/v1/models")
    assert request.headers["authorization"] == "Bearer sk-typed-key"
    # The models filling the empty list are a change: the provider, named now, is saved.
    until(driver, lambda: bool(saved_providers(tmp_path)))
    assert saved_providers(tmp_path)[0]["models"] == ["llama3.2", "qwen3:8b"]
    assert saved_providers(tmp_path)[0]["name"] == "Typed while testing"


def test_test_connection_shows_a_refused_key_in_words(driver, sse_server, tmp_path):
    page = open_providers(driver, tmp_path)
    click(page.picker.buttons["openrouter"])
    form = page.form
    form.base_url.setText(sse_server.base_url)
    QTest.keyClicks(form.api_key, "sk-wrong-key-123")
    sse_server.enqueue(
        error_response(401, "Incorrect API key provided: sk-wrong-key-123", code="invalid_api_key")
    )

    async def body() -> None:
        click(form.test_button)
        await driver.until(lambda: form.connection_status.property("tone") == "error")

    driver.run(body())
    text = form.connection_status.text()
    assert text.startswith("The server refused the API key (401)")
    assert "Incorrect API key provided" in text
    assert "sk-wrong-key-123" not in text  # the key is scrubbed from what is shown


def test_without_a_model_list_the_test_asks_the_model_for_one_token(driver, sse_server, tmp_path):
    page = open_providers(driver, tmp_path)
    click(page.picker.buttons["custom"])
    form = page.form
    form.base_url.setText(sse_server.base_url)
    form.models.setPlainText("gateway-model")
    sse_server.script(
        error_response(404, "Not found"), json_response(completion_body("H", model="gateway-model"))
    )

    async def body() -> None:
        click(form.test_button)
        await driver.until(lambda: form.connection_status.property("tone") == "ok")

    driver.run(body())
    assert form.connection_status.text() == "Connected: gateway-model answered."
    chat = sse_server.requests[1]
    assert chat.path == "/v1/chat/completions"
    assert chat.json["model"] == "gateway-model"
    assert chat.json["messages"] == [{"role": "user", "content": "Hi"}]
    assert chat.json.get("max_tokens", chat.json.get("max_completion_tokens")) == 1


def test_a_server_without_a_model_list_asks_for_model_ids_not_a_new_url(
    driver, sse_server, tmp_path
):
    """Fetch models and Test connection against a server answering 404 on /models: they
    say the server keeps no list, put the cursor in Models, and a typed id then works."""
    page = open_providers(driver, tmp_path)
    click(page.picker.buttons["custom"])
    form = page.form
    form.base_url.setText(sse_server.base_url)
    no_list = error_response(404, "Unknown route GET /v1/models", code="not_found")
    typed_answer = json_response(completion_body("H", model="typed-1"))
    sse_server.script(no_list, no_list, no_list, typed_answer)

    async def fetch() -> None:
        click(form.fetch_button)
        await driver.until(lambda: page.status.property("tone") == "error")

    driver.run(fetch())
    assert page.status.text().startswith("This server does not list its models (it answered 404")
    assert "Type the model ids under Models" in page.status.text()
    assert "does not know this address" not in page.status.text()
    assert page.window().focusWidget() is form.models
    assert "keeps no model list" in form.models.placeholderText()

    async def test_without_a_model() -> None:
        click(form.test_button)
        await driver.until(lambda: form.connection_status.property("tone") == "error")

    driver.run(test_without_a_model())
    assert form.connection_status.text().startswith("This server does not list its models")
    assert len(sse_server.requests) == 2  # nothing asked of a model nobody named

    QTest.keyClicks(form.models, "typed-1")
    assert form.model_ids() == ["typed-1"]

    async def test_with_the_typed_model() -> None:
        click(form.test_button)
        await driver.until(lambda: form.connection_status.property("tone") == "ok")

    driver.run(test_with_the_typed_model())
    assert form.connection_status.text() == "Connected: typed-1 answered."
    assert sse_server.requests[3].json["model"] == "typed-1"


def test_an_invalid_extra_body_or_header_is_explained_and_nothing_is_saved(
    driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)
    before = (tmp_path / "settings.json").read_bytes()
    page = open_providers(driver, tmp_path)
    form = page.form
    assert form.name.text() == "Local"
    body_error, headers_error = form.errors["extra_body"], form.errors["headers"]

    form.extra_body.setPlainText('{"top_k": 40,\n "stop": }')  # saved after a pause: refused
    until(driver, lambda: bool(body_error.error))
    assert body_error.error == (
        "Extra JSON body is not valid JSON: Expecting value (line 2, column 10)."
    )
    assert body_error.isVisible() and body_error.property("tone") == "error"

    form.extra_body.setPlainText("[1, 2]")
    until(driver, lambda: body_error.error.startswith("Extra JSON body must be"))
    assert body_error.error == 'Extra JSON body must be a JSON object, such as {"top_k": 40}.'
    assert form.extra_body.toPlainText() == "[1, 2]"  # kept as typed

    driver.run(driver.until(lambda: True))
    assert (tmp_path / "settings.json").read_bytes() == before  # nothing saved

    form.extra_body.setPlainText('{"top_k": 40, "options": {"num_ctx": 8192}}')
    until(driver, lambda: "extra_body" in saved_providers(tmp_path)[0])
    assert not body_error.error and not body_error.isVisible()

    form.headers.add_row()
    form.headers.table.item(0, 1).setText("1")
    form.headers.table.item(0, 0).setText("X Bad Name")  # a cell edited: saved at once
    assert headers_error.error == "Custom header 'X Bad Name' is not a valid HTTP header name."
    driver.run(driver.until(lambda: True))
    assert "headers" not in saved_providers(tmp_path)[0]  # not saved

    form.headers.table.item(0, 0).setText("X-Team")
    assert not headers_error.error
    form.headers.add_row()  # left empty: ignored
    assert form.headers.table.rowCount() == 2
    until(driver, lambda: "headers" in saved_providers(tmp_path)[0])
    provider = saved_providers(tmp_path)[0]
    assert provider["headers"] == {"X-Team": "1"}
    assert provider["extra_body"] == {"top_k": 40, "options": {"num_ctx": 8192}}
    until(driver, lambda: page.status.text() == "Saved.")

    # Shown again as saved, the body pretty-printed.
    click(page.add_button)
    page.list.setCurrentRow(0)
    assert form.headers.headers() == (("X-Team", "1"),)
    assert json.loads(form.extra_body.toPlainText()) == provider["extra_body"]


def test_a_name_or_address_that_cannot_be_saved_is_said_beside_it(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    before = (tmp_path / "settings.json").read_bytes()
    page = open_providers(driver, tmp_path)
    form = page.form
    name_error, url_error = form.errors["name"], form.errors["base_url"]

    form.name.setFocus()
    form.name.clear()
    QTest.keyClick(form.name, Qt.Key.Key_Return)
    assert name_error.error == "Give the provider a name."
    assert name_error.isVisible()
    driver.run(driver.until(lambda: True))
    assert (tmp_path / "settings.json").read_bytes() == before  # nothing saved

    finish(form.name, "Renamed")
    assert not name_error.error
    until(driver, lambda: saved_providers(tmp_path)[0]["name"] == "Renamed")
    assert page.list.item(0).text() == "Renamed"

    finish(form.base_url, "ftp://files.example.com")
    assert url_error.error == "Base URL must be an http:// or https:// URL with a host."
    assert form.base_url.text() == "ftp://files.example.com"  # kept as typed
    driver.run(driver.until(lambda: True))
    assert saved_providers(tmp_path)[0]["base_url"] == sse_server.base_url  # not saved

    finish(form.base_url, sse_server.base_url + "/v2")
    until(driver, lambda: saved_providers(tmp_path)[0]["base_url"].endswith("/v2"))
    assert not url_error.error


def test_the_stall_timeout_is_saved_and_shown_again(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    page = providers_page(parley)
    field = page.form.stall_timeout
    assert field.value() == 90
    assert (field.minimum(), field.maximum(), field.suffix()) == (10, 3600, " s")
    field.setValue(900)  # saved once the stepping pauses

    until(driver, lambda: saved_providers(tmp_path)[0].get("stall_timeout") == 900)
    assert parley.settings.settings.providers[0].stall_timeout == 900  # in use at once

    driver.close(parley)
    page = open_providers(driver, tmp_path)
    assert page.form.stall_timeout.value() == 900
    click(page.add_button)
    click(page.picker.buttons["custom"])
    assert page.form.stall_timeout.value() == 90  # a new provider starts at the default


def test_capability_overrides_are_saved_and_shown_again(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url, models=("test-model", "gpt-4o"))
    parley = driver.start(tmp_path)
    page = providers_page(parley)
    editor = page.form.overrides
    assert [editor.model.itemText(i) for i in range(editor.model.count())] == [
        "test-model",
        "gpt-4o",
    ]
    # "Default" says what the known-model table assumes for the model shown.
    assert editor.flags["vision"].itemText(0) == "Default (off)"  # an unknown model
    assert editor.context.specialValueText() == "Default"

    editor.flags["vision"].setCurrentIndex(1)  # On
    editor.flags["reasoning"].setCurrentIndex(1)
    editor.context.setValue(32768)
    editor.model.setCurrentText("gpt-4o")
    assert editor.flags["vision"].itemText(0) == "Default (on)"
    assert editor.flags["vision"].currentIndex() == 0  # its own, untouched values
    assert editor.context.specialValueText() == "Default (128,000)"
    editor.flags["tools"].setCurrentIndex(2)  # Off
    editor.flags["system_role"].setCurrentIndex(2)

    expected = {
        "test-model": {"vision": True, "reasoning": True, "context_length": 32768},
        "gpt-4o": {"tools": False, "system_role": False},
    }
    until(driver, lambda: saved_providers(tmp_path)[0].get("model_overrides") == expected)
    # The engine sees them at once.
    caps = parley.settings.capabilities(parley.settings.settings.all_models()[0])
    assert (caps.supports_vision, caps.supports_reasoning, caps.context_length) == (
        True,
        True,
        32768,
    )

    driver.close(parley)
    page = open_providers(driver, tmp_path)
    editor = page.form.overrides
    assert editor.model.currentText() == "test-model"
    assert editor.flags["vision"].currentText() == "On"
    assert editor.flags["reasoning"].currentText() == "On"
    assert editor.flags["tools"].currentIndex() == 0
    assert editor.context.value() == 32768
    editor.model.setCurrentText("gpt-4o")
    assert editor.flags["tools"].currentText() == "Off"
    assert editor.flags["system_role"].currentText() == "Off"


def test_removing_a_model_drops_its_override(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url, models=("test-model", "other"))
    page = open_providers(driver, tmp_path)
    editor = page.form.overrides
    editor.model.setCurrentText("other")
    editor.flags["tools"].setCurrentIndex(1)
    until(driver, lambda: "model_overrides" in saved_providers(tmp_path)[0])
    page.form.models.setPlainText("test-model")
    assert [editor.model.itemText(i) for i in range(editor.model.count())] == ["test-model"]

    until(driver, lambda: saved_providers(tmp_path)[0]["models"] == ["test-model"])
    assert "model_overrides" not in saved_providers(tmp_path)[0]


def test_the_default_shown_for_a_model_includes_what_the_endpoint_says(
    driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url, models=("test-model",))
    page = open_providers(driver, tmp_path)
    editor = page.form.overrides
    assert editor.flags["vision"].itemText(0) == "Default (off)"  # the table's guess
    assert editor.context.specialValueText() == "Default"
    # An OpenRouter-style list: this model reads images and has a 65,536-token window.
    item = {
        "id": "test-model",
        "context_length": 65536,
        "architecture": {"input_modalities": ["text", "image"], "output_modalities": ["text"]},
    }
    sse_server.enqueue(json_response({"data": [item]}))

    async def body() -> None:
        click(page.form.fetch_button)
        await driver.until(lambda: editor.flags["vision"].itemText(0) == "Default (on)")
        # (the count's English plural comes from the translations)
        await driver.until(lambda: page.status.text().endswith("found and saved."))

    driver.run(body())
    assert editor.model.currentText() == "test-model"
    assert editor.flags["vision"].itemText(0) == "Default (on)"
    assert editor.context.specialValueText() == "Default (65,536)"
    assert editor.flags["vision"].currentIndex() == 0  # still no override of the person's


def test_only_labels_made_to_open_links_open_them_and_only_to_fixed_addresses(
    driver, tmp_path, memory_keyring
):
    """A label that opens its links itself says so (`MarkupLabel(opens_links=True)`);
    every other link is reported to Parley, which decides whether to open it."""
    page = open_providers(driver, tmp_path)
    click(page.picker.buttons["openai"])
    labels = page.window().findChildren(QLabel)
    opening = [label for label in labels if label.openExternalLinks()]
    assert opening == [page.form.key_link]
    assert all(isinstance(label, MarkupLabel) and label.opens_links for label in opening)
    assert (
        page.form.key_link.text()
        == '<a href="https://platform.openai.com/api-keys">Get an API key</a>'
    )


def test_an_edit_survives_choosing_another_provider_undo_and_remove_asking_first(
    driver, sse_server, tmp_path, memory_keyring
):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    page = providers_page(parley)
    form = page.form
    click(page.add_button)
    click(page.picker.buttons["ollama"])
    until(driver, lambda: page.list.count() == 2)

    page.list.setCurrentRow(0)
    assert form.name.text() == "Local"
    form.models.setPlainText("test-model\nsecond")  # waits for a pause in typing
    page.list.setCurrentRow(1)  # ... which choosing another one does not wait for
    assert form.name.text() == "Ollama"
    until(driver, lambda: saved_providers(tmp_path)[0]["models"] == ["test-model", "second"])

    # An edit that cannot be saved keeps its provider shown, with the reason, and what
    # was typed: choosing another one does not put it over the typing.
    page.list.setCurrentRow(0)
    form.extra_body.setPlainText('{"temperature": 0.2,}')  # a typo: not JSON
    page.list.setCurrentRow(1)
    assert page.list.current_id() == form.provider_id == "local"
    assert form.errors["extra_body"].error and form.name.text() == "Local"
    assert form.extra_body.toPlainText() == '{"temperature": 0.2,}'
    form.extra_body.setPlainText("")
    form.flush()
    assert not form.has_error()

    # Undo in the window: the form shows the provider as it is again.
    page.list.setCurrentRow(0)
    finish(form.name, "Renamed")
    until(driver, lambda: saved_providers(tmp_path)[0]["name"] == "Renamed")
    until(driver, lambda: parley.settings_vm.undo.next_undo != "")
    parley.settings_vm.undo.undo()
    until(driver, lambda: form.name.text() == "Local")
    assert page.list.item(0).text() == "Local"

    def answer(text: str) -> None:
        box = page.confirm_box
        assert isinstance(box, QMessageBox) and "“Local”" in box.text()
        next(b for b in box.buttons() if b.text() == text).click()

    click(page.remove_button)
    answer("Cancel")
    assert len(saved_providers(tmp_path)) == 2
    click(page.remove_button)
    answer("Delete")
    until(driver, lambda: [p["id"] for p in saved_providers(tmp_path)] == ["ollama"])
    assert page.adding and page.list.count() == 1
