"""Images: links unless remote images are on and the caller has loaded them."""

from __future__ import annotations

import pytest

from desktop.render import StreamingRenderer, is_web_image, pending_images, render_markdown

CHART = "https://example.com/c.png"


def test_with_remote_images_off_an_image_is_a_plain_link() -> None:
    html = render_markdown(f'![a chart]({CHART} "Sales")')
    assert "<img" not in html
    assert f'<a href="{CHART}" title="Sales">🖼 a chart</a>' in html
    assert pending_images(html) == []


def test_with_remote_images_on_an_unloaded_image_is_a_pending_link() -> None:
    html = render_markdown(f"![a chart]({CHART}) and ![b]({CHART})", images=frozenset())
    assert "<img" not in html
    assert f'<a href="{CHART}" class="pending-image">🖼 a chart</a>' in html
    assert pending_images(html) == [CHART]  # once, in order


def test_a_loaded_image_is_shown_inline() -> None:
    html = render_markdown(f'![a "chart"]({CHART} "Sales")', images={CHART})
    assert f'<img src="{CHART}" alt="a &quot;chart&quot;" title="Sales" />' in html
    assert "<a " not in html
    assert pending_images(html) == []


def test_pending_urls_come_back_unescaped() -> None:
    url = "https://example.com/c.png?a=1&b=2"
    html = render_markdown(f"![x]({url})", images=())
    assert "a=1&amp;b=2" in html
    assert pending_images(html) == [url]
    loaded = render_markdown(f"![x]({url})", images={url})
    assert '<img src="https://example.com/c.png?a=1&amp;b=2"' in loaded


@pytest.mark.parametrize(
    "source",
    [
        "![x](file:///etc/passwd)",
        "![x](/local/path.png)",
        "![x](data:image/png;base64,AAAA)",
        "![x](javascript:alert(1))",
        "![x](mailto:me@example.com)",
    ],
)
def test_only_web_images_can_ever_become_img(source: str) -> None:
    src = source[source.index("(") + 1 : -1]
    html = render_markdown(source, images={src})
    assert "<img" not in html
    assert pending_images(html) == []


def test_an_image_inside_a_link_stays_text() -> None:
    badge = "https://x.org/b.png"
    html = render_markdown(f"[![badge]({badge})](https://x.org)", images={badge})
    assert "<img" not in html
    assert '<a href="https://x.org">🖼 badge</a>' in html
    assert pending_images(render_markdown(f"[![b]({badge})](https://x.org)", images=())) == []


def test_text_cannot_forge_the_pending_marker() -> None:
    forged = '<a href="https://evil.example/x.png" class="pending-image">'
    text = f"`{forged}` {forged}\n\n```\n{forged}\n```"
    assert pending_images(render_markdown(text, images=())) == []


def test_is_web_image() -> None:
    assert is_web_image("https://example.com/a.png")
    assert is_web_image("HTTP://example.com/a.png")
    assert not is_web_image("https:///a.png")
    assert not is_web_image("data:image/png;base64,AAAA")
    assert not is_web_image("file:///a.png")
    assert not is_web_image("https://exa\u200bmple.com/a.png")


def test_streaming_with_images_equals_a_full_render() -> None:
    text = f"Intro.\n\n![one]({CHART})\n\n- ![two](https://example.com/d.png)\n"
    for images in (None, frozenset(), frozenset({CHART})):
        renderer = StreamingRenderer(images=images)
        for end in range(1, len(text) + 1):
            assert renderer.render(text[:end]) == render_markdown(text[:end], images=images)
