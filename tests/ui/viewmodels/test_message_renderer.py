"""Completing a streamed answer reuses its block cache instead of rendering it again."""

from __future__ import annotations

from dataclasses import replace

from desktop.core.models import Message, MessageStatus, Role, TextPart
from desktop.render.markdown import render_markdown
from desktop.ui.viewmodels.message_renderer import MessageRenderer

ANSWER = "".join(
    f"## Part {i}\n\nSome *text* for part {i}.\n\n```python\nprint({i})\n```\n\n" for i in range(30)
)


def test_the_completing_update_equals_a_full_render_and_reuses_the_cached_blocks():
    renderer = MessageRenderer()
    message = Message("m", "c", None, Role.ASSISTANT, status=MessageStatus.STREAMING)
    for end in range(200, len(ANSWER), 200):
        renderer.item(replace(message, parts=[TextPart(ANSWER[:end])]))  # rendered at once
    streamed = renderer._streaming["m"]
    before = streamed.block_renders
    done = replace(message, parts=[TextPart(ANSWER)], status=MessageStatus.COMPLETE)
    assert renderer.item(done).html == render_markdown(ANSWER)
    assert 0 < streamed.block_renders - before < 5  # the cache did the work: only the tail


CHART = "https://example.com/chart.png"


def test_images_are_requested_only_when_allowed_and_shown_once_loaded():
    requested: list[str] = []
    renderer = MessageRenderer(request_image=requested.append)
    answer = Message(
        "a", "c", None, Role.ASSISTANT, [TextPart(f"See ![chart]({CHART})")], MessageStatus.COMPLETE
    )
    off = renderer.item(answer).html
    assert "<img" not in off and 'class="pending-image"' not in off
    assert requested == []

    assert renderer.set_remote_images(True)
    assert 'class="pending-image"' in renderer.item(answer).html
    assert requested == [CHART]
    assert renderer.image_loaded(CHART) == [answer]  # the answer must be shown again
    assert f'<img src="{CHART}"' in renderer.item(answer).html
    assert requested == [CHART]

    renderer.image_evicted(CHART)
    assert 'class="pending-image"' in renderer.item(answer).html
    assert requested == [CHART, CHART]

    assert renderer.set_remote_images(False)
    assert renderer.item(answer).html == off
