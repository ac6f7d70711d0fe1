"""The provider form: presets, test connection, custom headers and extra body, and
per-model capability overrides, through the real settings window."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

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


def test_choosing_a_preset_fills_in_the_service_and_saving_keeps_it(
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

    click(page.picker.buttons["anthropic"])
    form = page.form
    assert not page.adding
    assert form.name.text() == "Anthropic"
    assert form.kind.currentData() == "anthropic"
    assert form.base_url.text() == "https://api.anthropic.com"
    assert form.api_key.placeholderText() == "Required for this service"
    assert "console.anthropic.com" in form.key_link.text() and form.key_link.isVisible()
    assert page.window().focusWidget() is form.api_key

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

    click(page.add_button)
    click(page.picker.buttons["custom"])
    assert (form.name.text(), form.base_url.text(), form.kind.currentData()) == (
        "",
        "",
        "openai_chat",
    )

    click(page.add_button)
    click(page.picker.buttons["openai"])
    assert form.base_url.text() == "https://api.openai.com/v1"
    assert form.kind_hint.isVisible()
    assert form.kind_hint.text() == "This service also speaks: OpenAI Responses"
    form.kind.setCurrentIndex(form.kind.findData("openai_responses"))  # OpenAI speaks both
    QTest.keyClicks(form.api_key, "sk-openai-1")
    QTest.keyClicks(form.models, "gpt-5")

    async def body() -> None:
        click(page.save_button)
        await driver.until(lambda: page.status.text() == "Saved.")

    driver.run(body())
    assert saved_settings(tmp_path)["providers"] == [
        {
            "id": "openai",
            "name": "OpenAI",
            "kind": "openai_responses",
            "base_url": "https://api.openai.com/v1",
            "models": ["gpt-5"],
            "default_model": "gpt-5",
        }
    ]
    assert memory_keyring.passwords[("Parley", "openai")] == "sk-openai-1"
    assert page.list.currentItem().text() == "OpenAI"


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
        await driver.until(lambda: form.test_button.isEnabled())

    driver.run(body())
    assert form.connection_status.text() == "Connected: 2 models available."
    assert form.connection_status.property("tone") == "ok"
    assert form.model_ids() == ["llama3.2", "qwen3:8b"]  # the empty list was filled
    assert form.name.text() == "Typed while testing"
    request = sse_server.requests[0]
    assert (request.method, request.path) == ("GET", "/v1/models")
    assert request.headers["authorization"] == "Bearer sk-typed-key"
    assert not (tmp_path / "settings.json").exists()  # testing saves nothing


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

    form.extra_body.setPlainText('{"top_k": 40,\n "stop": }')
    click(page.save_button)
    assert page.status.text() == (
        "Extra JSON body is not valid JSON: Expecting value (line 2, column 10)."
    )
    assert page.status.property("tone") == "error"

    form.extra_body.setPlainText("[1, 2]")
    click(page.save_button)
    assert page.status.text() == 'Extra JSON body must be a JSON object, such as {"top_k": 40}.'

    form.extra_body.setPlainText('{"top_k": 40, "options": {"num_ctx": 8192}}')
    form.headers.set_headers((("X Bad Name", "1"),))
    click(page.save_button)
    assert page.status.text() == "Custom header 'X Bad Name' is not a valid HTTP header name."

    driver.run(driver.until(lambda: True))
    assert (tmp_path / "settings.json").read_bytes() == before

    form.headers.table.item(0, 0).setText("X-Team")
    form.headers.add_row()  # left empty: ignored
    assert form.headers.table.rowCount() == 2

    async def body() -> None:
        click(page.save_button)
        await driver.until(lambda: page.status.text() == "Saved.")

    driver.run(body())
    provider = saved_settings(tmp_path)["providers"][0]
    assert provider["headers"] == {"X-Team": "1"}
    assert provider["extra_body"] == {"top_k": 40, "options": {"num_ctx": 8192}}

    # Shown again as saved, the body pretty-printed.
    click(page.add_button)
    page.list.setCurrentRow(0)
    assert form.headers.headers() == (("X-Team", "1"),)
    assert json.loads(form.extra_body.toPlainText()) == provider["extra_body"]


def test_the_stall_timeout_is_saved_and_shown_again(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    page = providers_page(parley)
    field = page.form.stall_timeout
    assert field.value() == 90
    assert (field.minimum(), field.maximum(), field.suffix()) == (10, 3600, " s")
    field.setValue(900)

    async def body() -> None:
        click(page.save_button)
        await driver.until(lambda: page.status.text() == "Saved.")

    driver.run(body())
    assert saved_settings(tmp_path)["providers"][0]["stall_timeout"] == 900
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

    async def body() -> None:
        click(page.save_button)
        await driver.until(lambda: page.status.text() == "Saved.")

    driver.run(body())
    assert saved_settings(tmp_path)["providers"][0]["model_overrides"] == {
        "test-model": {"vision": True, "reasoning": True, "context_length": 32768},
        "gpt-4o": {"tools": False, "system_role": False},
    }
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
    page.form.models.setPlainText("test-model")
    assert [editor.model.itemText(i) for i in range(editor.model.count())] == ["test-model"]

    async def body() -> None:
        click(page.save_button)
        await driver.until(lambda: page.status.text() == "Saved.")

    driver.run(body())
    assert "model_overrides" not in saved_settings(tmp_path)["providers"][0]


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
        await driver.until(lambda: page.status.text() == "1 model found. Save to use it.")

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
