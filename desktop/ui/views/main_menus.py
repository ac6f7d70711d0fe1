"""The main window's menu bar: File, Edit, Chat, View, Help, and the rows of the
keyboard shortcuts sheet, read from the same actions so the sheet never names a key
the menus do not have."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, Qt, SignalInstance
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.text_zoom import TextZoom
from desktop.ui.views.chat_view import ChatView
from desktop.ui.views.edit_actions import EditActions
from desktop.ui.views.keycaps import ARROWS, modifier_name, typed
from desktop.ui.views.shortcuts_dialog import ShortcutRow, ShortcutSection


class MenuHost(Protocol):
    """What the menus ask of the main window (a protocol, so the window may import this
    module without this one importing the window)."""

    @property
    def chat(self) -> ChatViewModel: ...
    @property
    def chat_view(self) -> ChatView: ...
    @property
    def floatingRequested(self) -> SignalInstance: ...

    def menuBar(self) -> QMenuBar: ...
    def new_chat(self) -> None: ...
    def focus_search(self) -> None: ...
    def import_chat(self) -> None: ...
    def import_from_app(self) -> object: ...
    def back_up(self) -> object: ...
    def restore_backup(self) -> object: ...
    def show_settings(self, new_provider: bool = False) -> None: ...
    def quit(self) -> None: ...
    def insert_prompt(self) -> None: ...
    def edit_last_message(self) -> None: ...
    def compress_conversation(self) -> object: ...
    def set_sidebar_shown(self, shown: bool) -> None: ...
    def set_full_screen(self, on: bool) -> None: ...
    def show_shortcuts(self) -> object: ...
    def open_log_folder(self) -> None: ...
    def show_about(self) -> None: ...
    def global_floating_keys(self) -> list[QKeySequence]: ...


Key = QKeySequence | QKeySequence.StandardKey | str
MAX_ALTERNATIVES = 2  # keys shown for one action in the sheet (Redo has three)


def key_sequences(*keys: Key) -> list[QKeySequence]:
    """The sequences for `keys`, each standard key with all its platform bindings,
    without empty ones (a standard key this platform has no binding for)."""
    found: list[QKeySequence] = []
    for key in keys:
        if isinstance(key, QKeySequence.StandardKey):
            sequences = QKeySequence.keyBindings(key)
        else:
            sequences = [QKeySequence(key)]
        for sequence in sequences:
            if not sequence.isEmpty() and sequence not in found:
                found.append(sequence)
    return found


def menu_text(action: QAction) -> str:
    """An action's text as a sentence: no mnemonic "&", no "…"."""
    text = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
    return text.removesuffix("…").removesuffix("...")


