"""A delete confirmation that never blocks: no nested event loop under asyncio."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget

from desktop.ui.views.labels import message_box


def confirm_delete(
    parent: QWidget, title: str, question: str, on_delete: Callable[[], object]
) -> QMessageBox:
    """Show "Cancel / Delete" (Cancel is the default); `on_delete` runs only on Delete."""
    # The question may quote a chat's title, which a model wrote: shown as it is.
    box = message_box(
        QMessageBox.Icon.Warning, title, question, QMessageBox.StandardButton.Cancel, parent
    )
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    delete = box.addButton(
        QCoreApplication.translate("Confirm", "Delete"), QMessageBox.ButtonRole.DestructiveRole
    )
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)

    def on_clicked(button: QAbstractButton) -> None:
        if button is delete:
            on_delete()

    box.buttonClicked.connect(on_clicked)
    box.open()
    return box
