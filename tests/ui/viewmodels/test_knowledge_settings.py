"""Settings → Knowledge's view-model: libraries written to settings.json through the real
settings service, indexing started again only when what a library covers changed, and
the engine's progress reports turned into the lines the page shows."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace

import pytest

from desktop.core.knowledge import (
    EmbeddingChoice,
    FailedSource,
    IndexProgress,
    LibraryState,
    SourceStatus,
)
from desktop.core.settings import ProviderKind
from desktop.engine.settings_service import SettingsService
from desktop.storage.secrets import SecretStore
from desktop.ui.viewmodels.knowledge_progress import KnowledgeProgress
from desktop.ui.viewmodels.knowledge_settings import KnowledgeSettingsModel, LibraryDraft
from desktop.ui.viewmodels.tasks import TaskGroup
from tests.support.knowledge_control import knowledge_settings
from tests.support.waiting import CEILING_S

DOCS = {"id": "docs", "name": "Docs", "paths": ["/data/docs"]}


@pytest.fixture
def knowledge(tmp_path, memory_keyring, qapp):
    with knowledge_settings(tmp_path, libraries=[DOCS]) as made:
        yield made


def model_of(knowledge) -> KnowledgeSettingsModel:
    return KnowledgeSettingsModel(knowledge.service, knowledge.progress)


def test_a_new_library_is_saved_with_its_patterns_and_model_and_indexed(knowledge):
    model = model_of(knowledge)
    draft = LibraryDraft(
        "",
        "Product Notes",
        paths=("/data/notes", "/data/faq.pdf"),
        include="*.md\n\n  docs/**  \n*.md",
        exclude="drafts/**",
        embedding=EmbeddingChoice("local", "text-embedding-3-small", 512),
    )
    assert model.save(draft) == "product-notes"
    saved = knowledge.saved()["libraries"]
    assert saved[1] == {
        "id": "product-notes",
        "name": "Product Notes",
        "paths": ["/data/notes", "/data/faq.pdf"],
        "include": ["*.md", "docs/**"],
        "exclude": ["drafts/**"],
        "embedding": {"provider": "local", "model": "text-embedding-3-small", "dimensions": 512},
    }
    assert knowledge.control.calls == [("rescan", "product-notes")]

    # The same name again gets an id of its own.
    assert model.save(replace(draft, embedding=None)) == "product-notes-2"
    assert "embedding" not in knowledge.saved()["libraries"][2]


def test_a_new_name_alone_is_saved_without_indexing_again(knowledge):
    model = model_of(knowledge)
    assert model.save(replace(model.draft_for("docs"), name="Handbook")) == "docs"
    assert knowledge.saved()["libraries"][0]["name"] == "Handbook"
    assert knowledge.control.calls == []


@pytest.mark.parametrize(
    "change",
    [
        {"paths": ("/data/docs", "/data/more")},
        {"include": "*.md"},
        {"exclude": "old/**"},
        {"embedding": EmbeddingChoice("ollama", "nomic-embed-text")},
    ],
)
def test_changed_paths_patterns_or_model_index_again(knowledge, change):
    model = model_of(knowledge)
    assert model.save(replace(model.draft_for("docs"), **change)) == "docs"
    assert knowledge.control.calls == [("rescan", "docs")]


def test_turning_a_library_off_stops_its_pass(knowledge):
    model = model_of(knowledge)
    knowledge.events.emit(IndexProgress("docs", LibraryState.INDEXING, 1, 5))
    model.save(replace(model.draft_for("docs"), enabled=False))
    assert knowledge.saved()["libraries"][0]["enabled"] is False
    assert knowledge.control.calls == [("cancel", "docs")]
    assert model.state_line("docs") == "Turned off"


def test_what_settings_json_would_refuse_is_not_saved(knowledge):
    model = model_of(knowledge)
    problems: list[tuple[str, str]] = []
    model.invalid.connect(lambda field, text: problems.append((field, text)))
    assert model.save(LibraryDraft("", "   ", paths=("/data/x",))) == ""
    assert model.save(replace(model.draft_for("docs"), name="")) == ""
    assert problems == [("name", "Name must not be empty."), ("name", "Name must not be empty.")]
    assert [lib["id"] for lib in knowledge.saved()["libraries"]] == ["docs"]
    assert knowledge.saved()["libraries"][0]["name"] == "Docs"
    assert knowledge.control.calls == []


def test_a_new_library_is_made_empty_and_indexed_once_it_holds_something(knowledge):
    model = model_of(knowledge)
    library_id = model.add()
    assert library_id == "new-library"
    saved = knowledge.saved()["libraries"][1]
    assert saved == {"id": "new-library", "name": "New library", "paths": []}
    assert knowledge.control.calls == []  # nothing to index yet
    assert model.state_line(library_id) == "No folders or files yet"

    assert model.save(replace(model.draft_for(library_id), paths=("/data/x",))) == library_id
    assert knowledge.control.calls == [("rescan", "new-library")]
    # Emptied again: looked at again, so what it held is dropped from its index.
    assert model.save(replace(model.draft_for(library_id), paths=())) == library_id
    assert knowledge.control.calls[-1] == ("rescan", "new-library")


def test_a_save_that_changes_nothing_writes_nothing(knowledge):
    model = model_of(knowledge)
    saves: list[str] = []
    model.saved.connect(saves.append)
    before = knowledge.service.path.read_bytes()
    assert model.save(model.draft_for("docs")) == "docs"
    assert saves == [] and knowledge.service.path.read_bytes() == before
    assert knowledge.control.calls == []


def test_deleting_a_library_takes_it_off_the_assistants_and_forgets_its_index(
    tmp_path, memory_keyring, qapp
):
    assistants = [
        {"id": "writer", "name": "Writer", "libraries": ["docs", "notes"]},
        {"id": "coder", "name": "Coder", "libraries": ["docs"]},
    ]
    notes = {"id": "notes", "name": "Notes", "paths": ["/data/notes"]}
    with knowledge_settings(tmp_path, libraries=[DOCS, notes], assistants=assistants) as knowledge:
        model = model_of(knowledge)
        model.delete("docs")
        saved = knowledge.saved()
        assert [lib["id"] for lib in saved["libraries"]] == ["notes"]
        assert saved["assistants"][0]["libraries"] == ["notes"]
        assert "libraries" not in saved["assistants"][1]
        assert knowledge.control.calls == [("forget", "docs")]


def test_providers_with_embeddings_are_offered_with_words_only_first(tmp_path, qapp):
    providers = [
        {"id": "local", "name": "Local", "kind": "openai_chat", "base_url": "http://a/v1"},
        {"id": "claude", "name": "Claude", "kind": "anthropic", "base_url": "http://b"},
        {"id": "ollama", "name": "Ollama", "kind": "ollama", "base_url": "http://c"},
        {"id": "gemini", "name": "Gemini", "kind": "gemini", "base_url": "http://d"},
    ]
    with knowledge_settings(tmp_path, providers=providers) as knowledge:
        model = model_of(knowledge)
        entries = model.embedding_providers()
        # Anthropic has no embeddings; Ollama's take no size.
        assert [(e.label, e.sized) for e in entries] == [
            ("None — search by words only", False),
            ("Local", True),
            ("Ollama", False),
            ("Gemini", True),
        ]
        # The provider of a saved choice, since removed, stays listed, marked.
        gone = EmbeddingChoice("old", "text-embedding-ada-002")
        assert model.embedding_providers(gone)[-1].label == "old (not available)"


def listed(loop, model: KnowledgeSettingsModel, provider_id: str, *, again: bool = False) -> None:
    """Ask the provider's endpoint through the view-model and wait for its answer."""
    answered = asyncio.Event()
    model.embeddingModelsChanged.connect(
        lambda pid: answered.set() if pid == provider_id and not asking(model, pid) else None
    )
    model.list_embedding_models(provider_id, again=again)
    loop.run_until_complete(asyncio.wait_for(answered.wait(), CEILING_S))


