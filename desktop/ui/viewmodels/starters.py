"""What an empty chat offers to send with one click: the assistant's own conversation
starters, or a few suggestions when it has none."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Signal

from desktop.ui.viewmodels.assistant_picker import AssistantPickerModel

SUGGESTIONS_SHOWN = 4


def suggested_prompts() -> list[str]:
    """Everyday tasks, worded as a person would send them (translated)."""
    return [
        QCoreApplication.translate("Starters", "What can you help me with?"),
        QCoreApplication.translate("Starters", "Explain how compound interest works, simply"),
        QCoreApplication.translate("Starters", "Help me write a polite email declining a meeting"),
        QCoreApplication.translate("Starters", "Give me three ideas for a weekend project"),
    ]


class StartersModel(QObject):
    changed = Signal(list)  # list[str]
    chosen = Signal(str)  # the text to send as the first message

    def __init__(self, assistants: AssistantPickerModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._assistants = assistants
        self._items = self._current()
        assistants.changed.connect(self._refresh)

    @property
    def items(self) -> list[str]:
        return list(self._items)

    @property
    def own(self) -> bool:
        """Whether the items are the assistant's own starters (not Parley's suggestions)."""
        return bool(self._assistants.current.starters)

    def choose(self, text: str) -> None:
        if text in self._items:
            self.chosen.emit(text)

    def _current(self) -> list[str]:
        starters = list(self._assistants.current.starters)
        return starters or suggested_prompts()[:SUGGESTIONS_SHOWN]

    def _refresh(self) -> None:
        items = self._current()
        if items != self._items:
            self._items = items
            self.changed.emit(list(items))
