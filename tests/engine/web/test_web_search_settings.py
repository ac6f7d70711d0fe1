"""The `web_search` settings: parsed with messages naming the field, written back with
only what differs from the defaults, secrets never among them."""

from __future__ import annotations

from typing import Any

import pytest

from desktop.core.errors import SettingsError
from desktop.core.web_search import (
    BRAVE_KEY_SECRET,
    SEARXNG_PASSWORD_SECRET,
    TAVILY_KEY_SECRET,
    WebEngine,
    WebSearchSettings,
    parse_web_search,
    secret_name,
    web_search_data,
)


def test_empty_is_off_with_defaults_and_writes_nothing():
    settings = parse_web_search({})

    assert settings == WebSearchSettings()
    assert settings.engine is None
    assert web_search_data(settings) == {}


def test_a_full_setting_round_trips():
    data = {
        "engine": "searxng",
        "searxng_url": "https://search.example.org/searx",
        "searxng_username": "alice",
        "max_results": 8,
        "fetch_enabled": True,
    }

    settings = parse_web_search(data)

    assert settings.engine is WebEngine.SEARXNG
    assert web_search_data(settings) == data


def test_values_are_tidied():
    settings = parse_web_search(
        {"engine": "brave", "searxng_url": "  http://localhost:8888/ ", "max_results": 3.0}
    )

    assert settings.searxng_url == "http://localhost:8888"
    assert settings.max_results == 3
    assert web_search_data(settings) == {
        "engine": "brave",
        "searxng_url": "http://localhost:8888",
        "max_results": 3,
    }


def test_an_engine_without_its_address_still_parses():
    assert parse_web_search({"engine": "searxng"}).searxng_url == ""


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ([], "web_search", "must be an object"),
        ({"engin": "brave"}, "web_search.engin", "unknown setting"),
        ({"engine": "google"}, "web_search.engine", "one of: searxng, brave, tavily, duckduckgo"),
        ({"engine": 1}, "web_search.engine", "must be null (off)"),
        ({"searxng_url": "ftp://x"}, "web_search.searxng_url", "http:// or https://"),
        ({"searxng_url": "http://"}, "web_search.searxng_url", "with a host"),
        ({"searxng_url": "localhost:8888"}, "web_search.searxng_url", "http:// or https://"),
        ({"searxng_url": "http://h/?q=x"}, "web_search.searxng_url", "without a ?query"),
        ({"searxng_url": 5}, "web_search.searxng_url", "must be a string"),
        ({"searxng_url": "https://me:pw@h"}, "web_search.searxng_url", "user name or password"),
        ({"searxng_username": "a:b"}, "web_search.searxng_username", "must not contain ':'"),
        ({"max_results": 0}, "web_search.max_results", "between 1 and 8"),
        ({"max_results": 9}, "web_search.max_results", "between 1 and 8"),
        ({"max_results": "5"}, "web_search.max_results", "a whole number"),
        ({"max_results": True}, "web_search.max_results", "a whole number"),
        ({"fetch_enabled": "yes"}, "web_search.fetch_enabled", "true or false"),
    ],
)
def test_bad_values_name_the_field(data: Any, field: str, words: str):
    with pytest.raises(SettingsError) as caught:
        parse_web_search(data)

    assert caught.value.field == field
    assert words in caught.value.problem


def test_secrets_live_in_the_keyring_under_their_own_names():
    assert secret_name(WebEngine.BRAVE) == BRAVE_KEY_SECRET
    assert secret_name(WebEngine.TAVILY) == TAVILY_KEY_SECRET
    assert secret_name(WebEngine.SEARXNG) == SEARXNG_PASSWORD_SECRET
    assert secret_name(WebEngine.DUCKDUCKGO) is None
    assert len({BRAVE_KEY_SECRET, TAVILY_KEY_SECRET, SEARXNG_PASSWORD_SECRET}) == 3