def asking(model: KnowledgeSettingsModel, provider_id: str) -> bool:
    return model.embedding_note(provider_id).startswith("Asking")


def test_the_endpoint_is_asked_which_of_its_models_embed(
    tmp_path, memory_keyring, loop, embedding_server
):
    url = embedding_server.base_url(ProviderKind.OPENAI_CHAT)
    embedding_server.models = {"gpt-4o": False, "bge-m3": True, "text-embedding-3-large": True}
    providers = [
        {
            "id": "local",
            "name": "Local",
            "kind": "openai_chat",
            "base_url": url,
            "models": ["gpt-4o", "text-embedding-3-small"],
        },
    ]
    with knowledge_settings(tmp_path, providers=providers) as knowledge:
        model = KnowledgeSettingsModel(knowledge.service, knowledge.progress, tasks=knowledge.tasks)
        # Before the endpoint answers: the saved models named as embedding models.
        assert model.embedding_models("local") == ["text-embedding-3-small"]
        listed(loop, model, "local")
        assert model.embedding_models("local") == ["bge-m3", "text-embedding-3-large"]
        assert model.embedding_note("local") == ""
        assert [r.path for r in embedding_server.requests] == ["/v1/models"]
        # Asked once a session, unless asked again.
        model.list_embedding_models("local")
        assert not asking(model, "local")
        embedding_server.models = {"nomic-embed-text": True}
        listed(loop, model, "local", again=True)
        assert model.embedding_models("local") == ["nomic-embed-text"]
        assert len(embedding_server.requests) == 2


