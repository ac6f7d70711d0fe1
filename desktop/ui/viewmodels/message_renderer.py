"""Turns messages into `MessageItem`s, keeping a block cache per streaming message.

While an answer streams, only its last markdown block is re-rendered on each update;
finished messages are rendered once and kept until the view is reset.

With remote images allowed, the web images a rendered answer links to are requested
(`request_image`); when one has loaded, `image_loaded` names the messages to show again,
now with the image inline.

With a maths typesetter, a formula shows its source until it is typeset; the messages
that show one are noted (`maths_typeset` names them once it is, to be shown again). An
answer that finished with formulas still pending keeps its block cache, so showing it
again renders only the blocks that hold them.

A message longer than ``MAX_SHOWN_CHARS`` shows only its beginning (its item says so, and
the view offers the whole text); the person's text and reasoning are plain text in
bounded units with soft breaks, like the plain part of an answer (see ``render/plain``).
"""

from __future__ import annotations

from collections.abc import Callable

from markdown_it.common.utils import escapeHtml

from desktop.core.models import Message, MessageStatus, Role, TextPart, ToolCallPart
from desktop.engine.turn import versions
from desktop.render.blocks import note
from desktop.render.guard import MAX_SHOWN_CHARS
from desktop.render.images import pending_images
from desktop.render.markdown import render_markdown
from desktop.render.maths import MathSource, pending_maths
from desktop.render.plain import units_html
from desktop.render.streaming import RunAhead, StreamingRenderer
from desktop.render.theme import palette
from desktop.ui.viewmodels import message_item as mi
from desktop.ui.viewmodels.citation_card import citation_cards, source_numbers
from desktop.ui.viewmodels.long_text import cut_note, hidden_note
from desktop.ui.viewmodels.message_item import MessageItem, Segment, TextSegment, ToolSegment
from desktop.ui.viewmodels.tool_card import tool_cards

USER_TEXT_OPEN = '<p style="white-space: pre-wrap; margin: 0">'


def user_text_html(text: str) -> str:
    """What the person typed, exactly: no markdown, line breaks and spaces kept."""
    return units_html(text[:MAX_SHOWN_CHARS], USER_TEXT_OPEN, "</p>")


def _hidden_after(html: str, text: str, *, dark: bool) -> str:
    """`html`, and past the shown limit a line saying how much more `text` there is."""
    hidden = len(text) - MAX_SHOWN_CHARS
    if hidden > 0:
        html += "\n" + note(hidden_note(hidden), palette(dark))
    return html


def answer_flow(message: Message) -> list[str | tuple[int, int]]:
    """An answer that called tools, in the order it was written: its text between the
    calls, and (first, stop) runs of its calls (indices among its tool calls). Empty when
    it called none: its text is one piece then."""
    flow: list[str | tuple[int, int]] = []
    calls = 0
    for part in message.parts:
        last = flow[-1] if flow else None
        if isinstance(part, TextPart):
            if isinstance(last, str):
                flow[-1] = last + part.text
            else:
                flow.append(part.text)
        elif isinstance(part, ToolCallPart):
            if isinstance(last, tuple):
                flow[-1] = (last[0], calls + 1)
            else:
                flow.append((calls, calls + 1))
            calls += 1
    if not calls:
        return []
    return [piece for piece in flow if not isinstance(piece, str) or piece.strip()]


def _may_hold_maths(text: str) -> bool:
    return "$" in text or "\\(" in text or "\\[" in text


class _Body:
    """A message's HTML, rendered when first asked for. One small object per message
    (a bound method in a `partial` is three): a long chat keeps thousands of these, and
    every full pass of the garbage collector walks them all."""

    __slots__ = ("_key", "_last", "_message", "_renderer", "_text")

    def __init__(
        self,
        renderer: MessageRenderer,
        message: Message,
        text: str,
        key: str = "",
        last: bool = True,
    ) -> None:
        self._renderer = renderer
        self._message = message
        self._text = text
        self._key = key
        self._last = last

    def __call__(self) -> str:
        return self._renderer._html(self._message, self._text, self._key, self._last)


class _Reasoning(_Body):
    """A message's reasoning as HTML, rendered when the person opens it."""

    __slots__ = ()

    def __call__(self) -> str:
        return self._renderer._reasoning_html(self._message, self._text)


