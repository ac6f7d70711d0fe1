"""Settings → Web search: the engine, its address or key, and a test search.

Each field is saved as it changes, after the same check as the settings file's, so a
typo shows beside its field and the field keeps what was typed; the other fields are
saved regardless. Keys and the SearXNG password go to the keyring through the settings
service, never to settings.json, and are never read back into the form: the page only
learns whether one is saved. They are not part of the Settings window's undo. The
keyring is asked in the background (`load_keys`, when the page is first shown): a
locked one may wait for the person to unlock it, and a person who never opens the
page never loads it.

A test search asks the engine as the form stands, before saving, over the client the
answers use (the network settings' proxy and certificates), with the typed key or,
when none is typed, the saved one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject, Signal

from desktop.core.errors import ParleyError, SettingsError
from desktop.core.settings import Settings
from desktop.core.web_search import (
    FIELD,
    WebEngine,
    WebSearchSettings,
    parse_web_search,
    secret_name,
    web_search_data,
)
from desktop.engine.settings_service import SettingsService
from desktop.engine.web.engines import web_search
from desktop.engine.web.results import WebSearchError
from desktop.ui.viewmodels.properties import read_only
from desktop.ui.viewmodels.settings_undo import SettingsUndo
from desktop.ui.viewmodels.tasks import TaskGroup

# What a test search asks for: a word every engine has results for.
TEST_QUERY = "Wikipedia"
KEY = "key"  # problemChanged's field for the chosen engine's key (SearXNG: password)


def _engine(value: str) -> WebEngine | None:
    """The combo's value ("" for off) as an engine; None for off or an unknown one."""
    try:
        return WebEngine(value) if value else None
    except ValueError:
        return None


