"""Attaching files as a person does: drop, paste, pick, remove, send, and see them sent."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QMimeData,
    QPoint,
    QPointF,
    Qt,
    QUrl,
)
from PySide6.QtGui import (
    QDesktopServices,
    QDragEnterEvent,
    QDragLeaveEvent,
    QDropEvent,
    QGuiApplication,
    QImage,
)
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QScrollArea, QWidget

from desktop.app import parse_args
from desktop.core.attachments import AttachmentKind
from desktop.core.limits import MAX_ATTACHMENTS_PER_MESSAGE
from tests.support.documents import make_docx, with_bad_crc
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, chat_chunk, sse_response
from tests.support.url_catcher import UrlCatcher


def make_png(path: Path, width: int = 40, height: int = 30) -> Path:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.darkCyan)
    assert image.save(str(path), "PNG")
    return path


def make_text(path: Path, text: str = "Quarterly numbers: all up.\n") -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def file_mime(paths: list[Path]) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    return mime


def drag_onto(widget: QWidget, mime: QMimeData) -> tuple[bool, bool]:
    """Drag `mime` over `widget` and drop it; (enter accepted, drop accepted)."""
    centre = widget.rect().center()
    enter = QDragEnterEvent(
        centre, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0)
    )
    QApplication.sendEvent(widget, enter)
    drop = QDropEvent(
        QPointF(centre),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier(0),
    )
    QApplication.sendEvent(widget, drop)
    return enter.isAccepted(), drop.isAccepted()


def tray_names(parley) -> list[str]:
    return [e.name for e in parley.chat_vm.tray.entries()]


def settled(parley) -> bool:
    return not any(e.loading for e in parley.chat_vm.tray.entries())


def start(driver, data: Path, base_url: str = "http://127.0.0.1:9/v1"):
    """A Parley with a model configured, so the chat (not the setup page) shows."""
    write_settings(data, base_url)
    return driver.start(data)


def chip_names(parley) -> list[str]:
    chips = parley.window.chat_view.composer.chips
    return [chip.name for chip in chips.chips.values() if chip.isVisibleTo(chips)]


def test_files_dropped_on_the_chat_area_are_attached(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    report = make_text(tmp_path / "report.txt")
    photo = make_png(tmp_path / "photo.png")
    view = parley.window.chat_view

    async def body() -> None:
        # The empty chat's greeting is part of the chat area: a drop there counts.
        entered, dropped = drag_onto(view.empty, file_mime([report, photo]))
        assert entered and dropped
        assert tray_names(parley) == ["report.txt", "photo.png"]  # shown at once
        await driver.until(lambda: settled(parley) and len(parley.chat_vm.tray.ids()) == 2)
        kinds = [e.attachment.kind for e in parley.chat_vm.tray.entries()]
        assert kinds == [AttachmentKind.DOCUMENT, AttachmentKind.IMAGE]
        assert chip_names(parley) == ["report.txt", "photo.png"]
        assert not view.drop.highlighted
        photo_attachment = parley.chat_vm.tray.entries()[1].attachment
        files = parley.chat_vm.tray.files
        await driver.until(lambda: files.thumbnail(photo_attachment) is not None)
        thumbnail = files.thumbnail(photo_attachment)
        assert (thumbnail.width(), thumbnail.height()) == (
            40,
            30,
        )  # small: not scaled up  # the outline went away with the drop

    driver.run(body())


def test_files_dropped_on_the_composer_text_are_attached_not_inserted(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    notes = make_text(tmp_path / "notes.md", "# Notes\n")
    composer = parley.window.chat_view.composer

    async def body() -> None:
        entered, dropped = drag_onto(composer.edit.viewport(), file_mime([notes]))
        assert entered and dropped
        await driver.until(lambda: len(parley.chat_vm.tray.ids()) == 1)
        assert composer.edit.toPlainText() == ""  # no file URL typed into the message
        assert tray_names(parley) == ["notes.md"]

    driver.run(body())


def test_a_drag_without_files_is_ignored_and_shows_no_highlight(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    view = parley.window.chat_view
    text = QMimeData()
    text.setText("just some words")
    web = QMimeData()
    web.setUrls([QUrl("https://example.com/a.png")])

    async def body() -> None:
        for mime in (text, web):
            entered, dropped = drag_onto(view.empty, mime)
            assert not entered and not dropped
        assert not view.drop.highlighted
        assert parley.chat_vm.tray.entries() == []

    driver.run(body())


def test_the_drop_highlight_shows_while_files_hover(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    composer = parley.window.chat_view.composer
    mime = file_mime([make_text(tmp_path / "a.txt")])

    async def body() -> None:
        enter = QDragEnterEvent(
            QPoint(5, 5),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier(0),
        )
        QApplication.sendEvent(composer, enter)
        assert enter.isAccepted() and composer.drop.highlighted
        assert composer.drop.highlight.geometry() == composer.rect()
        QApplication.sendEvent(composer, QDragLeaveEvent())
        assert not composer.drop.highlighted
        assert parley.chat_vm.tray.entries() == []

    driver.run(body())


def test_pasting_an_image_attaches_a_png_and_pasting_text_stays_text(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    edit = parley.window.chat_view.composer.edit
    image = QImage(64, 48, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.magenta)

    async def body() -> None:
        edit.setFocus()
        mime = QMimeData()
        mime.setImageData(image)
        QGuiApplication.clipboard().setMimeData(mime)
        QTest.keyClick(edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        await driver.until(lambda: len(parley.chat_vm.tray.ids()) == 1)
        pasted = parley.chat_vm.tray.entries()[0].attachment
        assert pasted is not None
        assert (pasted.mime, pasted.kind) == ("image/png", AttachmentKind.IMAGE)
        assert (pasted.width, pasted.height) == (64, 48)
        assert edit.toPlainText() == ""

        QGuiApplication.clipboard().setText("plain words")
        QTest.keyClick(edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        assert edit.toPlainText() == "plain words"
        assert len(parley.chat_vm.tray.entries()) == 1

    driver.run(body())


def test_pasting_files_copied_in_a_file_manager_attaches_them(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    edit = parley.window.chat_view.composer.edit
    copied = file_mime([make_text(tmp_path / "copied.txt")])
    copied.setText(str(tmp_path / "copied.txt"))  # file managers offer the path as text too

    async def body() -> None:
        edit.setFocus()
        QGuiApplication.clipboard().setMimeData(copied)
        QTest.keyClick(edit, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        await driver.until(lambda: len(parley.chat_vm.tray.ids()) == 1)
        assert tray_names(parley) == ["copied.txt"] and edit.toPlainText() == ""

    try:
        driver.run(body())
    finally:
        # The clipboard owns the data now; left there, Qt frees it again at exit after
        # Python has (a crash of the test process once every test passed).
        QGuiApplication.clipboard().clear()


def test_a_chip_is_removed_with_its_button(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    composer = parley.window.chat_view.composer
    files = [make_text(tmp_path / "keep.txt"), make_text(tmp_path / "drop-me.txt")]

    async def body() -> None:
        parley.chat_vm.tray.add_paths(files)
        await driver.until(lambda: len(parley.chat_vm.tray.ids()) == 2)
        chip = next(c for c in composer.chips.chips.values() if c.name == "drop-me.txt")
        assert chip.remove_button is not None
        assert chip.remove_button.focusPolicy() & Qt.FocusPolicy.TabFocus  # keyboard reachable
        QTest.mouseClick(chip.remove_button, Qt.MouseButton.LeftButton)
        assert tray_names(parley) == ["keep.txt"]
        assert chip_names(parley) == ["keep.txt"]
        assert composer.send_button.isEnabled()  # a file alone can be sent

    driver.run(body())


def scroll_into_view(widget: QWidget) -> None:
    """What a person does to reach a widget: scroll every scroll area it is in."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea) and parent.widget() is not None:
            parent.ensureWidgetVisible(widget, 0, 0)
        parent = parent.parentWidget()
    for _ in range(4):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)


