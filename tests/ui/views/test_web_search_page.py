"""Settings → Web search through the real window: only the chosen engine's rows, each
field saved to the file as it changes and keys to the keyring (never shown again), a bad
address refused beside its field with the form kept, and a test search against a
loopback engine."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QLineEdit, QMessageBox

from desktop.core.web_search import BRAVE_KEY_SECRET, SEARXNG_PASSWORD_SECRET
from desktop.engine.settings_service import SettingsService
from desktop.storage.secrets import SecretStore
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.viewmodels.web_search_settings import TEST_QUERY, WebSearchSettingsModel
from desktop.ui.views.settings_pages.web_search_page import WebSearchPage
from tests.support.app_driver import AppDriver
from tests.support.memory_keyring import MemoryKeyring
from tests.support.settings_files import saved_settings, write_settings
from tests.support.sse_server import json_response
from tests.support.ui_actions import click
from tests.support.web_servers import WebServer, query_of

SERVICE = "Parley"  # the keyring service SecretStore() files keys under
BRAVE_KEY = "BSA-brave-key-0123456789"


@pytest.fixture
def web_server() -> Iterator[WebServer]:
    server = WebServer().start()
    try:
        yield server
    finally:
        server.stop()


def open_page(driver: AppDriver, data_dir: Path) -> WebSearchPage:
    parley = driver.start(data_dir)
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    dialog.show_page(dialog.web_search)  # shown: the keyring is asked
    return dialog.web_search


def choose(page: WebSearchPage, engine: str) -> None:
    page.engine.setCurrentIndex(page.engine.findData(engine))


def type_and_enter(edit: QLineEdit, text: str) -> None:
    """Type `text` into an emptied field and press Enter, as a person does."""
    edit.setFocus()
    edit.clear()
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def bar_text(page: WebSearchPage) -> str:
    bar = page.window().bar
    return f"{bar.state.text()}: {bar.detail.text()}"


def shown_text(page: WebSearchPage) -> list[str]:
    """Every text the page's fields and labels hold."""
    return [w.text() for w in page.findChildren(QLineEdit)] + [
        w.text() for w in page.findChildren(QLabel)
    ]


def test_the_page_follows_knowledge_and_shows_only_the_chosen_engines_rows(driver, tmp_path):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    page = open_page(driver, tmp_path)
    dialog = page.window()
    assert dialog.title_of(page) == "Web search" == dialog.title.text()
    titles = dialog.titles()
    before = titles[: titles.index("Web search")]
    assert before[before.index("Knowledge") + 1 :] in ([], ["Memory"])
    assert [page.engine.itemText(i) for i in range(page.engine.count())] == [
        "Off — models do not search the web",
        "SearXNG (your own instance)",
        "Brave Search (API key)",
        "Tavily (API key)",
        "DuckDuckGo (no key, may be rate-limited)",
    ]
    assert page.chosen == ""
    searxng = (page.searxng_url, page.searxng_username, page.searxng_password)
    rows = {*searxng, page.brave_key, page.tavily_key}

    def visible() -> set[object]:
        return {w for w in rows if w.isVisibleTo(page)}

    assert visible() == set()
    assert not page.test_button.isEnabled() and not page.max_results.isEnabled()
    assert not page.fetch_enabled.isEnabled()

    choose(page, "searxng")
    assert visible() == set(searxng)
    assert "search.formats" in page.note.text()
    assert page.test_button.isEnabled() and page.fetch_enabled.isEnabled()
    choose(page, "brave")
    assert visible() == {page.brave_key}
    choose(page, "tavily")
    assert visible() == {page.tavily_key}
    choose(page, "duckduckgo")
    assert visible() == set()
    assert "limits scripted searches" in page.note.text() and "SearXNG" in page.note.text()
    assert (page.max_results.minimum(), page.max_results.maximum()) == (1, 8)