def test_an_endpoint_that_cannot_be_asked_leaves_the_saved_models_and_says_why(
    tmp_path, memory_keyring, loop, embedding_server
):
    embedding_server.models = {"llama3.2": False}
    providers = [
        {
            "id": "ollama",
            "name": "Ollama",
            "kind": "ollama",
            "base_url": "http://127.0.0.1:9",
            "models": ["llama3.2", "nomic-embed-text"],
        },
        {"id": "empty", "name": "Empty", "kind": "ollama", "base_url": embedding_server.url},
    ]
    with knowledge_settings(tmp_path, providers=providers) as knowledge:
        model = KnowledgeSettingsModel(knowledge.service, knowledge.progress, tasks=knowledge.tasks)
        listed(loop, model, "ollama")
        assert model.embedding_models("ollama") == ["nomic-embed-text"]
        note = model.embedding_note("ollama")
        assert note.startswith("Could not ask Ollama for its models: ")
        assert note.endswith("Type the model's name.")
        listed(loop, model, "empty")
        assert model.embedding_models("empty") == []
        assert model.embedding_note("empty") == (
            "Empty lists no embedding models. Type the model's name."
        )


def test_progress_events_update_the_state_line_counts_and_failures(knowledge):
    model = model_of(knowledge)
    changed: list[str] = []
    model.progressChanged.connect(changed.append)
    assert model.state_line("docs") == "Not indexed yet · words only"
    assert not model.progress_view("docs").active

    knowledge.events.emit(IndexProgress("docs", LibraryState.SCANNING))
    assert model.state_line("docs") == "Looking for new and changed files…"
    view = model.progress_view("docs")
    assert view.active and view.total == 0  # the bar is busy while files are counted

    knowledge.events.emit(
        IndexProgress(
            "docs",
            LibraryState.INDEXING,
            done=40,
            total=200,
            current_file="reports/report.pdf",
            counts={SourceStatus.INDEXED: 38, SourceStatus.FAILED: 2, SourceStatus.PENDING: 160},
            failed=(
                FailedSource("old/broken.docx", "the file is damaged"),
                FailedSource("scan.pdf", "no text layer"),
            ),
        )
    )
    assert model.state_line("docs") == "Indexing 40 of 200 — reports/report.pdf"
    assert model.progress_view("docs").state == "Indexing 40 of 200"
    view = model.progress_view("docs")
    assert (view.active, view.done, view.total) == (True, 40, 200)
    assert view.current_file == "reports/report.pdf"
    assert view.counts == "38 indexed · 160 waiting · 2 failed"
    assert view.failures == (
        "old/broken.docx — the file is damaged",
        "scan.pdf — no text layer",
    )

    knowledge.events.emit(
        IndexProgress(
            "docs",
            LibraryState.IDLE,
            200,
            200,
            counts={SourceStatus.INDEXED: 120, SourceStatus.FAILED: 3, SourceStatus.SKIPPED: 77},
        )
    )
    assert model.state_line("docs") == "Indexed 120 files · 3 failed · words only"
    assert not model.progress_view("docs").active
    assert model.progress_view("docs").counts == "120 indexed · 3 failed · 77 skipped"

    knowledge.events.emit(IndexProgress("docs", LibraryState.CANCELLED, 3, 9, counts={}))
    assert model.state_line("docs") == "Cancelled · 0 files indexed · words only"
    knowledge.events.emit(
        IndexProgress("docs", LibraryState.IDLE, counts={SourceStatus.INDEXED: 1}, error="no disk")
    )
    assert model.state_line("docs") == "Stopped · 1 file indexed · words only"
    assert model.progress_view("docs").notice == "no disk"
    assert changed == ["docs"] * 5


