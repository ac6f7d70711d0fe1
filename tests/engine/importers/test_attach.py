"""The images and files of a ChatGPT export, stored in a real attachment store and
attached to their messages by the whole import (read the export, then import it): the
person's photo and PDF in the message's context, a DALL·E picture on its call's card,
nothing stored twice on a second import, and every file that cannot be attached (gone,
too large, not what it claims, damaged in the zip) left out with a notice and a reason
while the rest of the conversation imports."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from desktop.core.attachments import Attachment, AttachmentKind
from desktop.core.models import Message, NoticePart, TextPart, ToolCallPart
from desktop.engine.importers import chatgpt
from desktop.engine.importers.attach import READ_LIMIT
from desktop.engine.importers.model import ImportedFile, derived_id
from desktop.engine.importers.run import ImportOutcome, import_preview, read_export
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from tests.support.documents import make_pdf, with_bad_crc

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "imports"
PHOTO = (FIXTURES / "chatgpt" / "file-Photo123-torii.png").read_bytes()  # a 40×30 PNG
CONVERSATION = "c-files"
PHOTO_MEMBER = "file-Photo1-torii.png"
DALLE_MEMBER = "dalle-generations/file-Dalle1-0b1c2d.webp"


def _m(node: str) -> str:
    return derived_id("chatgpt", "message", node)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database.open(tmp_path / "parley.db")
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def store(db: Database, tmp_path: Path) -> AttachmentStore:
    return AttachmentStore(tmp_path / "attachments", db.engine)


def _node(key: str, parent: str | None, role: str, content: Any, **message: Any) -> Any:
    author = message.pop("author_name", None)
    return {
        "id": key,
        "parent": parent,
        "children": [],
        "message": {
            "id": key,
            "author": {"role": role, "name": author, "metadata": {}},
            "create_time": 1714560000.0,
            "content": content,
            "metadata": message.pop("metadata", {}),
            "recipient": message.pop("recipient", "all"),
            **message,
        },
    }


def _image(pointer: str) -> dict[str, Any]:
    return {"content_type": "image_asset_pointer", "asset_pointer": pointer}


def _conversation(attachments: list[dict[str, str]]) -> list[dict[str, Any]]:
    """One conversation: a question with a photo shown inline and `attachments` listed,
    an answer, a request for a picture that DALL·E draws, and the answer under it."""
    nodes = [
        {"id": "r", "parent": None, "children": [], "message": None},
        _node(
            "q",
            "r",
            "user",
            {
                "content_type": "multimodal_text",
                "parts": [_image("file-service://file-Photo1"), "Where is this?"],
            },
            metadata={"attachments": attachments},
        ),
        _node("a", "q", "assistant", {"content_type": "text", "parts": ["Fushimi Inari."]}),
        _node("q2", "a", "user", {"content_type": "text", "parts": ["Draw a fox there."]}),
        _node(
            "draw",
            "q2",
            "assistant",
            {"content_type": "code", "text": '{"prompt": "a fox at a torii gate"}'},
            recipient="dalle.text2im",
        ),
        _node(
            "drawn",
            "draw",
            "tool",
            {"content_type": "multimodal_text", "parts": [_image("sediment://file-Dalle1")]},
            author_name="dalle.text2im",
        ),
        _node("done", "drawn", "assistant", {"content_type": "text", "parts": ["Here it is."]}),
    ]
    for parent, child in pairwise(nodes):
        parent["children"] = [child["id"]]
    mapping = {n["id"]: n for n in nodes}
    return [
        {"id": CONVERSATION, "title": "Kyoto photos", "mapping": mapping, "current_node": "done"}
    ]


PHOTO_LISTED = {"id": "file-Photo1", "name": "torii.png", "mime_type": "image/png"}


def _zip(
    path: Path,
    members: dict[str, bytes],
    attachments: list[dict[str, str]] | None = None,
    stored: frozenset[str] = frozenset(),
) -> Path:
    """A ChatGPT export zip: conversations.json and `members` (those in `stored` kept
    uncompressed, as a zip tool does for data that does not shrink)."""
    data = _conversation([PHOTO_LISTED] if attachments is None else attachments)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("conversations.json", json.dumps(data))
        for name, content in members.items():
            kind = zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED
            archive.writestr(name, content, compress_type=kind)
    return path


def _import(db: Database, store: AttachmentStore | None, path: Path) -> ImportOutcome:
    preview = read_export(path, readers=[chatgpt])
    return import_preview(
        db, preview, progress=lambda _done, _total: None, cancelled=lambda: False, attachments=store
    )


def _messages(db: Database) -> dict[str, Message]:
    conversation = derived_id("chatgpt", "conversation", CONVERSATION)
    return {m.id: m for m in ChatRepository(db).messages(conversation)}


def _attached(store: AttachmentStore, message: Message) -> list[Attachment]:
    return store.get_many(message.context.attachment_ids)


def _notices(message: Message) -> list[str]:
    return [p.text for p in message.parts if isinstance(p, NoticePart)]


def test_the_photo_is_stored_and_attached_to_the_question(tmp_path, db, store):
    outcome = _import(db, store, _zip(tmp_path / "export.zip", {PHOTO_MEMBER: PHOTO}))
    assert outcome.added == 1 and outcome.skipped == ()
    question = _messages(db)[_m("q")]
    assert question.parts == [TextPart("Where is this?")]  # no notice: the photo is here
    (photo,) = _attached(store, question)
    assert (photo.name, photo.mime, photo.kind) == ("torii.png", "image/png", AttachmentKind.IMAGE)
    assert (photo.width, photo.height, photo.size) == (40, 30, len(PHOTO))
    assert store.read_bytes(photo) == PHOTO


def test_a_dalle_picture_goes_on_the_card_of_the_call_that_drew_it(tmp_path, db, store):
    export = _zip(tmp_path / "export.zip", {PHOTO_MEMBER: PHOTO, DALLE_MEMBER: PHOTO})
    outcome = _import(db, store, export)
    assert outcome.files_added == 2 and outcome.skipped == ()
    answer = _messages(db)[_m("draw")]
    (call,) = [p for p in answer.parts if isinstance(p, ToolCallPart)]
    assert call.name == "dalle.text2im"
    (picture,) = store.get_many(call.attachment_ids)
    assert picture.kind is AttachmentKind.IMAGE and store.read_bytes(picture) == PHOTO
    assert answer.context.attachment_ids == ()  # the model's picture, not a sent file
    assert _notices(answer) == []
    assert answer.text.endswith("Here it is.")


def test_a_pdf_the_person_attached_is_stored_with_its_text(tmp_path, db, store):
    pdf = make_pdf(["Day one: Fushimi Inari at dawn."])
    listed = [
        PHOTO_LISTED,
        {"id": "file-Plan1", "name": "plan.pdf", "mime_type": "application/pdf"},
    ]
    export = _zip(
        tmp_path / "export.zip", {PHOTO_MEMBER: PHOTO, "file-Plan1-plan.pdf": pdf}, listed
    )
    outcome = _import(db, store, export)
    assert outcome.files_added == 2 and outcome.skipped == ()
    photo, plan = _attached(store, _messages(db)[_m("q")])
    assert photo.name == "torii.png"
    assert (plan.name, plan.kind, plan.mime) == (
        "plan.pdf",
        AttachmentKind.DOCUMENT,
        "application/pdf",
    )
    assert store.read_bytes(plan) == pdf
    assert "Fushimi Inari at dawn" in (store.load_text(plan) or "")


def test_a_file_of_the_newest_exports_gets_the_suffix_of_what_it_is(tmp_path, db, store):
    """The newest exports keep every file as `<id>.dat`."""
    export = _zip(tmp_path / "export.zip", {"file-Photo1.dat": PHOTO}, attachments=[])
    assert _import(db, store, export).files_added == 1
    (photo,) = _attached(store, _messages(db)[_m("q")])
    assert (photo.name, photo.mime) == ("file-Photo1.png", "image/png")


def test_importing_the_same_export_again_stores_nothing_new(tmp_path, db, store):
    export = _zip(tmp_path / "export.zip", {PHOTO_MEMBER: PHOTO, DALLE_MEMBER: PHOTO})
    first = _import(db, store, export)
    before = _messages(db)
    second = _import(db, store, export)
    assert (first.files_added, second.files_added) == (2, 0)
    assert (second.added, second.unchanged, second.messages_added) == (0, 1, 0)
    after = _messages(db)
    assert after[_m("q")].context.attachment_ids == before[_m("q")].context.attachment_ids
    (photo_id,) = after[_m("q")].context.attachment_ids
    expected = ImportedFile(_m("q"), "file-Photo1", PHOTO_MEMBER, "torii.png").attachment_id
    assert photo_id == expected  # derived from the export: the same on every import
    with db.read() as conn:
        (rows,) = conn.exec_driver_sql("SELECT count(*) FROM attachments").one()
    assert rows == 2


def test_a_file_the_export_does_not_hold_is_counted_and_leaves_a_notice(tmp_path, db, store):
    listed = [
        PHOTO_LISTED,
        {"id": "file-Gone1", "name": "route.pdf", "mime_type": "application/pdf"},
    ]
    export = _zip(tmp_path / "export.zip", {PHOTO_MEMBER: PHOTO}, listed)
    preview = read_export(export, readers=[chatgpt])
    assert (preview.totals.files, preview.totals.files_left_out) == (1, 2)  # the PDF, DALL·E's
    outcome = _import(db, store, export)
    assert outcome.files_added == 1 and outcome.skipped == ()  # nothing to try: it is not there
    question = _messages(db)[_m("q")]
    assert len(_attached(store, question)) == 1
    assert _notices(question) == [
        "The file “route.pdf” was attached here in ChatGPT; it was not imported."
    ]


def _skipped_alone(outcome: ImportOutcome, name: str) -> str:
    """The one file `outcome` skipped, named `name`: its reason."""
    assert outcome.added == 1 and outcome.messages_added == 4  # the whole conversation
    assert [s.where for s in outcome.skipped] == [f"{name} in “Kyoto photos”"]
    return outcome.skipped[0].reason


def _notice_on(db: Database, node: str, name: str, reason: str) -> None:
    message = _messages(db)[_m(node)]
    expected = f"The file {name} was attached here; it could not be imported: {reason}."
    assert _notices(message) == [expected.replace("..", ".")]


def test_a_file_gone_from_the_export_since_the_preview_is_skipped(tmp_path, db, store):
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "conversations.json").write_text(json.dumps(_conversation([PHOTO_LISTED])))
    (folder / PHOTO_MEMBER).write_bytes(PHOTO)
    preview = read_export(folder, readers=[chatgpt])
    (folder / PHOTO_MEMBER).unlink()  # the person tidied up while looking at the preview
    outcome = import_preview(
        db, preview, progress=lambda _d, _t: None, cancelled=lambda: False, attachments=store
    )
    reason = _skipped_alone(outcome, "torii.png")
    assert reason == f"The export has no file {PHOTO_MEMBER}."
    _notice_on(db, "q", "torii.png", reason)
    assert _messages(db)[_m("q")].context.attachment_ids == ()


def test_a_file_larger_than_any_attachment_is_skipped_unread(tmp_path, db, store):
    huge = PHOTO + bytes(READ_LIMIT + 1 - len(PHOTO))
    export = _zip(tmp_path / "export.zip", {PHOTO_MEMBER: huge}, stored=frozenset({PHOTO_MEMBER}))
    outcome = _import(db, store, export)
    reason = _skipped_alone(outcome, "torii.png")
    assert reason == "larger than the 20 MiB limit for images"
    _notice_on(db, "q", "torii.png", reason)
    assert outcome.files_added == 0
    with db.read() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM attachments").one() == (0,)


def test_a_file_that_is_not_what_its_name_says_is_skipped(tmp_path, db, store):
    export = _zip(tmp_path / "export.zip", {PHOTO_MEMBER: b"just some words, not a picture"})
    reason = _skipped_alone(_import(db, store, export), "torii.png")
    assert reason == "not a valid PNG image"
    _notice_on(db, "q", "torii.png", reason)


def test_an_image_of_a_kind_parley_cannot_attach_is_skipped(tmp_path, db, store):
    gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;"
    listed = [{"id": "file-Photo1", "name": "torii.gif", "mime_type": "image/gif"}]
    export = _zip(tmp_path / "export.zip", {"file-Photo1-torii.gif": gif}, listed)
    reason = _skipped_alone(_import(db, store, export), "torii.gif")
    assert reason.startswith("only PNG, JPEG and WebP images are supported")
    _notice_on(db, "q", "torii.gif", reason)


def test_a_damaged_zip_member_is_skipped_and_the_rest_imports(tmp_path, db, store):
    whole = _zip(tmp_path / "whole.zip", {PHOTO_MEMBER: PHOTO, DALLE_MEMBER: PHOTO})
    damaged = tmp_path / "damaged.zip"
    damaged.write_bytes(with_bad_crc(whole.read_bytes(), PHOTO_MEMBER))
    outcome = _import(db, store, damaged)
    reason = _skipped_alone(outcome, "torii.png")
    assert reason.startswith("it could not be read from the export") and "CRC" in reason
    _notice_on(db, "q", "torii.png", reason)
    assert outcome.files_added == 1  # DALL·E's picture, read from the same zip
    (call,) = [p for p in _messages(db)[_m("draw")].parts if isinstance(p, ToolCallPart)]
    assert len(call.attachment_ids) == 1


def test_without_an_attachment_store_every_file_is_skipped_with_its_reason(tmp_path, db):
    export = _zip(tmp_path / "export.zip", {PHOTO_MEMBER: PHOTO})
    outcome = _import(db, None, export)
    reason = _skipped_alone(outcome, "torii.png")
    assert reason == "files cannot be kept in this window"
    _notice_on(db, "q", "torii.png", reason)


def test_a_conversations_json_chosen_alone_says_once_to_choose_the_zip(tmp_path, db, store):
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(_conversation([PHOTO_LISTED])), encoding="utf-8")
    preview = read_export(path, readers=[chatgpt])
    (said,) = preview.skipped
    assert said.where == "conversations.json"
    assert "Choose the export's zip file" in said.reason
    assert "2 image(s) and file(s)" in said.reason  # the photo and DALL·E's picture
    (item,) = preview.conversations
    assert item.files == () and item.notes == ()  # said once, not per conversation
    outcome = _import(db, store, path)
    assert (outcome.added, outcome.files_added, outcome.skipped) == (1, 0, ())
    assert _notices(_messages(db)[_m("q")]) == [
        "An image was attached here in ChatGPT; it was not imported."
    ]
