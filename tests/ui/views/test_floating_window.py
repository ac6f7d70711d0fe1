"""The floating chat window: one chat shared with the main window, kept on screen."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QMimeData,
    QPoint,
    QPointF,
    QRect,
    QSettings,
    QSize,
    Qt,
    QUrl,
)
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from desktop.core.models import MessageStatus
from desktop.ui.views.window_geometry import (
    CORNER_MARGIN,
    DEFAULT_SIZE,
    MIN_SIZE,
    area_for,
    clamp,
    default_rect,
)
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, Sleep, chat_chunk, sse_response
from tests.support.ui_actions import (
    send_from_floating,
    show_floating,
    transcript_bodies,
    type_and_send,
)


def screen_area() -> QRect:
    return QGuiApplication.primaryScreen().availableGeometry()


def test_a_message_sent_from_the_floating_window_is_the_main_windows_chat(
    driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    floating = show_floating(parley)
    main_transcript = parley.window.chat_view.transcript

    async def body() -> None:
        send_from_floating(parley, "Asked from the corner")
        await driver.until(
            lambda: len(transcript_bodies(main_transcript)) == 2 and not parley.chat_vm.busy
        )
        await driver.until(
            lambda: transcript_bodies(main_transcript)[1] == "Hello from the test server."
        )
        assert transcript_bodies(floating.transcript) == transcript_bodies(main_transcript)
        first = parley.chat_vm.conversationId
        stored = driver.reader(tmp_path).active_path(first)
        assert [m.text for m in stored] == ["Asked from the corner", "Hello from the test server."]
        assert floating.picker.currentText() == "Asked from the corner"
        assert parley.window.sidebar_title(first) == "Asked from the corner"

        # A new chat begun in the main window is the floating window's chat too...
        parley.window.new_chat()
        assert floating.picker.currentIndex() == -1  # "New chat" until it is saved
        assert not floating.transcript.message_ids()
        type_and_send(parley, "Asked in the main window")
        await driver.until(lambda: len(transcript_bodies(floating.transcript)) == 2)
        await driver.until(lambda: not parley.chat_vm.busy)
        second = parley.chat_vm.conversationId
        assert floating.picker.currentText() == "Asked in the main window"

        # ...and a chat picked in the floating window opens in the main window.
        row = parley.conversations_vm.row_of(first)
        floating.picker.activated.emit(row)
        assert parley.chat_vm.conversationId == first
        assert parley.window.chat_view.title.text() == "Asked from the corner"
        assert transcript_bodies(main_transcript)[0] == "Asked from the corner"
        assert second != first

    driver.run(body())


def test_closing_the_floating_window_hides_it_and_the_answer_goes_on(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.enqueue(
        sse_response(
            chat_chunk(content="Begun while shown, "),
            Sleep(1.0),
            chat_chunk(content="finished while hidden."),
            chat_chunk(finish_reason="stop"),
            DONE,
        )
    )
    parley = driver.start(tmp_path)
    floating = show_floating(parley)

    async def body() -> None:
        send_from_floating(parley, "Tell me something")
        await driver.until(
            lambda: "Begun while shown" in "".join(transcript_bodies(floating.transcript))
        )
        assert parley.chat_vm.busy and floating.composer.stop_button.isVisible()
        assert floating.close() is False  # refused: only hidden
        assert not floating.isVisible()
        assert parley.chat_vm.busy
        hidden_answer = floating.transcript.message_widgets()
        imported = [widget.body.tail.reimported_units for widget in hidden_answer]
        await driver.until(lambda: not parley.chat_vm.busy)
        # Put away, the floating chat did not render the rest of the stream.
        assert [widget.body.tail.reimported_units for widget in hidden_answer] == imported
        answer_id = parley.window.chat_view.transcript.message_ids()[-1]
        stored = parley.repository.get_message(answer_id)
        assert stored.status is MessageStatus.COMPLETE
        assert stored.text == "Begun while shown, finished while hidden."
        parley.toggle_floating()  # shown again, the whole answer is there
        assert (
            transcript_bodies(floating.transcript)[-1]
            == "Begun while shown, finished while hidden."
        )

    driver.run(body())


def test_stop_in_the_floating_window_stops_and_escape_then_hides(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    sse_server.enqueue(sse_response(chat_chunk(content="Some words"), Sleep(30)))
    parley = driver.start(tmp_path)
    floating = show_floating(parley)

    async def body() -> None:
        send_from_floating(parley, "Go")
        await driver.until(lambda: transcript_bodies(floating.transcript)[-1:] == ["Some words"])
        QTest.keyClick(floating.composer.edit, Qt.Key.Key_Escape)  # first Esc: Stop
        await driver.until(lambda: not parley.chat_vm.busy)
        assert floating.isVisible()
        assert (
            parley.window.chat_view.transcript.message_widget(
                parley.window.chat_view.transcript.message_ids()[-1]
            ).status.text()
            == "Stopped"
        )
        QTest.keyClick(floating.composer.edit, Qt.Key.Key_Escape)  # then Esc hides
        assert not floating.isVisible()

    driver.run(body())


def test_size_and_position_survive_a_restart_and_reset_puts_it_back(driver, tmp_path):
    parley = driver.start(tmp_path)
    floating = show_floating(parley)
    floating.setGeometry(QRect(60, 70, 380, 430))
    floating.hide()  # as the person leaves it
    driver.close(parley)

    again = driver.start(tmp_path)
    floating = show_floating(again)
    assert floating.geometry() == QRect(60, 70, 380, 430)
    assert again.window.isVisible()  # the main window kept its own state beside it

    floating.reset_action.trigger()
    area = screen_area()
    assert floating.size() == DEFAULT_SIZE
    assert floating.geometry().bottomRight() == area.bottomRight() - QPoint(
        CORNER_MARGIN, CORNER_MARGIN
    )
    driver.close(again)
    third = driver.start(tmp_path)
    assert third.floating.geometry() == default_rect(area)


def test_a_position_saved_off_screen_comes_back_inside_the_screen(driver, tmp_path):
    tmp_path.mkdir(exist_ok=True)
    state = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    state.setValue("floating/geometry", QRect(5000, -3000, 400, 500))  # a monitor now gone
    state.sync()
    parley = driver.start(tmp_path)
    floating = show_floating(parley)
    area = screen_area()
    assert area.contains(floating.geometry())
    assert floating.size().width() == 400 and floating.size().height() == 500
    # Larger than the screen: shrunk to it.
    floating.setGeometry(QRect(-200, -200, area.width() + 500, area.height() + 500))
    floating.nudge(0, 0)
    assert floating.geometry() == area


def test_alt_arrows_move_and_alt_shift_arrows_resize_it(driver, tmp_path):
    parley = driver.start(tmp_path)
    floating = show_floating(parley)
    floating.activateWindow()
    assert QTest.qWaitForWindowActive(floating)
    floating.setGeometry(QRect(200, 150, 400, 450))
    edit = floating.composer.edit
    alt = Qt.KeyboardModifier.AltModifier
    shift = Qt.KeyboardModifier.ShiftModifier
    ctrl = Qt.KeyboardModifier.ControlModifier

    QTest.keyClick(edit, Qt.Key.Key_Left, alt)
    QTest.keyClick(edit, Qt.Key.Key_Down, alt)
    assert floating.geometry() == QRect(190, 160, 400, 450)
    QTest.keyClick(edit, Qt.Key.Key_Right, ctrl | alt)
    assert floating.pos() == QPoint(240, 160)
    QTest.keyClick(edit, Qt.Key.Key_Right, alt | shift)
    QTest.keyClick(edit, Qt.Key.Key_Up, alt | shift)
    assert floating.geometry() == QRect(240, 160, 410, 440)
    QTest.keyClick(edit, Qt.Key.Key_Down, ctrl | alt | shift)
    assert floating.size().height() == 490
    # Never beyond the screen's edge, however often the key is pressed.
    for _ in range(30):
        QTest.keyClick(edit, Qt.Key.Key_Left, ctrl | alt)
    assert floating.x() == screen_area().left()
    assert edit.toPlainText() == ""  # the keys moved the window, they typed nothing


def test_files_dropped_on_the_floating_chat_join_the_tray(driver, tmp_path):
    parley = driver.start(tmp_path)
    floating = show_floating(parley)
    note = tmp_path / "notes.txt"
    note.write_text("Bring the figures.", encoding="utf-8")
    accepted = drop_files(floating.chat_page, [note])

    async def body() -> None:
        await driver.until(lambda: [e.name for e in parley.chat_vm.tray.entries()] == ["notes.txt"])
        # Stored, not only shown: a copy still in flight would outlive the test's loop.
        await driver.until(lambda: all(e.attachment for e in parley.chat_vm.tray.entries()))

    assert accepted
    driver.run(body())
    # One tray: the main window's composer shows the same file.
    assert list(parley.window.chat_view.composer.chips.chips) == list(floating.composer.chips.chips)
    assert len(floating.composer.chips.chips) == 1


def drop_files(widget: QWidget, paths: list[Path]) -> bool:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    centre = widget.rect().center()
    none = Qt.KeyboardModifier(0)
    enter = QDragEnterEvent(centre, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, none)
    QApplication.sendEvent(widget, enter)
    drop = QDropEvent(
        QPointF(centre), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, none
    )
    QApplication.sendEvent(widget, drop)
    return enter.isAccepted() and drop.isAccepted()


def test_the_chat_menu_toggles_it_and_open_in_main_window_brings_the_main_window(driver, tmp_path):
    parley = driver.start(tmp_path)
    floating = parley.floating
    assert not floating.isVisible()  # not shown until asked for
    parley.window.floating_action.trigger()
    assert floating.isVisible()
    parley.window.floating_action.trigger()
    assert not floating.isVisible()

    parley.toggle_floating()
    parley.window.showMinimized()
    QTest.mouseClick(floating.main_button, Qt.MouseButton.LeftButton)
    assert not floating.isVisible()
    assert parley.window.isVisible() and not parley.window.isMinimized()


def test_the_title_row_buttons_are_icons_with_names(driver, tmp_path):
    floating = show_floating(driver.start(tmp_path))
    icons = {
        floating.new_button: "plus",
        floating.main_button: "open-in-main",
        floating.menu_button: "more",
        floating.hide_button: "close",
    }
    for button, name in icons.items():
        assert button.property("iconName") == name and button.text() == ""
        assert button.iconSize() == QSize(20, 20)
        assert button.accessibleName() and button.toolTip() == button.accessibleName()
    assert floating.handle.property("iconName") == "grip"


def test_dragging_the_title_row_moves_the_window(driver, tmp_path):
    parley = driver.start(tmp_path)
    floating = show_floating(parley)
    floating.setGeometry(QRect(100, 100, 400, 450))
    handle = floating.handle  # a label: its clicks go on to the title row
    grab = handle.rect().center()
    QTest.mousePress(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0), grab)
    QTest.mouseMove(handle, grab + QPoint(40, 30))
    QTest.mouseRelease(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0), grab)
    assert floating.pos() == QPoint(140, 130)


def test_clamp_and_the_screen_a_window_belongs_to():
    left = QRect(0, 0, 1920, 1080)
    right = QRect(1920, 0, 1280, 1024)
    assert clamp(QRect(1800, 900, 400, 500), left) == QRect(1520, 580, 400, 500)
    assert clamp(QRect(-50, 10, 400, 500), left) == QRect(0, 10, 400, 500)
    assert clamp(QRect(0, 0, 3000, 3000), right) == right
    # Mostly on the right-hand monitor: it stays there.
    assert area_for(QRect(1800, 100, 400, 500), [left, right], left) == right
    # On no monitor at all: the nearest one.
    assert area_for(QRect(4000, 200, 400, 500), [left, right], left) == right
    assert area_for(QRect(10, 10, 4, 4), [], left) == left


LONG_MODEL = "qwen2.5-coder-32b-instruct-q4_k_m-gguf-with-a-rather-long-name"


def shows_its_text(picker) -> bool:
    """The whole current text fits, or it is elided on purpose with the whole of it in
    the tool tip (what Qt shows there, rendered)."""
    if picker.width() >= picker.sizeHint().width():
        return True
    is_elided = getattr(picker, "is_elided", None)
    if is_elided is None or not is_elided():
        return False  # cut off, not elided
    shown, full = picker.shown_text(), picker.currentText()
    return shown.endswith("…") and full.startswith(shown[:-1]) and full in picker.toolTip()


def whole(widget) -> bool:
    """Shown, and nothing of it cut off by the window's edge or its neighbours."""
    return widget.isVisible() and widget.visibleRegion().boundingRect() == widget.rect()


