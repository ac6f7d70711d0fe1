"""An answer that cites the person's files: its cards, and the source panel a click on a
card or on a ``[n]`` in the text opens (the passage highlighted in the file's text, the
file opened by the system, a changed or missing file said so); the same cards after a
restart."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QTextCursor
from PySide6.QtTest import QTest

from desktop.core.models import Role, TextPart
from desktop.engine.knowledge.documents import read_document
from desktop.ui.views.source_dialog import SourceDialog
from tests.support.citations import cite, write_document
from tests.support.settings_files import write_settings
from tests.support.stored_chats import chat_with
from tests.support.url_catcher import UrlCatcher

NO_SERVER = "http://127.0.0.1:9/v1"
FILLER = "Walking is pleasant in the morning, before the heat. " * 60
GUIDE = (
    f"# Lisbon\n\n## Getting around\n\n{FILLER}\n\nTram 28 runs from Martim Moniz.\n\n{FILLER}\n"
)
FOOD = "# Food\n\nPastéis de nata are best warm, with cinnamon.\n\nBuses are slow.\n"
ANSWER = "Eat pastéis warm [2]. Take tram 28 [1][2]; not `[1]`; unknown [7]."


def start_with_answer(driver, tmp_path):
    """A Parley with a chat whose answer cites two files written here."""
    write_settings(tmp_path / "data", NO_SERVER)
    guide = write_document(tmp_path / "library" / "guide.md", GUIDE)
    food = write_document(tmp_path / "library" / "food.md", FOOD)
    parts = [
        TextPart(ANSWER),
        cite(1, guide, "Tram 28 runs from Martim Moniz.", heading_path="Lisbon › Getting around"),
        cite(2, food, "Pastéis de nata are best warm, with cinnamon.", heading_path="Food"),
    ]
    parley = driver.start(tmp_path / "data")
    chat, (_question, answer) = chat_with(
        parley.repository, (Role.USER, [TextPart("Plan my morning")]), (Role.ASSISTANT, parts)
    )
    return parley, chat, answer, guide, food


def answer_widget(parley, message_id):
    return parley.window.chat_view.transcript.message_widget(message_id)


def card_numbers(widget) -> list[int]:
    return [card.card.number for card in widget.citation_cards.cards]


def link_point(body, href: str) -> QPoint:
    """Where the link to `href` is drawn in a message's text."""
    document = body.document()
    cursor = QTextCursor(document)
    for position in range(1, document.characterCount()):
        cursor.setPosition(position)
        if cursor.charFormat().anchorHref() == href:
            return body.cursorRect(cursor).center() - QPoint(2, 0)
    raise AssertionError(f"no link to {href}")


def source_dialog(parley) -> SourceDialog | None:
    return parley.window.chat_view.source_dialogs.dialog


def passage_in_view(dialog: SourceDialog) -> bool:
    view = dialog.text
    cursor = QTextCursor(view.document())
    cursor.setPosition(dialog._range[0])
    return view.viewport().rect().intersects(view.cursorRect(cursor))


def test_the_cards_list_the_cited_sources_in_first_citation_order(driver, tmp_path):
    parley, chat, answer, _guide, _food = start_with_answer(driver, tmp_path)

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        widget = answer_widget(parley, answer.id)
        assert card_numbers(widget) == [2, 1]
        food, guide = widget.citation_cards.cards
        assert (food.file_name.text(), food.location.text()) == ("food.md", "Food")
        assert guide.location.text() == "Lisbon › Getting around"
        assert food.excerpt.text().replace("\n", " ") == (
            "Pastéis de nata are best warm, with cinnamon."
        )
        assert all(
            c.textFormat() == Qt.TextFormat.PlainText for c in (food.file_name, food.excerpt)
        )
        assert widget.citation_cards.isVisible()

    driver.run(body())


