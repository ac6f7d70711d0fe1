"""Add MCP servers from pasted JSON: the text, and what would be added, before anything is.

Each server found is shown with its kind and its whole command line or URL (as plain
text, wrapped), the names of its environment variables or headers with their values
masked, and a box to leave it out; entries that cannot be used are listed with the
reason. "Add N servers" adds the ticked ones turned off: nothing runs until the person
turns one on, and a program only once they allow its command line.

The text box refuses a paste larger than `MAX_PASTE_BYTES` (saying so) instead of
laying out megabytes, and wraps anywhere, so a long minified line lays out in linear
time. The text is read again a moment after each change.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QResizeEvent, QTextOption
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop.core.mcp_json import size_problem
from desktop.core.mcp_settings import McpServerSettings
from desktop.ui.plain_text import button_text
from desktop.ui.viewmodels.mcp_import_preview import ImportRow, import_row
from desktop.ui.viewmodels.mcp_servers import McpServersModel
from desktop.ui.views.labels import PlainLabel, form_hint
from desktop.ui.views.plain_text_view import PlainTextView

READ_AFTER_MS = 300  # typing paused this long: the text is read again
COMMAND_LINES_SHOWN = 6  # a longer command line scrolls inside its box


class JsonPasteEdit(QPlainTextEdit):
    """A text box for JSON that refuses a paste or drop too large to read."""

    refused = Signal(str)  # why the paste was not taken

    def insertFromMimeData(self, source: QMimeData) -> None:
        problem = size_problem(source.text()) if source.hasText() else ""
        if problem:
            self.refused.emit(problem)
            return
        super().insertFromMimeData(source)


class CommandLineView(PlainTextView):
    """A command line or URL, whole and exactly, wrapped anywhere, as tall as its lines
    (up to `COMMAND_LINES_SHOWN`)."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setObjectName("ExtraBodyEdit")  # framed as the other code boxes of Settings
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.document().documentLayout().documentSizeChanged.connect(lambda _s: self._fit())
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()  # a new width wraps the line anew

    def _fit(self) -> None:
        lines = int(self.document().documentLayout().documentSize().height())
        shown = min(max(lines, 1), COMMAND_LINES_SHOWN)
        margins = self.contentsMargins()
        frame = margins.top() + margins.bottom() + 2 * self.frameWidth()
        extra = 2 * self.document().documentMargin() + frame + 2
        self.setFixedHeight(int(shown * self.fontMetrics().lineSpacing() + extra))


class _Entry(QFrame):
    """One server found: tick, name and kind; its command line; masked details; notes."""

    def __init__(self, row: ImportRow, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("FoundServer")
        self.row = row
        self.check = QCheckBox(button_text(row.server.name), self)
        self.check.setChecked(True)
        kind = PlainLabel(row.kind, self)
        kind.setObjectName("MetaLabel")
        self.target = CommandLineView(row.target, self)
        top = QHBoxLayout()
        top.addWidget(self.check, 1)
        top.addWidget(kind)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.target)
        for text in row.details:
            detail = PlainLabel(text, self)
            detail.setObjectName("MetaLabel")
            detail.setWordWrap(True)
            layout.addWidget(detail)
        for text in row.notes:
            note = PlainLabel(text, self)
            note.setObjectName("Banner")
            note.setWordWrap(True)
            layout.addWidget(note)


class McpImportDialog(QDialog):
    def __init__(self, model: McpServersModel, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.entries: list[_Entry] = []
        self.problems: list[str] = []  # the entries left out, as listed
        self.setWindowTitle(self.tr("Add MCP servers from JSON"))
        self.resize(660, 580)
        intro = form_hint(
            self.tr(
                "Paste the “mcpServers” JSON of Claude Desktop or Cursor, VS Code's "
                "“servers”, or one server from its README."
            ),
            self,
        )
        self.source = JsonPasteEdit(self)
        self.source.setObjectName("ExtraBodyEdit")
        self.source.setAccessibleName(self.tr("MCP servers' JSON"))
        self.source.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.source.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
        self.source.setTabChangesFocus(True)
        self.source.setPlaceholderText(
            '{"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}'
        )
        self.source.setFixedHeight(120)
        self.error = PlainLabel("", self)
        self.error.setObjectName("FieldError")
        self.error.setProperty("tone", "error")
        self.error.setWordWrap(True)
        self.error.hide()

        self.found = QWidget(self)
        self.found.setObjectName("ProviderFormBody")  # transparent, as a settings form
        self._found = QVBoxLayout(self.found)
        self._found.setContentsMargins(0, 0, 8, 0)
        scroll = QScrollArea(self)
        scroll.setObjectName("ProviderForm")
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.found)

        footer = form_hint(
            self.tr(
                "Servers are added turned off. Turn one on to use it: a program asks "
                "you first to allow its exact command line."
            ),
            self,
        )
        buttons = QDialogButtonBox(self)
        self.add = QPushButton(self)
        self.add.setObjectName("SendButton")  # named before the box polishes it
        buttons.addButton(self.add, QDialogButtonBox.ButtonRole.AcceptRole)
        self.add.setDefault(True)
        self.cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.source)
        layout.addWidget(self.error)
        layout.addWidget(scroll, 1)
        layout.addWidget(footer)
        layout.addWidget(buttons)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(READ_AFTER_MS)
        self._timer.timeout.connect(self.read)
        self.source.refused.connect(self._show_error)
        too_large = size_problem(text)
        if not too_large:
            self.source.setPlainText(text)
        self.source.textChanged.connect(self._timer.start)
        self.read()
        if too_large:
            self._show_error(too_large)

    def chosen(self) -> list[McpServerSettings]:
        return [e.row.server for e in self.entries if e.check.isChecked()]

    def read(self) -> None:
        """Read the text again and show what it holds."""
        self._timer.stop()
        text = self.source.toPlainText()
        result = self._model.read_import(text) if text.strip() else None
        while self._found.count():
            item = self._found.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.entries = []
        self.problems = []
        self._show_error(result.error if result is not None else "")
        if result is not None:
            for imported in result.servers:
                entry = _Entry(import_row(imported), self.found)
                entry.check.toggled.connect(self._count)
                self._found.addWidget(entry)
                self.entries.append(entry)
            if result.problems:
                title = PlainLabel(self.tr("Not added"), self.found)
                title.setObjectName("SettingsSection")
                self._found.addWidget(title)
            for problem in result.problems:
                line = f"{problem.name}: {problem.problem}" if problem.name else problem.problem
                label = PlainLabel(line, self.found)
                label.setWordWrap(True)
                self._found.addWidget(label)
                self.problems.append(line)
        self._found.addStretch(1)
        self._count()

    def _count(self) -> None:
        count = len(self.chosen())
        self.add.setText(self.tr("Add %n server(s)", "", count) if count else self.tr("Add"))
        self.add.setEnabled(count > 0)

    def _show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))
