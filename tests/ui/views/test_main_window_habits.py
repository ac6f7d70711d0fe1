"""Habits of a desktop window: the Edit and View menus, zoom, a sidebar that hides and
stays hidden, full screen, the F1 sheet, accessible names, Tab that follows the
screen, and a focus ring that shows for the keyboard only."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from desktop.ui.views.keycaps import caps_of, typed
from desktop.ui.views.main_menus import menu_text
from tests.support.settings_files import write_settings
from tests.support.stored_chats import seed_chat

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def texts(menu) -> list[str]:
    return [menu_text(a) for a in menu.actions() if not a.isSeparator()]


def shortcut(action) -> str:
    return action.shortcut().toString(QKeySequence.SequenceFormat.PortableText)


def message_of(widget: QWidget, transcript) -> QWidget:
    """The message (a child of the transcript's viewport) `widget` is part of."""
    while widget.parentWidget() is not transcript.viewport():
        widget = widget.parentWidget()
    return widget


def start(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    window = parley.window
    window.activateWindow()
    return parley, window


async def active(driver, window) -> None:
    window.activateWindow()
    await driver.until(window.isActiveWindow)


def test_the_edit_and_view_menus_have_the_usual_entries_and_keys(driver, sse_server, tmp_path):
    _parley, window = start(driver, sse_server, tmp_path)
    menus = window.menus
    titles = [menu_text(a) for a in window.menuBar().actions()]
    assert titles == ["File", "Edit", "Chat", "View", "Help"]
    assert texts(menus.edit_menu) == [
        "Undo",
        "Redo",
        "Cut",
        "Copy",
        "Paste",
        "Select All",
        "Find in Chat",
        "Find Next",
        "Find Previous",
        "Insert Prompt",
    ]
    assert texts(menus.view_menu) == [
        "Show Sidebar",
        "Zoom In",
        "Zoom Out",
        "Actual Size",
        "Full Screen",
    ]
    assert shortcut(menus.edit.copy) == "Ctrl+C" and shortcut(menus.find) == "Ctrl+F"
    assert [shortcut(menus.zoom_out), shortcut(menus.actual_size)] == ["Ctrl+-", "Ctrl+0"]
    zoom_in = [s.toString() for s in menus.zoom_in.shortcuts()]
    assert zoom_in[:2] == ["Ctrl+=", "Ctrl++"]
    assert shortcut(menus.sidebar) == "Ctrl+Shift+S" and menus.sidebar.isChecked()
    assert "F11" in [s.toString() for s in menus.full_screen.shortcuts()]

    async def find() -> None:  # Ctrl+F opens the chat view's own find bar
        await active(driver, window)
        QTest.keyClick(window.chat_view.composer.edit, Qt.Key.Key_F, CTRL)
        await driver.until(window.chat_view.find_bar.isVisible)

    driver.run(find())
    # No key does two things (Qt would then do neither).
    keys = [s.toString() for a in menus.actions() for s in a.shortcuts()]
    assert len(keys) == len(set(keys)), sorted(keys)


def test_the_edit_actions_follow_the_focused_field(driver, sse_server, tmp_path):
    parley, window = start(driver, sse_server, tmp_path)
    edit = window.menus.edit
    composer = window.chat_view.composer.edit
    search = window.sidebar.search_field

    async def body() -> None:
        await active(driver, window)
        composer.setFocus()
        await driver.until(lambda: edit.target is composer)
        assert not edit.copy.isEnabled() and not edit.select_all.isEnabled()
        assert edit.paste.isEnabled()
        QTest.keyClicks(composer, "hello world")
        assert edit.select_all.isEnabled() and edit.undo.isEnabled()
        edit.select_all.trigger()
        assert edit.copy.isEnabled() and edit.cut.isEnabled()
        edit.cut.trigger()
        assert composer.toPlainText() == ""
        assert QGuiApplication.clipboard().text() == "hello world"
        edit.undo.trigger()
        assert composer.toPlainText() == "hello world"
        # The field's own Ctrl+A still works with the Edit menu's Select All about.
        composer.moveCursor(composer.textCursor().MoveOperation.End)
        QTest.keyClick(composer, Qt.Key.Key_A, CTRL)
        assert composer.textCursor().selectedText() == "hello world"

        search.setFocus()
        await driver.until(lambda: edit.target is search)
        edit.paste.trigger()
        assert search.text() == "hello world"
        window.chat_view.composer.send_button.setFocus()  # not a text field
        await driver.until(lambda: edit.target is None)
        assert not any(action.isEnabled() for action in edit.actions)
        parley.chat_vm.new_chat()

    driver.run(body())


def test_zoom_changes_the_text_size_and_actual_size_restores_it(driver, sse_server, tmp_path):
    parley, window = start(driver, sse_server, tmp_path)
    conversation, _ids = seed_chat(parley, 2)
    menus, settings = window.menus, parley.settings_vm
    system = QApplication.font().pointSize()
    transcript = window.chat_view.transcript

    async def body() -> None:
        parley.chat_vm.open_conversation(conversation)
        await driver.until(lambda: transcript.message_widget("m1") is not None)
        await active(driver, window)
        window.chat_view.composer.edit.setFocus()
        first = transcript.message_widget("m1").body
        height = first.height()
        QTest.keyClick(window.chat_view.composer.edit, Qt.Key.Key_Equal, CTRL)
        QTest.keyClick(window.chat_view.composer.edit, Qt.Key.Key_Equal, CTRL)
        bigger = settings.font_size
        assert bigger > system
        await driver.until(lambda: QApplication.font().pointSize() == bigger)
        # The transcript lays its text out again at the new size.
        await driver.until(lambda: transcript.message_widget("m1").body.height() > height)
        menus.view_menu.aboutToShow.emit()
        assert menus.actual_size.isEnabled()
        QTest.keyClick(window.chat_view.composer.edit, Qt.Key.Key_Minus, CTRL)
        assert system < settings.font_size < bigger
        QTest.keyClick(window.chat_view.composer.edit, Qt.Key.Key_0, CTRL)
        assert settings.font_size == 0  # the system's size, as Settings shows it
        await driver.until(lambda: QApplication.font().pointSize() == system)
        await driver.until(lambda: transcript.message_widget("m1").body.height() == height)

    driver.run(body())


def test_zoom_stops_at_the_smallest_and_largest_sizes(driver, sse_server, tmp_path):
    parley, window = start(driver, sse_server, tmp_path)
    zoom, menus = window.zoom, window.menus
    for _ in range(30):
        menus.zoom_in.trigger()
    assert parley.settings_vm.font_size == 32 and not zoom.can_zoom_in
    menus.view_menu.aboutToShow.emit()
    assert not menus.zoom_in.isEnabled() and menus.zoom_out.isEnabled()
    for _ in range(30):
        menus.zoom_out.trigger()
    assert parley.settings_vm.font_size == 8 and not zoom.can_zoom_out
    menus.actual_size.trigger()
    assert parley.settings_vm.font_size == 0 and not menus.actual_size.isEnabled()


def test_the_sidebar_hides_and_stays_hidden_after_a_restart(driver, sse_server, tmp_path):
    parley, window = start(driver, sse_server, tmp_path)

    async def hide() -> None:
        await active(driver, window)
        QTest.keyClick(window, Qt.Key.Key_S, CTRL | SHIFT)

    driver.run(hide())
    assert window.sidebar.isHidden() and not window.sidebar_action.isChecked()
    assert window.chat_view.width() > 0
    driver.close(parley)

    again = driver.start(tmp_path)
    window = again.window

    async def show() -> None:
        await active(driver, window)
        assert window.sidebar.isHidden() and not window.sidebar_action.isChecked()
        QTest.keyClick(window, Qt.Key.Key_K, CTRL)  # Search Chats shows it again
        assert window.sidebar.isVisible() and window.sidebar_action.isChecked()
        await driver.until(lambda: QApplication.focusWidget() is window.sidebar.search_field)
        assert window.sidebar.width() >= window.sidebar.minimumWidth()
        window.sidebar_action.trigger()  # the focus leaves the hidden sidebar for the composer
        assert window.sidebar.isHidden()
        assert QApplication.focusWidget() is window.chat_view.composer.edit
        window.sidebar_action.trigger()
        assert window.sidebar.isVisible()

    driver.run(show())


def test_full_screen_toggles(driver, sse_server, tmp_path):
    _parley, window = start(driver, sse_server, tmp_path)

    async def body() -> None:
        await active(driver, window)
        window.full_screen_action.trigger()
        await driver.until(window.isFullScreen)
        assert window.full_screen_action.isChecked()
        QTest.keyClick(window, Qt.Key.Key_F11)
        await driver.until(lambda: not window.isFullScreen())
        assert not window.full_screen_action.isChecked()

    driver.run(body())


def test_the_f1_sheet_shows_every_shortcut_by_area_with_key_caps(driver, sse_server, tmp_path):
    _parley, window = start(driver, sse_server, tmp_path)

    async def press_f1() -> None:
        await active(driver, window)
        QTest.keyClick(window, Qt.Key.Key_F1)

    driver.run(press_f1())
    sheet = window.findChild(QWidget, "ShortcutsSheet")
    assert sheet is not None and sheet.isVisible()
    assert sheet.windowTitle() == sheet.title.text() == "Keyboard Shortcuts"
    headings = [heading.text() for heading in sheet.headings]
    assert headings[:2] == ["Chats", "Composer"]
    assert {"Answer", "Find in chat", "Edit", "View", "Floating chat"} <= set(headings)
    shown = [cap_list for _section, _label, caps in sheet.rows for cap_list in caps.caps]
    for action in window.menus.actions():
        for sequence in action.shortcuts():
            if typed(sequence):
                assert caps_of(sequence) in shown, (action.text(), sequence.toString())
    assert sheet.keys_of("Larger text") == [["Ctrl", "="], ["Ctrl", "+"]]
    assert sheet.keys_of("Send the message") == [["Enter"]]
    assert sheet.keys_of("Move it") == [["Alt", "←↑→↓"]]
    assert sheet.keys_of("Insert a saved prompt (at the start of a line)") == [["/"]]
    sections = {section for section, _label, _caps in sheet.rows}
    assert sections == set(headings)
    for _section, label, caps in sheet.rows:  # each key is a cap, drawn at its size
        assert caps.sizeHint().width() > 0 and caps.accessibleName()
        assert label.buddy() is caps
    QTest.keyClick(sheet, Qt.Key.Key_Escape)
    assert not sheet.isVisible()


def test_the_controls_have_accessible_names(driver, sse_server, tmp_path):
    _parley, window = start(driver, sse_server, tmp_path)
    composer, sidebar = window.chat_view.composer, window.sidebar
    names = {
        composer.edit: "Message",
        composer.send_button: "Send message",
        composer.stop_button: "Stop the answer",
        composer.model_picker: "Model",
        composer.effort: "Reasoning effort",
        window.chat_view.assistant.combo: "Assistant",
        sidebar.search_field: "Search chats",
        sidebar.list: "Chats",
        sidebar.new_button: "New chat",
        window.chat_view.transcript: "Conversation",
    }
    for widget, name in names.items():
        assert widget.accessibleName() == name, widget.objectName()
    described = (composer.edit, composer.model_picker, composer.effort, sidebar.search_field)
    assert all(widget.accessibleDescription() for widget in described)


def test_tab_follows_the_screen(driver, sse_server, tmp_path):
    parley, window = start(driver, sse_server, tmp_path)
    conversation, _ids = seed_chat(parley, 4)
    composer, sidebar, header = window.chat_view.composer, window.sidebar, window.chat_view
    transcript = window.chat_view.transcript

    def tab_through(key: Qt.Key, until: QWidget) -> list[QWidget]:
        """Press `key` until the focus comes to `until`; where it went on the way."""
        seen: list[QWidget] = []
        while not seen or QApplication.focusWidget() is not until:
            QTest.keyClick(QApplication.focusWidget(), key)
            seen.append(QApplication.focusWidget())
            assert len(seen) < 200, "Tab never came round"
        return seen

    async def body() -> None:
        window.open_conversation(conversation)
        await driver.until(lambda: transcript.message_widget("m3") is not None)
        await active(driver, window)
        composer.edit.setPlainText("Draft")  # Send is enabled, so Tab reaches it
        sidebar.new_button.setFocus(Qt.FocusReason.TabFocusReason)
        await driver.until(lambda: QApplication.focusWidget() is sidebar.new_button)
        forward = tab_through(Qt.Key.Key_Tab, sidebar.new_button)
        expected = [
            sidebar.search_field,
            sidebar.list,
            header.assistant.combo,
            header.workspace,
            transcript,
            composer.edit,
            composer.attach_button,
            composer.model_picker,
            composer.send_button,
            sidebar.new_button,  # round again
        ]
        places = [forward.index(widget) for widget in expected]
        assert places == sorted(places), [w.objectName() for w in forward]
        # What Tab reaches inside the transcript lies between it and the composer, in
        # the order the messages stand.
        inside = [
            w for w in forward[: places[-1]] if w is not transcript and transcript.isAncestorOf(w)
        ]
        assert inside, "no message was reached"
        assert all(places[4] < forward.index(w) < places[5] for w in inside)
        messages = [message_of(w, transcript) for w in inside]
        tops = [message.y() for message in messages]
        assert tops == sorted(tops) and len(set(messages)) >= 2
        # Shift+Tab walks back the same way (a message's action row shows while the
        # message has the focus, so the rows passed on the way may differ).
        composer.send_button.setFocus(Qt.FocusReason.TabFocusReason)
        backward = tab_through(Qt.Key.Key_Backtab, sidebar.new_button)
        landmarks = [w for w in backward if w in expected[:-1] or w is sidebar.new_button]
        assert landmarks == [*reversed(expected[:-2]), sidebar.new_button]

    driver.run(body())


def test_the_focus_ring_shows_for_the_keyboard_only(driver, sse_server, tmp_path):
    _parley, window = start(driver, sse_server, tmp_path)
    ring = window.focus_ring
    sidebar = window.sidebar

    async def body() -> None:
        await active(driver, window)
        sidebar.search_field.setFocus(Qt.FocusReason.MouseFocusReason)
        QTest.mouseClick(sidebar.search_field, Qt.MouseButton.LeftButton)
        await driver.until(lambda: QApplication.focusWidget() is sidebar.search_field)
        assert ring.target is None
        QTest.keyClick(sidebar.search_field, Qt.Key.Key_Tab)
        await driver.until(lambda: QApplication.focusWidget() is sidebar.list)
        assert ring.target is sidebar.list
        overlay = ring._overlay
        assert overlay.isVisible() and overlay.parentWidget() is sidebar.list.parentWidget()
        assert overlay.geometry().contains(sidebar.list.geometry())
        QTest.mouseClick(sidebar.search_field, Qt.MouseButton.LeftButton)
        await driver.until(lambda: QApplication.focusWidget() is sidebar.search_field)
        assert ring.target is None and not overlay.isVisible()
        # The composer's frame shows its focus itself.
        QTest.keyClick(sidebar.search_field, Qt.Key.Key_Backtab)  # from the keyboard
        window.chat_view.composer.edit.setFocus(Qt.FocusReason.TabFocusReason)
        await driver.until(lambda: QApplication.focusWidget() is window.chat_view.composer.edit)
        assert ring.target is None

    driver.run(body())
