"""The Network page, local servers found and added in one click, and the reasoning
effort beside the model picker, through the real windows."""

from __future__ import annotations

from collections.abc import Iterator

import certifi
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.core.settings import ProviderKind
from desktop.engine.local_servers import LocalServer
from tests.support.settings_files import saved_settings, write_settings
from tests.support.sse_server import SSEServer, json_response
from tests.support.ui_actions import click

OLLAMA_TAGS = {"models": [{"name": n, "model": n} for n in ("qwen3:8b", "llama3.2", "gemma3")]}


@pytest.fixture
def second_server() -> Iterator[SSEServer]:
    server = SSEServer().start()
    try:
        yield server
    finally:
        server.stop()


# --- network ------------------------------------------------------------------------


def type_and_enter(edit, text: str) -> None:
    edit.setFocus()
    edit.clear()
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def test_network_settings_are_checked_saved_as_changed_and_shown_again(driver, tmp_path):
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    page = dialog.network
    dialog.show_page(page)
    assert dialog.title_of(page) == "Network" == dialog.title.text()
    assert page.system_proxy.isChecked() and not page.proxy_url.isEnabled()
    assert not hasattr(page, "save_button")

    # Custom needs an address: choosing it saves nothing until one is typed.
    page.custom_proxy.click()
    assert page.proxy_url.isEnabled()
    assert not (tmp_path / "settings.json").exists()
    type_and_enter(page.proxy_url, "proxy.example.com:3128")
    assert page.proxy_problem.text() == "Proxy URL: must be a proxy URL such as http://host:3128."
    assert page.proxy_problem.property("tone") == "error" and page.proxy_problem.isVisibleTo(page)
    assert page.proxy_url.text() == "proxy.example.com:3128"  # kept to be mended

    type_and_enter(page.ca_bundle, str(tmp_path / "missing.pem"))
    assert page.ca_problem.text() == f"CA bundle: {tmp_path / 'missing.pem'} does not exist."
    not_pem = tmp_path / "notes.txt"
    not_pem.write_text("not a certificate", encoding="utf-8")
    type_and_enter(page.ca_bundle, str(not_pem))
    assert page.ca_problem.text().startswith(f"CA bundle: {not_pem} is not a readable PEM")
    assert not (tmp_path / "settings.json").exists()  # nothing saved while invalid
    assert page.proxy_url.text() == "proxy.example.com:3128"

    type_and_enter(page.proxy_url, "http://proxy.example.com:3128")
    assert not page.proxy_problem.isVisibleTo(page)
    assert saved_settings(tmp_path)["network"] == {
        "proxy_mode": "custom",
        "proxy_url": "http://proxy.example.com:3128",
    }
    assert page.ca_bundle.text() == str(not_pem)  # still there to be mended

    click(page.browse_button)
    page.file_dialog.selectFile(certifi.where())
    page.file_dialog.accept()
    assert page.ca_bundle.text() == certifi.where()
    assert not page.ca_problem.isVisibleTo(page)
    assert saved_settings(tmp_path)["network"] == {
        "proxy_mode": "custom",
        "proxy_url": "http://proxy.example.com:3128",
        "ca_bundle": certifi.where(),
    }
    assert dialog.bar.detail.text() == "CA bundle changed"

    driver.close(parley)
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    page = parley.window._settings_dialog.network
    assert page.custom_proxy.isChecked()
    assert page.proxy_url.text() == "http://proxy.example.com:3128"
    assert page.ca_bundle.text() == certifi.where()

    page.no_proxy.click()
    click(page.clear_button)
    assert saved_settings(tmp_path)["network"] == {
        "proxy_mode": "none",
        "proxy_url": "http://proxy.example.com:3128",  # kept for when custom is chosen again
    }


# --- local servers ------------------------------------------------------------------