def test_a_changed_model_says_words_keep_working_while_re_embedding(knowledge):
    model = model_of(knowledge)
    model.save(
        replace(model.draft_for("docs"), embedding=EmbeddingChoice("ollama", "nomic-embed-text"))
    )
    knowledge.events.emit(IndexProgress("docs", LibraryState.RE_EMBEDDING, 5, 50))
    assert model.state_line("docs") == "Re-embedding…"
    view = model.progress_view("docs")
    assert view.active
    assert view.notice == "Re-embedding — search by words keeps working meanwhile"


def test_re_scan_and_cancel_ask_the_engine(knowledge):
    model = model_of(knowledge)
    assert model.can_index
    model.rescan("docs")
    model.cancel("docs")
    model.rescan("no-such-library")
    assert knowledge.control.calls == [("rescan", "docs"), ("cancel", "docs")]


def test_before_any_event_the_engine_is_asked_where_a_library_stands(knowledge):
    knowledge.control.states["docs"] = IndexProgress(
        "docs", LibraryState.IDLE, counts={SourceStatus.INDEXED: 12}
    )
    assert model_of(knowledge).state_line("docs") == "Indexed 12 files · words only"


def test_reports_sent_from_another_thread_are_read_on_the_window_s_thread(knowledge, qtbot):
    model = model_of(knowledge)
    seen: list[bool] = []
    model.progressChanged.connect(
        lambda _id: seen.append(threading.current_thread() is threading.main_thread())
    )
    sender = threading.Thread(
        target=knowledge.events.emit,
        args=(IndexProgress("docs", LibraryState.INDEXING, 1, 2, "a.md"),),
    )
    sender.start()
    sender.join()
    qtbot.waitUntil(lambda: bool(seen), timeout=int(CEILING_S * 1000))
    assert seen == [True]
    assert model.state_line("docs") == "Indexing 1 of 2 — a.md"


def test_without_an_engine_libraries_are_still_edited(tmp_path, memory_keyring, qapp):
    with knowledge_settings(tmp_path, libraries=[DOCS]) as knowledge:
        model = KnowledgeSettingsModel(knowledge.service, KnowledgeProgress(TaskGroup()))
        assert not model.can_index
        assert model.save(replace(model.draft_for("docs"), include="*.md")) == "docs"
        assert model.state_line("docs") == "Not indexed yet · words only"


def test_an_unwritable_settings_file_is_reported(tmp_path, memory_keyring, qapp):
    folder = tmp_path / "settings.json"
    folder.mkdir()  # a folder where the file should be: writing it fails
    service = SettingsService(folder, SecretStore())
    model = KnowledgeSettingsModel(service, KnowledgeProgress(TaskGroup()))
    problems: list[str] = []
    model.failed.connect(problems.append)
    assert model.save(LibraryDraft("", "Docs", paths=("/data",))) == ""
    assert problems and problems[0].startswith("Could not save settings:")


def test_a_folder_away_is_told_without_calling_the_pass_stopped(knowledge):
    model = model_of(knowledge)
    away = "Not available now: “/media/usb”. Their files are kept until they are back."
    knowledge.events.emit(
        IndexProgress(
            "docs", LibraryState.IDLE, 3, 3, counts={SourceStatus.INDEXED: 3}, notice=away
        )
    )
    assert model.state_line("docs") == "Indexed 3 files · words only"
    assert model.progress_view("docs").notice == away
