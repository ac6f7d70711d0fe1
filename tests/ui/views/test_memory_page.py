"""Settings → Memory through the real window: memories added, edited, deleted with
Undo (and still deleted after a restart when not undone), filtered by scope and words,
exported as Markdown, shown as plain text; and the embedding model chosen for them."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from desktop.core.memory import GLOBAL_SCOPE, scope_for
from tests.support.settings_files import saved_settings, write_settings
from tests.support.ui_actions import click

DOWN = "http://127.0.0.1:9/v1"  # nothing answers there: an embedder that fails
WRITER = [{"id": "writer", "name": "Writer"}]


def start(driver, tmp_path, **sections):
    write_settings(tmp_path, DOWN, ("test-model", "text-embedding-3-small"), **sections)
    return driver.start(tmp_path)


def open_page(parley):
    """The Memory tab, shown (showing it reads the list)."""
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    dialog.show_page(dialog.memory)
    return dialog.memory


def texts(page) -> list[str]:
    """Each row's first line: the memory's text."""
    return [page.list.item(i).text().split("\n")[0] for i in range(page.list.count())]


def details(page, row: int) -> str:
    return page.list.item(row).text().split("\n")[-1]


def select(page, text: str) -> None:
    page.list.setCurrentRow(texts(page).index(text))


def remember(driver, parley, *memories: tuple[str, str]) -> None:
    """Memories saved by the engine, as the memory tools save them."""
    for scope, text in memories:
        driver.run(parley.memory.save(scope, text))


def live_texts(driver, parley) -> list[str]:
    return [m.text for m in driver.run(parley.memory.list())]


def test_the_memory_tab_follows_knowledge_and_says_when_it_is_empty(driver, tmp_path):
    parley = start(driver, tmp_path)
    page = open_page(parley)
    titles = parley.window._settings_dialog.titles()
    assert parley.window._settings_dialog.title_of(page) == "Memory"
    assert titles[titles.index("Memory") - 1] == "Knowledge"
    assert parley.settings_vm.memory is not None

    async def body() -> None:
        await driver.until(lambda: page.list.placeholder() != "")

    driver.run(body())
    assert page.list.placeholder().startswith("No memories yet.")  # drawn inside the list
    assert not page.edit_button.isEnabled() and not page.delete_button.isEnabled()
    assert not page.undo_bar.isVisible() and not page.editor.isVisible()


def test_a_memory_is_added_for_an_assistant_and_edited(driver, tmp_path):
    parley = start(driver, tmp_path, assistants=WRITER)
    page = open_page(parley)
    click(page.add_button)
    assert page.editor.isVisible() and page.editor_scope.isVisible()
    assert page.editor_scope.currentText() == "Global"
    assert not page.save_button.isEnabled()  # no text yet
    page.editor_scope.setCurrentIndex(page.editor_scope.findData(scope_for("writer")))
    QTest.keyClicks(page.text, "Writes in British English")
    click(page.save_button)

    async def added() -> None:
        await driver.until(lambda: texts(page) == ["Writes in British English"])

    driver.run(added())
    assert not page.editor.isVisible()
    assert details(page, 0).startswith("Writer · ")
    assert page.list.currentRow() == 0  # the saved one is selected
    assert page.status.text() == "Saved."
    (stored,) = driver.run(parley.memory.list())
    assert stored.scope == "assistant:writer"

    click(page.edit_button)
    assert page.editor_title.text() == "Edit memory"
    assert not page.editor_scope.isVisible()  # an edit keeps the scope
    assert page.text.toPlainText() == "Writes in British English"
    page.text.setPlainText("Writes in Australian English")
    click(page.save_button)

    async def edited() -> None:
        await driver.until(lambda: texts(page) == ["Writes in Australian English"])

    driver.run(edited())
    assert live_texts(driver, parley) == ["Writes in Australian English"]
    assert driver.run(parley.memory.get(stored.id)).scope == "assistant:writer"


def test_the_same_memory_twice_is_kept_once(driver, tmp_path):
    parley = start(driver, tmp_path)
    remember(driver, parley, (GLOBAL_SCOPE, "Likes tea"))
    page = open_page(parley)
    click(page.add_button)
    page.text.setPlainText("likes tea.")
    click(page.save_button)

    async def body() -> None:
        await driver.until(lambda: page.status.text() == "That is already kept as a memory.")

    driver.run(body())
    assert texts(page) == ["Likes tea"] and not page.editor.isVisible()


def test_delete_undo_and_a_deletion_that_stays_after_a_restart(driver, tmp_path):
    parley = start(driver, tmp_path)
    remember(driver, parley, (GLOBAL_SCOPE, "Keeps bees"), (GLOBAL_SCOPE, "Owns a canoe"))
    page = open_page(parley)
    model = parley.settings_vm.memory

    async def body() -> None:
        await driver.until(lambda: texts(page) == ["Owns a canoe", "Keeps bees"])
        select(page, "Keeps bees")
        click(page.delete_button)
        await driver.until(lambda: texts(page) == ["Owns a canoe"])
        assert page.undo_bar.isVisible()
        assert page.undo_label.text() == "Memory deleted."
        click(page.undo_button)
        await driver.until(lambda: texts(page) == ["Owns a canoe", "Keeps bees"])
        assert not page.undo_bar.isVisible()
        assert page.status.text() == "Memory restored."

        # Deleted again, and the Undo window passes: it stays deleted.
        select(page, "Keeps bees")
        page.list.setFocus()
        QTest.keyClick(page.list, Qt.Key.Key_Delete)
        await driver.until(lambda: texts(page) == ["Owns a canoe"] and model.can_undo)
        model.undo_timer.start(1)  # the seconds of the Undo window, passed
        await driver.until(lambda: not model.can_undo)
        assert not page.undo_bar.isVisible()
        # Deleted, and the window closed before any Undo.
        select(page, "Owns a canoe")
        click(page.delete_button)
        await driver.until(lambda: texts(page) == [])

    driver.run(body())
    assert live_texts(driver, parley) == []
    driver.close(parley)
    again = driver.start(tmp_path)
    assert live_texts(driver, again) == []
    page = open_page(again)

    async def after() -> None:
        await driver.until(lambda: page.list.placeholder().startswith("No memories yet."))

    driver.run(after())


def test_the_list_is_filtered_by_scope_and_by_words(driver, tmp_path):
    parley = start(driver, tmp_path, assistants=WRITER)
    remember(
        driver,
        parley,
        (GLOBAL_SCOPE, "Drinks green tea"),
        (scope_for("writer"), "Prefers short sentences"),
        (scope_for("writer"), "Likes tea breaks between chapters"),
    )
    page = open_page(parley)
    everything = [
        "Likes tea breaks between chapters",
        "Prefers short sentences",
        "Drinks green tea",
    ]
    assert [page.scope.itemText(i) for i in range(page.scope.count())] == [
        "All memories",
        "Global",
        "Parley",  # the built-in assistant
        "Writer",
    ]

    async def body() -> None:
        await driver.until(lambda: texts(page) == everything)
        page.scope.setCurrentIndex(page.scope.findText("Writer"))
        await driver.until(lambda: texts(page) == everything[:2])
        QTest.keyClicks(page.search, "TEA")
        await driver.until(lambda: texts(page) == everything[:1])
        page.scope.setCurrentIndex(page.scope.findText("Global"))
        await driver.until(lambda: texts(page) == everything[2:])
        page.scope.setCurrentIndex(page.scope.findText("All memories"))
        await driver.until(lambda: texts(page) == [everything[0], everything[2]])
        page.search.setText("coffee")
        await driver.until(lambda: page.list.placeholder() == "No memories match.")
        assert page.list.count() == 0
        page.search.clear()
        await driver.until(lambda: texts(page) == everything)

    driver.run(body())
    # A new memory is kept where the list is filtered to.
    page.scope.setCurrentIndex(page.scope.findText("Writer"))
    click(page.add_button)
    assert page.editor_scope.currentText() == "Writer"


def test_export_writes_the_listed_memories_as_markdown(driver, tmp_path):
    parley = start(driver, tmp_path, assistants=WRITER)
    remember(
        driver,
        parley,
        (GLOBAL_SCOPE, "Lives in Ghent"),
        (scope_for("writer"), "Uses Oxford commas"),
    )
    page = open_page(parley)
    target = tmp_path / "out" / "memories.md"
    target.parent.mkdir()
    click(page.export_button)
    page.file_dialog.selectFile(str(target))
    page.file_dialog.accept()

    async def body() -> None:
        await driver.until(lambda: page.status.text() == f"Memories exported to {target}: 2.")

    driver.run(body())
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Memories\n")
    assert "## All assistants" in text and "## Assistant: Writer" in text
    assert "- Lives in Ghent (" in text and "- Uses Oxford commas (" in text

    # A folder that cannot be written: a sentence, not a crash.
    parley.settings_vm.memory.export(str(tmp_path / "missing" / "memories.md"))

    async def failed() -> None:
        await driver.until(lambda: page.status.text().startswith("Could not export to "))

    driver.run(failed())


def test_memory_text_is_shown_as_it_is(driver, tmp_path):
    parley = start(driver, tmp_path)
    literal = "<b>bold</b> & <i>more</i>"
    remember(driver, parley, (GLOBAL_SCOPE, literal))
    page = open_page(parley)

    async def body() -> None:
        await driver.until(lambda: texts(page) == [literal])

    driver.run(body())
    assert page.list.item(0).toolTip() != literal  # escaped: Qt would read it as markup
    assert "&lt;b&gt;" in page.list.item(0).toolTip()
    select(page, literal)
    click(page.edit_button)
    assert page.text.toPlainText() == literal


def test_the_embedding_model_is_saved_and_a_failing_one_marks_words_only(driver, tmp_path):
    parley = start(driver, tmp_path)
    remember(driver, parley, (GLOBAL_SCOPE, "Kept before any model"))
    page = open_page(parley)
    picker = page.embedding
    assert picker.provider.currentText() == "None — search by words only"
    assert not [b for b in page.findChildren(QPushButton) if b.text() == "Save model"]
    picker.provider.setCurrentIndex(picker.provider.findText("Local"))  # saved as chosen
    assert picker.model.currentText() == "text-embedding-3-small"  # named as one
    assert saved_settings(tmp_path)["memory"] == {
        "embedding": {"provider": "local", "model": "text-embedding-3-small"}
    }

    async def body() -> None:
        # Nothing answers at the provider's address: the memory is kept, words only.
        await driver.until(lambda: texts(page) == ["Kept before any model"])
        await driver.until(lambda: details(page, 0).endswith(" · words only"))
        click(page.add_button)
        page.text.setPlainText("Saved while the model is down")
        click(page.save_button)
        await driver.until(lambda: len(texts(page)) == 2)

    driver.run(body())
    assert texts(page)[0] == "Saved while the model is down"
    assert details(page, 0).endswith(" · words only")
    assert page.status.text().startswith("Saved. It is found by its words only")

    # A provider with no model named: said beside it, the saved model kept.
    picker.model.setFocus()
    picker.model.setCurrentText("")
    QTest.keyClick(picker.model, Qt.Key.Key_Return)
    assert picker.error.error == "Choose or type the embedding model's name."
    assert saved_settings(tmp_path)["memory"]["embedding"]["model"] == "text-embedding-3-small"

    # Back to words only: no row needs the mark.
    picker.provider.setCurrentIndex(0)
    assert not picker.error.error
    assert "memory" not in saved_settings(tmp_path)
    assert not any(details(page, row).endswith("words only") for row in range(2))


def test_choosing_a_model_embeds_the_memories_kept_by_their_words(
    driver, tmp_path, embedding_server
):
    embedding_server.models = {"text-embedding-3-small": True}
    write_settings(tmp_path, f"{embedding_server.url}/v1", ("text-embedding-3-small",))
    parley = driver.start(tmp_path)
    remember(driver, parley, (GLOBAL_SCOPE, "Grows tomatoes"))  # no model yet: words only
    page = open_page(parley)
    picker = page.embedding

    async def body() -> None:
        await driver.until(lambda: texts(page) == ["Grows tomatoes"])
        assert details(page, 0).count(" · ") == 1  # no model: no mark needed
        picker.provider.setCurrentIndex(picker.provider.findText("Local"))  # saved at once
        assert picker.model.currentText() == "text-embedding-3-small"
        assert details(page, 0).endswith(" · words only")  # until it is embedded
        await driver.until(lambda: "Grows tomatoes" in embedding_server.embedded())
        await driver.until(lambda: page.status.text() == "Memories embedded with the new model: 1.")
        # The list is read again: the mark the saved model put on it goes.
        await driver.until(lambda: not details(page, 0).endswith("words only"))

    driver.run(body())
    (memory,) = driver.run(parley.memory.list())
    assert not memory.words_only
