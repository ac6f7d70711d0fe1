"""Settings → Knowledge: a library made at once and saved as it is filled in (no Save
button), and indexed; its progress (bar, current file, counts, failed files) from the
engine's reports; Cancel, Re-scan and Delete asking the engine; the embedding model."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QMessageBox, QPushButton

from desktop.core.knowledge import FailedSource, IndexProgress, LibraryState, SourceStatus
from desktop.ui.viewmodels.knowledge_settings import KnowledgeSettingsModel
from desktop.ui.views.settings_pages.knowledge_page import KnowledgePage
from tests.support.knowledge_control import knowledge_settings
from tests.support.ui_actions import click
from tests.support.waiting import CEILING_S

DOCS = {
    "id": "docs",
    "name": "Docs",
    "paths": ["/data/docs"],
    "embedding": {"provider": "local", "model": "text-embedding-3-small"},
}


def make_page(qtbot, knowledge) -> KnowledgePage:
    page = KnowledgePage(KnowledgeSettingsModel(knowledge.service, knowledge.progress))
    qtbot.addWidget(page)
    page.show()
    return page


def rows(page: KnowledgePage) -> list[str]:
    return [page.list.item(row).text() for row in range(page.list.count())]


def texts(widget) -> list[str]:
    return [widget.itemText(i) for i in range(widget.count())]


def finish(edit: QLineEdit, text: str) -> None:
    """Put `text` in `edit` and press Enter, as a person finishes a field."""
    edit.setFocus()
    edit.setText(text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def wait(qtbot, predicate) -> None:
    qtbot.waitUntil(predicate, timeout=int(CEILING_S * 1000))


def test_a_library_is_made_at_once_and_saved_as_it_is_filled_in(
    qtbot, tmp_path, memory_keyring, qapp
):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "guide.md").write_text("# Guide\n", encoding="utf-8")
    (tmp_path / "faq.txt").write_text("Q and A\n", encoding="utf-8")
    with knowledge_settings(tmp_path / "data") as knowledge:
        page = make_page(qtbot, knowledge)
        assert page.stack.currentWidget() is page.empty  # the placeholder
        assert page.list.count() == 0
        assert page.list.placeholder() == "No libraries yet."

        click(page.add_button)
        assert page.stack.currentWidget() is page.editor
        assert knowledge.saved()["libraries"] == [
            {"id": "new-library", "name": "New library", "paths": []}
        ]
        assert knowledge.control.calls == []  # nothing in it to index yet
        assert page.list.currentItem().text() == "New library\nNo folders or files yet"
        assert page.list.placeholder() == ""
        assert page.name.selectedText() == "New library"  # ready to be typed over
        finish(page.name, "Guides")
        assert knowledge.saved()["libraries"][0]["name"] == "Guides"

        click(page.add_folder_button)
        page.file_dialog.selectFile(str(folder))
        page.file_dialog.accept()
        click(page.add_files_button)
        page.file_dialog.selectFile(str(tmp_path / "faq.txt"))
        page.file_dialog.accept()
        assert [page.paths.item(r).text() for r in range(page.paths.count())] == [
            str(folder),
            str(tmp_path / "faq.txt"),
        ]
        assert knowledge.saved()["libraries"][0]["paths"] == [
            str(folder),
            str(tmp_path / "faq.txt"),
        ]
        page.include.setPlainText("*.md\n*.txt")  # saved after a pause in typing
        page.exclude.setPlainText("drafts/**")
        assert texts(page.embedding_provider) == ["None — search by words only", "Local", "Ollama"]
        assert not page.embedding_model.isVisible()  # words only: no model to name
        page.embedding_provider.setCurrentIndex(1)
        assert texts(page.embedding_model) == ["text-embedding-3-small"]
        assert page.embedding_model.currentText() == "text-embedding-3-small"
        assert page.dimensions.isVisible()  # OpenAI-compatible: the size can be asked
        page.dimensions.setValue(256)  # saved after a pause in stepping

        expected = {
            "id": "new-library",
            "name": "Guides",
            "paths": [str(folder), str(tmp_path / "faq.txt")],
            "include": ["*.md", "*.txt"],
            "exclude": ["drafts/**"],
            "embedding": {
                "provider": "local",
                "model": "text-embedding-3-small",
                "dimensions": 256,
            },
        }
        wait(qtbot, lambda: knowledge.saved()["libraries"] == [expected])
        assert page.status.text() == "Saved."
        assert not [b for b in page.findChildren(QPushButton) if b.text() == "Save"]
        # Each change of what it covers had it looked at again; the new name did not.
        assert set(knowledge.control.calls) == {("rescan", "new-library")}
        assert rows(page) == ["Guides\nNot indexed yet"]
        assert page.list.currentItem().text().startswith("Guides")

        # Ollama's embeddings take no size: the box goes.
        page.embedding_provider.setCurrentIndex(2)
        assert page.embedding_model.currentText() == "nomic-embed-text"
        assert not page.dimensions.isVisible()
        assert knowledge.saved()["libraries"][0]["embedding"] == {
            "provider": "ollama",
            "model": "nomic-embed-text",
        }
        assert knowledge.control.calls[-1] == ("rescan", "new-library")


def test_a_name_left_empty_is_said_beside_it_and_an_edit_survives_switching(
    qtbot, tmp_path, memory_keyring, qapp
):
    notes = {"id": "notes", "name": "Notes", "paths": ["/data/notes"]}
    with knowledge_settings(tmp_path, libraries=[DOCS, notes]) as knowledge:
        page = make_page(qtbot, knowledge)
        assert page.name.text() == "Docs"
        finish(page.name, "  ")
        assert page.name_error.error == "Name must not be empty."
        assert page.name_error.isVisible() and page.name.text() == "  "
        assert knowledge.saved()["libraries"][0]["name"] == "Docs"
        finish(page.name, "Handbook")
        assert not page.name_error.error
        assert knowledge.saved()["libraries"][0]["name"] == "Handbook"

        # Patterns typed, and another library chosen before the pause: kept all the same.
        page.include.setPlainText("*.md")
        page.select("notes")
        assert page.name.text() == "Notes" and page.include.toPlainText() == ""
        assert knowledge.saved()["libraries"][0]["include"] == ["*.md"]
        page.select("docs")
        assert page.include.toPlainText() == "*.md"


def test_progress_reports_fill_the_row_bar_counts_and_failures_and_cancel_stops(
    qtbot, tmp_path, memory_keyring, qapp
):
    with knowledge_settings(tmp_path, libraries=[DOCS]) as knowledge:
        page = make_page(qtbot, knowledge)
        assert rows(page) == ["Docs\nNot indexed yet"]
        assert not page.bar.isVisible() and not page.cancel_button.isVisible()
        assert page.rescan_button.isVisible() and page.rescan_button.isEnabled()

        knowledge.events.emit(IndexProgress("docs", LibraryState.SCANNING))
        assert page.bar.isVisible() and page.bar.maximum() == 0  # busy while counting
        knowledge.events.emit(
            IndexProgress(
                "docs",
                LibraryState.INDEXING,
                done=40,
                total=200,
                current_file="reports/report.pdf",
                counts={SourceStatus.INDEXED: 39, SourceStatus.FAILED: 1},
                failed=(FailedSource("<b>old</b>.docx", "the file is damaged"),),
                partial=(FailedSource("tome.txt", "only its first part is indexed"),),
            )
        )
        assert rows(page) == ["Docs\nIndexing 40 of 200 — reports/report.pdf"]
        assert page.partial_title.isVisible()
        assert page.partial.item(0).text() == "tome.txt — only its first part is indexed"
        assert page.state.text() == "Indexing 40 of 200"  # the file has its own line
        assert (page.bar.value(), page.bar.maximum()) == (40, 200)
        assert page.current_file.text() == "reports/report.pdf"
        assert page.counts.text() == "39 indexed · 1 failed"
        assert page.failures.isVisible()
        # A file's name is shown as it is, never read as markup.
        assert page.failures.item(0).text() == "<b>old</b>.docx — the file is damaged"
        assert page.cancel_button.isVisible() and not page.rescan_button.isEnabled()

        click(page.cancel_button)
        assert knowledge.control.calls == [("cancel", "docs")]
        knowledge.events.emit(
            IndexProgress(
                "docs",
                LibraryState.CANCELLED,
                41,
                200,
                counts={SourceStatus.INDEXED: 40, SourceStatus.FAILED: 1},
                failed=(FailedSource("<b>old</b>.docx", "the file is damaged"),),
            )
        )
        assert rows(page) == ["Docs\nCancelled · 40 files indexed · 1 failed"]
        assert not page.partial.isVisible()  # that event names no such file
        assert not page.bar.isVisible() and not page.cancel_button.isVisible()
        assert page.rescan_button.isEnabled()

        click(page.rescan_button)
        assert knowledge.control.calls[-1] == ("rescan", "docs")


def test_a_new_model_says_words_keep_working_while_it_re_embeds(
    qtbot, tmp_path, memory_keyring, qapp
):
    with knowledge_settings(tmp_path, libraries=[DOCS]) as knowledge:
        page = make_page(qtbot, knowledge)
        page.embedding_provider.setCurrentIndex(2)  # Ollama · nomic-embed-text: saved
        assert knowledge.control.calls == [("rescan", "docs")]
        knowledge.events.emit(IndexProgress("docs", LibraryState.RE_EMBEDDING, 3, 30))
        assert rows(page) == ["Docs\nRe-embedding…"]
        assert page.notice.isVisible()
        assert page.notice.text() == "Re-embedding — search by words keeps working meanwhile"
        assert page.cancel_button.isVisible()


def test_a_model_the_list_lacks_is_typed_and_a_missing_one_is_asked_for(
    qtbot, tmp_path, memory_keyring, qapp
):
    with knowledge_settings(tmp_path, libraries=[DOCS]) as knowledge:
        page = make_page(qtbot, knowledge)
        assert page.embedding_provider.currentText() == "Local"
        assert page.embedding_model.currentText() == "text-embedding-3-small"
        finish(page.embedding_model.lineEdit(), "")
        assert page.embedding.error.error == "Choose or type the embedding model's name."
        assert knowledge.control.calls == []  # nothing saved
        assert knowledge.saved()["libraries"][0]["embedding"]["model"] == "text-embedding-3-small"

        finish(page.embedding_model.lineEdit(), "  my-own-embedder:v2 ")
        assert not page.embedding.error.error
        assert knowledge.saved()["libraries"][0]["embedding"] == {
            "provider": "local",
            "model": "my-own-embedder:v2",
        }
        # Shown again as saved, though no list offers it.
        page.select("docs")
        assert page.embedding_model.currentText() == "my-own-embedder:v2"


def test_picking_a_provider_asks_its_endpoint_for_its_embedding_models(
    qtbot, tmp_path, memory_keyring, loop, embedding_server
):
    embedding_server.models = {"gpt-4o": False, "nomic-embed-text": True, "bge-m3": True}
    providers = [
        {"id": "ollama", "name": "Ollama", "kind": "ollama", "base_url": embedding_server.url},
    ]
    with knowledge_settings(tmp_path, providers=providers) as knowledge:
        model = KnowledgeSettingsModel(knowledge.service, knowledge.progress, tasks=knowledge.tasks)
        page = KnowledgePage(model)
        qtbot.addWidget(page)
        page.show()
        click(page.add_button)
        page.embedding_provider.setCurrentIndex(1)
        assert page.models_note.text() == "Asking Ollama for its embedding models…"
        answered = asyncio.Event()
        model.embeddingModelsChanged.connect(lambda _id: answered.set())
        loop.run_until_complete(asyncio.wait_for(answered.wait(), CEILING_S))
        assert texts(page.embedding_model) == ["bge-m3", "nomic-embed-text"]
        assert page.embedding_model.currentText() == "bge-m3"
        assert not page.models_note.isVisible()
        # The model the endpoint offered filled the empty name: that is saved too.
        assert knowledge.saved()["libraries"][0]["embedding"] == {
            "provider": "ollama",
            "model": "bge-m3",
        }

        # Asked again with the button: what was typed stays.
        embedding_server.models = {"mxbai-embed-large": True}
        page.embedding_model.setCurrentText("typed-model")
        click(page.list_models_button)  # says "Asking…" at once: that change is seen
        assert page.models_note.text() == "Asking Ollama for its embedding models…"
        answered.clear()
        loop.run_until_complete(asyncio.wait_for(answered.wait(), CEILING_S))
        assert texts(page.embedding_model) == ["mxbai-embed-large"]
        assert page.embedding_model.currentText() == "typed-model"


def test_delete_asks_first_then_forgets_the_index(qtbot, tmp_path, memory_keyring, qapp):
    notes = {"id": "notes", "name": "Notes", "paths": ["/data/notes"]}
    with knowledge_settings(tmp_path, libraries=[DOCS, notes]) as knowledge:
        page = make_page(qtbot, knowledge)
        page.select("notes")

        def answer(text: str, name: str = "Notes") -> None:
            box = page.confirm_box
            assert isinstance(box, QMessageBox) and f"“{name}”" in box.text()
            next(b for b in box.buttons() if b.text() == text).click()

        click(page.delete_button)
        answer("Cancel")
        assert len(knowledge.saved()["libraries"]) == 2 and knowledge.control.calls == []

        click(page.delete_button)
        answer("Delete")
        assert [lib["id"] for lib in knowledge.saved()["libraries"]] == ["docs"]
        assert knowledge.control.calls == [("forget", "notes")]
        assert rows(page) == ["Docs\nNot indexed yet"]
        assert page.name.text() == "Docs"  # the remaining library is shown

        click(page.delete_button)
        answer("Delete", "Docs")
        assert page.stack.currentWidget() is page.empty
        assert page.list.count() == 0
        assert page.list.placeholder() == "No libraries yet."


def test_a_path_removed_from_the_form_is_no_longer_indexed(qtbot, tmp_path, memory_keyring, qapp):
    library = {**DOCS, "paths": ["/data/docs", "/data/more"]}
    with knowledge_settings(tmp_path, libraries=[library]) as knowledge:
        page = make_page(qtbot, knowledge)
        page.paths.item(1).setSelected(True)
        click(page.remove_path_button)  # saved at once
        assert knowledge.saved()["libraries"][0]["paths"] == ["/data/docs"]
        assert knowledge.control.calls == [("rescan", "docs")]