def test_the_pickers_fit_the_floating_window_at_its_default_and_smallest_size(
    driver, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url, models=(LONG_MODEL, "small"))
    path = tmp_path / "settings.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["providers"][0]["model_overrides"] = {LONG_MODEL: {"reasoning": True}}
    path.write_text(json.dumps(data), encoding="utf-8")
    parley = driver.start(tmp_path)
    title = "Planning the spring release of the documentation site, with every open question"
    parley.chat_vm.open_conversation(parley.chat.create_conversation(title).id)
    floating = show_floating(parley)
    composer = floating.composer
    assert floating.size() == DEFAULT_SIZE
    assert composer.model_picker.currentText().startswith(LONG_MODEL)
    assert floating.picker.currentText() == title
    for size in (DEFAULT_SIZE, MIN_SIZE):
        floating.resize(size)
        for _ in range(4):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        assert floating.size() == size
        for picker in (composer.model_picker, composer.effort, floating.picker):
            assert whole(picker), (size, picker.objectName())
            assert shows_its_text(picker), (size, picker.objectName(), picker.width())
        assert composer.effort.width() >= composer.effort.sizeHint().width()  # "Reasoning …"
        for button in (composer.attach_button, composer.send_button):
            assert whole(button) and button.width() >= button.sizeHint().width(), size
