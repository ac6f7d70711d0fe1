"""An answer of an assistant with a library, end to end: real files indexed by the real
knowledge service, searched as the answer starts, given to the model on the wire and
kept on the answer as citations; the person's message never changes."""

from __future__ import annotations

import json

from desktop.core.knowledge import EmbeddingChoice, LibraryState
from desktop.core.models import CitationPart, MessageStatus, NoticePart, Role
from desktop.engine.knowledge.context import TAG
from tests.support.chat_wire import turns
from tests.support.engine_harness import MODEL, Harness, run, updates
from tests.support.knowledge import HashingEmbedder, code_library, indexed_codes
from tests.support.sse_server import default_stream

ASSISTANTS = [{"id": "default", "name": "Parley", "libraries": ["docs"]}]


def test_the_best_passage_goes_to_the_model_and_stays_on_the_answer(tmp_path, sse_server):
    sse_server.script(default_stream("The quota is spent [1]."))

    async def body(h: Harness) -> None:
        service = await indexed_codes(h.tmp_path, h.settings, h.chat, HashingEmbedder())
        try:
            conversation = h.chat.create_conversation("Codes")
            question = "What does ERR_7734 mean?"
            sent = await h.chat.send(conversation.id, question, MODEL)
            await h.wait_finished()
            request = sse_server.requests[0].json
            system = request["messages"][0]
            assert system["role"] == "system"
            assert (
                f'<{TAG} number="1" file="codes.md" location="Error codes › Network">'
                in (system["content"])
            )
            assert "disk quota is spent" in system["content"]
            wire = json.dumps(request)
            assert str(tmp_path) not in wire  # no absolute path reaches the provider
            assert turns(request)[-1] == {"role": "user", "content": question}
            path = h.repo.active_path(conversation.id)
            assert path[0].role is Role.USER and path[0].text == question
            answer = h.repo.get_message(sent.assistant_message_id)
            assert answer is not None and answer.status is MessageStatus.COMPLETE
            cited = [p for p in answer.parts if isinstance(p, CitationPart)]
            assert cited[0].number == 1 and cited[0].relative_path == "codes.md"
            assert cited[0].path == str(tmp_path / "docs" / "codes.md")
            assert "ERR_7734" in cited[0].excerpt
            assert not [p for p in answer.parts if isinstance(p, NoticePart)]
            assert answer.text == "The quota is spent [1]."
            waits = {m.activity for m in updates(h, sent.assistant_message_id)}
            assert "Searching your documents…" in waits
        finally:
            await service.close()

    run(
        tmp_path,
        sse_server,
        body,
        assistants=ASSISTANTS,
        libraries=[code_library(tmp_path / "docs")],
    )


def test_an_embedder_down_searches_by_words_and_the_answer_says_so(tmp_path, sse_server):
    sse_server.script(default_stream("Quota [1]."))
    embedding = {"provider": "local", "model": "embed-test"}

    async def body(h: Harness) -> None:
        embedder = HashingEmbedder()
        service = await indexed_codes(h.tmp_path, h.settings, h.chat, embedder)
        try:
            choice = EmbeddingChoice("local", "embed-test")
            assert service.store.vector_keys("docs") == {choice.key: 2}
            assert service.progress("docs").state is LibraryState.IDLE
            embedder.fail("the embedding server is not reachable")
            conversation = h.chat.create_conversation("Codes")
            sent = await h.chat.send(conversation.id, "ERR_7734?", MODEL)
            await h.wait_finished()
            assert "ERR_7734 means" in sse_server.requests[0].json["messages"][0]["content"]
            answer = h.repo.get_message(sent.assistant_message_id)
            assert answer is not None
            notices = [p.text for p in answer.parts if isinstance(p, NoticePart)]
            assert len(notices) == 1
            assert notices[0].startswith("Your documents were searched by words only:")
        finally:
            await service.close()

    run(
        tmp_path,
        sse_server,
        body,
        assistants=ASSISTANTS,
        libraries=[code_library(tmp_path / "docs", embedding)],
    )