def fully_visible(widget: QWidget) -> bool:
    """Nothing of it cut off by the widgets it sits in, nor by the window's edge."""
    return widget.isVisible() and widget.visibleRegion().boundingRect() == widget.rect()


def test_eight_files_wrap_onto_rows_and_each_chip_can_be_reached_and_removed(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    parley.window.resize(1000, 700)
    composer = parley.window.chat_view.composer
    names = [f"quarterly-report-part-{n}.txt" for n in range(1, 9)]
    files = [make_text(tmp_path / name, f"part {name}\n") for name in names]

    async def body() -> None:
        parley.chat_vm.tray.add_paths(files)
        await driver.until(lambda: settled(parley) and len(parley.chat_vm.tray.ids()) == 8)
        chips = composer.chips.chips
        await driver.until(lambda: all(c.attachment is not None for c in chips.values()))
        await driver.until(lambda: len({c.y() for c in chips.values()}) > 1)  # wrapped
        first = next(iter(chips.values()))
        assert fully_visible(first)
        shown = composer.chips.visibleRegion().boundingRect().height()  # of all the rows
        assert shown > 2 * first.height()  # the tray grew to more than one row...
        assert shown < 4 * first.height()  # ...up to a few, then it scrolls
        assert fully_visible(composer.edit)  # the text box stays in sight
        last = next(c for c in chips.values() if c.name == names[-1])
        assert not fully_visible(last)  # below the rows shown...
        parley.window.activateWindow()
        await driver.until(parley.window.isActiveWindow)
        last.remove_button.setFocus(Qt.FocusReason.TabFocusReason)
        await driver.until(lambda: fully_visible(last))  # ...until the keyboard reaches it
        for name in reversed(names):  # the last chips, out of sight at first, too
            chip = next(c for c in chips.values() if c.name == name)
            scroll_into_view(chip)
            assert fully_visible(chip), name
            button = chip.remove_button
            assert button is not None and fully_visible(button)
            QTest.mouseClick(button, Qt.MouseButton.LeftButton)
            await driver.until(lambda name=name: name not in tray_names(parley))
        assert tray_names(parley) == []

    driver.run(body())


def test_the_ninth_file_is_refused_with_a_message_naming_it(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    composer = parley.window.chat_view.composer
    files = [make_text(tmp_path / f"part-{n}.txt", f"part {n}\n") for n in range(1, 10)]

    async def body() -> None:
        drag_onto(composer, file_mime(files))
        assert len(parley.chat_vm.tray.entries()) == MAX_ATTACHMENTS_PER_MESSAGE
        assert composer.notice.isVisible()
        assert "part-9.txt" in composer.notice.text and "8" in composer.notice.text
        assert "part-8.txt" not in composer.notice.text
        await driver.until(lambda: settled(parley))
        assert len(parley.chat_vm.tray.ids()) == MAX_ATTACHMENTS_PER_MESSAGE
        QTest.mouseClick(composer.notice.close_button, Qt.MouseButton.LeftButton)
        assert not composer.notice.isVisible()

    driver.run(body())


def test_a_file_that_cannot_be_attached_is_named_and_the_others_are_kept(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    composer = parley.window.chat_view.composer
    fake = tmp_path / "holiday.png"
    fake.write_bytes(b"\x00\x01 this is not a picture at all" * 10)
    good = [make_text(tmp_path / "summary.txt"), make_png(tmp_path / "chart.png")]

    async def body() -> None:
        parley.chat_vm.tray.add_paths([good[0], fake, good[1]])
        await driver.until(lambda: settled(parley) and len(parley.chat_vm.tray.entries()) == 2)
        assert tray_names(parley) == ["summary.txt", "chart.png"]
        assert "holiday.png" in composer.notice.text and composer.notice.isVisible()

    driver.run(body())


def test_a_damaged_document_is_named_as_damaged_not_with_the_parsers_words(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    composer = parley.window.chat_view.composer
    report = tmp_path / "report.docx"
    report.write_bytes(with_bad_crc(make_docx(), "word/document.xml"))

    async def body() -> None:
        parley.chat_vm.tray.add_paths([report])
        await driver.until(lambda: composer.notice.isVisible())
        assert composer.notice.text == (
            "report.docx: the file is damaged and cannot be read as a Word document"
        )
        assert tray_names(parley) == []

    driver.run(body())


def test_sending_carries_the_files_clears_the_tray_and_the_bubble_shows_them(
    driver, sse_server, tmp_path
):
    sse_server.enqueue(
        sse_response(chat_chunk(content="Got them."), chat_chunk(finish_reason="stop"), DONE)
    )
    parley = start(driver, tmp_path / "data", sse_server.base_url)
    composer = parley.window.chat_view.composer
    transcript = parley.window.chat_view.transcript
    files = [make_text(tmp_path / "brief.txt"), make_png(tmp_path / "sketch.png")]
    brief_bytes = files[0].read_bytes()

    async def body() -> None:
        parley.chat_vm.tray.add_paths(files)
        await driver.until(lambda: len(parley.chat_vm.tray.ids()) == 2)
        ids = parley.chat_vm.tray.ids()
        composer.edit.setFocus()
        QTest.keyClicks(composer.edit, "What do these say?")
        QTest.keyClick(composer.edit, Qt.Key.Key_Return)
        await driver.until(lambda: parley.chat_vm.tray.entries() == [])
        assert chip_names(parley) == []

        conversation_id = parley.chat_vm.conversationId
        stored = driver.reader(tmp_path / "data").active_path(conversation_id)
        assert stored[0].text == "What do these say?"
        assert list(stored[0].context.attachment_ids) == ids

        await driver.until(lambda: len(transcript.message_ids()) == 2)
        bubble = transcript.message_widget(stored[0].id)
        assert bubble.chips is not None
        chips = list(bubble.chips.chips.values())
        assert [c.name for c in chips] == ["brief.txt", "sketch.png"]
        assert all(c.remove_button is None for c in chips)  # sent files stay
        assert [c.attachment.id for c in chips] == ids  # the stored files, not "Adding…"
        assert chips[0].detail.text() != "Adding…"
        assert chips[0].focusPolicy() & Qt.FocusPolicy.TabFocus  # opened from the keyboard
        assert "brief.txt" in chips[0].toolTip()

        # A click opens the stored copy, under its own name, with the system's viewer.
        opened = UrlCatcher()
        QDesktopServices.setUrlHandler("file", opened, "catch")
        try:
            QTest.mouseClick(chips[0], Qt.MouseButton.LeftButton)
            await driver.until(lambda: bool(opened.urls))
        finally:
            QDesktopServices.unsetUrlHandler("file")
        copy = Path(opened.urls[0].toLocalFile())
        assert copy.name == "brief.txt"
        assert await asyncio.to_thread(copy.read_bytes) == brief_bytes
        assert copy.parent != tmp_path  # the stored copy, not the original
        await driver.until(lambda: not parley.chat_vm.busy)

    driver.run(body())


def test_files_alone_can_be_sent_and_wait_for_loading(driver, sse_server, tmp_path):
    sse_server.enqueue(
        sse_response(chat_chunk(content="A chart."), chat_chunk(finish_reason="stop"), DONE)
    )
    parley = start(driver, tmp_path / "data", sse_server.base_url)
    composer = parley.window.chat_view.composer
    picture = make_png(tmp_path / "graph.png", 300, 200)

    async def body() -> None:
        parley.chat_vm.tray.add_paths([picture])
        assert composer.send_button.isEnabled()  # still loading, yet it can be sent
        QTest.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
        await driver.until(lambda: parley.chat_vm.tray.entries() == [])
        conversation_id = parley.chat_vm.conversationId
        stored = driver.reader(tmp_path / "data").active_path(conversation_id)
        assert stored[0].text == "" and len(stored[0].context.attachment_ids) == 1
        assert parley.chat_vm.title == "graph.png"
        await driver.until(lambda: not parley.chat_vm.busy)

    driver.run(body())


def test_each_conversation_keeps_its_own_unsent_files(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    chat = parley.chat_vm
    first = parley.chat.create_conversation("First").id
    second = parley.chat.create_conversation("Second").id
    draft = make_text(tmp_path / "draft.txt")

    async def body() -> None:
        chat.open_conversation(first)
        chat.tray.add_paths([draft])
        await driver.until(lambda: len(chat.tray.ids()) == 1)
        chat.open_conversation(second)
        assert chat.tray.entries() == [] and chip_names(parley) == []
        chat.open_conversation(first)
        assert tray_names(parley) == ["draft.txt"] and chip_names(parley) == ["draft.txt"]

    driver.run(body())


def test_files_named_on_the_command_line_are_attached_to_a_new_chat(driver, tmp_path):
    paper = make_text(tmp_path / "paper.txt")
    scan = make_png(tmp_path / "scan.png")
    args = parse_args(["--data-dir", str(tmp_path / "data"), str(paper), str(scan)])
    parley = start(driver, tmp_path / "data")

    async def body() -> None:
        parley.attach(args.files)
        assert parley.chat_vm.conversationId == ""
        await driver.until(lambda: len(parley.chat_vm.tray.ids()) == 2)
        assert chip_names(parley) == ["paper.txt", "scan.png"]

    driver.run(body())


def test_the_paperclip_opens_a_file_picker_that_does_not_block(driver, tmp_path):
    parley = start(driver, tmp_path / "data")
    composer = parley.window.chat_view.composer
    picked = make_text(tmp_path / "picked.txt")

    async def body() -> None:
        QTest.mouseClick(composer.attach_button, Qt.MouseButton.LeftButton)
        picker = composer._picker
        assert picker is not None and picker.isVisible()
        assert picker.fileMode() is QFileDialog.FileMode.ExistingFiles  # several at once
        assert any("All files" in f for f in picker.nameFilters())
        await asyncio.sleep(0.05)  # the loop keeps running while it is open
        picker.setDirectory(str(tmp_path))
        name_box = picker.findChild(QLineEdit, "fileNameEdit")  # where a person types it
        name_box.setText(picked.name)
        await driver.until(lambda: picker.selectedFiles() == [str(picked)])
        picker.accept()
        await driver.until(lambda: len(parley.chat_vm.tray.ids()) == 1)
        assert tray_names(parley) == ["picked.txt"]

    driver.run(body())
