"""The sidebar keeps the width the person gave it, whatever the chat beside it does.

The chat column's minimum width used to follow its texts (the title, the composer's
hint, the model's name, Stop appearing), and the splitter took every change out of the
sidebar: the whole chat jumped sideways at the start and end of each answer.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, Qt
from PySide6.QtTest import QTest

from tests.support.chat_wire import text_answer, write_call
from tests.support.settings_files import write_settings, write_tool_settings
from tests.support.sse_server import DONE, Sleep, chat_chunk, error_response, sse_response
from tests.support.ui_actions import answer_widget, dialogs, type_and_send

LONG_QUESTION = (
    "Tell me everything you know about the history of resizable split panes in desktop "
    "toolkits, from the first window systems to today"
)
WIDTH, HEIGHT = 1000, 720  # where the old column pushed the sidebar by 7 to 43 px


def laid_out() -> None:
    """Let pending layout requests run (a change of text or visibility posts them)."""
    for _ in range(4):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


def start(driver, sse_server, tmp_path):
    data = tmp_path / "data"
    write_tool_settings(data, sse_server.base_url)
    parley = driver.start(data)
    parley.window.resize(WIDTH, HEIGHT)
    laid_out()
    return parley, data


def test_the_sidebar_keeps_its_width_through_every_state_of_the_chat(driver, sse_server, tmp_path):
    parley, _data = start(driver, sse_server, tmp_path)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    sse_server.script(
        sse_response(
            chat_chunk(content="The first"), Sleep(30), chat_chunk(finish_reason="stop"), DONE
        ),
        write_call(),
        text_answer("I will leave it."),
        *[error_response(500, "The model crashed", headers={"retry-after-ms": "1"})] * 3,
    )
    window = parley.window
    widths: dict[str, int] = {}
    minimums: dict[str, int] = {}

    def measure(state: str) -> None:
        laid_out()
        widths[state] = window.sidebar.width()
        minimums[state] = window.chat_view.minimumSizeHint().width()

    def answer_text() -> str:
        if len(window.chat_view.transcript.message_ids()) < 2:
            return ""
        return answer_widget(parley).body.toPlainText()

    async def body() -> None:
        measure("empty")
        type_and_send(parley, LONG_QUESTION)
        await driver.until(lambda: "The first" in answer_text())
        assert window.chat_view.composer.stop_button.isVisible()
        measure("streaming")
        parley.chat_vm.stop()
        await driver.until(lambda: not parley.chat_vm.busy)
        measure("done")
        parley.chat_vm.workspace.set_folder(str(workspace))
        type_and_send(parley, "Write my notes")
        await driver.until(lambda: bool(dialogs(parley)))
        measure("approval")
        dialogs(parley)[0].panels[0].deny.click()
        await driver.until(lambda: not parley.chat_vm.busy and not dialogs(parley))
        type_and_send(parley, "Once more")
        await driver.until(
            lambda: not parley.chat_vm.busy and answer_widget(parley).error_box.isVisible(),
        )
        measure("error")

    driver.run(body())
    assert widths == dict.fromkeys(widths, 260), widths  # the width it was given
    assert len(set(minimums.values())) == 1, minimums  # no text or button moves it
    title = window.chat_view.title
    assert LONG_QUESTION.startswith(title.text().removesuffix("…"))
    assert title.is_elided() and len(title.shown_text()) < len(title.text())  # elided instead


def drag_handle(splitter, dx: int) -> None:
    """Drag the handle between the sidebar and the chat by `dx` pixels, with the mouse."""
    handle = splitter.handle(1)
    start = handle.rect().center()
    QTest.mousePress(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(handle, start + QPoint(dx, 0))
    QTest.mouseRelease(
        handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start + QPoint(dx, 0)
    )


def test_a_dragged_sidebar_width_is_kept_and_comes_back_after_a_restart(
    driver, sse_server, tmp_path
):
    parley, data = start(driver, sse_server, tmp_path)
    parley.window.resize(780, 560)  # within the offscreen screen, so it is restored as is
    laid_out()
    window = parley.window
    drag_handle(window.splitter, -37)
    laid_out()
    dragged = window.sidebar.width()
    assert 200 < dragged < 240  # from the 260 it had
    sse_server.script(
        sse_response(chat_chunk(content="Half"), Sleep(30), chat_chunk(finish_reason="stop"), DONE)
    )

    async def body() -> None:
        type_and_send(parley, LONG_QUESTION)
        await driver.until(lambda: window.chat_view.composer.stop_button.isVisible())
        laid_out()
        assert window.sidebar.width() == dragged
        parley.chat_vm.stop()
        await driver.until(lambda: not parley.chat_vm.busy)
        laid_out()
        assert window.sidebar.width() == dragged
        window.resize(790, 560)  # a wider window widens the chat, not the list
        laid_out()
        assert window.sidebar.width() == dragged

    driver.run(body())
    driver.close(parley)
    again = driver.start(data)
    laid_out()
    assert again.window.width() == 790
    assert again.window.sidebar.width() == dragged


def test_a_long_model_name_does_not_widen_the_chat_column(driver, sse_server, tmp_path):
    name = "an-extremely-long-model-name-for-a-quantised-build-q4_k_m-with-128k-context"
    write_settings(tmp_path, sse_server.base_url, models=("short", name))
    parley = driver.start(tmp_path)
    parley.window.resize(WIDTH, HEIGHT)
    laid_out()
    chat_view = parley.window.chat_view
    composer = chat_view.composer
    narrow = chat_view.minimumSizeHint().width()
    composer.model_picker.setCurrentIndex(1)
    laid_out()
    assert chat_view.minimumSizeHint().width() == narrow
    assert parley.window.sidebar.width() == 260


def test_the_composers_hint_is_shown_whole_or_not_at_all(driver, sse_server, tmp_path):
    """A long model's name leaves the hint no room: "Enter to s…" would say nothing."""
    whole = "Enter to send · Shift+Enter for a new line"
    long_name = "organisation/an-extremely-long-model-name-with-a-date-2026-11-29-preview"
    hints = []
    for name, models in (("short", ("test-model",)), ("long", ("test-model", long_name))):
        write_settings(tmp_path / name, sse_server.base_url, models=models)
        parley = driver.start(tmp_path / name)
        parley.window.resize(WIDTH, HEIGHT)
        hints.append(parley.window.chat_view.composer.hint)
    roomy, squeezed = hints
    needed = roomy.fontMetrics().horizontalAdvance(whole)

    async def body() -> None:
        await driver.until(lambda: roomy.width() >= needed and 0 < squeezed.width() < needed)
        assert roomy.text() == whole and roomy.shown_text() == whole  # room enough: all
        assert squeezed.text() == whole and squeezed.shown_text() == ""  # not a piece of it
        for width in range(0, needed + 20):
            squeezed.resize(width, squeezed.height())
            assert squeezed.shown_text() in ("", whole), width

    driver.run(body())
