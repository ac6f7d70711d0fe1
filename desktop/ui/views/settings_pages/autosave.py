"""Apply-on-change for the record pages of Settings (providers, assistants, libraries).

There is no Save button: a box ticked or an entry chosen is saved at once; a line of
text when it is finished (Enter, or the cursor leaving it); a text of several lines and
a number stepped with the arrows after a short pause, and at once when the cursor leaves
them, so a save never follows every keystroke and the settings window's Undo gets one
step per change, not one per letter. What cannot be saved says why beside its field
(`FieldError`) and stays as typed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QAbstractSpinBox, QPlainTextEdit, QVBoxLayout, QWidget

from desktop.ui.views.labels import PlainLabel

PAUSE_MS: Final = 800  # typing or stepping stopped this long: the change is saved


class PauseCommit(QObject):
    """Calls `commit` once changes pause (`poke` restarts the wait) or when `flush`ed,
    once per run of changes; `cancel` forgets changes that were the page's own."""

    def __init__(self, commit: Callable[[], None], parent: QObject, ms: int = PAUSE_MS) -> None:
        super().__init__(parent)
        self._commit = commit
        self._pending = False
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(ms)
        self.timer.timeout.connect(self.flush)

    @property
    def pending(self) -> bool:
        return self._pending

    def poke(self) -> None:
        self._pending = True
        self.timer.start()

    def flush(self) -> None:
        self.timer.stop()
        if self._pending:
            self._pending = False
            self._commit()

    def cancel(self) -> None:
        self.timer.stop()
        self._pending = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FocusOut:
            self.flush()
        return False


def save_text_on_pause(edit: QPlainTextEdit, commit: Callable[[], None]) -> PauseCommit:
    """A text of several lines: saved after a pause in typing, and when the cursor leaves."""
    pause = PauseCommit(commit, edit)
    edit.textChanged.connect(pause.poke)
    edit.installEventFilter(pause)
    return pause


def save_number_on_pause(spin: QAbstractSpinBox, commit: Callable[[], None]) -> PauseCommit:
    """A spin box: saved after a pause in stepping or typing, and on Enter or leaving it."""
    pause = PauseCommit(commit, spin)
    spin.valueChanged.connect(pause.poke)  # type: ignore[attr-defined]
    spin.editingFinished.connect(pause.flush)
    return pause


class FieldError(PlainLabel):
    """Why the field above cannot be saved, in the error colour; hidden while there is
    nothing to say. `guide` says it in the muted colour instead: a field of a record not
    saved yet that the person has not come to."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__("", parent)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    def say(self, text: str, *, guide: bool = False) -> None:
        self.setText(text)
        tone = "" if guide or not text else "error"
        self.setObjectName("FormHint" if guide else "FieldError")
        if self.property("tone") != tone:
            self.setProperty("tone", tone)
        self.style().unpolish(self)
        self.style().polish(self)
        self.setVisible(bool(text))

    def clear_error(self) -> None:
        self.say("")

    @property
    def error(self) -> str:
        """The error shown ("" when none, or only a muted guide)."""
        return self.text() if self.property("tone") == "error" and not self.isHidden() else ""


def field_column(*widgets: QWidget) -> QVBoxLayout:
    """A field with what is said under it (a hint, a `FieldError`), close together."""
    column = QVBoxLayout()
    column.setSpacing(2)
    for widget in widgets:
        column.addWidget(widget)
    return column