def test_clicking_a_number_opens_the_passage_highlighted_in_its_file(driver, tmp_path):
    parley, chat, answer, guide, _food = start_with_answer(driver, tmp_path)
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("file", catcher, "catch")

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        widget = answer_widget(parley, answer.id)
        QTest.mouseClick(
            widget.body.viewport(),
            Qt.MouseButton.LeftButton,
            pos=link_point(widget.body, "parley-cite:1"),
        )
        await driver.until(lambda: (d := source_dialog(parley)) is not None and d.isVisible())
        dialog = source_dialog(parley)
        assert dialog is not None
        await driver.until(lambda: not parley.chat_vm.sources.current.loading)
        assert dialog.title.text() == "[1] guide.md"
        assert dialog.highlighted_text() == "Tram 28 runs from Martim Moniz."
        [highlight] = dialog.text.extraSelections()
        assert highlight.cursor.selectedText() == "Tram 28 runs from Martim Moniz."
        assert dialog.text.toPlainText() == read_document(guide).text  # short: all of it
        await driver.until(lambda: passage_in_view(dialog))
        assert not dialog.note.isVisible()
        assert dialog.open_button.isEnabled()
        dialog.open_button.click()
        assert [url.toLocalFile() for url in catcher.urls] == [str(guide)]

    try:
        driver.run(body())
    finally:
        QDesktopServices.unsetUrlHandler("file")


def test_clicking_a_card_opens_its_source(driver, tmp_path):
    parley, chat, answer, _guide, food = start_with_answer(driver, tmp_path)

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        widget = answer_widget(parley, answer.id)
        QTest.mouseClick(widget.citation_cards.cards[0], Qt.MouseButton.LeftButton)
        await driver.until(lambda: (d := source_dialog(parley)) is not None and d.isVisible())
        await driver.until(lambda: not parley.chat_vm.sources.current.loading)
        dialog = source_dialog(parley)
        assert dialog.title.text() == "[2] food.md"
        assert dialog.highlighted_text() == "Pastéis de nata are best warm, with cinnamon."
        assert dialog.text.toPlainText() == read_document(food).text

    driver.run(body())


def test_a_changed_file_shows_the_passage_as_it_was_quoted(driver, tmp_path):
    parley, chat, answer, _guide, food = start_with_answer(driver, tmp_path)
    food.write_text("# Food\n\nNothing about pastries any more.\n", encoding="utf-8")

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        widget = answer_widget(parley, answer.id)
        widget.body.linkActivated.emit(QUrl("parley-cite:2"))
        await driver.until(lambda: (d := source_dialog(parley)) is not None and d.isVisible())
        await driver.until(lambda: not parley.chat_vm.sources.current.loading)
        dialog = source_dialog(parley)
        assert dialog.note.isVisible()
        assert "This file has changed since this answer" in dialog.note.text()
        assert dialog.text.toPlainText() == "Pastéis de nata are best warm, with cinnamon."
        assert dialog.highlighted_text() == dialog.text.toPlainText()
        assert dialog.open_button.isEnabled()  # still a document: the person may look

    driver.run(body())


def test_a_missing_file_says_so_and_cannot_be_opened(driver, tmp_path):
    parley, chat, answer, guide, _food = start_with_answer(driver, tmp_path)
    guide.unlink()

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        widget = answer_widget(parley, answer.id)
        widget.body.linkActivated.emit(QUrl("parley-cite:1"))
        await driver.until(lambda: (d := source_dialog(parley)) is not None and d.isVisible())
        await driver.until(lambda: not parley.chat_vm.sources.current.loading)
        dialog = source_dialog(parley)
        assert dialog.note.text() == "The file is no longer there."
        assert dialog.text.toPlainText() == "Tram 28 runs from Martim Moniz."
        assert not dialog.open_button.isEnabled()

    driver.run(body())


def test_an_unknown_number_opens_nothing(driver, tmp_path):
    parley, chat, answer, _guide, _food = start_with_answer(driver, tmp_path)
    errors: list[str] = []
    parley.chat_vm.errorOccurred.connect(errors.append)

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        widget = answer_widget(parley, answer.id)
        assert "parley-cite:7" not in widget.item.html  # [7] was never given: plain text
        widget.body.linkActivated.emit(QUrl("parley-cite:7"))
        assert source_dialog(parley) is None and errors == []

    driver.run(body())


def test_reopening_the_chat_after_a_restart_shows_the_same_cards(driver, tmp_path):
    parley, chat, answer, _guide, _food = start_with_answer(driver, tmp_path)
    parley.chat_vm.open_conversation(chat)
    before = [c.card for c in answer_widget(parley, answer.id).citation_cards.cards]
    assert [c.number for c in before] == [2, 1]
    driver.close(parley)

    again = driver.start(tmp_path / "data")
    again.chat_vm.open_conversation(chat)
    after = [c.card for c in answer_widget(again, answer.id).citation_cards.cards]
    assert after == before
