"""Helpers for the transcript tests: message items without a database, and where things are."""

from __future__ import annotations

import html as html_lib
from dataclasses import replace

from desktop.render import render_markdown
from desktop.ui.viewmodels.message_item import MessageItem

PARAGRAPH = (
    "Streaming keeps the reader in place: each new sentence lands at the end while the "
    "window follows it, unless the person scrolled up to read something earlier. "
)


def message(
    message_id: str,
    *,
    user: bool = False,
    text: str = "A short answer.",
    streaming: bool = False,
    **fields: object,
) -> MessageItem:
    """A MessageItem as the view-model makes it (markdown for answers, plain for the person)."""
    body = (
        f'<p style="white-space: pre-wrap; margin: 0">{html_lib.escape(text)}</p>'
        if user
        else render_markdown(text)
    )
    item = MessageItem(
        id=message_id,
        is_user=user,
        markdown=text,
        html_source=body,
        reasoning_source="",
        reasoning_label="",
        reasoning_live=False,
        notices=(),
        error="",
        status_label="",
        meta="" if user else "test-model · 12:00",
        streaming=streaming,
    )
    return replace(item, **fields) if fields else item  # type: ignore[arg-type]


def conversation(count: int, *, answer: str = PARAGRAPH * 3) -> list[MessageItem]:
    """`count` messages alternating question and answer (answers rendered once)."""
    rendered = render_markdown(answer)
    items = []
    for number in range(count):
        if number % 2 == 0:
            items.append(message(f"m{number}", user=True, text=f"Question {number}"))
        else:
            items.append(
                replace(message(f"m{number}", text="x"), markdown=answer, html_source=rendered)
            )
    return items


def live_ids(transcript) -> list[str]:
    return [mid for mid in transcript.message_ids() if transcript.message_widget(mid) is not None]


def screen_top(transcript, message_id: str) -> int:
    """Where a message's widget starts on the transcript's viewport."""
    return transcript.message_widget(message_id).geometry().top()