def test_onboarding_offers_a_local_ollama_and_adds_it_in_one_click(driver, second_server, tmp_path):
    for _ in range(5):  # each look asks again
        second_server.enqueue(json_response(OLLAMA_TAGS))
    ollama = LocalServer(
        "Ollama", ProviderKind.OLLAMA, second_server.port, "", "/api/tags", "ollama"
    )
    parley = driver.start(tmp_path, local_servers=[ollama])
    chat_view = parley.window.chat_view
    found = chat_view.onboarding.found
    assert chat_view.pages.currentWidget() is chat_view.onboarding

    async def body() -> None:
        await driver.until(lambda: len(found.rows) == 1)
        row = found.rows[0]
        assert row.label.text() == "Found Ollama on this computer (3 models)"
        assert row.isVisible()
        click(row.add_button)
        await driver.until(lambda: chat_view.pages.currentWidget() is not chat_view.onboarding)
        await parley.tasks.drain()  # the new provider's model details are asked for next

    driver.run(body())
    assert saved_settings(tmp_path)["providers"] == [
        {
            "id": "ollama",
            "name": "Ollama",
            "kind": "ollama",
            "base_url": f"http://127.0.0.1:{second_server.port}",
            "models": ["gemma3", "llama3.2", "qwen3:8b"],
            "default_model": "gemma3",
        }
    ]
    assert chat_view.composer.model_picker.currentText() == "gemma3 — Ollama"
    assert second_server.requests[0].path == "/api/tags"


def test_the_providers_page_offers_a_running_server_not_yet_added(
    driver, sse_server, second_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)  # already a provider: not offered again
    servers = [
        LocalServer("vLLM", ProviderKind.OPENAI_CHAT, sse_server.port, "/v1", "/models"),
        LocalServer(
            "LM Studio", ProviderKind.OPENAI_CHAT, second_server.port, "/v1", "/models", "lmstudio"
        ),
    ]
    parley = driver.start(tmp_path, local_servers=servers)
    parley.window.show_settings()
    page = parley.window._settings_dialog.providers
    assert not page.adding  # the configured provider is shown first
    found = page.picker.found

    async def body() -> None:
        click(page.add_button)
        await driver.until(lambda: not parley.settings_vm.local_servers.detecting)
        assert [row.server.name for row in found.rows] == ["LM Studio"]
        assert found.rows[0].label.text() == "Found LM Studio on this computer (2 models)"
        click(found.rows[0].add_button)
        await driver.until(lambda: page.list.count() == 2)

    driver.run(body())
    assert saved_settings(tmp_path)["providers"][1] == {
        "id": "lmstudio",
        "name": "LM Studio",
        "kind": "openai_chat",
        "base_url": f"{second_server.url}/v1",
        "models": ["test-model", "test-model-mini"],
        "default_model": "test-model",
    }
    assert page.list.currentItem().text() == "LM Studio"  # shown, ready to adjust
    assert page.form.base_url.text() == f"{second_server.url}/v1"
    assert found.rows == []  # now configured: no longer offered
    assert found.note.text() == "No Ollama, LM Studio, llama.cpp or vLLM server is running here."


# --- reasoning effort ---------------------------------------------------------------


def test_the_effort_selector_shows_for_reasoning_models_only_and_is_kept(
    driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url, models=("plain-model", "o3-mini"))
    parley = driver.start(tmp_path)
    composer = parley.window.chat_view.composer
    assert composer.model_picker.currentText() == "plain-model — Local"
    assert not composer.effort.isVisible()  # an unknown model: no reasoning

    parley.chat_vm.models.select_model(1)
    assert composer.effort.isVisible()
    assert composer.effort.currentText() == "Reasoning medium"
    assert [composer.effort.itemData(i) for i in range(composer.effort.count())] == [
        "off",
        "low",
        "medium",
        "high",
        "max",
    ]
    composer.effort.setFocus()
    QTest.keyClick(composer.effort, Qt.Key.Key_Down)  # the person picks the next one
    assert composer.effort.currentText() == "Reasoning high"
    assert saved_settings(tmp_path)["reasoning_effort"] == "high"
    assert (
        parley.settings.request_options(parley.settings.settings.all_models()[1]).reasoning_effort
        == "high"
    )

    parley.chat_vm.models.select_model(0)
    assert not composer.effort.isVisible()

    driver.close(parley)
    parley = driver.start(tmp_path)
    composer = parley.window.chat_view.composer
    assert not composer.effort.isVisible()
    parley.chat_vm.models.select_model(1)
    assert composer.effort.currentText() == "Reasoning high"


def test_a_reasoning_override_shows_the_selector_for_that_model(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url, models=("plain-model",))
    parley = driver.start(tmp_path)
    composer = parley.window.chat_view.composer
    assert not composer.effort.isVisible()
    parley.window.show_settings()
    page = parley.window._settings_dialog.providers
    page.form.overrides.flags["reasoning"].setCurrentIndex(1)  # On: saved as chosen

    async def body() -> None:
        await driver.until(lambda: page.status.text() == "Saved.")

    driver.run(body())
    assert composer.effort.isVisibleTo(parley.window)
