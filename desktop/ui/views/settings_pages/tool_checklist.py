"""The tools an assistant may call, on Settings → Assistants: "All tools", and a box for
each tool.

With "All tools" on, every tool reads as included: each box ticked, the list not to be
changed one by one, and a line saying that tools added later are included too. Turning
it off keeps every box ticked, to untick the ones the assistant may not use.
`changed` says the person changed the choice (never the page filling it in).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from desktop.ui.views.labels import form_hint

_CHECKED = Qt.CheckState.Checked
_UNCHECKED = Qt.CheckState.Unchecked


class ToolChecklist(QWidget):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._filling = False
        self.all_tools = QCheckBox(self.tr("All tools"), self)
        self.all_tools.setAccessibleDescription(self.tr("Every tool, including ones added later"))
        self.list = QListWidget(self)
        self.list.setObjectName("AssistantTools")
        self.list.setMaximumHeight(140)
        self.list.setAccessibleName(self.tr("Tools"))
        self.all_note = form_hint(self.tr("Every tool, including ones added later."), self)
        self.none_note = form_hint(self.tr("No tools are available."), self)
        self.all_tools.toggled.connect(self._on_all_toggled)
        self.list.itemChanged.connect(self._on_item_changed)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        column.addWidget(self.all_tools)
        column.addWidget(self.all_note)
        column.addWidget(self.list)
        column.addWidget(self.none_note)

    def names(self) -> list[str]:
        return [self.list.item(row).text() for row in range(self.list.count())]

    def show_tools(self, names: list[str], allowed: tuple[str, ...] | None, *, tick: bool) -> None:
        """Offer `names`; when `tick` (or the names changed), tick what `allowed` allows
        (None: all of them, with "All tools" on)."""
        self._filling = True
        try:
            if names != self.names():
                self.list.clear()
                for name in names:
                    item = QListWidgetItem(name, self.list)
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                tick = True
            if tick:
                chosen = set(allowed or ())
                for row in range(self.list.count()):
                    item = self.list.item(row)
                    every = allowed is None or item.text() in chosen
                    item.setCheckState(_CHECKED if every else _UNCHECKED)
                self.all_tools.setChecked(allowed is None)
        finally:
            self._filling = False
        self._show_state()

    def allowed(self) -> tuple[str, ...] | None:
        """The tools ticked, or None for all of them (and those added later)."""
        if self.all_tools.isChecked():
            return None
        return tuple(
            self.list.item(row).text()
            for row in range(self.list.count())
            if self.list.item(row).checkState() == _CHECKED
        )

    def _show_state(self) -> None:
        every = self.all_tools.isChecked()
        has_tools = self.list.count() > 0
        self.list.setEnabled(not every)
        self.list.setVisible(has_tools)
        self.all_note.setVisible(every)
        self.none_note.setVisible(not has_tools)

    def _on_all_toggled(self, _every: bool) -> None:
        if self._filling:
            return
        self._filling = True
        try:  # on: every tool reads as included; off: start from all and untick some
            for row in range(self.list.count()):
                self.list.item(row).setCheckState(_CHECKED)
        finally:
            self._filling = False
        self._show_state()
        self.changed.emit()

    def _on_item_changed(self, _item: QListWidgetItem) -> None:
        if not self._filling:
            self.changed.emit()