class MainMenus(QObject):
    def __init__(self, window: MenuHost, zoom: TextZoom) -> None:
        assert isinstance(window, QObject)  # the main window: its actions' parent
        super().__init__(window)
        self._window = window
        self._owner: QObject = window
        self._zoom = zoom
        bar = window.menuBar()
        self.file_menu = bar.addMenu(self.tr("&File"))
        self.edit_menu = bar.addMenu(self.tr("&Edit"))
        self.chat_menu = bar.addMenu(self.tr("&Chat"))
        self.view_menu = bar.addMenu(self.tr("&View"))
        self.help_menu = bar.addMenu(self.tr("&Help"))
        self._build_file()
        self._build_edit()
        self._build_chat()
        self._build_view()
        self._build_help()

    def _action(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[..., object] | SignalInstance,
        *keys: Key,
    ) -> QAction:
        action = QAction(text, self._owner)
        action.setShortcuts(key_sequences(*keys))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    # --- the menus ------------------------------------------------------------------

    def _build_file(self) -> None:
        window, menu = self._window, self.file_menu
        self.new_chat = self._action(
            menu, self.tr("&New Chat"), window.new_chat, QKeySequence.StandardKey.New
        )
        self.search = self._action(menu, self.tr("&Search Chats"), window.focus_search, "Ctrl+K")
        menu.addSeparator()
        self.export_menu = menu.addMenu(self.tr("&Export Chat"))
        self._action(menu, self.tr("&Import Chat…"), window.import_chat)
        self.import_from_app = self._action(
            menu, self.tr("Import from &Another App…"), window.import_from_app
        )
        self.back_up = self._action(menu, self.tr("&Back Up…"), window.back_up)
        self.restore_backup = self._action(
            menu, self.tr("&Restore from Backup…"), window.restore_backup
        )
        self.settings = self._action(
            menu,
            self.tr("&Settings…"),
            window.show_settings,
            QKeySequence.StandardKey.Preferences,
            "Ctrl+,",
        )
        menu.addSeparator()
        self.quit = self._action(
            menu, self.tr("&Quit"), window.quit, QKeySequence.StandardKey.Quit, "Ctrl+Q"
        )

    def _build_edit(self) -> None:
        menu = self.edit_menu
        self.edit = EditActions(self._owner)
        self.edit.add_to(menu)
        menu.addSeparator()
        # The chat view's own find actions (one action per key, or Ctrl+F would be
        # ambiguous and do nothing).
        chat_view = self._window.chat_view
        self.find = chat_view.find_action
        self.find_steps = [chat_view.find_next_action, chat_view.find_previous_action]
        menu.addActions([self.find, *self.find_steps])
        self.insert_prompt = self._action(
            menu, self.tr("Insert &Prompt…"), self._window.insert_prompt
        )

    def _build_chat(self) -> None:
        window, menu, chat = self._window, self.chat_menu, self._window.chat
        self.copy_last = self._action(
            menu, self.tr("&Copy Last Answer"), chat.copy_last_answer, "Ctrl+Shift+C"
        )
        self.edit_last = self._action(
            menu, self.tr("&Edit Last Message"), window.edit_last_message, "Ctrl+Shift+E"
        )
        self.compress = self._action(
            menu, self.tr("Co&mpress Conversation…"), window.compress_conversation
        )
        menu.aboutToShow.connect(lambda: self.compress.setEnabled(bool(chat.conversationId)))
        menu.addSeparator()
        self.floating = self._action(
            menu, self.tr("&Floating Chat"), window.floatingRequested, "Ctrl+Shift+F"
        )

    def _build_view(self) -> None:
        window, menu, zoom = self._window, self.view_menu, self._zoom
        self.sidebar = self._action(
            menu, self.tr("Show &Sidebar"), window.set_sidebar_shown, "Ctrl+Shift+S", "Ctrl+\\"
        )
        self.sidebar.setCheckable(True)
        self.sidebar.setChecked(True)
        menu.addSeparator()
        self.zoom_in = self._action(
            menu, self.tr("Zoom &In"), zoom.zoom_in, "Ctrl+=", QKeySequence.StandardKey.ZoomIn
        )
        self.zoom_out = self._action(
            menu, self.tr("Zoom &Out"), zoom.zoom_out, QKeySequence.StandardKey.ZoomOut
        )
        self.actual_size = self._action(menu, self.tr("&Actual Size"), zoom.reset, "Ctrl+0")
        menu.aboutToShow.connect(self._update_zoom)
        zoom.changed.connect(self._update_zoom)
        menu.addSeparator()
        self.full_screen = self._action(
            menu, self.tr("&Full Screen"), window.set_full_screen, *self._full_screen_keys()
        )
        self.full_screen.setCheckable(True)

    def _full_screen_keys(self) -> list[QKeySequence]:
        """The platform's full-screen keys (F11 where it has none), without the ones
        Parley uses for something else (KDE also binds Ctrl+Shift+F, the floating chat)."""
        taken = {sequence for action in self.actions() for sequence in action.shortcuts()}
        keys = [
            sequence
            for sequence in key_sequences(QKeySequence.StandardKey.FullScreen)
            if sequence not in taken
        ]
        return keys or [QKeySequence("F11")]

    def _build_help(self) -> None:
        window, menu = self._window, self.help_menu
        self.shortcuts = self._action(
            menu, self.tr("&Keyboard Shortcuts"), window.show_shortcuts, "F1"
        )
        self._action(menu, self.tr("Open &Log Folder"), window.open_log_folder)
        self._action(menu, self.tr("&About Parley"), window.show_about)

    def _update_zoom(self) -> None:
        self.zoom_in.setEnabled(self._zoom.can_zoom_in)
        self.zoom_out.setEnabled(self._zoom.can_zoom_out)
        self.actual_size.setEnabled(not self._zoom.is_actual_size)

    def actions(self) -> list[QAction]:
        """Every action of the menu bar, submenus included."""
        found: list[QAction] = []

        def walk(menu: QMenu) -> None:
            for action in menu.actions():
                if action.menu() is not None:
                    walk(action.menu())  # type: ignore[arg-type]
                elif not action.isSeparator():
                    found.append(action)

        for menu in (self.file_menu, self.edit_menu, self.chat_menu, self.view_menu):
            walk(menu)
        if hasattr(self, "help_menu"):
            walk(self.help_menu)
        return found

    # --- the keyboard shortcuts sheet -----------------------------------------------

    def shortcut_sections(self) -> list[ShortcutSection]:
        """Every shortcut, by the part of the window it works in. Rows for menu actions
        take their keys from the actions; the rest are keys widgets handle themselves."""
        tr = self.tr

        def row(action: QAction, text: str = "") -> ShortcutRow:
            shown = [sequence for sequence in action.shortcuts() if typed(sequence)]
            return ShortcutRow(text or menu_text(action), tuple(shown[:MAX_ALTERNATIVES]))

        def keys(text: str, *sequences: str) -> ShortcutRow:
            return ShortcutRow(text, tuple(QKeySequence(s) for s in sequences))

        edit = self.edit
        modifier = Qt.KeyboardModifier
        ctrl, alt, shift = (
            modifier_name(m)
            for m in (modifier.ControlModifier, modifier.AltModifier, modifier.ShiftModifier)
        )
        return [
            ShortcutSection(
                tr("Chats"),
                [
                    row(self.new_chat),
                    row(self.search),
                    keys(tr("Open the first search result"), "Return"),
                    keys(tr("Rename the selected chat"), "F2"),
                    keys(tr("Delete the selected chat"), "Del"),
                ],
            ),
            ShortcutSection(
                tr("Composer"),
                [
                    keys(tr("Send the message"), "Return"),
                    keys(tr("New line in the message"), "Shift+Return"),
                    keys(tr("Insert a saved prompt (at the start of a line)"), "/"),
                    row(self.edit_last),
                ],
            ),
            ShortcutSection(
                tr("Answer"),
                [
                    keys(tr("Stop the answer (keeps what arrived)"), "Esc"),
                    row(self.copy_last),
                ],
            ),
            ShortcutSection(
                tr("Find in chat"),
                [
                    row(self.find, tr("Find in this chat")),
                    keys(tr("Next match (in the find bar)"), "Return"),
                    keys(tr("Previous match (in the find bar)"), "Shift+Return"),
                    *[row(action) for action in self.find_steps],
                    keys(tr("Close the find bar"), "Esc"),
                ],
            ),
            ShortcutSection(
                tr("Edit"),
                [
                    row(edit.undo),
                    row(edit.redo),
                    row(edit.cut),
                    row(edit.copy),
                    row(edit.paste),
                    row(edit.select_all),
                ],
            ),
            ShortcutSection(
                tr("View"),
                [
                    row(self.sidebar, tr("Show or hide the sidebar")),
                    row(self.zoom_in, tr("Larger text")),
                    row(self.zoom_out, tr("Smaller text")),
                    row(self.actual_size, tr("Text at its usual size")),
                    row(self.full_screen),
                ],
            ),
            ShortcutSection(
                tr("Floating chat"),
                [
                    row(self.floating, tr("Show or hide the floating chat")),
                    ShortcutRow(
                        tr("The same from any application (set in Settings)"),
                        tuple(self._window.global_floating_keys()),
                    ),
                    ShortcutRow(tr("Move it"), ((alt, ARROWS),)),
                    ShortcutRow(tr("Move it 50 px at a time"), ((ctrl, alt, ARROWS),)),
                    ShortcutRow(tr("Resize it"), ((alt, shift, ARROWS),)),
                    keys(tr("Hide it (when no answer is running)"), "Esc"),
                ],
            ),
            ShortcutSection(
                tr("Parley"),
                [row(self.settings), row(self.shortcuts, tr("This sheet")), row(self.quit)],
            ),
        ]
