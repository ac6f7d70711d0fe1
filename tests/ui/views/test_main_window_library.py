"""Finding, pinning, exporting and importing conversations from the main window."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from desktop.core.models import Role
from desktop.ui.views.shortcuts_dialog import ShortcutsDialog
from tests.support.settings_files import write_settings


async def chat(driver, parley, text: str) -> str:
    """Send `text` in a new chat and wait for the answer; returns the conversation id."""
    parley.window.new_chat()
    assert parley.chat_vm.submit(text)
    await driver.until(lambda: bool(parley.chat_vm.conversationId))  # saved with the message
    conversation_id = parley.chat_vm.conversationId

    def answered() -> bool:
        path = parley.chat.active_path(conversation_id)
        return len(path) == 2 and path[-1].status.is_final

    await driver.until(answered)
    return conversation_id


def test_search_finds_message_text_and_opens_the_chat_at_it(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    sidebar = parley.window.sidebar
    focused: list[str] = []
    parley.chat_vm.transcript.focusMessage.connect(focused.append)

    async def body() -> None:
        first = await chat(driver, parley, "Where do penguins live?")
        await chat(driver, parley, "Recipe for bread")
        QTest.keyClick(parley.window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(sidebar.search_field, "penguins")
        await driver.until(lambda: parley.search_vm.rowCount() > 0)
        assert sidebar.results.isVisible() and not sidebar.list.isVisible()
        hit = parley.search_vm.hit(0)
        assert hit.conversation_id == first
        start, end = hit.highlights[0]
        assert hit.snippet[start:end].lower() == "penguins"
        sidebar.results.clicked.emit(parley.search_vm.index(0))
        assert parley.chat_vm.conversationId == first
        if hit.message_id:
            assert focused == [hit.message_id]
        QTest.keyClick(sidebar.search_field, Qt.Key.Key_Escape)
        assert sidebar.search_field.text() == "" and sidebar.list.isVisible()

    driver.run(body())


def test_nothing_found_is_said_plainly(driver, tmp_path):
    parley = driver.start(tmp_path)
    sidebar = parley.window.sidebar

    async def body() -> None:
        QTest.keyClicks(sidebar.search_field, 'zebra" OR NEAR(')  # FTS syntax is just text
        await driver.until(lambda: sidebar.no_results.isVisible())

    driver.run(body())


def test_pinned_chats_come_first_in_their_own_section(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    model = parley.conversations_vm

    async def body() -> None:
        older = await chat(driver, parley, "Older chat")
        await chat(driver, parley, "Newer chat")
        model.set_pinned(older, True)
        assert [model.data(model.index(r)) for r in range(model.rowCount())] == [
            "Pinned",
            "Older chat",
            "Today",
            "Newer chat",
        ]
        assert parley.chat.conversation(older).pinned  # saved

    driver.run(body())


def test_export_and_import_round_trip_without_duplicates(driver, sse_server, tmp_path):
    write_settings(tmp_path / "a", sse_server.base_url)
    source = driver.start(tmp_path / "a")
    exported: list[str] = []
    source.transfer_vm.exported.connect(exported.append)

    async def export() -> str:
        conversation_id = await chat(driver, source, "Keep this *safe*")
        source.transfer_vm.export_conversation(conversation_id, str(tmp_path / "c.md"), True, True)
        source.transfer_vm.export_conversation(
            conversation_id, str(tmp_path / "c.json"), False, False
        )
        await driver.until(lambda: len(exported) == 2)
        return conversation_id

    conversation_id = driver.run(export())
    markdown = (tmp_path / "c.md").read_text(encoding="utf-8")
    assert "Keep this *safe*" in markdown and "Hello from the test server." in markdown
    data = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert data["conversation"]["id"] == conversation_id

    target = driver.start(tmp_path / "b")
    imported: list[tuple[str, int, int]] = []
    target.transfer_vm.imported.connect(lambda *args: imported.append(args))

    async def import_twice() -> None:
        target.transfer_vm.import_file(str(tmp_path / "c.json"))
        await driver.until(lambda: len(imported) == 1)
        target.transfer_vm.import_file(str(tmp_path / "c.json"))
        await driver.until(lambda: len(imported) == 2)

    driver.run(import_twice())
    assert imported[0] == (conversation_id, 2, 0)
    assert imported[1] == (conversation_id, 0, 2)
    assert target.conversations_vm.conversation_count() == 1
    texts = [m.text for m in target.chat.active_path(conversation_id)]
    assert texts == ["Keep this *safe*", "Hello from the test server."]
    assert target.chat_vm.conversationId == conversation_id  # opened after import


def test_a_broken_import_file_is_explained(driver, tmp_path):
    parley = driver.start(tmp_path)
    failures: list[str] = []
    parley.transfer_vm.failed.connect(failures.append)
    (tmp_path / "broken.json").write_text('{"format": "parley.conversation", ', encoding="utf-8")

    async def body() -> None:
        parley.transfer_vm.import_file(str(tmp_path / "broken.json"))
        await driver.until(lambda: bool(failures))

    driver.run(body())
    assert "broken.json" in failures[0] and "line 1" in failures[0]
    assert parley.conversations_vm.conversation_count() == 0


def test_copy_last_answer_and_the_shortcuts_list(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)

    async def body() -> None:
        await chat(driver, parley, "Say hello")
        QTest.keyClick(
            parley.window,
            Qt.Key.Key_C,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )
        assert QGuiApplication.clipboard().text() == "Hello from the test server."

    driver.run(body())
    dialog = parley.window.show_shortcuts()
    assert parley.window.findChild(ShortcutsDialog) is dialog
    assert dialog.keys_of("Search Chats") == [["Ctrl", "K"]]
    assert dialog.keys_of("Edit Last Message") == [["Ctrl", "Shift", "E"]]


def test_a_search_hit_deep_in_a_long_chat_is_scrolled_into_view(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    transcript = parley.window.chat_view.transcript

    async def body() -> None:
        first = await chat(driver, parley, "The needle is here")
        for i in range(12):  # push the first message far above the bottom
            assert parley.chat_vm.submit(f"Filler message number {i} " + "words " * 40)
            await driver.until(lambda n=i: len(parley.chat.active_path(first)) == 4 + 2 * n)
            await driver.until(lambda: parley.chat.active_path(first)[-1].status.is_final)
        parley.window.new_chat()
        hits = parley.library.search("needle")
        hit = next(h for h in hits if h.message_id)
        parley.window.open_conversation_at(first, hit.message_id)
        await driver.until(lambda: transcript.message_widget(hit.message_id) is not None)
        widget = transcript.message_widget(hit.message_id)
        assert widget.isVisible()
        top = widget.mapTo(transcript.viewport(), widget.rect().topLeft()).y()
        assert 0 <= top < transcript.viewport().height()
        assert not transcript.at_bottom

    driver.run(body())


def test_ctrl_shift_e_opens_the_last_message_for_editing(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    transcript = parley.window.chat_view.transcript

    async def body() -> None:
        await chat(driver, parley, "Fix my typo plz")
        user_id = parley.chat_vm.last_message_id(Role.USER)
        QTest.keyClick(
            parley.window,
            Qt.Key.Key_E,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )
        assert transcript.message_widget(user_id).is_editing

    driver.run(body())


def test_a_two_character_cjk_search_opens_the_chat_at_the_message(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    sidebar = parley.window.sidebar
    focused: list[str] = []
    parley.chat_vm.transcript.focusMessage.connect(focused.append)

    async def body() -> None:
        school = await chat(driver, parley, "我们的学校很大")
        await chat(driver, parley, "Recipe for bread")
        sidebar.search_field.setText("学校")  # as an input method commits it
        await driver.until(lambda: parley.search_vm.rowCount() > 0)
        rows = [parley.search_vm.hit(r) for r in range(parley.search_vm.rowCount())]
        assert {hit.conversation_id for hit in rows} == {school}
        row, hit = next((r, h) for r, h in enumerate(rows) if h.message_id)
        assert [hit.snippet[a:b] for a, b in hit.highlights] == ["学校"]
        sidebar.results.clicked.emit(parley.search_vm.index(row))
        assert parley.chat_vm.conversationId == school
        assert focused == [hit.message_id]

    driver.run(body())
