"""Attached files as chips: in the composer (removable) and in sent messages (openable).

A chip shows an image's thumbnail or a badge with a document's type, the name (elided;
the tooltip has all of it), the size, and in the composer a remove button. Chips wrap
onto more lines in a narrow window instead of widening it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale, QRect, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPixmap,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.attachments import Attachment, AttachmentKind
from desktop.core.limits import MAX_EXTRACTED_CHARS
from desktop.ui.formatting import human_size
from desktop.ui.icons import icon_button
from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.attachment_tray import AttachmentFiles, AttachmentTray, PendingFile
from desktop.ui.views.flow_layout import FlowLayout
from desktop.ui.views.labels import PlainLabel

ICON_SIDE = 32
NAME_WIDTH = 150  # pixels before a name is elided


def _extension(name: str) -> str:
    _, dot, ext = name.rpartition(".")
    return ext[:4].upper() if dot and ext else "FILE"


def file_badge(name: str, colour: QColor, side: int = ICON_SIDE) -> QPixmap:
    """A document icon: a sheet with the file's extension on it."""
    ratio = 2.0
    pixmap = QPixmap(int(side * ratio), int(side * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    painter.drawRoundedRect(QRect(3, 1, side - 6, side - 2), 4, 4)
    font = QFont()
    font.setPixelSize(max(7, side // 4))
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(
        QRect(3, 1, side - 6, side - 2), Qt.AlignmentFlag.AlignCenter, _extension(name)
    )
    painter.end()
    return pixmap


def tooltip_for(name: str, attachment: Attachment | None) -> str:
    lines = [name]
    if attachment is not None:
        lines.append(human_size(attachment.size))
        if attachment.kind is AttachmentKind.DOCUMENT and attachment.truncated:
            lines.append(
                QCoreApplication.translate("AttachmentChip", "Truncated at %1 characters").replace(
                    "%1", QLocale().toString(MAX_EXTRACTED_CHARS)
                )
            )
    return "\n".join(lines)


class AttachmentChip(QFrame):
    """One file; `removable` adds the remove button, otherwise a click opens it."""

    removeRequested = Signal(str)  # the chip's key
    openRequested = Signal(object)  # Attachment

    def __init__(
        self, key: str, name: str, files: AttachmentFiles, *, removable: bool, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.setObjectName("AttachmentChip")
        self.key = key
        self.name = name
        self.attachment: Attachment | None = None
        self._files = files
        self._removable = removable
        self.icon = PlainLabel("", self)
        self.icon.setFixedSize(ICON_SIDE, ICON_SIDE)
        self.icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.name_label = PlainLabel("", self)
        self.name_label.setObjectName("AttachmentName")
        self.detail = PlainLabel("", self)
        self.detail.setObjectName("MetaLabel")
        texts = QVBoxLayout()
        texts.setContentsMargins(0, 0, 0, 0)
        texts.setSpacing(0)
        texts.addWidget(self.name_label)
        texts.addWidget(self.detail)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 4, 6 if removable else 10, 4)
        row.setSpacing(8)
        row.addWidget(self.icon)
        row.addLayout(texts)
        self.remove_button: QToolButton | None = None
        if removable:
            button = self.remove_button = icon_button(self, "close", self.tr("Remove"))
            button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            button.setAccessibleName(self.tr("Remove %1").replace("%1", name))
            button.clicked.connect(lambda: self.removeRequested.emit(self.key))
            row.addWidget(button)
        else:
            self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.show_state(None)

    def show_state(self, attachment: Attachment | None) -> None:
        """Loading (None) or the stored file."""
        self.attachment = attachment
        metrics = self.name_label.fontMetrics()
        self.name_label.setText(
            metrics.elidedText(self.name, Qt.TextElideMode.ElideMiddle, NAME_WIDTH)
        )
        if attachment is None:
            self.detail.setText(self.tr("Adding…"))
        elif attachment.kind is AttachmentKind.DOCUMENT and attachment.truncated:
            self.detail.setText(
                self.tr("%1 · truncated").replace("%1", human_size(attachment.size))
            )
        else:
            self.detail.setText(human_size(attachment.size))
        self.setToolTip(tooltip(tooltip_for(self.name, attachment)))
        self.setAccessibleName(f"{self.name}, {self.detail.text()}")
        self.refresh_icon()

    def refresh_icon(self) -> None:
        attachment = self.attachment
        image = self._files.thumbnail(attachment) if attachment is not None else None
        if image is not None:
            self.icon.setPixmap(_cropped(image, ICON_SIDE, self.devicePixelRatioF()))
        else:
            colour = self.palette().color(self.palette().ColorRole.Highlight)
            if attachment is None:
                colour = self.palette().color(self.palette().ColorRole.Mid)
            self.icon.setPixmap(file_badge(self.name, colour))

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        border = palette.color(
            palette.ColorRole.Highlight if self.hasFocus() else palette.ColorRole.Mid
        )
        painter.setPen(border)
        painter.setBrush(palette.color(palette.ColorRole.Base))
        painter.drawRoundedRect(self.rect().adjusted(0, 0, -1, -1), 8, 8)
        painter.end()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if (
            not self._removable
            and self.attachment is not None
            and event.button() == Qt.MouseButton.LeftButton
            and self.rect().contains(event.position().toPoint())
        ):
            self.openRequested.emit(self.attachment)
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if not self._removable and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            if self.attachment is not None:
                self.openRequested.emit(self.attachment)
            return
        super().keyPressEvent(event)


def _cropped(image: QImage, side: int, ratio: float) -> QPixmap:
    """The image's middle square, `side` logical pixels."""
    pixels = max(1, round(side * ratio))
    scaled = image.scaled(
        pixels,
        pixels,
        Qt.AspectRatioMode.KeepAspectRatioByExpanding,
        Qt.TransformationMode.SmoothTransformation,
    )
    x = (scaled.width() - pixels) // 2
    y = (scaled.height() - pixels) // 2
    pixmap = QPixmap.fromImage(scaled.copy(x, y, pixels, pixels))
    pixmap.setDevicePixelRatio(ratio)
    return pixmap


class ChipRow(QWidget):
    """A wrapping row of chips, kept by key so a thumbnail or a state change updates
    one chip instead of rebuilding the row."""

    def __init__(self, files: AttachmentFiles, *, removable: bool, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("AttachmentChips")
        self._files = files
        self._removable = removable
        self._layout = FlowLayout(self)
        self.chips: dict[str, AttachmentChip] = {}
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        files.thumbnailReady.connect(self._on_thumbnail)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._layout.heightForWidth(width)

    def spacing(self) -> int:
        return self._layout.gap

    def show_files(self, files: list[tuple[str, str, Attachment | None]]) -> None:
        """(key, name, attachment or None while loading) for each chip, in order."""
        keys = {key for key, _, _ in files}
        for key in [k for k in self.chips if k not in keys]:
            gone = self.chips.pop(key)
            gone.hide()
            gone.deleteLater()
        order: list[QWidget] = []
        for key, name, attachment in files:
            chip = self.chips.get(key)
            if chip is None:
                chip = self.chips[key] = AttachmentChip(
                    key, name, self._files, removable=self._removable, parent=self
                )
                chip.removeRequested.connect(self._on_remove)
                chip.openRequested.connect(self._files.open)
            if chip.attachment != attachment:
                chip.show_state(attachment)
            order.append(chip)
        self._layout.place(order)
        for widget in order:
            widget.show()
        self.setVisible(bool(files))
        self.updateGeometry()

    def _on_remove(self, key: str) -> None:
        """Tray chips override this."""

    def _on_thumbnail(self, attachment_id: str) -> None:
        for chip in self.chips.values():
            if chip.attachment is not None and chip.attachment.id == attachment_id:
                chip.refresh_icon()


class TrayChips(ChipRow):
    """The composer's pending files."""

    def __init__(self, tray: AttachmentTray, parent: QWidget) -> None:
        super().__init__(tray.files, removable=True, parent=parent)
        self._tray = tray
        tray.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        entries: list[PendingFile] = self._tray.entries()
        self.show_files([(e.key, e.name, e.attachment) for e in entries])

    def _on_remove(self, key: str) -> None:
        chips = list(self.chips)
        self._tray.remove(key)
        # Keyboard users carry on at the next chip's remove button (or the previous one).
        if key in chips:
            rest = [k for k in chips if k != key]
            index = min(chips.index(key), len(rest) - 1)
            if index >= 0 and rest[index] in self.chips:
                button = self.chips[rest[index]].remove_button
                if button is not None:
                    button.setFocus(Qt.FocusReason.OtherFocusReason)


class SentChips(ChipRow):
    """A sent message's files; a click opens the stored copy."""

    def __init__(self, files: AttachmentFiles, attachments: list[Attachment], parent: QWidget):
        super().__init__(files, removable=False, parent=parent)
        self.show_files([(a.id, a.name, a) for a in attachments])
