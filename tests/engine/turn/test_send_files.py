"""Sending files end to end: the real attachment store and OCR service, a real SQLite
file, and a loopback OpenAI server whose recorded requests show what the model got."""

from __future__ import annotations

import base64
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from docx import Document

from desktop.core.errors import TooManyAttachmentsError
from desktop.core.events import GenerationFinished
from desktop.core.models import MessageStatus, ModelRef, NoticePart
from desktop.engine.attachments.inputs import AttachmentReader
from desktop.engine.attachments.service import AttachmentService
from desktop.engine.ocr.local_engine import LocalOcrEngine
from desktop.engine.ocr.service import OcrService
from desktop.engine.ocr.vision_model import INSTRUCTION
from desktop.engine.settings_service import SettingsService
from desktop.engine.turn.chat_service import ChatService
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.secrets import SecretStore
from tests.support.engine_harness import FAST_RETRIES, run_harness
from tests.support.ocr_images import text_image
from tests.support.sse_server import SSEServer, completion_body, default_stream, json_response
from tests.support.waiting import CEILING_S, wait_for

VISION = ModelRef("local", "gpt-4o")  # known to see images
BLIND = ModelRef("local", "test-model")  # not known to
NOT_INSTALLED = LocalOcrEngine(modules=("parley_no_such_module",))