class WebSearchSettingsModel(QObject):
    changed = Signal()  # the saved web search settings changed (also by Undo)
    # A field's problem ("" once it is fine): "searxng_url", "searxng_username", KEY...
    problemChanged = Signal(str, str)
    keysChanged = Signal()  # whether keys are saved became known, or changed
    keySaved = Signal(str)  # the engine whose typed key is now in the keyring
    keyRemoved = Signal()
    testingChanged = Signal(bool)
    testPassed = Signal(str)  # "Found N results: <first title>"
    testFailed = Signal(str)  # the engine's sentence

    def __init__(
        self,
        service: SettingsService,
        tasks: TaskGroup,
        parent: QObject | None = None,
        *,
        endpoints: Mapping[WebEngine, str] | None = None,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._tasks = tasks
        self._undo = undo if undo is not None else SettingsUndo(service, self)
        self._shown = service.settings.web_search
        service.changed.subscribe(self._on_settings_changed)
        # Engines' public addresses replaced (a loopback server standing in for Brave).
        self._endpoints = endpoints
        self._saved_keys: set[str] = set()  # keyring entries known to hold something
        self._keys_asked = False
        self._testing = False

    # --- state ------------------------------------------------------------------------

    @property
    def settings(self) -> WebSearchSettings:
        return self._service.settings.web_search

    @property
    def keyring_problem(self) -> str:
        """Why keys cannot be saved ("" when they can): shown in place of the key fields."""
        return self._service.keyring_problem

    def has_key(self, engine: str) -> bool:
        """Whether `engine`'s key (SearXNG: password) is in the keyring, as far as known:
        False until `load_keys` has heard back."""
        name = self._secret(engine)
        return name is not None and name in self._saved_keys

    def _get_testing(self) -> bool:
        return self._testing

    def _set_testing(self, value: bool) -> None:
        if value != self._testing:
            self._testing = value
            self.testingChanged.emit(value)

    testing = read_only(bool, _get_testing, notify=testingChanged)

    # --- keys -------------------------------------------------------------------------

    def load_keys(self) -> None:
        """Learn, in the background, which engines have a key saved (once)."""
        if self._keys_asked:
            return
        self._keys_asked = True
        self._tasks.start(self._load_keys(), "web-search-keys")

    async def _load_keys(self) -> None:
        for engine in WebEngine:
            name = secret_name(engine)
            if name is not None and await self._service.secret(name):
                self._saved_keys.add(name)
        self.keysChanged.emit()

    def set_key(self, engine: str, value: str) -> None:
        """Save `engine`'s key in the keyring (a blank value changes nothing)."""
        name = self._secret(engine)
        if name is not None and value.strip():
            self._tasks.start(self._store(engine, name, value), "web-search-key")

    def clear_key(self, engine: str) -> None:
        """Remove `engine`'s key from the keyring."""
        name = self._secret(engine)
        if name is not None:
            self._tasks.start(self._clear(name), "web-search-key")

    async def _clear(self, name: str) -> None:
        try:
            await self._service.delete_secret(name)
        except ParleyError as error:
            self.problemChanged.emit(KEY, str(error))
            return
        self._saved_keys.discard(name)
        self.problemChanged.emit(KEY, "")
        self.keysChanged.emit()
        self.keyRemoved.emit()
        self._undo.note(self.tr("Removed from the keyring"))

    async def _store(self, engine: str, name: str, value: str) -> None:
        try:
            await self._service.set_secret(name, value)
        except (ParleyError, ValueError) as error:
            self.problemChanged.emit(KEY, str(error))
            return
        self._saved_keys.add(name)
        self.problemChanged.emit(KEY, "")
        self.keySaved.emit(engine)
        self.keysChanged.emit()
        if _engine(engine) is WebEngine.SEARXNG:
            self._undo.note(self.tr("SearXNG password saved in the keyring"))
        else:
            self._undo.note(self.tr("API key saved in the keyring"))

    # --- saving -----------------------------------------------------------------------

    def set_engine(self, engine: str) -> bool:
        """The engine models search with ("" for none)."""
        return self._set("engine", engine or None)

    def set_searxng_url(self, url: str) -> bool:
        return self._set("searxng_url", url, coalesce=True)

    def set_searxng_username(self, username: str) -> bool:
        return self._set("searxng_username", username, coalesce=True)

    def set_max_results(self, count: int) -> bool:
        return self._set("max_results", count, coalesce=True)

    def set_fetch_enabled(self, enabled: bool) -> bool:
        return self._set("fetch_enabled", enabled)

    def _set(self, name: str, value: Any, *, coalesce: bool = False) -> bool:
        """Save one field, the others as saved; checked as the settings file is. An
        invalid value saves nothing and its problem is shown beside the field."""
        settings = self._service.settings
        try:
            web = parse_web_search({**web_search_data(settings.web_search), name: value})
        except SettingsError as error:
            self.problemChanged.emit(name, self._problem(error))
            return False
        saved = self._undo.save(replace(settings, web_search=web), coalesce=coalesce)
        if saved:
            self.problemChanged.emit(name, "")
        return saved

    def _on_settings_changed(self, settings: Settings) -> None:
        if settings.web_search != self._shown:
            self._shown = settings.web_search
            self.changed.emit()

    # --- test search ------------------------------------------------------------------

    def test_search(
        self, engine: str, url: str, username: str, max_results: int, key: str = ""
    ) -> None:
        """Search once with the form as it stands; the window stays usable meanwhile."""
        try:
            web = self._parse(engine, url, username, max_results, False)
        except SettingsError as error:
            self.testFailed.emit(self._problem(error))
            return
        if web.engine is None:
            self.testFailed.emit(self.tr("Choose an engine to test."))
            return
        self._tasks.start(self._test(web, key.strip()), "test-web-search")

    async def _test(self, web: WebSearchSettings, typed: str) -> None:
        assert web.engine is not None
        self._set_testing(True)
        try:
            name = secret_name(web.engine)
            # SearXNG asks for its password only behind a user name: no keyring otherwise.
            needed = name is not None and (
                web.engine is not WebEngine.SEARXNG or bool(web.searxng_username)
            )
            value = typed or (await self._service.secret(name) if needed and name else None)
            results = await web_search(
                self._service.http_client,
                web,
                TEST_QUERY,
                max_results=web.max_results,
                secret=lambda asked: value if asked == name else None,
                endpoints=self._endpoints,
            )
        except WebSearchError as error:
            self.testFailed.emit(str(error))
        else:
            if results:
                text = self.tr("Found %n result(s): %1", "", len(results))
                self.testPassed.emit(text.replace("%1", results[0].title))
            else:
                self.testPassed.emit(self.tr("The engine answered, but found nothing."))
        finally:
            self._set_testing(False)

    # --- helpers ----------------------------------------------------------------------

    @staticmethod
    def _secret(engine: str) -> str | None:
        chosen = _engine(engine)
        return secret_name(chosen) if chosen is not None else None

    @staticmethod
    def _parse(
        engine: str, url: str, username: str, max_results: int, fetch_enabled: bool
    ) -> WebSearchSettings:
        return parse_web_search(
            {
                "engine": engine or None,
                "searxng_url": url,
                "searxng_username": username,
                "max_results": max_results,
                "fetch_enabled": fetch_enabled,
            }
        )

    def _problem(self, error: SettingsError) -> str:
        """The problem under the name the page gives the field."""
        labels = {
            "engine": self.tr("Engine"),
            "searxng_url": self.tr("SearXNG address"),
            "searxng_username": self.tr("User name"),
            "max_results": self.tr("Results per search"),
        }
        key = error.field.removeprefix(f"{FIELD}.")
        return self.tr("%1: %2.").replace("%1", labels.get(key, key)).replace("%2", error.problem)
