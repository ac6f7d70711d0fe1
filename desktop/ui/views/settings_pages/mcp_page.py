"""Settings → MCP servers: the servers with their status, Enable, Headers (for a URL),
Open log and Remove; a form to add one (a program to run, or a URL with headers); and
the consent dialog before a program first runs, also shown from the main window when a
conversation wants a server that was never allowed (`McpConsentPrompt`)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.mcp_settings import McpServerSettings, McpTransport
from desktop.ui.viewmodels.mcp_servers import ConsentRequest, McpServersModel
from desktop.ui.views.labels import MarkupLabel, PlainLabel, escape, plain_form_labels
from desktop.ui.views.settings_pages.headers_editor import HeadersEditor


class McpConsentDialog(QDialog):
    """Shown with open(): the rest of Parley stays usable while the person reads it."""

    def __init__(
        self, model: McpServersModel, request: ConsentRequest, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._model = model
        self.request = request
        self.setWindowTitle(self.tr("Allow {name} to run?").format(name=request.name))
        explain = PlainLabel(
            self.tr(
                "This MCP server is a program that will run on your computer with your "
                "permissions. Start it only if you trust it."
            ),
            self,
        )
        explain.setWordWrap(True)
        self.command = QLineEdit(request.command_line, self)
        self.command.setReadOnly(True)
        self.command.setObjectName("consent_command")
        cwd = request.cwd or self.tr("(Parley's working folder)")
        env = ", ".join(request.env_names) or self.tr("(none)")
        form = QFormLayout()
        form.addRow(self.tr("Command line"), self.command)
        form.addRow(self.tr("Working folder"), PlainLabel(cwd, self))
        form.addRow(self.tr("Environment variables"), PlainLabel(env, self))
        plain_form_labels(form)
        buttons = QDialogButtonBox(self)
        self.allow = buttons.addButton(
            self.tr("Allow and start"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(explain)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def accept(self) -> None:
        self._model.allow(self.request.server_id)
        super().accept()

    def reject(self) -> None:
        self._model.decline(self.request.server_id)
        super().reject()


class McpConsentPrompt:
    """Asks from the main window, without blocking it, when a conversation would use a
    server that has no consent yet (the model says when, once per server and run)."""

    def __init__(self, model: McpServersModel, window: QWidget) -> None:
        self._model = model
        self._window = window
        self.dialogs: dict[str, McpConsentDialog] = {}
        model.consentAsked.connect(self.ask)

    def ask(self, server_id: str) -> None:
        request = self._model.consent_request(server_id)
        if request is None or server_id in self.dialogs:
            return
        dialog = McpConsentDialog(self._model, request, self._window)
        dialog.setModal(False)
        dialog.finished.connect(lambda _r, i=server_id: self._forget(i))
        self.dialogs[server_id] = dialog
        dialog.show()

    def _forget(self, server_id: str) -> None:
        dialog = self.dialogs.pop(server_id, None)
        if dialog is not None:
            dialog.deleteLater()


class McpHeadersDialog(QDialog):
    """An HTTP server's headers, saved only when they are valid."""

    def __init__(
        self, model: McpServersModel, server: McpServerSettings, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._model = model
        self._server_id = server.id
        self.setWindowTitle(self.tr("Headers for {name}").format(name=server.name))
        self.editor = HeadersEditor(self)
        self.editor.set_headers(tuple(server.headers.items()))
        self.error = PlainLabel("", self)
        self.error.setObjectName("ErrorLabel")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.save = buttons.button(QDialogButtonBox.StandardButton.Save)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.editor)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    def accept(self) -> None:
        problem = self._model.set_headers(self._server_id, self.editor.headers())
        if problem:
            self.error.setText(problem)
            return
        super().accept()


