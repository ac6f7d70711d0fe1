"""Settings → Web search: which engine models search with, its address or key, how many
results a search returns, whether models may open pages, and a test search.

Only the chosen engine's rows are shown. Every field is saved as it changes: choices at
once, text when Enter is pressed or the field is left; a value that cannot work shows
its problem under the field and is not saved. A key (or SearXNG password) is typed
once, stored in the keyring when its field is left, and then only said to be saved,
with Replace and Remove: the page never shows it again.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.core.web_search import MAX_RESULTS_LIMIT, WebEngine, WebSearchSettings
from desktop.ui.viewmodels.web_search_settings import KEY, WebSearchSettingsModel
from desktop.ui.views.confirm import confirm_delete
from desktop.ui.views.labels import PlainLabel, form_hint, plain_form_labels
from desktop.ui.views.settings_pages.autosave import FieldError, field_column
from desktop.ui.views.settings_pages.providers_page import set_tone
from desktop.ui.views.settings_pages.secret_field import SecretField

OFF = ""  # the engine combo's value for "no web search"


class WebSearchPage(QWidget):
    def __init__(self, model: WebSearchSettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.confirm_box: QMessageBox | None = None  # the open "Remove key" question
        intro = PlainLabel(
            self.tr(
                "Models that can call tools may search the web with the engine chosen here, "
                "and cite what they find. What they search for is sent to that engine."
            ),
            self,
        )
        intro.setWordWrap(True)

        self.engine = QComboBox(self)
        self.engine.setObjectName("WebEngine")
        self.engine.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for value, label in (
            (OFF, self.tr("Off — models do not search the web")),
            (WebEngine.SEARXNG.value, self.tr("SearXNG (your own instance)")),
            (WebEngine.BRAVE.value, self.tr("Brave Search (API key)")),
            (WebEngine.TAVILY.value, self.tr("Tavily (API key)")),
            (WebEngine.DUCKDUCKGO.value, self.tr("DuckDuckGo (no key, may be rate-limited)")),
        ):
            self.engine.addItem(label, value)
        self.engine.currentIndexChanged.connect(self._on_engine_chosen)
        self.note = form_hint("", self)

        self.searxng_url = QLineEdit(self)
        self.searxng_url.setPlaceholderText("https://searx.example.org")
        self.searxng_url.editingFinished.connect(
            lambda: self._model.set_searxng_url(self.searxng_url.text())
        )
        self.searxng_username = QLineEdit(self)
        self.searxng_username.setPlaceholderText(self.tr("Only if the instance asks for one"))
        self.searxng_username.editingFinished.connect(
            lambda: self._model.set_searxng_username(self.searxng_username.text())
        )
        self.url_problem = FieldError(self)
        self.username_problem = FieldError(self)
        self.searxng_password = SecretField(self.tr("A password is saved"), self)
        self.brave_key = SecretField(self.tr("A key is saved"), self)
        self.tavily_key = SecretField(self.tr("A key is saved"), self)
        self.secrets = {
            WebEngine.SEARXNG.value: self.searxng_password,
            WebEngine.BRAVE.value: self.brave_key,
            WebEngine.TAVILY.value: self.tavily_key,
        }
        for engine, field in self.secrets.items():
            field.remove_button.clicked.connect(lambda _=False, e=engine: self._ask_remove(e))
            field.edit.editingFinished.connect(lambda e=engine: self._on_key_typed(e))
        keyring_problem = model.keyring_problem
        if keyring_problem:
            for field in self.secrets.values():
                field.disable(keyring_problem)

        self.max_results = QSpinBox(self)
        self.max_results.setRange(1, MAX_RESULTS_LIMIT)
        self.max_results.valueChanged.connect(self._on_max_results)
        self.fetch_enabled = QCheckBox(
            self.tr("Models may open web pages (asks you each time)"), self
        )
        self.fetch_enabled.toggled.connect(self._on_fetch_enabled)
        self.test_button = QPushButton(self.tr("Test search"), self)
        self.test_button.clicked.connect(self.test)
        self.test_result = PlainLabel("", self)
        self.test_result.setWordWrap(True)
        self.test_result.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problems = {"searxng_url": self.url_problem, "searxng_username": self.username_problem}

        engine_column = QVBoxLayout()
        engine_column.setSpacing(2)
        engine_column.addWidget(self.engine, 0, Qt.AlignmentFlag.AlignLeft)
        engine_column.addWidget(self.note)
        spin_row = QHBoxLayout()
        spin_row.addWidget(self.max_results)
        spin_row.addStretch(1)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addStretch(1)
        self.form = form = QFormLayout()
        # Every field as wide as the page: the notes wrap at its width, not the combo's.
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.tr("Engine"), engine_column)
        self._url_row = field_column(self.searxng_url, self.url_problem)
        self._username_row = field_column(self.searxng_username, self.username_problem)
        form.addRow(self.tr("SearXNG address"), self._url_row)
        form.addRow(self.tr("User name"), self._username_row)
        form.addRow(self.tr("Password"), self.searxng_password)
        form.addRow(self.tr("API key"), self.brave_key)
        form.addRow(self.tr("API key"), self.tavily_key)
        form.addRow(self.tr("Results per search"), spin_row)
        form.addRow("", self.fetch_enabled)
        form.addRow("", test_row)
        form.addRow("", self.test_result)
        plain_form_labels(form)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addSpacing(8)
        layout.addLayout(form)
        layout.addStretch(1)

        self._loading = False
        self._loaded: WebSearchSettings | None = None  # what load() last put in the form
        model.changed.connect(self.load)
        model.problemChanged.connect(self._show_problem)
        model.keySaved.connect(self._on_key_saved)
        model.keysChanged.connect(self._show_keys)
        model.testingChanged.connect(lambda _busy: self._show_engine())
        model.testPassed.connect(lambda text: set_tone(self.test_result, text, "ok"))
        model.testFailed.connect(lambda text: set_tone(self.test_result, text, "error"))
        self.load()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._model.load_keys()  # the keyring is asked once the page is seen

    # --- the form -------------------------------------------------------------------

    def load(self) -> None:
        """The saved settings into the form (keys only as "saved" or not): at start, and
        when they change (Undo). Only fields whose saved value changed are set, so a
        field still showing a refused value keeps it."""
        web, before = self._model.settings, self._loaded
        self._loaded = web

        def changed(name: str) -> bool:
            return before is None or getattr(before, name) != getattr(web, name)

        self._loading = True
        try:
            if changed("engine"):
                value = web.engine.value if web.engine is not None else OFF
                self.engine.setCurrentIndex(max(self.engine.findData(value), 0))
            for name, edit in (
                ("searxng_url", self.searxng_url),
                ("searxng_username", self.searxng_username),
            ):
                if changed(name):
                    edit.setText(getattr(web, name))
                    self._show_problem(name, "")
            if changed("max_results"):
                self.max_results.setValue(web.max_results)
            if changed("fetch_enabled"):
                self.fetch_enabled.setChecked(web.fetch_enabled)
        finally:
            self._loading = False
        self._show_keys()
        self._show_engine()

    @property
    def chosen(self) -> str:
        """The engine's value ("" for off)."""
        return str(self.engine.currentData() or OFF)

    def _typed_key(self) -> str:
        field = self.secrets.get(self.chosen)
        return field.typed if field is not None else ""

    def test(self) -> None:
        set_tone(self.test_result, self.tr("Searching…"))
        self._model.test_search(
            self.chosen,
            self.searxng_url.text(),
            self.searxng_username.text(),
            self.max_results.value(),
            self._typed_key(),
        )

    def _on_key_typed(self, engine: str) -> None:
        field = self.secrets[engine]
        if field.edit.text().strip():
            self._model.set_key(engine, field.edit.text())
        else:  # Replace, then nothing typed: the saved one stays
            field.set_saved(self._model.has_key(engine))

    def _on_key_saved(self, engine: str) -> None:
        field = self.secrets.get(engine)
        if field is not None:
            field.edit.clear()  # saved now: from here on only said to be saved
        self._show_keys()

    def _on_max_results(self, count: int) -> None:
        if not self._loading:
            self._model.set_max_results(count)

    def _on_fetch_enabled(self, enabled: bool) -> None:
        if not self._loading:
            self._model.set_fetch_enabled(enabled)

    def _show_problem(self, field: str, problem: str) -> None:
        if field == KEY:  # shown under the chosen engine's key
            labels = {e: f.problem for e, f in self.secrets.items()}
        else:
            labels = {self.chosen: self.problems[field]} if field in self.problems else {}
        for engine, label in labels.items():
            label.say(problem if engine == self.chosen or field != KEY else "")

    def _show_keys(self) -> None:
        for engine, field in self.secrets.items():
            field.set_saved(self._model.has_key(engine))

    def _on_engine_chosen(self) -> None:
        set_tone(self.test_result, "")  # a result said nothing about this engine
        self._show_engine()
        if not self._loading:
            self._model.set_engine(self.chosen)

    def _show_engine(self) -> None:
        """Only the chosen engine's rows, its note, and what applies to any engine."""
        chosen = self.chosen
        searxng = chosen == WebEngine.SEARXNG.value
        self.form.setRowVisible(self._url_row, searxng)
        self.form.setRowVisible(self._username_row, searxng)
        self.form.setRowVisible(self.searxng_password, searxng)
        for label in self.problems.values():  # showing a row showed its problem label too
            label.setVisible(searxng and bool(label.text()))
        self.form.setRowVisible(self.brave_key, chosen == WebEngine.BRAVE.value)
        self.form.setRowVisible(self.tavily_key, chosen == WebEngine.TAVILY.value)
        on = chosen != OFF
        self.max_results.setEnabled(on)
        self.fetch_enabled.setEnabled(on)
        self.test_button.setEnabled(on and not self._model.testing)
        self.note.setText(self._note(chosen))

    def _note(self, engine: str) -> str:
        notes = {
            OFF: self.tr("Models are not offered web search or web pages."),
            WebEngine.SEARXNG.value: self.tr(
                "A SearXNG instance you run, or one you may use: its settings.yml must list "
                "json in search.formats. Public instances allow only a few searches a minute."
            ),
            WebEngine.BRAVE.value: self.tr(
                "Needs an API key for the Brave Search API (api-dashboard.search.brave.com)."
            ),
            WebEngine.TAVILY.value: self.tr("Needs a Tavily API key (app.tavily.com)."),
            WebEngine.DUCKDUCKGO.value: self.tr(
                "No key needed, but DuckDuckGo limits scripted searches and may stop "
                "answering for a while: your own SearXNG instance is more dependable."
            ),
        }
        return notes.get(engine, "")

    def _ask_remove(self, engine: str) -> None:
        question = (
            self.tr("Remove the saved password from the keyring?")
            if engine == WebEngine.SEARXNG.value
            else self.tr("Remove the saved key from the keyring?")
        )
        self.confirm_box = confirm_delete(
            self, self.tr("Remove"), question, lambda: self._model.clear_key(engine)
        )
