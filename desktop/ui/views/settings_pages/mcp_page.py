"""Settings → MCP servers: the servers on the left; on the right, the chosen one's
status (Allow…, Open log, Remove), its on/off switch and its fields, only those of its
kind, saved as they are edited (no Save button: the Settings window undoes). "Add"
empties the form for a new server, added by its "Add server" button; "Paste JSON…" (or
Ctrl+V on the list, when the clipboard holds servers' JSON) previews the servers in
it, added turned off."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop.core.mcp_import import looks_like_servers
from desktop.core.mcp_settings import McpServerSettings, McpTransport
from desktop.ui.viewmodels.mcp_servers import McpServersModel
from desktop.ui.views.labels import PlainLabel, form_hint
from desktop.ui.views.record_list import Record, RecordList
from desktop.ui.views.settings_pages.mcp_consent import McpConsentDialog, McpConsentPrompt
from desktop.ui.views.settings_pages.mcp_import_dialog import McpImportDialog
from desktop.ui.views.settings_pages.mcp_server_form import McpServerForm
from desktop.ui.views.settings_pages.providers_page import set_tone

__all__ = ["McpConsentDialog", "McpConsentPrompt", "McpServersPage"]


class McpServersPage(QWidget):
    def __init__(self, model: McpServersModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._current = ""  # the server shown, "" while a new one is being filled in
        self._shown: McpServerSettings | None = None  # as last put into the form
        self._loading = False
        self.consent_dialog: McpConsentDialog | None = None
        self.import_dialog: McpImportDialog | None = None

        self.list = RecordList(self)
        self.list.setObjectName("LibraryList")  # drawn as the other Settings lists
        self.list.setMaximumWidth(220)
        self.list.setAccessibleName(self.tr("MCP servers"))
        self.list.set_placeholder(
            self.tr(
                "No MCP servers yet. Add one, or paste the “mcpServers” JSON of "
                "Claude Desktop or Cursor here (Ctrl+V)."
            )
        )
        self.list.currentItemChanged.connect(self._on_list_current_changed)
        paste = QShortcut(QKeySequence(QKeySequence.StandardKey.Paste), self.list)
        paste.setContext(Qt.ShortcutContext.WidgetShortcut)
        paste.activated.connect(self.paste_from_clipboard)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self.start_new)
        self.paste_button = QPushButton(self.tr("Paste JSON…"), self)
        self.paste_button.setToolTip(
            self.tr("Add servers from the JSON of Claude Desktop, Cursor or VS Code")
        )
        self.paste_button.clicked.connect(self.paste_json)
        self.note = PlainLabel("", self)
        self.note.setObjectName("FormHint")
        self.note.setWordWrap(True)

        self.title = PlainLabel("", self)
        self.title.setObjectName("SettingsSection")
        self.status = PlainLabel("", self)
        self.status.setObjectName("MetaLabel")
        self.status.setWordWrap(True)
        self.allow = QPushButton(self.tr("Allow…"), self)
        self.allow.setObjectName("allow")
        self.allow.clicked.connect(lambda: self.ask_consent(self._current))
        self.log = QPushButton(self.tr("Open log"), self)
        self.log.clicked.connect(lambda: self._model.open_log(self._current))
        self.remove = QPushButton(self.tr("Remove"), self)
        self.remove.setObjectName("remove")
        self.remove.clicked.connect(lambda: self._model.remove(self._current))
        self.enabled = QCheckBox(self.tr("Use this server in conversations"), self)
        self.enabled.toggled.connect(self._on_enabled_toggled)
        self.form = McpServerForm(self)
        self.form.edited.connect(self._on_form_edited)
        self.new_hint = form_hint(
            self.tr("A program runs only once you allow its exact command line."),
            self,
        )
        self.add_server = QPushButton(self.tr("Add server"), self)
        self.add_server.setObjectName("SendButton")
        self.add_server.clicked.connect(self._add)
        self.error = PlainLabel("", self)
        self.error.setWordWrap(True)

        side = QVBoxLayout()
        side.addWidget(self.list, 1)
        side_buttons = QHBoxLayout()
        side_buttons.addWidget(self.add_button)
        side_buttons.addWidget(self.paste_button)
        side.addLayout(side_buttons)
        side.addWidget(self.note)
        side_widget = QWidget(self)
        side_widget.setLayout(side)
        side_widget.setMaximumWidth(240)

        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        for button in (self.allow, self.log, self.remove):
            head.addWidget(button)
        body = QWidget(self)
        body.setObjectName("ProviderFormBody")  # transparent, as a settings form
        detail = QVBoxLayout(body)
        detail.setContentsMargins(0, 0, 12, 0)
        detail.addLayout(head)
        detail.addWidget(self.status)
        detail.addWidget(self.enabled)
        detail.addWidget(self.form)
        adding = QHBoxLayout()
        adding.addWidget(self.new_hint, 1)
        adding.addWidget(self.add_server, 0, Qt.AlignmentFlag.AlignTop)
        detail.addLayout(adding)
        detail.addWidget(self.error)
        detail.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setObjectName("ProviderForm")
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)

        layout = QHBoxLayout(self)
        layout.addWidget(side_widget)
        layout.addWidget(scroll, 1)
        model.changed.connect(self._refresh)
        model.saveFailed.connect(lambda text: set_tone(self.error, text, "error"))
        model.consentNeeded.connect(self.ask_consent)
        servers = model.servers()
        if servers:
            self.show_server(servers[0].id)
        else:
            self.start_new()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # Rows placed before the style sheet gave them their padding overlap: place again.
        self.list.doItemsLayout()

    # --- which server is shown ------------------------------------------------------

    def show_server(self, server_id: str) -> None:
        self._current = server_id
        self._shown = None
        self._refresh()

    def start_new(self) -> None:
        """An empty form for a new server, added by "Add server"."""
        self._current = ""
        self._shown = None
        self.form.show_server(None)
        self._refresh()
        self.form.name.setFocus()

    def _on_list_current_changed(self) -> None:
        server_id = self.list.current_id()
        if server_id and server_id != self._current:
            self.show_server(server_id)

    def _refresh(self) -> None:
        """Show the settings as they are now: after a save here, an undo, or a status
        change. The form is filled again only when its server changed meanwhile."""
        servers = self._model.servers()
        server = next((s for s in servers if s.id == self._current), None)
        if self._current and server is None:  # removed (or an add undone)
            self._current = ""
            if servers:
                return self.show_server(servers[0].id)
            self.form.show_server(None)
        records = [Record(s.id, self._row_text(s), self._model.status(s.id)) for s in servers]
        self.list.set_records(records, self._current)
        new = server is None
        self.title.setText(server.name if server is not None else self.tr("New server"))
        self.status.setText(self._model.status(server.id) if server is not None else "")
        self.status.setVisible(not new)
        self.allow.setVisible(
            server is not None and server.enabled and self._model.needs_consent(server.id)
        )
        for shown_when_saved in (self.log, self.remove, self.enabled):
            shown_when_saved.setVisible(not new)
        self.add_server.setVisible(new)
        self._show_new_hint()
        self._loading = True
        self.enabled.setChecked(server is not None and server.enabled)
        self._loading = False
        if server is not None and server != self._shown:
            self.form.show_server(server)
            self._shown = server

    def _show_new_hint(self) -> None:
        program = self.form.transport() is McpTransport.STDIO
        self.new_hint.setVisible(not self._current and program)

    def _row_text(self, server: McpServerSettings) -> str:
        if server.enabled:
            return server.name
        return self.tr("%1 (off)").replace("%1", server.name)

    # --- editing --------------------------------------------------------------------

    def _on_form_edited(self, field: str) -> None:
        set_tone(self.error, "")
        if not self._current:
            self.form.show_problem(None)  # a new server is checked when it is added
            self._show_new_hint()
            return
        problem = self._model.update(self._current, self.form.draft(), field)
        self.form.show_problem(problem)

    def _on_enabled_toggled(self, on: bool) -> None:
        if not self._loading and self._current:
            self._model.set_enabled(self._current, on)

    def _add(self) -> None:
        set_tone(self.error, "")
        server_id, problem = self._model.add(self.form.draft())
        self.form.show_problem(problem)
        if server_id:
            self.show_server(server_id)

    # --- pasted JSON ----------------------------------------------------------------

    def paste_json(self) -> None:
        """The preview, filled with the clipboard when it holds servers' JSON."""
        text = QGuiApplication.clipboard().text()
        self.open_import(text if looks_like_servers(text) else "")

    def paste_from_clipboard(self) -> None:
        """Ctrl+V on the list: the preview, when the clipboard holds servers' JSON."""
        text = QGuiApplication.clipboard().text()
        if looks_like_servers(text):
            self.open_import(text)
        else:
            self.note.setText(self.tr("The clipboard holds no MCP servers' JSON."))

    def open_import(self, text: str) -> None:
        self.note.setText("")
        if self.import_dialog is not None:
            self.import_dialog.close()
            self.import_dialog.deleteLater()
        self.import_dialog = McpImportDialog(self._model, text, self)
        self.import_dialog.accepted.connect(self._on_import_accepted)
        self.import_dialog.open()
        if not text:
            self.import_dialog.source.setFocus()

    def _on_import_accepted(self) -> None:
        dialog = self.import_dialog
        if dialog is None:
            return
        chosen = dialog.chosen()
        problem = self._model.add_imported(chosen)
        if problem:
            set_tone(self.error, problem, "error")
            return
        self.note.setText(
            self.tr("%n server(s) added, turned off: turn one on to use it.", "", len(chosen))
        )
        added = [s.id for s in self._model.servers()[-len(chosen) :]] if chosen else []
        if added:
            self.show_server(added[0])

    # --- consent --------------------------------------------------------------------

    def ask_consent(self, server_id: str) -> None:
        request = self._model.consent_request(server_id)
        if request is None:
            return
        if self.consent_dialog is not None:
            self.consent_dialog.close()
            self.consent_dialog.deleteLater()
        self.consent_dialog = McpConsentDialog(self._model, request, self)
        self.consent_dialog.open()
