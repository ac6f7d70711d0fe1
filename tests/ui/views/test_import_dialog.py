"""File → Import from Another App…: the export is read into a preview (with how many of
its images and files come along), imported with progress, summarised (with the files
that could not be attached, and why), and the chats appear in the sidebar. Run on the
toy importer (tests/support/import_toy.py) through a real Parley."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from desktop.engine.importers.model import derived_id
from desktop.ui.viewmodels.import_export import ImportStage
from tests.support import import_toy
from tests.support.import_toy import chat, write_export
from tests.support.qt_images import png


def _titles(parley) -> list[str]:
    model = parley.conversations_vm
    return [model.data(model.index(row)) for row in range(model.rowCount())]


def test_preview_then_import_then_open(driver, tmp_path):
    export = write_export(
        tmp_path / "export",
        [
            chat("a", "Trip to 京都", 2, images=2, notes=["2 images were not carried over."]),
            chat("b", "<b>Bold</b> & plain", 1),
            chat("c", "Recipes", 3),
            42,
        ],
    )
    parley = driver.start(tmp_path / "data")
    parley.import_vm.readers = [import_toy]
    window = parley.window

    picker = window.import_from_app()
    assert isinstance(picker, QFileDialog)
    assert any("*.zip" in f and "*.json" in f for f in picker.nameFilters())
    picker.fileSelected.emit(str(export))  # as when the person picks the file
    picker.close()
    dialog = window.import_dialog
    assert dialog is not None and dialog.isVisible() and not dialog.isModal()

    async def body() -> None:
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.preview_page)
        assert dialog.headline.text().startswith("Toy Chat export: 3 conversation")
        assert "12 message" in dialog.headline.text() and "2 image" in dialog.headline.text()
        table = parley.import_vm.conversations
        assert [table.index(r, 0).data() for r in range(3)] == [
            "Trip to 京都",
            "<b>Bold</b> & plain",
            "Recipes",
        ]
        assert table.index(0, 1).data() == "4"
        assert dialog.left_out_list.isVisibleTo(dialog)
        left_out = parley.import_vm.left_out
        rows = [(left_out.index(r, 0).data(), left_out.index(r, 1).data()) for r in range(2)]
        assert rows == [
            ("chat 4", "not a chat"),
            ("Trip to 京都", "2 images were not carried over."),
        ]
        assert parley.conversations_vm.conversation_count() == 0  # nothing yet

        dialog.import_button.click()
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.summary_page)
        summary = dialog.summary_label.text()
        assert summary.startswith("Imported 3 conversation") and "12 message" in summary
        assert dialog.progress_bar.value() == 3
        await driver.until(lambda: parley.conversations_vm.conversation_count() == 3)
        assert {"Trip to 京都", "<b>Bold</b> & plain", "Recipes"} <= set(_titles(parley))

        assert dialog.open_button.isVisible()
        dialog.open_button.click()
        first = derived_id("toy", "conversation", "a")
        assert parley.chat_vm.conversationId == first
        assert not dialog.isVisible()
        texts = [m.text for m in parley.chat.active_path(first)]
        assert texts[0] == "Trip to 京都: user 0" and len(texts) == 4

        # the same export again: nothing new, said so
        window.import_export_at(str(export))
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.preview_page)
        dialog.import_button.click()
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.summary_page)
        assert "Imported" not in dialog.summary_label.text()
        assert "3 were already here" in dialog.summary_label.text()
        assert parley.conversations_vm.conversation_count() == 3

    driver.run(body())


def test_cancel_while_reading_closes_the_window_and_imports_nothing(driver, tmp_path):
    export = write_export(tmp_path / "export", [chat(str(n), f"Chat {n}", 2) for n in range(50)])
    parley = driver.start(tmp_path / "data")
    parley.import_vm.readers = [import_toy]
    dialog = parley.window.import_export_at(str(export))
    assert dialog is not None
    assert dialog.pages.currentWidget() is dialog.reading_page
    assert dialog.reading_label.text() == "Reading toy.json…"

    dialog.reading_cancel.click()
    assert not dialog.isVisible()

    async def body() -> None:
        await parley.tasks.drain()  # the read in its thread has ended

    driver.run(body())
    assert parley.import_vm.stage is ImportStage.IDLE and parley.import_vm.preview is None
    assert dialog.pages.currentWidget() is dialog.reading_page  # no preview popped up
    assert parley.conversations_vm.conversation_count() == 0


def test_an_export_no_importer_reads_is_explained(driver, tmp_path):
    other = tmp_path / "other.json"
    other.write_text('{"not": "an export"}', encoding="utf-8")
    parley = driver.start(tmp_path / "data")
    parley.import_vm.readers = [import_toy]
    dialog = parley.window.import_export_at(str(other))
    assert dialog is not None

    async def body() -> None:
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.summary_page)

    driver.run(body())
    text = dialog.summary_label.text()
    assert "other.json" in text and "Toy Chat" in text
    assert not dialog.open_button.isVisible() and dialog.close_button.isVisible()


def test_the_window_counts_the_files_and_lists_those_that_could_not_be_attached(driver, tmp_path):
    folder = tmp_path / "export"
    pictured = chat("p", "Photos <i>of</i> Kyoto", 1, images=4, left_out=1)
    pictured["messages"][0]["files"] = [
        {"member": "torii.png"},
        {"member": "gone.png"},  # listed, but not in the folder by the time it is imported
        {"member": "notes.txt", "name": "<b>notes</b>.png"},  # text, named as a picture
    ]
    write_export(folder, [pictured, chat("q", "Plain", 1)])
    (folder / "torii.png").write_bytes(png(8, 6))
    (folder / "gone.png").write_bytes(png(2, 2))
    (folder / "notes.txt").write_text("not a picture", encoding="utf-8")
    parley = driver.start(tmp_path / "data")
    parley.import_vm.readers = [import_toy]
    dialog = parley.window.import_export_at(str(folder))
    assert dialog is not None

    async def body() -> None:
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.preview_page)
        files = dialog.files_label.text()
        assert dialog.files_label.isVisibleTo(dialog)
        assert re.match(r"3 images or files will be attached to their messages\.", files)
        assert re.search(r"\b1 image or file will be left out", files)
        assert dialog.files_label.textFormat() is Qt.TextFormat.PlainText

        (folder / "gone.png").unlink()
        dialog.import_button.click()
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.summary_page)
        summary = dialog.summary_label.text()
        assert re.search(r"\b1 image or file attached", summary)
        assert re.search(r"\b2 images or files could not be attached", summary)
        assert dialog.skipped_files_list.isVisibleTo(dialog)
        table = parley.import_vm.skipped_files
        rows = [(table.index(r, 0).data(), table.index(r, 1).data()) for r in range(2)]
        assert rows == [
            ("gone.png in “Photos <i>of</i> Kyoto”", "The export has no file gone.png."),
            ("<b>notes</b>.png in “Photos <i>of</i> Kyoto”", "not a valid PNG image"),
        ]
        assert table.rowCount() == 2

        dialog.open_button.click()
        first = derived_id("toy", "conversation", "p")
        (question, _answer) = parley.chat.active_path(first)
        (attached,) = question.context.attachment_ids
        assert parley.store.get(attached) is not None

        # Again: nothing new is stored, and the list of left-out files is gone.
        parley.window.import_export_at(str(folder))
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.preview_page)
        dialog.import_button.click()
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.summary_page)
        assert "attached" not in dialog.summary_label.text()
        assert not dialog.skipped_files_list.isVisibleTo(dialog)

    driver.run(body())


def test_an_export_with_no_images_says_nothing_about_files(driver, tmp_path):
    export = write_export(tmp_path / "export", [chat("a", "Words only", 1)])
    parley = driver.start(tmp_path / "data")
    parley.import_vm.readers = [import_toy]
    dialog = parley.window.import_export_at(str(export))
    assert dialog is not None

    async def body() -> None:
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.preview_page)
        assert dialog.files_label.text() == ""
        assert not dialog.files_label.isVisibleTo(dialog)
        dialog.import_button.click()
        await driver.until(lambda: dialog.pages.currentWidget() is dialog.summary_page)
        assert not dialog.skipped_files_list.isVisibleTo(dialog)

    driver.run(body())
