"""One MCP server's fields, only those of its kind: a program (command, arguments,
working folder, environment) or a URL (address, headers).

The form holds what is typed and says when the person finished changing a field
(`edited`, with the field's name): a line when it is left or Enter is pressed, the kind
and a table's row at once. The page saves through the view-model and hands back what
cannot be saved, shown beside its field (`show_problem`).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.mcp_settings import McpServerSettings, McpTransport
from desktop.ui.viewmodels.mcp_import_preview import kind_label
from desktop.ui.viewmodels.mcp_server_draft import (
    FIELDS,
    DraftProblem,
    McpServerDraft,
    draft_of,
)
from desktop.ui.views.labels import form_hint, plain_form_labels
from desktop.ui.views.settings_pages.autosave import FieldError, field_column
from desktop.ui.views.settings_pages.headers_editor import HeadersEditor

_STDIO_FIELDS = ("command", "args", "cwd", "env")


class McpServerForm(QWidget):
    edited = Signal(str)  # the field the person finished changing ("kind" or a FIELDS name)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._loading = False
        self.errors = {name: FieldError(self) for name in FIELDS}
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("e.g. Time"))
        self.kind = QComboBox(self)
        self.kind.setObjectName("McpServerKind")
        for transport in McpTransport:
            self.kind.addItem(kind_label(transport), transport.value)
        self.command = QLineEdit(self)
        self.command.setPlaceholderText("uvx")
        self.args = QLineEdit(self)
        self.args.setPlaceholderText("mcp-server-time --local-timezone UTC")
        self.cwd = QLineEdit(self)
        self.cwd.setPlaceholderText(self.tr("Parley's own working folder"))
        self.choose_cwd = QPushButton(self.tr("Choose…"), self)
        self.choose_cwd.clicked.connect(self._choose_cwd)
        self.env = HeadersEditor(self)
        self.env.add_button.setText(self.tr("Add variable"))
        self.env.remove_button.setText(self.tr("Remove variable"))
        self.url = QLineEdit(self)
        self.url.setPlaceholderText("https://example.com/mcp")
        self.headers = HeadersEditor(self)

        cwd_row = QHBoxLayout()
        cwd_row.addWidget(self.cwd, 1)
        cwd_row.addWidget(self.choose_cwd)
        cwd_column = QVBoxLayout()
        cwd_column.setSpacing(2)
        cwd_column.addLayout(cwd_row)
        cwd_column.addWidget(self.errors["cwd"])
        args_hint = form_hint(
            self.tr("Separated by spaces; put quotes around one that has spaces."), self
        )
        url_hint = form_hint(
            self.tr("Streamable HTTP; a server that only speaks the older SSE works too."), self
        )
        self.form = form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.addRow(self.tr("Name"), field_column(self.name, self.errors["name"]))
        form.addRow(self.tr("Kind"), self.kind)
        self._rows = {
            "command": field_column(self.command, self.errors["command"]),
            "args": field_column(self.args, args_hint, self.errors["args"]),
            "cwd": cwd_column,
            "env": field_column(self.env, self.errors["env"]),
            "url": field_column(self.url, url_hint, self.errors["url"]),
            "headers": field_column(self.headers, self.errors["headers"]),
        }
        labels = {
            "command": self.tr("Command"),
            "args": self.tr("Arguments"),
            "cwd": self.tr("Working folder"),
            "env": self.tr("Environment"),
            "url": self.tr("URL"),
            "headers": self.tr("Headers"),
        }
        for field, layout in self._rows.items():
            form.addRow(labels[field], layout)
        plain_form_labels(form)

        for field, edit in (
            ("name", self.name),
            ("command", self.command),
            ("args", self.args),
            ("cwd", self.cwd),
            ("url", self.url),
        ):
            edit.editingFinished.connect(lambda f=field: self._on_edited(f))
        for field, table in (("env", self.env), ("headers", self.headers)):
            table.table.itemChanged.connect(lambda _item, f=field: self._on_edited(f))
            table.table.model().rowsRemoved.connect(lambda *_a, f=field: self._on_edited(f))
        self.kind.currentIndexChanged.connect(self._on_kind_changed)
        self._show_kind_fields()

    # --- contents -------------------------------------------------------------------

    def show_server(self, server: McpServerSettings | None) -> None:
        """Fill the form with `server`, or empty it for a new one (a program)."""
        draft = draft_of(server) if server is not None else McpServerDraft()
        self._loading = True
        try:
            self.kind.setCurrentIndex(max(0, self.kind.findData(draft.transport.value)))
            for edit, text in (
                (self.name, draft.name),
                (self.command, draft.command),
                (self.args, draft.args),
                (self.cwd, draft.cwd),
                (self.url, draft.url),
            ):
                if edit.text() != text:
                    edit.setText(text)
            if _rows(self.env.headers()) != draft.env:
                self.env.set_headers(draft.env)
            if _rows(self.headers.headers()) != draft.headers:
                self.headers.set_headers(draft.headers)
        finally:
            self._loading = False
        self._show_kind_fields()
        self.show_problem(None)

    def draft(self) -> McpServerDraft:
        return McpServerDraft(
            name=self.name.text(),
            transport=self.transport(),
            command=self.command.text(),
            args=self.args.text(),
            cwd=self.cwd.text(),
            env=self.env.headers(),
            url=self.url.text(),
            headers=self.headers.headers(),
        )

    def transport(self) -> McpTransport:
        return McpTransport(str(self.kind.currentData()))

    def show_problem(self, problem: DraftProblem | None) -> None:
        for field, error in self.errors.items():
            error.say(problem.text if problem is not None and problem.field == field else "")

    def problem_shown(self) -> str:
        return next((e.error for e in self.errors.values() if e.error), "")

    # --- the person's changes -------------------------------------------------------

    def _on_edited(self, field: str) -> None:
        if not self._loading:
            self.edited.emit(field)

    def _on_kind_changed(self) -> None:
        self._show_kind_fields()
        self._on_edited("kind")

    def _show_kind_fields(self) -> None:
        """Only the fields of the chosen kind: a URL row under a program is noise."""
        stdio = self.transport() is McpTransport.STDIO
        for field, layout in self._rows.items():
            self.form.setRowVisible(layout, stdio == (field in _STDIO_FIELDS))

    def _choose_cwd(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Working folder"), self.cwd.text())
        if folder:
            self.cwd.setText(folder)
            self._on_edited("cwd")


def _rows(rows: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """A table's rows without the empty ones (a row just added, not yet filled)."""
    return tuple((n.strip(), v.strip()) for n, v in rows if n.strip() or v.strip())