class MessageRenderer:
    def __init__(
        self,
        dark: bool = False,
        request_image: Callable[[str], object] | None = None,
        maths: MathSource | None = None,
        ahead: RunAhead | None = None,
    ) -> None:
        self._dark = dark
        self._maths = maths
        self._ahead = ahead  # where streaming answers are split and rendered ahead
        self._streaming: dict[str, StreamingRenderer] = {}
        # Finished answers showing formulas still being typeset: their block caches.
        self._settling: dict[str, StreamingRenderer] = {}
        self._math_waiting: dict[str, dict[str, Message]] = {}  # formula key -> messages
        # id -> (source, the source numbers it was rendered with, html)
        self._done: dict[str, tuple[str, frozenset[int], str]] = {}
        self._request_image = request_image
        self._remote_images = False
        self._loaded: frozenset[str] = frozenset()  # image URLs loaded so far
        self._waiting: dict[str, dict[str, Message]] = {}  # image URL -> messages linking it
        # What an answer cost, for its footer ("" when its model has no price).
        self.cost_text: Callable[[Message], str] | None = None
        self.blocks_taken_ahead = 0  # blocks rendered by the worker, not here (tests)

    def _cost(self, message: Message) -> str:
        if self.cost_text is None or message.status is MessageStatus.STREAMING:
            return ""
        return self.cost_text(message)

    @property
    def _images(self) -> frozenset[str] | None:
        """What the renderer is told about images (None: remote images are off)."""
        return self._loaded if self._remote_images else None

    def set_remote_images(self, enabled: bool) -> bool:
        """Allow or stop inline web images; True when what is on screen must be redone."""
        if enabled == self._remote_images:
            return False
        self._remote_images = enabled
        self.forget_all()
        return True

    def image_loaded(self, url: str) -> list[Message]:
        """Note that `url` has loaded; the messages showing its link, to be shown again."""
        self._loaded |= {url}
        waiting = self._waiting.pop(url, {})
        for message_id in waiting:
            for key in self._forget(message_id):
                if key in self._streaming:  # its cached blocks hold the link
                    self._streaming[key] = self._new_renderer()
        return list(waiting.values()) if self._remote_images else []

    def maths_typeset(self, keys: list[str]) -> list[Message]:
        """Note that the formulas `keys` are ready (or failed); the messages showing them
        as source, to be shown again."""
        messages: dict[str, Message] = {}
        for key in keys:
            messages.update(self._math_waiting.pop(key, {}))
        for message_id in messages:
            self._forget(message_id)
        return list(messages.values())

    def _forget(self, message_id: str) -> list[str]:
        """Drop the finished renders of a message (its text pieces, its reasoning); the
        keys they had (see `_key`)."""
        keys = [k for k in (*self._done, *self._streaming) if _key_of(k) == message_id]
        for key in keys:
            self._done.pop(key, None)
        return keys

    def _new_renderer(self) -> StreamingRenderer:
        return StreamingRenderer(
            dark=self._dark, images=self._images, maths=self._maths, ahead=self._ahead
        )

    def prefetch(self, message: Message) -> None:
        """A streaming answer's update that will be shown soon: have its text split and
        its blocks rendered ahead, off this thread (see ``render/ahead``). An answer that
        called tools is rendered piece by piece when shown, as before."""
        if message.role is not Role.ASSISTANT or message.status is not MessageStatus.STREAMING:
            return
        text = message.text
        if not text or any(isinstance(part, ToolCallPart) for part in message.parts):
            return  # see `item`: only an answer without calls is one piece of text
        renderer = self._streaming.get(message.id)
        if renderer is None:
            renderer = self._streaming[message.id] = self._new_renderer()
        renderer.citations = source_numbers(message)
        renderer.prefetch(text)

    def image_evicted(self, url: str) -> None:
        """`url` is no longer cached: render it as a link again (it will be requested)."""
        self._loaded -= {url}
        shown = f'<img src="{escapeHtml(url)}"'
        for message_id, (_text, _sources, rendered) in list(self._done.items()):
            if shown in rendered:
                del self._done[message_id]
        self._streaming.clear()  # rebuilt on the next update, with the current images

    def set_dark(self, dark: bool) -> None:
        if dark != self._dark:
            self._dark = dark
            self.forget_all()

    def forget_all(self) -> None:
        self._streaming.clear()
        self._settling.clear()
        self._done.clear()
        self._waiting.clear()
        self._math_waiting.clear()

    def _html(self, message: Message, text: str, key: str = "", last: bool = True) -> str:
        """`text` of `message` as HTML. `key` names the piece in the caches (the message
        id for its first or only text, see `_key`); only the `last` piece of a streaming
        answer is still growing."""
        rendered = self._rendered(message, text, key or message.id, last)
        if self._remote_images and self._request_image is not None:
            for url in pending_images(rendered):
                self._waiting.setdefault(url, {})[message.id] = message
                self._request_image(url)
        if self._maths is not None:
            for formula in pending_maths(rendered):
                self._math_waiting.setdefault(formula, {})[message.id] = message
        return rendered

    def _rendered(self, message: Message, text: str, key: str, last: bool) -> str:
        if message.role is Role.USER:
            return user_text_html(text)
        # The sources this answer was given: its [n] for them are links. The set grows
        # while an answer that searches streams; every cached render depends on it.
        sources = source_numbers(message)
        if message.status is MessageStatus.STREAMING and last:
            renderer = self._streaming.get(key)
            if renderer is None:
                renderer = self._streaming[key] = self._new_renderer()
            renderer.citations = sources
            return self._counted(renderer, text)
        streamed = self._streaming.pop(key, None) or self._settling.pop(key, None)
        cached = self._done.get(key)
        if cached is not None and cached[0] == text and cached[1] == sources:
            return cached[2]
        if streamed is None and self._maths is not None and _may_hold_maths(text):
            streamed = self._new_renderer()
        if streamed is not None:
            streamed.citations = sources
        # The answer just completed: its streaming renderer has every block but the last
        # cached and gives exactly what a full render gives, at a fraction of the cost.
        html = (
            self._counted(streamed, text, final=True)
            if streamed
            else render_markdown(
                text,
                dark=self._dark,
                images=self._images,
                maths=self._maths,
                citations=sources,
            )
        )
        if streamed is not None and self._maths is not None and pending_maths(html):
            self._settling[key] = streamed
        self._done[key] = (text, sources, html)
        return html

    def _counted(self, renderer: StreamingRenderer, text: str, *, final: bool = False) -> str:
        """`renderer.render(text)`, counting the blocks it took from the worker."""
        before = renderer.prefetched
        html = renderer.render(text, final=final)
        self.blocks_taken_ahead += renderer.prefetched - before
        return html

    def _reasoning_html(self, message: Message, text: str) -> str:
        """The model's reasoning rendered as markdown like the answer (no citations, no
        web images): it streams open while live and is cached once it is done."""
        key = f"{message.id}:r"
        if mi.is_reasoning_live(message):
            renderer = self._streaming.get(key)
            if renderer is None:
                renderer = self._streaming[key] = self._reasoning_renderer()
            html = renderer.render(text)
        else:
            streamed = self._streaming.pop(key, None)
            cached = self._done.get(key)
            if cached is not None and cached[0] == text:
                return cached[2]
            if streamed is not None:
                html = streamed.render(text, final=True)
            else:
                html = render_markdown(text, dark=self._dark, maths=self._maths)
            html = _hidden_after(html, text, dark=self._dark)
            self._done[key] = (text, frozenset(), html)
        if self._maths is not None:
            for formula in pending_maths(html):
                self._math_waiting.setdefault(formula, {})[message.id] = message
        return html

    def _reasoning_renderer(self) -> StreamingRenderer:
        return StreamingRenderer(dark=self._dark, images=None, maths=self._maths)

    def item(self, message: Message, version: tuple[int, int] = (1, 1)) -> MessageItem:
        """Opening a long chat makes thousands of these, so the common case is kept cheap:
        a message of text parts only (most of them) skips the look for the other kinds,
        and the body is rendered only if the transcript lays the message out."""
        text = message.text
        only_text = all(isinstance(p, TextPart) for p in message.parts)
        reasoning = "" if only_text else mi.reasoning_text(message)
        streaming = message.status is MessageStatus.STREAMING
        body: str | Callable[[], str] = ""
        flow = [] if only_text else answer_flow(message)
        if text and not flow:
            # A streaming answer is on screen: render now. Others only when laid out.
            body = self._html(message, text) if streaming else _Body(self, message, text)
        answer = message.role is Role.ASSISTANT
        return MessageItem(
            id=message.id,
            is_user=message.role is Role.USER,
            markdown=text,
            html_source=body,
            reasoning_source=_Reasoning(self, message, reasoning) if reasoning else "",
            reasoning_label="" if only_text else mi.reasoning_label(message),
            reasoning_live=not only_text and mi.is_reasoning_live(message),
            notices=() if only_text else mi.notices(message),
            error=mi.error_text(message) if message.save_error or not only_text else "",
            status_label=mi.status_label(message.status, message.retry, message.activity),
            meta=mi.meta_line(message, self._cost(message)) if answer else "",
            streaming=streaming,
            version_index=version[0],
            version_count=version[1],
            can_continue=answer and versions.can_continue(message),
            can_retry=answer and message.status is MessageStatus.ERROR,
            tools=() if only_text else tool_cards(message),
            awaiting_approval=message.status is MessageStatus.AWAITING_APPROVAL,
            cut_note=cut_note(MAX_SHOWN_CHARS, len(text)) if len(text) > MAX_SHOWN_CHARS else "",
            sources=() if only_text or not answer else citation_cards(message),
            segments=self._segments(message, flow, streaming),
        )

    def _segments(
        self, message: Message, flow: list[str | tuple[int, int]], streaming: bool
    ) -> tuple[Segment, ...]:
        segments: list[Segment] = []
        pieces = sum(isinstance(piece, str) for piece in flow)
        for piece in flow:
            if isinstance(piece, tuple):
                segments.append(ToolSegment(*piece))
                continue
            index = sum(isinstance(s, TextSegment) for s in segments)
            key = _key(message.id, index)
            last = index == pieces - 1 and not isinstance(flow[-1], tuple)
            source: str | Callable[[], str] = (
                self._html(message, piece, key, last)
                if streaming
                else _Body(self, message, piece, key, last)
            )
            segments.append(TextSegment(source))
        return tuple(segments)


def _key(message_id: str, index: int) -> str:
    """The cache key of a message's `index`th text piece: its id for the first (so an
    answer's text keeps its cache when a tool call splits it), then ``id:n``."""
    return message_id if index == 0 else f"{message_id}:{index}"


def _key_of(key: str) -> str:
    """The message a cache key belongs to."""
    return key.partition(":")[0]
