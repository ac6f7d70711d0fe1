"""The floating chat: a small always-on-top window beside whatever the person works on.

It shares the main window's `ChatViewModel`, so both show the same open conversation:
picking a chat here opens it in the main window too, a message sent here is the same
message there, and there is one composer tray, one Stop, one generation. A second
selection would need a second view-model (its own streaming state, tray, approvals)
for little gain: the person looks at one conversation at a time.

It has no window-manager frame: its title row is the handle to drag it by (the system
move where the platform offers it), the corner grip resizes it, and the keyboard does
both (Alt+arrows move, Alt+Shift+arrows resize, with Ctrl in steps of 50 px). It keeps
itself inside the available screen area and remembers its place in `window.ini`.
Closing (✕ or Esc) only hides it: the engine owns generations, and nothing is stopped.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QGuiApplication,
    QHideEvent,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QMoveEvent,
    QResizeEvent,
    QScreen,
    QShortcut,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QMenu,
    QPushButton,
    QSizeGrip,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.icons import TITLE_BAR_ICON_PX, IconLabel, icon_button
from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.conversations import ConversationListModel
from desktop.ui.views.composer import Composer
from desktop.ui.views.elided import ElidingComboBox
from desktop.ui.views.file_drop import FileDrop
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.transcript import Transcript
from desktop.ui.views.window_geometry import (
    MIN_SIZE,
    SavedGeometry,
    area_for,
    clamp,
    default_rect,
)
from desktop.ui.views.workspace_button import WorkspaceButton

GEOMETRY_KEY = "floating/geometry"
STEP = 10  # px per Alt+arrow
BIG_STEP = 50  # px per Ctrl+Alt+arrow
SETTLE_MS = 250  # after the last move or resize: keep on screen and save
# Without a window-manager frame, its own outline sets it apart from what lies behind.
FRAME_STYLE = """
#FloatingWindow { border: 1px solid palette(dark); }
#FloatingTitleBar { border: none; border-bottom: 1px solid palette(midlight); }
#FloatingButton::menu-indicator { image: none; width: 0px; }
"""


class TitleBar(QFrame):
    """The row to drag the window by; its buttons keep their own clicks."""

    dragFinished = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("FloatingTitleBar")
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self._grab: QPoint | None = None  # cursor offset from the window's corner

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        event.accept()
        handle = self.window().windowHandle()
        # The window manager moves it (snapping, other monitors) where it can.
        if handle is not None and handle.startSystemMove():
            self._grab = None
            return
        self._grab = event.globalPosition().toPoint() - self.window().pos()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._grab is not None and event.buttons() & Qt.MouseButton.LeftButton:
            self.window().move(event.globalPosition().toPoint() - self._grab)
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._grab = None
            self.dragFinished.emit()
        super().mouseReleaseEvent(event)


class FloatingWindow(QWidget):
    """See the module docstring. `openInMainRequested` asks the app to bring the main
    window forward (it already shows this conversation)."""

    openInMainRequested = Signal()

    def __init__(
        self,
        chat: ChatViewModel,
        conversations: ConversationListModel,
        state_file: Path,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._conversations = conversations
        self._saved = SavedGeometry(state_file, GEOMETRY_KEY)
        self.setObjectName("FloatingWindow")
        self.setWindowTitle(self.tr("Parley — Floating Chat"))
        self.setWindowFlags(
            Qt.WindowType.Tool
            | Qt.WindowType.FramelessWindowHint
            | Qt.WindowType.WindowStaysOnTopHint
        )
        # A tool window on macOS hides whenever Parley is not the active app; this one
        # is meant for working beside other apps.
        self.setAttribute(Qt.WidgetAttribute.WA_MacAlwaysShowToolWindow)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.setStyleSheet(FRAME_STYLE)
        self.setMinimumSize(MIN_SIZE)

        self.title_bar = TitleBar(self)
        # The handle passes its clicks on, as labels do: it and the gap are where to drag it by.
        self.handle = IconLabel("grip", self.title_bar, size=TITLE_BAR_ICON_PX)
        self.handle.setObjectName("FloatingHandle")
        self.handle.setToolTip(self.tr("Drag to move (Alt+arrows)"))
        self.picker = ElidingComboBox(self.title_bar, shortest=None)  # long titles elide
        self.picker.setObjectName("FloatingPicker")
        self.picker.setModel(conversations)
        self.picker.setPlaceholderText(self.tr("New chat"))
        self.picker.setToolTip(self.tr("Conversation"))
        self.picker.setAccessibleName(self.tr("Conversation"))
        self.picker.setMaxVisibleItems(16)
        self.picker.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.picker.setMinimumContentsLength(8)
        self.picker.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.picker.activated.connect(self._on_picked)
        self.new_button = self._tool_button("plus", self.tr("New chat"), self.new_chat)
        self.main_button = self._tool_button(
            "open-in-main", self.tr("Open in the main window"), self.open_in_main
        )
        self.menu_button = self._tool_button("more", self.tr("More"), None)
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.menu_button)
        self.reset_action = QAction(self.tr("Reset Position and Size"), menu)
        self.reset_action.triggered.connect(self.reset_geometry)
        menu.addAction(self.reset_action)
        menu.addAction(self.tr("Open in Main Window"), self.open_in_main)
        menu.addSeparator()
        menu.addAction(self.tr("Hide"), self.hide)
        self.menu_button.setMenu(menu)
        self.hide_button = self._tool_button("close", self.tr("Hide (Esc)"), self.hide)
        title_row = QHBoxLayout(self.title_bar)
        title_row.setContentsMargins(8, 6, 6, 6)
        title_row.setSpacing(4)
        title_row.addWidget(self.handle)
        title_row.addWidget(self.picker, 4)
        title_row.addStretch(1)
        for button in (self.new_button, self.main_button, self.menu_button, self.hide_button):
            title_row.addWidget(button)

        self.transcript = Transcript(chat, self)
        self.empty = PlainLabel(self.tr("What would you like to talk about?"), self)
        self.empty.setObjectName("EmptyTitle")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.composer = Composer(chat, self, compact=True)  # the pickers on a row of their own
        chat_page = self.chat_page = QWidget(self)
        page = QVBoxLayout(chat_page)
        page.setContentsMargins(0, 0, 0, 0)
        page.setSpacing(0)
        # The file (or folder) this chat works on: its content goes with each message.
        self.workspace = WorkspaceButton(chat.workspace, chat_page)
        page.addWidget(self.workspace, 0, Qt.AlignmentFlag.AlignLeft)
        page.addWidget(self.transcript, 1)
        page.addWidget(self.empty, 1)
        composer_row = QHBoxLayout()
        composer_row.setContentsMargins(8, 6, 8, 4)
        composer_row.addWidget(self.composer)
        page.addLayout(composer_row)
        self.drop: FileDrop | None = None
        if chat.tray.available:  # files dropped anywhere on the chat join the message
            self.drop = FileDrop(chat_page)
            self.drop.filesDropped.connect(chat.tray.add_paths)

        setup_page = QWidget(self)
        setup = QVBoxLayout(setup_page)
        setup_text = PlainLabel(self.tr("Add a model in the main window to start chatting."), self)
        setup_text.setWordWrap(True)
        setup_text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        setup_button = QPushButton(self.tr("Open Parley"), self)
        setup_button.clicked.connect(self.open_in_main)
        setup.addStretch(1)
        setup.addWidget(setup_text)
        setup.addWidget(setup_button, 0, Qt.AlignmentFlag.AlignHCenter)
        setup.addStretch(1)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(setup_page)
        self.pages.addWidget(chat_page)

        self.grip = QSizeGrip(self)
        self.grip.setToolTip(self.tr("Drag to resize (Alt+Shift+arrows)"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(1, 1, 1, 1)
        layout.setSpacing(0)
        layout.addWidget(self.title_bar)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.grip, 0, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignRight)

        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._settled)
        self.title_bar.dragFinished.connect(self._settled)
        self._add_keyboard_moves()
        self._restore_geometry()

        chat.conversationIdChanged.connect(self._sync_picker)
        for signal in (
            conversations.modelReset,
            conversations.rowsInserted,
            conversations.rowsRemoved,
            conversations.rowsMoved,
        ):
            signal.connect(self._sync_picker)
        chat.models.needsSetupChanged.connect(self._update_page)
        chat.transcript.messagesReset.connect(self._update_empty)
        chat.transcript.messageAdded.connect(self._update_empty)
        app = QGuiApplication.instance()
        assert isinstance(app, QGuiApplication)
        app.screenAdded.connect(self._watch_screen)
        app.screenRemoved.connect(lambda _screen: self._keep_on_screen())
        for screen in QGuiApplication.screens():
            self._watch_screen(screen)
        self._sync_picker()
        self._update_page()
        self._update_empty()

    def _tool_button(self, icon: str, tip: str, slot) -> QToolButton:  # type: ignore[no-untyped-def]
        button = icon_button(
            self.title_bar, icon, tip, object_name="FloatingButton", size=TITLE_BAR_ICON_PX
        )
        if slot is not None:
            button.clicked.connect(slot)
        return button

    # --- what the person does -------------------------------------------------------

    def toggle(self) -> None:
        """Always on top, so shown means in sight: the toggle hides it, else brings it."""
        if self.isVisible():
            self.hide()
        else:
            self.present()

    def present(self) -> None:
        self.show()
        self.raise_()
        self.activateWindow()
        self.composer.focus()

    def new_chat(self) -> None:
        self._chat.new_chat()
        self.composer.focus()

    def open_in_main(self) -> None:
        """The main window shows this same conversation: bring it forward, step aside."""
        self.openInMainRequested.emit()
        self.hide()

    def reset_geometry(self) -> None:
        """Back to the default size in the corner of the screen it is on."""
        self._saved.forget()
        self.setGeometry(default_rect(self._area_for(self.geometry())))
        self._settled()

    def _on_picked(self, row: int) -> None:
        conversation_id = self._conversations.id_at(row)
        if conversation_id and conversation_id != self._chat.conversationId:
            self._chat.open_conversation(conversation_id)
        self._sync_picker()
        self.composer.focus()

    # --- keyboard -------------------------------------------------------------------

    def _add_keyboard_moves(self) -> None:
        arrows = {"Left": (-1, 0), "Right": (1, 0), "Up": (0, -1), "Down": (0, 1)}
        for name, (dx, dy) in arrows.items():
            for prefix, step in (("Alt+", STEP), ("Ctrl+Alt+", BIG_STEP)):
                self._shortcut(f"{prefix}{name}", lambda x=dx * step, y=dy * step: self.nudge(x, y))
                self._shortcut(
                    f"{prefix}Shift+{name}",
                    lambda x=dx * step, y=dy * step: self.grow(x, y),
                )

    def _shortcut(self, keys: str, slot) -> None:  # type: ignore[no-untyped-def]
        shortcut = QShortcut(QKeySequence(keys), self)
        shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        shortcut.activated.connect(slot)

    def nudge(self, dx: int, dy: int) -> None:
        self.move(self.pos() + QPoint(dx, dy))
        self._settled()

    def grow(self, dx: int, dy: int) -> None:
        size = self.size() + QSize(dx, dy)
        self.resize(size.expandedTo(self.minimumSize()))
        self._settled()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Esc reaches the window only when nothing inside used it (the composer stops a
        # running answer with it first).
        if event.key() == Qt.Key.Key_Escape and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            self.hide()
            return
        super().keyPressEvent(event)

    # --- staying on screen and remembering where ------------------------------------

    def _area_for(self, rect: QRect) -> QRect:
        primary = QGuiApplication.primaryScreen()
        fallback = primary.availableGeometry() if primary is not None else QRect(rect)
        areas = [screen.availableGeometry() for screen in QGuiApplication.screens()]
        return area_for(rect, areas, fallback)

    def _restore_geometry(self) -> None:
        saved = self._saved.load()
        rect = saved if saved is not None else default_rect(self._area_for(QRect(0, 0, 1, 1)))
        self.setGeometry(clamp(rect, self._area_for(rect)))

    def _keep_on_screen(self) -> None:
        rect = self.geometry()
        inside = clamp(rect, self._area_for(rect))
        if inside != rect:
            self.setGeometry(inside)

    def _settled(self) -> None:
        self._settle.stop()
        self._keep_on_screen()
        if self.isVisible():
            self._saved.save(self.geometry())

    def _watch_screen(self, screen: QScreen) -> None:
        screen.availableGeometryChanged.connect(lambda _area: self._keep_on_screen())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._keep_on_screen()

    def moveEvent(self, event: QMoveEvent) -> None:
        super().moveEvent(event)
        if self.isVisible():
            self._settle.start()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.isVisible():
            self._settle.start()

    def hideEvent(self, event: QHideEvent) -> None:
        if not event.spontaneous():
            self._settle.stop()
            self._saved.save(self.geometry())
        super().hideEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing only hides: a running answer goes on streaming into the chat."""
        event.ignore()
        self.hide()

    # --- following the chat ---------------------------------------------------------

    def _sync_picker(self, *_: object) -> None:
        row = self._conversations.row_of(self._chat.conversationId)
        if self.picker.currentIndex() != row:
            self.picker.setCurrentIndex(row)  # -1 (the "New chat" placeholder) if unsaved

    def _update_page(self, *_: object) -> None:
        self.pages.setCurrentIndex(0 if self._chat.models.needsSetup else 1)

    def _update_empty(self, *_: object) -> None:
        has_messages = bool(self.transcript.message_ids())
        self.transcript.setVisible(has_messages)
        self.empty.setVisible(not has_messages)
