"""Consent before an MCP program first runs: the exact command line, its working folder
and the names of its environment variables, with "Allow and start" or Cancel. Shown by
the MCP page when a program is added or turned on, and from the main window when a
conversation wants a server that was never allowed (`McpConsentPrompt`)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.mcp_servers import ConsentRequest, McpServersModel
from desktop.ui.views.labels import PlainLabel, plain_form_labels


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
        # Starting a program is never what Enter does: Cancel is the default.
        self.allow.setAutoDefault(False)
        self.cancel.setDefault(True)
        self.cancel.setFocus()
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
