"""Where the person writes: Enter sends, Shift+Enter breaks the line, Stop while streaming.

Files join the message through the paperclip, a drop, or a paste; they wait on the tray
above the text, and a file that cannot be attached is named in a notice there.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt, Signal
from PySide6.QtGui import QFocusEvent, QImage, QKeyEvent, QTextCursor
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.models import new_id
from desktop.ui.icons import set_icon
from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.prompt_library import PromptLibraryModel
from desktop.ui.views.chip_tray import ChipTray
from desktop.ui.views.context_meter import ContextMeter
from desktop.ui.views.elided import ElidingComboBox, WholeLabel
from desktop.ui.views.file_drop import FileDrop, local_files
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.prompt_insert import PromptInserter

MAX_VISIBLE_LINES = 8
MODEL_CHARS = 10  # the model picker's narrowest, in characters
PICKER_FILTERS = (
    "Supported files (*.png *.jpg *.jpeg *.webp *.txt *.md *.markdown *.pdf *.docx *.pptx *.ppt"
    " *.py *.js *.ts *.json *.yaml *.yml *.toml *.csv *.html *.css *.c *.h *.cpp *.rs *.go"
    " *.java *.sh *.sql *.xml *.log)",
    "Images (*.png *.jpg *.jpeg *.webp)",
    "Documents (*.pdf *.docx *.pptx *.ppt *.txt *.md)",
    "All files (*)",
)


class ComposerEdit(QPlainTextEdit):
    submitted = Signal()
    focusChanged = Signal(bool)
    filesPasted = Signal(list)  # list[Path]: file URLs copied in a file manager
    imagePasted = Signal(object)  # bytes (an encoded PNG) or a QImage

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ComposerEdit")
        self.setTabChangesFocus(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self._fit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if enter and modifiers == Qt.KeyboardModifier.NoModifier:
            self.submitted.emit()
            return
        if enter and modifiers & Qt.KeyboardModifier.ShiftModifier:
            self.insertPlainText("\n")
            return
        super().keyPressEvent(event)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return (
            bool(local_files(source)) or source.hasImage() or super().canInsertFromMimeData(source)
        )

    def insertFromMimeData(self, source: QMimeData) -> None:
        """Pasted files and images are attached; text (even with a URL) stays text."""
        files = local_files(source)
        if files:
            self.filesPasted.emit(files)
        elif source.hasFormat("image/png"):
            self.imagePasted.emit(bytes(source.data("image/png").data()))
        elif source.hasImage():
            image = source.imageData()
            if isinstance(image, QImage) and not image.isNull():
                self.imagePasted.emit(image)
        else:
            super().insertFromMimeData(source)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.focusChanged.emit(True)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.focusChanged.emit(False)

    def _fit(self) -> None:
        """Grow with the text up to a few lines, then scroll."""
        line = self.fontMetrics().lineSpacing()
        # A plain-text layout measures its height in visual (wrapped) lines.
        total = max(1, int(self.document().documentLayout().documentSize().height()))
        lines = max(1, min(MAX_VISIBLE_LINES, total))
        self.setVerticalScrollBarPolicy(
            Qt.ScrollBarPolicy.ScrollBarAsNeeded
            if total > MAX_VISIBLE_LINES
            else Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        )
        margins = self.contentsMargins()
        document_margin = int(self.document().documentMargin() * 2)
        self.setFixedHeight(lines * line + document_margin + margins.top() + margins.bottom())


class Composer(QFrame):
    """`compact` (the floating window): the pickers get a row of their own under the
    text, and the hint is left out (the shortcuts list has it)."""

    def __init__(
        self, chat: ChatViewModel, parent: QWidget | None = None, *, compact: bool = False
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self.setObjectName("ComposerFrame")
        self.setProperty("focused", False)

        self.edit = ComposerEdit(self)
        self.edit.setPlaceholderText(self.tr("Message Parley…"))
        self.edit.setAccessibleName(self.tr("Message"))
        self.edit.setAccessibleDescription(
            self.tr("Enter sends the message; Shift+Enter starts a new line")
        )
        self.edit.setProperty("ownFocusRing", True)  # the frame around it shows the focus
        self.edit.submitted.connect(self.submit)
        self.edit.textChanged.connect(self._update_buttons)
        self.edit.focusChanged.connect(self._on_focus_changed)

        # The pickers are as wide as their longest item where there is room, and elide
        # rather than push the chat column (and the sidebar) when there is not.
        self.model_picker = ElidingComboBox(self, shortest=MODEL_CHARS)
        self.model_picker.setObjectName("ModelPicker")
        self.model_picker.setToolTip(self.tr("Model for the next message"))
        self.model_picker.setAccessibleName(self.tr("Model"))
        self.model_picker.setAccessibleDescription(self.tr("Model for the next message"))
        self.model_picker.activated.connect(chat.models.select_model)

        self.effort = ElidingComboBox(self, shortest=None)  # short labels: never elided
        self.effort.setObjectName("ReasoningEffort")
        self.effort.setToolTip(self.tr("How long the model may think before it answers"))
        self.effort.setAccessibleName(self.tr("Reasoning effort"))
        self.effort.setAccessibleDescription(
            self.tr("How long the model may think before it answers")
        )
        for value, label in (
            ("off", self.tr("Reasoning off")),
            ("low", self.tr("Reasoning low")),
            ("medium", self.tr("Reasoning medium")),
            ("high", self.tr("Reasoning high")),
            ("max", self.tr("Reasoning max")),
        ):
            self.effort.addItem(label, value)
        self.effort.activated.connect(
            lambda index: chat.models.set_reasoning_effort(self.effort.itemData(index))
        )

        self.hint = WholeLabel(
            self.tr("Enter to send · Shift+Enter for a new line"), self, shortest=""
        )
        # Only the room left over: it gives way before any picker has to elide, and shows
        # nothing where it does not fit whole.
        self.hint.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.hint.setObjectName("ComposerHint")

        self.send_button = QPushButton(self.tr("Send"), self)
        self.send_button.setObjectName("SendButton")
        self.send_button.setAccessibleName(self.tr("Send message"))
        self.send_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.send_button.clicked.connect(self.submit)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setObjectName("StopButton")
        self.stop_button.setToolTip(self.tr("Stop the answer and keep what arrived (Esc)"))
        self.stop_button.setAccessibleName(self.tr("Stop the answer"))
        self.stop_button.clicked.connect(chat.stop)

        tray = self._tray = chat.tray
        self.notice = AttachmentNotice(self)
        tray.problem.connect(self.notice.add)
        self.chips_area = ChipTray(tray, self)  # wraps, grows a few rows, then scrolls
        self.chips = self.chips_area.chips
        tray.changed.connect(self._update_buttons)
        self.edit.filesPasted.connect(tray.add_paths)
        self.edit.imagePasted.connect(self._attach_image)
        self.attach_button = QToolButton(self)
        self.attach_button.setObjectName("AttachButton")
        set_icon(self.attach_button, "attach", size=18)
        self.attach_button.setAutoRaise(True)
        self.attach_button.setToolTip(self.tr("Attach files (or drop or paste them here)"))
        self.attach_button.setAccessibleName(self.tr("Attach files"))
        self.attach_button.clicked.connect(self.pick_files)
        self.attach_button.setVisible(tray.available)
        self.prompts_button = QToolButton(self)
        self.prompts_button.setObjectName("PromptsButton")
        set_icon(self.prompts_button, "prompts", size=18)
        self.prompts_button.setAutoRaise(True)
        self.prompts_button.setToolTip(
            self.tr("Insert a saved prompt (or type / at the start of a line)")
        )
        self.prompts_button.setAccessibleName(self.tr("Insert a saved prompt"))
        self.prompts_button.clicked.connect(self.open_prompt_menu)
        self._picker: QFileDialog | None = None
        if tray.available:
            self.drop = FileDrop(self, (self.edit.viewport(),))
            self.drop.filesDropped.connect(tray.add_paths)

        self.meter = ContextMeter(chat.meter, self)
        self.edit.textChanged.connect(lambda: chat.meter.set_draft(self.edit.toPlainText()))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 8)
        layout.setSpacing(6)
        layout.addWidget(self.notice)
        layout.addWidget(self.chips_area)
        layout.addWidget(self.edit)
        row = self._row = QHBoxLayout()
        row.setSpacing(8)
        row.addWidget(self.attach_button)
        row.addWidget(self.prompts_button)
        if compact:
            pickers = QHBoxLayout()
            pickers.setSpacing(8)
            pickers.addWidget(self.model_picker, 1)
            pickers.addWidget(self.effort)
            layout.addLayout(pickers)
            self.hint.hide()
            row.addStretch(1)
        else:
            row.addWidget(self.model_picker)
            row.addWidget(self.effort)
            row.addWidget(self.hint, 1)
        row.addWidget(self.meter)
        row.addWidget(self.stop_button)
        row.addWidget(self.send_button)
        layout.addLayout(row)
        # As tall as its parts need at its width (the tray's rows of chips included).
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.edit.installEventFilter(self)
        # Saved prompts: "/" at the start of a line, the Prompts button, the Edit menu.
        # After the filter above, so Esc closes the list before it stops an answer.
        self.prompts = PromptInserter(self.edit, self)

        # Submissions from here whose saving may yet fail: id -> whether the composer was
        # cleared for it (then a failure puts the text back).
        self._sending: dict[str, bool] = {}
        chat.sendDone.connect(self._on_send_done)
        chat.models.modelsChanged.connect(self._reload_models)
        chat.models.selectedModelChanged.connect(self.model_picker.setCurrentIndex)
        chat.busyChanged.connect(self._update_buttons)
        chat.models.reasoningChanged.connect(self._update_effort)
        self._reload_models()
        self._update_effort()
        self._update_buttons()

    def submit(self) -> None:
        text = self.edit.toPlainText()
        if self._chat.busy and not text.strip() and not len(self._tray):
            return
        submission = new_id()
        self._sending[submission] = False  # until `sendDone` says what became of it
        if self._chat.submit(text, submission):
            if submission in self._sending:
                self._sending[submission] = True
            self.edit.clear()
            self.notice.dismiss()  # about files picked before: this message is on its way
        else:  # refused before anything started: the text is still here
            self._sending.pop(submission, None)

    def _on_send_done(self, submission: str, text: str, problem: str) -> None:
        """A message this composer sent that was not saved: take its text back, before
        anything typed since, and say why. (The other composer of the chat ignores it.)"""
        cleared = self._sending.pop(submission, None)
        if cleared is None or not problem:
            return
        if cleared and text.strip():
            current = self.edit.toPlainText()
            self.edit.setPlainText(f"{text}\n\n{current}" if current.strip() else text)
            self.edit.moveCursor(QTextCursor.MoveOperation.End)
        self.notice.add(problem)

    def pick_files(self) -> None:
        """A non-modal file dialog: the chat stays usable while it is open."""
        if self._picker is None:
            picker = self._picker = QFileDialog(self, self.tr("Attach files"))
            picker.setFileMode(QFileDialog.FileMode.ExistingFiles)
            picker.setNameFilters([self.tr(f) for f in PICKER_FILTERS])
            picker.filesSelected.connect(self._tray.add_paths)
        self._picker.open()

    def _attach_image(self, image: bytes | QImage) -> None:
        if isinstance(image, QImage):
            self._tray.add_image(image)
        else:
            self._tray.add_image_data(image)

    def set_prompt_library(self, library: PromptLibraryModel) -> None:
        """The saved prompts "/" and the Prompts button offer (Settings → Prompts')."""
        self.prompts.set_library(library)

    def open_prompt_menu(self) -> None:
        """The saved prompts with a filter field; the chosen one goes in at the cursor."""
        self.prompts.open_menu()

    def focus(self) -> None:
        self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.edit
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
            and self._chat.busy
        ):
            self._chat.stop()
            return True
        return super().eventFilter(watched, event)

    def _reload_models(self) -> None:
        self.model_picker.blockSignals(True)
        self.model_picker.clear()
        self.model_picker.addItems(self._chat.models.modelLabels)
        self.model_picker.setCurrentIndex(self._chat.models.selectedModel)
        self.model_picker.blockSignals(False)
        self.model_picker.setVisible(bool(self._chat.models.modelLabels))

    def _update_effort(self) -> None:
        """Shown only for a model that reasons; it shows the saved choice."""
        self.effort.setCurrentIndex(max(0, self.effort.findData(self._chat.models.reasoningEffort)))
        self.effort.setVisible(self._chat.models.reasoningSupported)

    def _update_buttons(self, *_: object) -> None:
        busy = self._chat.busy
        self.stop_button.setVisible(busy)
        # The hint holds Stop's place while there is nothing to stop, so the row needs
        # the same width either way: Stop appearing must not widen the chat column,
        # which the splitter would take from the sidebar.
        self.stop_button.ensurePolished()
        spacing = self._row.spacing()
        self.hint.setMinimumWidth(0 if busy else self.stop_button.sizeHint().width() + spacing)
        self.send_button.setEnabled(bool(self.edit.toPlainText().strip()) or bool(len(self._tray)))

    def _on_focus_changed(self, focused: bool) -> None:
        self.setProperty("focused", focused)
        self.style().unpolish(self)
        self.style().polish(self)


class AttachmentNotice(QFrame):
    """Files that could not be attached, and a message that could not be saved, each
    with its reason; closed with its ✕.

    Inline rather than a dialog: the person keeps typing, several refused files read as
    one list, and a message that was not sent is explained right above its text.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ErrorBox")
        self.label = PlainLabel("", self)  # file names, paths, SQLite's words
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QToolButton(self)
        self.close_button.setObjectName("MessageAction")
        set_icon(self.close_button, "close")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip(self.tr("Dismiss"))
        self.close_button.setAccessibleName(self.tr("Dismiss the notice"))
        self.close_button.clicked.connect(self.dismiss)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 4, 4)
        row.addWidget(self.label, 1)
        row.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self._lines: list[str] = []
        self.hide()

    @property
    def text(self) -> str:
        return "\n".join(self._lines)

    def add(self, line: str) -> None:
        self._lines = [*self._lines[-4:], line]  # the newest few
        self.label.setText(self.text)
        self.show()

    def dismiss(self) -> None:
        self._lines = []
        self.label.clear()
        self.hide()
