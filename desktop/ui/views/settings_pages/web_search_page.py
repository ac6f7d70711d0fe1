"""Settings → Web search: which engine models search with, its address or key, how many
results a search returns, whether models may open pages, and a test search.

Only the chosen engine's rows are shown. A key (or SearXNG password) is typed once and
then only said to be saved, with Replace and Remove: the page never shows it again.
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
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.core.web_search import MAX_RESULTS_LIMIT, WebEngine
from desktop.ui.viewmodels.web_search_settings import WebSearchSettingsModel
from desktop.ui.views.confirm import confirm_delete
from desktop.ui.views.labels import PlainLabel, form_hint, plain_form_labels
from desktop.ui.views.settings_pages.providers_page import set_tone

OFF = ""  # the engine combo's value for "no web search"


class SecretField(QWidget):
    """A key typed into a password field, or, once one is saved, only the words "A key
    is saved" with Replace and Remove: a saved key is never put back into a widget."""

    def __init__(self, saved_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit(self)
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.saved_label = PlainLabel(saved_text, self)
        self.replace_button = QPushButton(self.tr("Replace"), self)
        self.replace_button.clicked.connect(self._replace)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        saved_row = QWidget(self)
        row = QHBoxLayout(saved_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.saved_label)
        row.addSpacing(12)
        row.addWidget(self.replace_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.edit)
        self.stack.addWidget(saved_row)
        self.stack.setSizePolicy(self.edit.sizePolicy())
        self.note = form_hint("", self)  # why nothing can be typed, when there is no keyring
        self.note.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.stack)
        layout.addWidget(self.note)

    @property
    def shows_saved(self) -> bool:
        return self.stack.currentIndex() == 1

    @property
    def typed(self) -> str:
        """What was typed to save (nothing while the saved state is shown)."""
        return "" if self.shows_saved else self.edit.text()

    def set_saved(self, saved: bool) -> None:
        """Show the saved state when a key is saved, unless a new one is being typed."""
        if not saved:
            self.edit.setPlaceholderText("")
            self.stack.setCurrentIndex(0)
        elif not self.edit.text():
            self.stack.setCurrentIndex(1)

    def disable(self, reason: str) -> None:
        """No keyring: nothing can be typed, and the note below says why."""
        self.edit.setEnabled(False)
        self.note.setText(reason)
        self.note.show()

    def _replace(self) -> None:
        self.edit.clear()
        self.edit.setPlaceholderText(self.tr("Type the new one; leave empty to keep the saved one"))
        self.stack.setCurrentIndex(0)
        self.edit.setFocus()


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
        self.searxng_username = QLineEdit(self)
        self.searxng_username.setPlaceholderText(self.tr("Only if the instance asks for one"))
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
        keyring_problem = model.keyring_problem
        if keyring_problem:
            for field in self.secrets.values():
                field.disable(keyring_problem)

        self.max_results = QSpinBox(self)
        self.max_results.setRange(1, MAX_RESULTS_LIMIT)
        self.fetch_enabled = QCheckBox(
            self.tr("Models may open web pages (asks you each time)"), self
        )
        self.test_button = QPushButton(self.tr("Test search"), self)
        self.test_button.clicked.connect(self.test)
        self.test_result = PlainLabel("", self)
        self.test_result.setWordWrap(True)
        self.test_result.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status = PlainLabel("", self)
        self.status.setWordWrap(True)
        self.save_button = QPushButton(self.tr("Save"), self)
        self.save_button.setObjectName("SendButton")
        self.save_button.clicked.connect(self.save)

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
        form.addRow(self.tr("SearXNG address"), self.searxng_url)
        form.addRow(self.tr("User name"), self.searxng_username)
        form.addRow(self.tr("Password"), self.searxng_password)
        form.addRow(self.tr("API key"), self.brave_key)
        form.addRow(self.tr("API key"), self.tavily_key)
        form.addRow(self.tr("Results per search"), spin_row)
        form.addRow("", self.fetch_enabled)
        form.addRow("", test_row)
        form.addRow("", self.test_result)
        plain_form_labels(form)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.save_button, 0, Qt.AlignmentFlag.AlignBottom)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addSpacing(8)
        layout.addLayout(form)
        layout.addStretch(1)
        layout.addLayout(buttons)

        model.saved.connect(self._on_saved)
        model.failed.connect(lambda text: set_tone(self.status, text, "error"))
        model.keyRemoved.connect(lambda: set_tone(self.status, self.tr("Removed."), "ok"))
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
        """The saved settings into the form (keys only as "saved" or not)."""
        web = self._model.settings
        index = self.engine.findData(web.engine.value if web.engine is not None else OFF)
        self.engine.setCurrentIndex(max(index, 0))
        self.searxng_url.setText(web.searxng_url)
        self.searxng_username.setText(web.searxng_username)
        self.max_results.setValue(web.max_results)
        self.fetch_enabled.setChecked(web.fetch_enabled)
        self._show_keys()
        self._show_engine()

    @property
    def chosen(self) -> str:
        """The engine's value ("" for off)."""
        return str(self.engine.currentData() or OFF)

    def _typed_key(self) -> str:
        field = self.secrets.get(self.chosen)
        return field.typed if field is not None else ""

    def save(self) -> None:
        self._model.save(
            self.chosen,
            self.searxng_url.text(),
            self.searxng_username.text(),
            self.max_results.value(),
            self.fetch_enabled.isChecked(),
            self._typed_key(),
        )

    def test(self) -> None:
        set_tone(self.test_result, self.tr("Searching…"))
        self._model.test_search(
            self.chosen,
            self.searxng_url.text(),
            self.searxng_username.text(),
            self.max_results.value(),
            self._typed_key(),
        )

    def _on_saved(self) -> None:
        field = self.secrets.get(self.chosen)
        if field is not None:
            field.edit.clear()  # saved now: from here on only said to be saved
        self._show_keys()
        set_tone(self.status, self.tr("Saved."), "ok")

    def _show_keys(self) -> None:
        for engine, field in self.secrets.items():
            field.set_saved(self._model.has_key(engine))

    def _on_engine_chosen(self) -> None:
        set_tone(self.test_result, "")  # a result said nothing about this engine
        self._show_engine()

    def _show_engine(self) -> None:
        """Only the chosen engine's rows, its note, and what applies to any engine."""
        chosen = self.chosen
        searxng = chosen == WebEngine.SEARXNG.value
        for widget in (self.searxng_url, self.searxng_username, self.searxng_password):
            self.form.setRowVisible(widget, searxng)
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