class McpServersPage(QWidget):
    def __init__(self, model: McpServersModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.consent_dialog: McpConsentDialog | None = None
        self.headers_dialog: McpHeadersDialog | None = None
        self.rows: dict[str, QWidget] = {}
        self.list_box = QGroupBox(self.tr("Servers"), self)
        self._list = QVBoxLayout(self.list_box)

        add_box = QGroupBox(self.tr("Add a server"), self)
        self.kind = QComboBox(add_box)
        self.kind.addItem(self.tr("Program (stdio)"), McpTransport.STDIO.value)
        self.kind.addItem(self.tr("URL (streamable HTTP)"), McpTransport.HTTP.value)
        self.name = QLineEdit(add_box)
        self.command = QLineEdit(add_box)
        self.command.setPlaceholderText("uvx")
        self.args = QLineEdit(add_box)
        self.args.setPlaceholderText("mcp-server-time --local-timezone UTC")
        self.url = QLineEdit(add_box)
        self.url.setPlaceholderText("https://example.com/mcp")
        self.headers = HeadersEditor(add_box)
        self.add = QPushButton(self.tr("Add"), add_box)
        self.error = PlainLabel("", add_box)
        self.error.setObjectName("ErrorLabel")
        self.error.setWordWrap(True)
        form = QFormLayout(add_box)
        form.addRow(self.tr("Kind"), self.kind)
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Command"), self.command)
        form.addRow(self.tr("Arguments"), self.args)
        form.addRow(self.tr("URL"), self.url)
        form.addRow(self.tr("Headers"), self.headers)
        form.addRow(self.error, self.add)
        plain_form_labels(form)
        self.kind.currentIndexChanged.connect(self._show_fields)
        self.add.clicked.connect(self._add)

        layout = QVBoxLayout(self)
        layout.addWidget(self.list_box, 1)
        layout.addWidget(add_box)
        model.changed.connect(self._show_servers)
        model.saveFailed.connect(self.error.setText)
        model.consentNeeded.connect(self.ask_consent)
        self._show_fields()
        self._show_servers()

    def _show_fields(self) -> None:
        stdio = self.kind.currentData() == McpTransport.STDIO.value
        self.command.setEnabled(stdio)
        self.args.setEnabled(stdio)
        self.url.setEnabled(not stdio)
        self.headers.setEnabled(not stdio)

    def _add(self) -> None:
        self.error.setText("")
        name = self.name.text().strip()
        if self.kind.currentData() == McpTransport.STDIO.value:
            added = self._model.add_stdio(name, self.command.text(), self.args.text())
        else:
            added = self._model.add_http(name, self.url.text(), self.headers.headers())
        if added is not None:
            for field in (self.name, self.command, self.args, self.url):
                field.clear()
            self.headers.set_headers(())

    def edit_headers(self, server_id: str) -> None:
        server = next((s for s in self._model.servers() if s.id == server_id), None)
        if server is None:
            return
        if self.headers_dialog is not None:
            self.headers_dialog.close()
            self.headers_dialog.deleteLater()
        self.headers_dialog = McpHeadersDialog(self._model, server, self)
        self.headers_dialog.open()

    def ask_consent(self, server_id: str) -> None:
        request = self._model.consent_request(server_id)
        if request is None:
            return
        if self.consent_dialog is not None:
            self.consent_dialog.close()
            self.consent_dialog.deleteLater()
        self.consent_dialog = McpConsentDialog(self._model, request, self)
        self.consent_dialog.open()

    def _show_servers(self) -> None:
        while self._list.count():
            item = self._list.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.rows = {}
        servers = self._model.servers()
        if not servers:
            self._list.addWidget(PlainLabel(self.tr("No MCP server is set up."), self.list_box))
        for server in servers:
            row = QWidget(self.list_box)
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            where = server.url if server.transport is McpTransport.HTTP else server.command
            about = QWidget(row)
            lines = QVBoxLayout(about)
            lines.setContentsMargins(0, 0, 0, 0)
            lines.addWidget(MarkupLabel(f"<b>{escape(server.name)}</b> · {escape(where)}", about))
            status = PlainLabel(self._model.status(server.id), about)
            status.setObjectName("status")
            lines.addWidget(status)
            line.addWidget(about, 1)
            if server.enabled and self._model.needs_consent(server.id):
                allow = QPushButton(self.tr("Allow…"), row)
                allow.setObjectName("allow")
                allow.clicked.connect(lambda _c=False, i=server.id: self.ask_consent(i))
                line.addWidget(allow)
            enabled = QCheckBox(self.tr("Enabled"), row)
            enabled.setChecked(server.enabled)
            enabled.toggled.connect(lambda on, i=server.id: self._model.set_enabled(i, on))
            line.addWidget(enabled)
            if server.transport is McpTransport.HTTP:
                headers = QPushButton(self.tr("Headers…"), row)
                headers.setObjectName("headers")
                headers.clicked.connect(lambda _c=False, i=server.id: self.edit_headers(i))
                line.addWidget(headers)
            log = QPushButton(self.tr("Open log"), row)
            log.clicked.connect(lambda _c=False, i=server.id: self._model.open_log(i))
            line.addWidget(log)
            remove = QPushButton(self.tr("Remove"), row)
            remove.setObjectName("remove")
            remove.clicked.connect(lambda _c=False, i=server.id: self._model.remove(i))
            line.addWidget(remove)
            self._list.addWidget(row)
            self.rows[server.id] = row
        self._list.addStretch(1)
