"""The compact row of per-message actions: copy, edit, regenerate, versions, continue,
pin, delete.

Which buttons show is decided from the `MessageItem` alone (the view-model's flags);
the row only reports clicks. Icon buttons (desktop/ui/icons.py) carry a tooltip and an
accessible name, and every button is reachable with Tab once the row is shown. Deleting
is a trash can, never the ✕ that closes things elsewhere.

Most messages never show their row (it appears on hover), so an `ActionSlot` keeps the
row's space from the start and builds the row the first time it is needed: a message
widget is then quicker to create while scrolling through a long chat.
"""

from __future__ import annotations

from typing import ClassVar

from PySide6.QtCore import QEvent, Qt, QTimer, Signal, SignalInstance
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QToolButton, QWidget

from desktop.ui.icons import icon_button, set_icon
from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.views.labels import PlainLabel

COPIED_FEEDBACK_MS = 1500


class MessageActions(QWidget):
    copyClicked = Signal()
    editClicked = Signal()
    regenerateClicked = Signal()
    versionClicked = Signal(int)  # -1 previous, +1 next
    continueClicked = Signal()
    retryClicked = Signal()
    pinClicked = Signal()  # pin or unpin: always sent in full, never summarised
    deleteClicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MessageActions")
        policy = self.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # showing the row on hover must not move text
        policy.setHorizontalPolicy(QSizePolicy.Policy.Maximum)
        self.setSizePolicy(policy)

        self.copy_button = self._button("copy", self.tr("Copy as Markdown"), self.copyClicked)
        self.edit_button = self._button("edit", self.tr("Edit and answer again"), self.editClicked)
        self.regenerate_button = self._button(
            "regenerate", self.tr("Regenerate this answer"), self.regenerateClicked
        )
        self.previous_button = self._button("chevron-left", self.tr("Previous version"), None)
        self.previous_button.clicked.connect(lambda: self.versionClicked.emit(-1))
        self.version_label = PlainLabel("", self)
        self.version_label.setObjectName("VersionLabel")
        self.next_button = self._button("chevron-right", self.tr("Next version"), None)
        self.next_button.clicked.connect(lambda: self.versionClicked.emit(1))
        self.continue_button = self._button(
            "continue", self.tr("Continue this answer"), self.continueClicked
        )
        self._add_text(self.continue_button, self.tr("Continue"))
        self.retry_button = self._button(
            "retry", self.tr("Try this answer again"), self.retryClicked
        )
        self._add_text(self.retry_button, self.tr("Retry"))
        self.pin_button = self._button("pin", "", self.pinClicked)
        self.pin_button.setCheckable(True)
        self.set_pinned(False)
        self.delete_button = self._button(
            "delete", self.tr("Delete this message and what follows it"), self.deleteClicked
        )

        self.buttons = (
            self.previous_button,
            self.next_button,
            self.continue_button,
            self.retry_button,
            self.copy_button,
            self.edit_button,
            self.regenerate_button,
            self.pin_button,
            self.delete_button,
        )
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        for widget in (self.previous_button, self.version_label, *self.buttons[1:]):
            row.addWidget(widget)

    def _button(self, icon: str, tip: str, clicked: SignalInstance | None) -> QToolButton:
        button = icon_button(self, icon, tip)
        button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        if clicked is not None:
            button.clicked.connect(clicked)
        return button

    @staticmethod
    def _add_text(button: QToolButton, text: str) -> None:
        """A button whose word says more than its icon would alone."""
        button.setText(text)
        button.setProperty("iconOnly", False)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)

    def show_item(self, item: MessageItem) -> None:
        idle = not item.streaming
        assistant = not item.is_user
        versions = idle and item.version_count > 1
        self.copy_button.setVisible(idle and bool(item.markdown))
        self.edit_button.setVisible(idle and item.is_user)
        self.regenerate_button.setVisible(idle and assistant and not item.can_retry)
        self.continue_button.setVisible(idle and assistant and item.can_continue)
        self.retry_button.setVisible(idle and assistant and item.can_retry)
        self.pin_button.setVisible(idle)
        self.delete_button.setVisible(idle)
        for widget in (self.previous_button, self.version_label, self.next_button):
            widget.setVisible(versions)
        self.version_label.setText(f"{item.version_index}/{item.version_count}")
        self.version_label.setAccessibleName(
            self.tr("Version %1 of %2")
            .replace("%1", str(item.version_index))
            .replace("%2", str(item.version_count))
        )
        self.previous_button.setEnabled(item.version_index > 1)
        self.next_button.setEnabled(item.version_index < item.version_count)

    def set_pinned(self, pinned: bool) -> None:
        tip = (
            self.tr("Unpin: the summary may stand for this message again")
            if pinned
            else self.tr("Pin: always send this message in full")
        )
        self.pin_button.setChecked(pinned)
        self.pin_button.setToolTip(tip)
        self.pin_button.setAccessibleName(tip)

    def flash_copied(self) -> None:
        """A moment of feedback on the copy button (a check mark); the context object
        stops a late call."""
        set_icon(self.copy_button, "check", tone="accent")
        QTimer.singleShot(COPIED_FEEDBACK_MS, self, lambda: set_icon(self.copy_button, "copy"))


def has_actions(item: MessageItem) -> bool:
    """False while the message streams: nothing can be done to it yet."""
    return not item.streaming


class ActionSlot(QWidget):
    """The action row's place in a message: as tall as the row, filled on first use."""

    _heights: ClassVar[dict[str, int]] = {}  # row height per font (one row is measured per font)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._row: MessageActions | None = None
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self._row_height())

    @property
    def row(self) -> MessageActions | None:
        return self._row

    def ensure_row(self) -> MessageActions:
        if self._row is None:
            self._row = MessageActions(self)
            self._row.hide()
            self._layout.addWidget(self._row)
        return self._row

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # the text size setting changed
            self.setFixedHeight(self._row_height())

    def _row_height(self) -> int:
        key = self.font().key()
        if key not in self._heights:
            probe = MessageActions(self)
            probe.ensurePolished()
            for button in probe.findChildren(QToolButton):
                button.ensurePolished()
            self._heights[key] = probe.sizeHint().height()
            probe.deleteLater()
        return self._heights[key]