def test_each_change_is_saved_at_once_and_the_key_only_to_the_keyring(
    driver, memory_keyring: MemoryKeyring, tmp_path
):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    page = open_page(driver, tmp_path)
    assert not hasattr(page, "save_button")  # nothing waits for a Save button
    choose(page, "brave")
    assert saved_settings(tmp_path)["web_search"] == {"engine": "brave"}
    assert bar_text(page) == "Saved: Web search engine changed"
    assert not page.brave_key.shows_saved
    type_and_enter(page.brave_key.edit, BRAVE_KEY)

    async def key_saved() -> None:
        await driver.until(lambda: page.brave_key.shows_saved)

    driver.run(key_saved())
    assert memory_keyring.passwords == {(SERVICE, BRAVE_KEY_SECRET): BRAVE_KEY}
    assert bar_text(page) == "Saved: API key saved in the keyring"
    page.max_results.setValue(3)
    page.fetch_enabled.click()
    assert saved_settings(tmp_path)["web_search"] == {
        "engine": "brave",
        "max_results": 3,
        "fetch_enabled": True,
    }
    assert BRAVE_KEY not in (tmp_path / "settings.json").read_text(encoding="utf-8")
    assert page.brave_key.typed == ""
    assert page.brave_key.saved_label.text() == "A key is saved"
    assert not any(BRAVE_KEY in text for text in shown_text(page))

    # Opened again, the page says a key is saved, and still never shows it.
    driver.close(driver.apps[0])
    page = open_page(driver, tmp_path)
    assert page.chosen == "brave" and page.max_results.value() == 3
    assert page.fetch_enabled.isChecked()
    driver.run(key_saved())
    assert page.brave_key.isVisibleTo(page) and page.brave_key.remove_button.isVisibleTo(page)
    assert not any(BRAVE_KEY in text for text in shown_text(page))

    # Replace offers an empty field; leaving it empty keeps the saved key.
    click(page.brave_key.replace_button)
    assert not page.brave_key.shows_saved and page.brave_key.edit.text() == ""
    QTest.keyClick(page.brave_key.edit, Qt.Key.Key_Return)
    assert page.brave_key.shows_saved
    assert memory_keyring.passwords == {(SERVICE, BRAVE_KEY_SECRET): BRAVE_KEY}

    # Remove asks first, then takes the key out of the keyring.
    click(page.brave_key.remove_button)
    box = page.confirm_box
    assert isinstance(box, QMessageBox)
    next(b for b in box.buttons() if b.text() == "Delete").click()

    async def removed() -> None:
        await driver.until(lambda: not page.brave_key.shows_saved)

    driver.run(removed())
    assert memory_keyring.passwords == {}
    assert bar_text(page) == "Saved: Removed from the keyring"
    assert saved_settings(tmp_path)["web_search"]["engine"] == "brave"


def test_a_bad_searxng_address_is_refused_beside_it_and_the_rest_still_saves(
    driver, memory_keyring: MemoryKeyring, tmp_path
):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    page = open_page(driver, tmp_path)
    choose(page, "searxng")
    type_and_enter(page.searxng_url, "searx.example.org")
    assert page.url_problem.isVisibleTo(page)
    assert page.url_problem.text() == (
        "SearXNG address: must be an http:// or https:// URL with a host."
    )
    assert page.url_problem.property("tone") == "error"
    assert saved_settings(tmp_path)["web_search"] == {"engine": "searxng"}  # no address
    assert page.searxng_url.text() == "searx.example.org"  # nothing typed is lost

    # The other fields save regardless, and a redraw keeps the refused address.
    type_and_enter(page.searxng_username, "me")
    type_and_enter(page.searxng_password.edit, "hunter2-password")

    async def password_saved() -> None:
        await driver.until(lambda: page.searxng_password.shows_saved)

    driver.run(password_saved())
    assert saved_settings(tmp_path)["web_search"] == {
        "engine": "searxng",
        "searxng_username": "me",
    }
    assert memory_keyring.passwords == {(SERVICE, SEARXNG_PASSWORD_SECRET): "hunter2-password"}
    assert page.searxng_password.saved_label.text() == "A password is saved"
    assert page.searxng_url.text() == "searx.example.org"
    assert page.url_problem.isVisibleTo(page)

    type_and_enter(page.searxng_url, "https://searx.example.org/")
    assert not page.url_problem.isVisibleTo(page)
    assert saved_settings(tmp_path)["web_search"] == {
        "engine": "searxng",
        "searxng_url": "https://searx.example.org",
        "searxng_username": "me",
    }
    assert page.searxng_url.text() == "https://searx.example.org"


