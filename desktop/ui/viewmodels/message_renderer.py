"""Turns messages into `MessageItem`s, keeping a block cache per streaming message.

While an answer streams, only its last markdown block is re-rendered on each update;
finished messages are rendered once and kept until the view is reset.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial

from desktop.core.models import Message, MessageStatus, Role
from desktop.render.guard import plain_text_html
from desktop.render.markdown import render_markdown
from desktop.render.streaming import StreamingRenderer
from desktop.ui.viewmodels import message_item as mi
from desktop.ui.viewmodels.message_item import MessageItem


def user_text_html(text: str) -> str:
    """What the person typed, exactly: no markdown, line breaks and spaces kept."""
    return f'<p style="white-space: pre-wrap; margin: 0">{html.escape(text)}</p>'


class MessageRenderer:
    def __init__(self, dark: bool = False) -> None:
        self._dark = dark
        self._streaming: dict[str, StreamingRenderer] = {}
        self._done: dict[str, tuple[str, str]] = {}  # id -> (source, html)

    def set_dark(self, dark: bool) -> None:
        if dark != self._dark:
            self._dark = dark
            self.forget_all()

    def forget_all(self) -> None:
        self._streaming.clear()
        self._done.clear()

    def _html(self, message: Message, text: str) -> str:
        if message.role is Role.USER:
            return user_text_html(text)
        if message.status is MessageStatus.STREAMING:
            renderer = self._streaming.get(message.id)
            if renderer is None:
                renderer = self._streaming[message.id] = StreamingRenderer(dark=self._dark)
            return renderer.render(text)
        streamed = self._streaming.pop(message.id, None)
        cached = self._done.get(message.id)
        if cached is not None and cached[0] == text:
            return cached[1]
        # The answer just completed: its streaming renderer has every block but the last
        # cached and gives exactly what a full render gives, at a fraction of the cost.
        html = streamed.render(text) if streamed else render_markdown(text, dark=self._dark)
        self._done[message.id] = (text, html)
        return html

    def item(self, message: Message, version: tuple[int, int] = (1, 1)) -> MessageItem:
        text = message.text
        reasoning = mi.reasoning_text(message)
        streaming = message.status is MessageStatus.STREAMING
        body: str | Callable[[], str] = ""
        if text:
            # A streaming answer is on screen: render now. Others only when laid out.
            body = self._html(message, text) if streaming else partial(self._html, message, text)
        answer = message.role is Role.ASSISTANT
        return MessageItem(
            id=message.id,
            is_user=message.role is Role.USER,
            markdown=text,
            html_source=body,
            reasoning_html=plain_text_html(reasoning) if reasoning else "",
            reasoning_label=mi.reasoning_label(message),
            reasoning_live=mi.is_reasoning_live(message),
            notices=mi.notices(message),
            error=mi.error_text(message),
            status_label=mi.status_label(message.status),
            meta=mi.meta_line(message) if message.role is Role.ASSISTANT else "",
            streaming=streaming,
            version_index=version[0],
            version_count=version[1],
            can_continue=answer
            and message.status in (MessageStatus.CANCELLED, MessageStatus.INTERRUPTED),
            can_retry=answer and message.status is MessageStatus.ERROR,
        )
