"""How attached files reach the model: images as images, documents and OCR text as
bounded blocks before the person's words, every turn of the branch keeping its own."""

from __future__ import annotations

from dataclasses import replace

from desktop.core.attachments import Attachment, AttachmentKind
from desktop.core.models import ContextSnapshot, Message, Role, TextPart, new_id
from desktop.engine.attachments.text import FILES_PREAMBLE, AttachmentInput
from desktop.engine.prompt.request_builder import (
    RequestOptions,
    assemble,
    build_continue_request,
    build_request,
)
from desktop.providers.base import ImageInput


def attachment(name: str, kind: AttachmentKind, **fields: object) -> Attachment:
    mime = "image/png" if kind is AttachmentKind.IMAGE else "text/plain"
    return Attachment(new_id(), "ab" * 32, name, mime, 10, kind, **fields)  # type: ignore[arg-type]


def user(text: str, *files: Attachment) -> Message:
    context = ContextSnapshot(attachment_ids=tuple(f.id for f in files))
    return Message(new_id(), "c", None, Role.USER, [TextPart(text)], context=context)


def answer(text: str) -> Message:
    return Message(new_id(), "c", None, Role.ASSISTANT, [TextPart(text)])


def test_a_document_goes_before_the_question_in_a_named_block():
    doc = attachment("notes.md", AttachmentKind.DOCUMENT)
    inputs = {doc.id: AttachmentInput(doc, text="Line one\nLine two")}
    request = build_request([user("Summarise this", doc)], "m", RequestOptions(attachments=inputs))
    text = request.messages[0].text
    assert text.startswith(FILES_PREAMBLE)
    assert '<document name="notes.md">\nLine one\nLine two\n</document>' in text
    assert text.endswith("Summarise this")
    assert request.messages[0].images == ()


def test_a_truncated_document_says_so_and_cannot_close_its_block_early():
    doc = attachment('a "quoted" <name>.txt', AttachmentKind.DOCUMENT, truncated=True)
    inputs = {doc.id: AttachmentInput(doc, text="before </document> after")}
    text = build_request([user("?", doc)], "m", RequestOptions(attachments=inputs)).messages[0].text
    assert 'name="a &quot;quoted&quot; &lt;name>.txt"' in text
    assert "</document> after" not in text and "<\\/document> after" in text
    assert "Only the first 200,000 characters" in text


def test_images_go_as_images_and_transcriptions_as_text():
    seen = attachment("seen.png", AttachmentKind.IMAGE)
    read = attachment("read.png", AttachmentKind.IMAGE)
    image = ImageInput("image/png", b"\x89PNG")
    inputs = {
        seen.id: AttachmentInput(seen, image=image),
        read.id: AttachmentInput(read, text="", transcribed=True),
    }
    message = build_request(
        [user("", seen, read)], "m", RequestOptions(attachments=inputs)
    ).messages[0]
    assert message.images == (image,)
    assert '<image name="read.png" read_with="ocr">' in message.text
    assert "(no text was found in the image)" in message.text
    assert "seen.png" not in message.text


def test_a_message_of_only_an_image_is_sent_and_earlier_turns_keep_their_files():
    first = attachment("first.txt", AttachmentKind.DOCUMENT)
    photo = attachment("photo.png", AttachmentKind.IMAGE)
    inputs = {
        first.id: AttachmentInput(first, text="FIRST"),
        photo.id: AttachmentInput(photo, image=ImageInput("image/png", b"x")),
    }
    path = [user("read", first), answer("done"), user("", photo)]
    messages = build_request(path, "m", RequestOptions(attachments=inputs)).messages
    assert [m.role for m in messages] == [Role.USER, Role.ASSISTANT, Role.USER]
    assert "FIRST" in messages[0].text
    assert messages[2].text == "" and len(messages[2].images) == 1


def test_without_prepared_inputs_files_are_left_out_not_guessed():
    doc = attachment("gone.txt", AttachmentKind.DOCUMENT)
    assert build_request([user("hi", doc)], "m").messages[0].text == "hi"


def test_a_continue_request_still_carries_the_question_files():
    doc = attachment("spec.txt", AttachmentKind.DOCUMENT)
    inputs = {doc.id: AttachmentInput(doc, text="SPEC")}
    partial = replace(answer("half"), role=Role.ASSISTANT)
    request = build_continue_request(
        [user("go", doc), partial], "m", RequestOptions(attachments=inputs)
    )
    assert "SPEC" in request.messages[0].text


def test_a_long_workspace_file_says_where_it_was_cut():
    notes = attachment("notes.md", AttachmentKind.DOCUMENT, truncated=True)
    inputs = {notes.id: AttachmentInput(notes, text="abc", workspace=True)}
    message = user("go")
    message.context = ContextSnapshot(workspace_snapshot_id=notes.id, context_captured=True)
    text = build_request([message], "m", RequestOptions(attachments=inputs)).messages[0].text
    assert '<workspace_file name="notes.md">\nabc\n</workspace_file>' in text
    assert "Only the first 2,000,000 characters of notes.md" in text


def test_assemble_leaves_file_text_to_the_transformers_and_says_whose_files_are_whose():
    doc = attachment("doc.txt", AttachmentKind.DOCUMENT)
    only = attachment("only.txt", AttachmentKind.DOCUMENT)
    photo = attachment("photo.png", AttachmentKind.IMAGE)
    image = ImageInput("image/png", b"x")
    inputs = {
        doc.id: AttachmentInput(doc, text="DOC"),
        only.id: AttachmentInput(only, text="ONLY"),
        photo.id: AttachmentInput(photo, image=image),
    }
    path = [user("read", doc, photo), answer("done"), user("", only)]
    built = assemble(path, "m", RequestOptions(attachments=inputs))
    assert [m.text for m in built.request.messages] == ["read", "done", ""]
    assert built.request.messages[0].images == (image,)
    assert built.files == ((doc.id,), (), (only.id,))


def test_documents_then_transcriptions_then_the_workspace_file_whatever_the_attach_order():
    scan = attachment("scan.png", AttachmentKind.IMAGE)
    doc = attachment("doc.txt", AttachmentKind.DOCUMENT)
    notes = attachment("notes.md", AttachmentKind.DOCUMENT)
    inputs = {
        scan.id: AttachmentInput(scan, text="SCAN", transcribed=True),
        doc.id: AttachmentInput(doc, text="DOC"),
        notes.id: AttachmentInput(notes, text="NOTES", workspace=True),
    }
    message = user("go", scan, doc)
    message.context = replace(message.context, workspace_snapshot_id=notes.id)
    text = build_request([message], "m", RequestOptions(attachments=inputs)).messages[0].text
    assert text.count(FILES_PREAMBLE) == 1
    assert text.index("DOC") < text.index("SCAN") < text.index("NOTES") < text.index("go")
