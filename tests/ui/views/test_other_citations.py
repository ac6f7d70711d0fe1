"""Citations of an earlier chat and of a web page: their cards say what they are, a
click opens the chat at the cited message or the page in the browser (web addresses
only), and the cards are the same after the chat is opened again."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QDesktopServices
from PySide6.QtTest import QTest

from desktop.core.models import CitationPart, Role, SourceKind, TextPart
from tests.support.settings_files import write_settings
from tests.support.stored_chats import chat_with
from tests.support.url_catcher import UrlCatcher

NO_SERVER = "http://127.0.0.1:9/v1"


def _chat_source(number: int, conversation_id: str, message_id: str) -> CitationPart:
    return CitationPart(
        number,
        "",
        "",
        "",
        "A walk to the lighthouse on Saturday",
        kind=SourceKind.CHAT,
        title="Weekend plans",
        conversation_id=conversation_id,
        message_id=message_id,
        date="2026-03-14T10:00:00+00:00",
    )


def _web_source(number: int, url: str) -> CitationPart:
    return CitationPart(
        number,
        "",
        "",
        "",
        "Opening hours of the lighthouse museum",
        kind=SourceKind.WEB,
        title="<b>Museum</b>",
        url=url,
    )


def _start(driver, tmp_path, *sources):
    write_settings(tmp_path, NO_SERVER)
    parley = driver.start(tmp_path)
    earlier, (said, _reply) = chat_with(
        parley.repository,
        (Role.USER, [TextPart("A walk to the lighthouse on Saturday")]),
        (Role.ASSISTANT, [TextPart("Sounds good.")]),
    )
    made = [make(earlier, said.id) for make in sources]
    text = " ".join(f"Claim [{n}]." for n in range(1, len(made) + 1))
    chat, (_question, answer) = chat_with(
        parley.repository,
        (Role.USER, [TextPart("When is the walk?")]),
        (Role.ASSISTANT, [TextPart(text), *made]),
    )
    return parley, chat, answer, earlier, said


def _cards(parley, message_id):
    return parley.window.chat_view.transcript.message_widget(message_id).citation_cards.cards


def test_a_chat_citation_opens_that_chat_at_the_cited_message(driver, tmp_path):
    parley, chat, answer, earlier, said = _start(
        driver, tmp_path, lambda c, m: _chat_source(1, c, m)
    )

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        (card,) = _cards(parley, answer.id)
        assert card.file_name.text() == "Weekend plans"
        assert card.location.text()  # the day, as the locale writes it
        QTest.mouseClick(card, Qt.MouseButton.LeftButton)
        await driver.until(lambda: parley.chat_vm.conversationId == earlier)
        transcript = parley.window.chat_view.transcript
        await driver.until(lambda: transcript.message_widget(said.id) is not None)

    driver.run(body())


def test_a_web_citation_opens_the_page_and_refuses_other_addresses(driver, tmp_path):
    parley, chat, answer, _earlier, _said = _start(
        driver,
        tmp_path,
        lambda _c, _m: _web_source(1, "https://museum.example/hours"),
        lambda _c, _m: _web_source(2, "javascript:alert(1)"),
    )
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("https", catcher, "catch")
    QDesktopServices.setUrlHandler("javascript", catcher, "catch")
    errors: list[str] = []
    parley.chat_vm.errorOccurred.connect(errors.append)

    async def body() -> None:
        parley.chat_vm.open_conversation(chat)
        good, bad = _cards(parley, answer.id)
        assert good.file_name.text() == "<b>Museum</b>"  # shown as written, never as markup
        assert good.file_name.textFormat() == Qt.TextFormat.PlainText
        assert good.location.text() == "museum.example"
        QTest.mouseClick(good, Qt.MouseButton.LeftButton)
        assert [u.toString() for u in catcher.urls] == ["https://museum.example/hours"]
        QTest.mouseClick(bad, Qt.MouseButton.LeftButton)
        assert len(catcher.urls) == 1
        assert errors and "javascript:alert(1)" in errors[-1]

    try:
        driver.run(body())
    finally:
        QDesktopServices.unsetUrlHandler("https")
        QDesktopServices.unsetUrlHandler("javascript")


def test_a_citation_of_a_deleted_chat_says_so_and_stays_put(driver, tmp_path):
    parley, chat, answer, earlier, _said = _start(
        driver, tmp_path, lambda c, m: _chat_source(1, c, m)
    )
    errors: list[str] = []
    parley.chat_vm.errorOccurred.connect(errors.append)

    async def body() -> None:
        parley.repository.delete_conversation(earlier)
        parley.chat_vm.open_conversation(chat)
        (card,) = _cards(parley, answer.id)
        QTest.mouseClick(card, Qt.MouseButton.LeftButton)
        assert errors == ["That chat has been deleted."]
        assert parley.chat_vm.conversationId == chat

    driver.run(body())