def test_test_search_reports_what_the_engine_found_without_saving(
    driver, web_server: WebServer, tmp_path
):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    page = open_page(driver, tmp_path)
    choose(page, "searxng")
    page.searxng_url.setText(web_server.searxng_url)
    click(page.test_button)

    async def answered() -> None:
        await driver.until(lambda: page.test_result.property("tone") == "ok")
        await driver.until(lambda: page.test_button.isEnabled())

    driver.run(answered())
    # (the English plural comes with the next translation update: "result(s)" until then)
    assert page.test_result.text().startswith("Found 3 result")
    assert page.test_result.text().endswith(": Python asyncio docs")
    assert query_of(web_server.requests[0]) == {"q": TEST_QUERY, "format": "json"}
    # The engine was saved when chosen; the address typed without Enter was not.
    assert saved_settings(tmp_path)["web_search"] == {"engine": "searxng"}


@pytest.mark.parametrize(
    ("status", "headers", "sentence"),
    [
        (
            429,
            {"Retry-After": "60"},
            "SearXNG is limiting how often Parley may search (HTTP 429): try again in 60 s.",
        ),
        (403, {}, "does not give results as JSON (HTTP 403): enable `json` in search.formats"),
    ],
)
def test_test_search_shows_the_engines_sentence_when_it_refuses(
    driver, web_server: WebServer, tmp_path, status, headers, sentence
):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    page = open_page(driver, tmp_path)
    choose(page, "searxng")
    page.searxng_url.setText(web_server.searxng_url)
    web_server.enqueue(json_response({"error": "no"}, status=status, headers=headers))
    click(page.test_button)

    async def answered() -> None:
        await driver.until(lambda: page.test_result.property("tone") == "error")
        await driver.until(lambda: page.test_button.isEnabled())

    driver.run(answered())
    assert sentence in page.test_result.text()
    assert len(web_server.requests) == 1


def test_test_search_uses_the_typed_key_or_else_the_saved_one(
    driver, memory_keyring: MemoryKeyring, web_server: WebServer, tmp_path
):
    path = write_settings(tmp_path, "http://127.0.0.1:9/v1")
    service = SettingsService(path, SecretStore())
    tasks = TaskGroup()
    model = WebSearchSettingsModel(service, tasks, endpoints=web_server.endpoints)
    page = WebSearchPage(model)
    page.show()
    try:
        choose(page, "brave")
        page.brave_key.edit.setText("typed-key-not-saved")
        click(page.test_button)

        async def answered(count: int) -> None:
            await driver.until(lambda: len(web_server.requests) == count)
            await driver.until(lambda: page.test_button.isEnabled())

        driver.run(answered(1))
        assert web_server.requests[0].headers["x-subscription-token"] == "typed-key-not-saved"
        assert page.test_result.text().startswith("Found 3 result")
        assert memory_keyring.passwords == {}

        memory_keyring.passwords[(SERVICE, BRAVE_KEY_SECRET)] = BRAVE_KEY
        page.brave_key.edit.clear()
        web_server.enqueue(json_response({"type": "ErrorResponse"}, status=401))
        click(page.test_button)
        driver.run(answered(2))
        assert web_server.requests[1].headers["x-subscription-token"] == BRAVE_KEY
        assert page.test_result.text() == (
            "Brave Search rejected the API key (HTTP 401): check it in Settings → Web search."
        )
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert saved["web_search"] == {"engine": "brave"}  # the choice, not the key
    finally:
        page.close()
        page.deleteLater()
        driver.run(tasks.drain())
        driver.run(service.aclose())


def test_without_a_keyring_the_key_fields_say_why_and_the_rest_still_saves(driver, tmp_path):
    keyring.set_keyring(fail.Keyring())  # the driver's keyring fixture puts back the old one
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    page = open_page(driver, tmp_path)
    choose(page, "tavily")
    assert not page.tavily_key.edit.isEnabled()
    assert page.tavily_key.note.isVisibleTo(page)
    assert page.tavily_key.note.text().startswith("No system keyring was found")
    choose(page, "duckduckgo")
    assert not page.tavily_key.note.isVisibleTo(page)
    assert bar_text(page) == "Saved: Web search engine changed"
    assert saved_settings(tmp_path)["web_search"] == {"engine": "duckduckgo"}
