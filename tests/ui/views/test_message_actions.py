"""Per-message actions: which show when, and what reaches the view-model when clicked."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QEnterEvent, QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.ui.viewmodels.chat import ChatViewModel
from tests.support.settings_files import write_settings
from tests.support.transcript import message

SLOTS = (
    "edit_message",
    "regenerate",
    "show_version",
    "delete_message",
    "continue_message",
    "retry",
)


@pytest.fixture
def calls(monkeypatch) -> list[tuple[str, tuple[object, ...]]]:
    """Records what the view asks of the view-model (patched before any widget connects)."""
    recorded: list[tuple[str, tuple[object, ...]]] = []
    for name in SLOTS:

        def record(self, *args: object, name: str = name) -> None:
            recorded.append((name, args))

        monkeypatch.setattr(ChatViewModel, name, record)
    return recorded


@pytest.fixture
def app(driver, tmp_path):
    write_settings(tmp_path, "http://127.0.0.1:9/v1")
    return driver.start(tmp_path)


def show(app, *items):
    app.chat_vm.transcript.messagesReset.emit(list(items))
    transcript = app.window.chat_view.transcript
    return [transcript.message_widget(item.id) for item in items]


def shown(actions) -> set[str]:
    names = {
        "copy": actions.copy_button,
        "edit": actions.edit_button,
        "regenerate": actions.regenerate_button,
        "versions": actions.version_label,
        "continue": actions.continue_button,
        "retry": actions.retry_button,
        "delete": actions.delete_button,
    }
    return {name for name, widget in names.items() if not widget.isHidden()}


def test_the_buttons_follow_the_state_of_each_message(calls, app):
    user, stopped, failed, streaming = show(
        app,
        message("u", user=True, text="Hi", version_index=2, version_count=3),
        message("a", text="Half an ans", can_continue=True, version_count=1),
        message("b", text="", error="The server said no", can_retry=True),
        message("c", text="Still typ", streaming=True),
    )
    assert shown(user.actions) == {"copy", "edit", "versions", "delete"}
    assert user.actions.version_label.text() == "2/3"
    assert user.actions.previous_button.isEnabled() and user.actions.next_button.isEnabled()
    assert shown(stopped.actions) == {"copy", "regenerate", "continue", "delete"}
    assert shown(failed.actions) == {"retry", "delete"}  # nothing to copy; retry, not regenerate
    assert not streaming.actions.isVisible()  # nothing can be done to it yet

    first, last = show(
        app,
        message("v1", user=True, text="A", version_index=1, version_count=2),
        message("v2", text="B", version_index=2, version_count=2),
    )
    assert not first.actions.previous_button.isEnabled() and first.actions.next_button.isEnabled()
    assert last.actions.previous_button.isEnabled() and not last.actions.next_button.isEnabled()


def test_the_row_shows_for_the_latest_message_on_hover_and_with_focus(app):
    earlier, latest = show(app, message("q", user=True, text="Question"), message("r"))
    assert latest.actions.isVisible()
    assert earlier.action_slot.row is None  # built only when first needed
    height = earlier.height()

    QApplication.sendEvent(earlier, QEnterEvent(QPointF(5, 5), QPointF(5, 5), QPointF(5, 5)))
    assert earlier.actions.isVisible()
    assert earlier.height() == height  # the row had its place already: nothing moves
    QApplication.sendEvent(earlier, QEnterEvent(QPointF(5, 5), QPointF(5, 5), QPointF(5, 5)))
    earlier.leaveEvent(QEnterEvent(QPointF(-1, -1), QPointF(-1, -1), QPointF(-1, -1)))
    assert not earlier.actions.isVisible()

    # Keyboard: focus inside the message shows the row, and Tab walks into it.
    earlier.body.setFocus()
    assert earlier.actions.isVisible()
    QTest.keyClick(earlier.body, Qt.Key.Key_Tab)
    assert earlier.actions.isAncestorOf(QApplication.focusWidget())


def test_editing_a_message_in_place(calls, app):
    (user,) = show(app, message("u", user=True, text="Helo wrld"))
    QTest.mouseClick(user.actions.edit_button, Qt.MouseButton.LeftButton)
    editor = user.editor
    assert editor.isVisible() and not user.body.isVisible()
    assert editor.text.toPlainText() == "Helo wrld" and editor.text.hasFocus()

    editor.text.selectAll()
    QTest.keyClicks(editor.text, "Hello")
    QTest.keyClick(editor.text, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClicks(editor.text, "world")
    assert editor.text.toPlainText() == "Hello\nworld" and calls == []
    submitted: list[tuple[str, str]] = []
    user.editSubmitted.connect(lambda mid, text: submitted.append((mid, text)))
    QTest.keyClick(editor.text, Qt.Key.Key_Return)
    assert submitted == [("u", "Hello\nworld")]
    assert calls == [("edit_message", ("u", "Hello\nworld"))]
    assert not editor.isVisible() and user.body.isVisible()


def test_escape_cancels_an_edit(calls, app):
    (user,) = show(app, message("u", user=True, text="Keep me"))
    user.begin_edit()
    QTest.keyClicks(user.editor.text, " changed")
    QTest.keyClick(user.editor.text, Qt.Key.Key_Escape)
    assert not user.is_editing and user.body.toPlainText() == "Keep me"
    user.begin_edit()
    assert user.editor.text.toPlainText() == "Keep me"  # a fresh start, not the discarded text
    assert not user.editor.save_button.isEnabled()  # nothing changed yet
    assert calls == []


def test_answer_actions_reach_the_view_model(calls, app):
    question, answer = show(
        app,
        message("q", user=True, text="Q", version_index=2, version_count=2),
        message("a", text="**Bold** answer", can_continue=True, version_index=1, version_count=3),
    )
    for button in (
        answer.actions.regenerate_button,
        answer.actions.next_button,
        answer.actions.continue_button,
        question.actions.previous_button,
    ):
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    assert calls == [
        ("regenerate", ("a",)),
        ("show_version", ("a", 1)),
        ("continue_message", ("a",)),
        ("show_version", ("q", -1)),
    ]
    QTest.mouseClick(answer.actions.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "**Bold** answer"  # the markdown source


def test_retry_reaches_the_view_model(calls, app):
    (failed,) = show(app, message("f", text="", error="Timed out", can_retry=True))
    QTest.mouseClick(failed.actions.retry_button, Qt.MouseButton.LeftButton)
    assert calls == [("retry", ("f",))]


def test_delete_asks_first(calls, app, driver):
    transcript = app.window.chat_view.transcript
    (answer,) = show(app, message("a", text="Doomed"))

    def open_box() -> QMessageBox:
        QTest.mouseClick(answer.actions.delete_button, Qt.MouseButton.LeftButton)
        boxes = [b for b in transcript.findChildren(QMessageBox) if b.isVisible()]
        assert len(boxes) == 1 and "Delete this message" in boxes[0].text()
        return boxes[0]

    async def body() -> None:
        box = open_box()
        next(b for b in box.buttons() if b.text() == "Cancel").click()
        await asyncio.sleep(0.05)
        assert calls == []
        box = open_box()
        next(b for b in box.buttons() if b.text() == "Delete").click()
        await asyncio.sleep(0.05)
        assert calls == [("delete_message", ("a",))]

    driver.run(body())


def test_the_actions_are_icons_each_with_a_name_to_be_read_by(app, qtbot):
    (answer,) = show(app, message("a", text="An answer", can_continue=True, version_count=2))
    actions = answer.actions
    icons = {
        actions.copy_button: "copy",
        actions.edit_button: "edit",
        actions.regenerate_button: "regenerate",
        actions.previous_button: "chevron-left",
        actions.next_button: "chevron-right",
        actions.continue_button: "continue",
        actions.retry_button: "retry",
        actions.pin_button: "pin",
        actions.delete_button: "delete",  # a trash can: ✕ is for closing things
    }
    for button, name in icons.items():
        assert button.property("iconName") == name and not button.icon().isNull()
        assert button.accessibleName() and button.toolTip() == button.accessibleName()
    worded = {actions.continue_button: "Continue", actions.retry_button: "Retry"}
    for button in icons:
        assert button.text() == worded.get(button, "")  # no glyphs standing in for icons
    notice = app.window.chat_view.composer.notice
    assert notice.close_button.property("iconName") == "close"
    assert notice.close_button.accessibleName()

    # Copied: a check mark for a moment, then the copy icon again.
    QTest.mouseClick(actions.copy_button, Qt.MouseButton.LeftButton)
    assert actions.copy_button.property("iconName") == "check"
    qtbot.waitUntil(lambda: actions.copy_button.property("iconName") == "copy", timeout=10_000)