class FilesHarness:
    def __init__(
        self, tmp_path: Path, server: SSEServer, *, ocr_model: str | None, local: LocalOcrEngine
    ) -> None:
        self.root = tmp_path / "data"
        self.root.mkdir()
        settings: dict[str, Any] = {
            "version": 1,
            "providers": [
                {
                    "id": "local",
                    "name": "Local",
                    "kind": "openai_chat",
                    "base_url": server.base_url,
                    "models": ["gpt-4o", "test-model"],
                }
            ],
            "ocr_model": ocr_model,
        }
        (self.root / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        self.db = Database.open(self.root / "parley.db")
        self.local = local
        self.events: list[object] = []

    async def __aenter__(self) -> FilesHarness:
        self.http = httpx.AsyncClient(trust_env=False)
        settings = SettingsService(
            self.root / "settings.json", SecretStore(), self.http, retry_policy=FAST_RETRIES
        )
        self.files = AttachmentService(AttachmentStore(self.root / "attachments", self.db.engine))
        ocr = OcrService(
            self.root / "ocr_cache",
            lambda: settings.settings.ocr_model,
            settings.provider,
            self.local,
        )
        self.chat = ChatService(self.db_repo(), settings, files=AttachmentReader(self.files, ocr))
        self.chat.events.subscribe(self.events.append)
        return self

    def db_repo(self) -> Any:
        from desktop.storage.repository import ChatRepository

        self.repo = ChatRepository(self.db)
        return self.repo

    async def __aexit__(self, *exc: object) -> None:
        await self.chat.shutdown()
        await self.http.aclose()
        self.db.close()

    async def finished(self, count: int = 1, timeout: float = CEILING_S) -> None:
        done = lambda: sum(isinstance(e, GenerationFinished) for e in self.events) >= count  # noqa: E731
        await wait_for(done, timeout)


def run(
    tmp_path: Path,
    server: SSEServer,
    body: Callable[[FilesHarness], Awaitable[None]],
    *,
    ocr_model: str | None = None,
    local: LocalOcrEngine = NOT_INSTALLED,
) -> None:
    run_harness(FilesHarness(tmp_path, server, ocr_model=ocr_model, local=local), body)


def write_docx(path: Path, *paragraphs: str) -> Path:
    document = Document()
    for text in paragraphs:
        document.add_paragraph(text)
    document.save(str(path))
    return path


def last_user_content(request: Any) -> Any:
    return [m for m in request.json["messages"] if m["role"] == "user"][-1]["content"]


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(p["text"] for p in content if p["type"] == "text")


def test_a_vision_model_gets_the_image_itself_and_the_document_as_text(tmp_path, sse_server):
    sse_server.script(default_stream("Seen."))
    png = tmp_path / "chart.png"
    png.write_bytes(text_image("Q3"))
    docx = write_docx(tmp_path / "brief.docx", "Budget is 40k.", "Due in May.")

    async def body(h: FilesHarness) -> None:
        files = [await h.files.add_file(png), await h.files.add_file(docx)]
        result = await h.chat.send(None, "What do these say?", VISION, [f.id for f in files])
        await h.finished()
        content = last_user_content(sse_server.requests[0])
        images = [p["image_url"]["url"] for p in content if p["type"] == "image_url"]
        assert images == ["data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()]
        text = text_of(content)
        assert '<document name="brief.docx">' in text and "Budget is 40k." in text
        assert text.rstrip().endswith("What do these say?")
        saved = h.repo.get_message(result.user_message_id)
        assert saved is not None and saved.context.attachment_ids == tuple(f.id for f in files)

    run(tmp_path, sse_server, body)


def test_a_model_without_vision_gets_what_the_ocr_model_read(tmp_path, sse_server):
    sse_server.script(
        json_response(completion_body("INVOICE 4711")), default_stream("It is invoice 4711.")
    )
    png = tmp_path / "scan.png"
    png.write_bytes(text_image("INVOICE 4711"))

    async def body(h: FilesHarness) -> None:
        image = await h.files.add_file(png)
        result = await h.chat.send(None, "Which invoice?", BLIND, [image.id])
        await h.finished()
        ocr_request, chat_request = sse_server.requests
        assert ocr_request.json["model"] == "gpt-4o"
        assert INSTRUCTION in json.dumps(ocr_request.json)
        content = last_user_content(chat_request)
        assert isinstance(content, str) or not any(p["type"] == "image_url" for p in content)
        assert '<image name="scan.png" read_with="ocr">\nINVOICE 4711\n</image>' in text_of(content)
        answer = h.repo.get_message(result.assistant_message_id)
        assert answer is not None and answer.status is MessageStatus.COMPLETE
        notices = [p for p in answer.parts if isinstance(p, NoticePart)]
        assert [n.text for n in notices] == ["1 image(s) were read with OCR — gpt-4o"]
        assert notices[0].detail == "scan.png\nINVOICE 4711"

    run(tmp_path, sse_server, body, ocr_model="local/gpt-4o")


def test_with_no_ocr_at_all_nothing_is_sent_and_the_person_is_told_how(tmp_path, sse_server):
    png = tmp_path / "photo.png"
    png.write_bytes(text_image("hello"))

    async def body(h: FilesHarness) -> None:
        image = await h.files.add_file(png)
        result = await h.chat.send(None, "What is this?", BLIND, [image.id])
        await h.finished()
        answer = h.repo.get_message(result.assistant_message_id)
        assert answer is not None and answer.status is MessageStatus.ERROR
        assert answer.error is not None and "Settings → OCR" in answer.error.message
        assert sse_server.requests == []

    run(tmp_path, sse_server, body)


@pytest.mark.slow
def test_the_local_engine_reads_for_a_model_without_vision(tmp_path, sse_server):
    sse_server.script(default_stream("Noted."))
    png = tmp_path / "note.png"
    png.write_bytes(text_image("Meeting at noon"))

    async def body(h: FilesHarness) -> None:
        image = await h.files.add_file(png)
        result = await h.chat.send(None, "", BLIND, [image.id])
        await h.finished()  # the engine's child process loads its models first
        assert "Meeting at noon" in text_of(last_user_content(sse_server.requests[0]))
        answer = h.repo.get_message(result.assistant_message_id)
        assert answer is not None
        notice = next(p for p in answer.parts if isinstance(p, NoticePart))
        assert notice.text == "1 image(s) were read with OCR — local engine"

    run(tmp_path, sse_server, body, local=LocalOcrEngine())


def test_regenerate_and_edit_send_the_files_of_the_version_they_come_from(tmp_path, sse_server):
    sse_server.script(default_stream("One."), default_stream("Two."), default_stream("Three."))
    doc = tmp_path / "plan.txt"
    doc.write_text("PLAN-A", encoding="utf-8")

    async def body(h: FilesHarness) -> None:
        attached = await h.files.add_file(doc)
        sent = await h.chat.send(None, "Read it", VISION, [attached.id])
        await h.finished()
        doc.write_text("PLAN-B, changed on disk afterwards", encoding="utf-8")
        await h.chat.regenerate(sent.assistant_message_id)
        await h.finished(2)
        edited = await h.chat.edit(sent.user_message_id, "Read it again", VISION)
        await h.finished(3)
        for request in sse_server.requests:
            text = text_of(last_user_content(request))
            assert "PLAN-A" in text and "PLAN-B" not in text
        version = h.repo.get_message(edited.user_message_id)
        assert version is not None and version.context.attachment_ids == (attached.id,)

    run(tmp_path, sse_server, body)


def test_a_message_carries_at_most_eight_files(tmp_path, sse_server):
    async def body(h: FilesHarness) -> None:
        with pytest.raises(TooManyAttachmentsError, match="at most 8"):
            await h.chat.send(None, "many", VISION, [f"id{i}" for i in range(9)])
        assert h.chat.conversations() == []

    run(tmp_path, sse_server, body)


def test_the_workspace_file_goes_fresh_with_each_send_and_regenerate_keeps_its_copy(
    tmp_path, sse_server
):
    sse_server.script(*(default_stream(f"Answer {n}.") for n in range(4)))
    notes = tmp_path / "notes.md"
    notes.write_text("version one", encoding="utf-8")

    async def body(h: FilesHarness) -> None:
        conversation = h.chat.create_conversation("Work")
        h.chat.set_workspace_file(conversation.id, str(notes))
        first = await h.chat.send(conversation.id, "Check it", VISION)
        await h.finished()
        notes.write_text("version two", encoding="utf-8")
        await h.chat.send(conversation.id, "And now?", VISION)
        await h.finished(2)
        await h.chat.regenerate(first.assistant_message_id)
        await h.finished(3)
        h.chat.set_workspace_file(conversation.id, None)
        unbound = await h.chat.send(conversation.id, "Without it", VISION)
        await h.finished(4)

        sent = [json.dumps(r.json) for r in sse_server.requests]
        assert '<workspace_file name=\\"notes.md\\">\\nversion one' in sent[0]
        # The second send carries the file as it is now, and only that copy.
        assert "version two" in sent[1] and "version one" not in sent[1]
        # Regenerating the first answer sends the copy the first question was sent with.
        assert "version one" in sent[2] and "version two" not in sent[2]
        assert "workspace_file" not in sent[3]
        question = h.repo.get_message(first.user_message_id)
        assert question is not None and question.context.workspace_file == str(notes)
        assert question.context.context_captured and question.context.workspace_snapshot_id
        later = h.repo.get_message(unbound.user_message_id)
        assert later is not None and later.context.context_captured
        assert later.context.workspace_file is None

    run(tmp_path, sse_server, body)


def test_a_workspace_file_that_cannot_be_read_is_named_and_the_message_still_goes(
    tmp_path, sse_server
):
    sse_server.script(default_stream("Fine."))

    async def body(h: FilesHarness) -> None:
        conversation = h.chat.create_conversation("Work")
        h.chat.set_workspace_file(conversation.id, str(tmp_path / "gone.md"))
        result = await h.chat.send(conversation.id, "Still there?", VISION)
        await h.finished()
        assert "workspace_file" not in json.dumps(sse_server.requests[0].json)
        question = h.repo.get_message(result.user_message_id)
        assert question is not None and question.context.workspace_error
        answer = h.repo.get_message(result.assistant_message_id)
        assert answer is not None and answer.status is MessageStatus.COMPLETE
        notices = [p.text for p in answer.parts if isinstance(p, NoticePart)]
        assert len(notices) == 1 and notices[0].startswith("The workspace file was not sent:")
        assert "gone.md" in notices[0]

    run(tmp_path, sse_server, body)
