"""Blocks rendered ahead in a worker: the GUI thread takes exactly what it would render."""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from desktop.render import StreamingRenderer, render_markdown
from desktop.render import ahead as ahead_module
from desktop.render.maths import Formula
from tests.render.test_maths import Recorder
from tests.support.markdown_corpus import MIXED, TRICKY, UNTERMINATED_FENCE, random_documents

Job = Callable[[], None]


def _at_once(job: Job) -> None:
    """The worker's job, run before the next update as an idle worker would."""
    job()


def _prefixes(text: str, seed: int, max_step: int = 40) -> list[str]:
    rng = random.Random(seed)
    prefixes, end = [], 0
    while end < len(text):
        end = min(len(text), end + rng.randint(1, max_step))
        prefixes.append(text[:end])
    return prefixes


@pytest.mark.parametrize(
    "text",
    [
        MIXED,
        UNTERMINATED_FENCE,
        *TRICKY,
        *random_documents(seed=5, count=12, min_parts=2, max_parts=12),
    ],
)
def test_a_stream_rendered_with_blocks_ahead_is_the_stream_rendered_here(text: str) -> None:
    here, ahead = StreamingRenderer(), StreamingRenderer(ahead=_at_once)
    prefixes = _prefixes(text, seed=len(text))
    for shown, coming in zip(prefixes, [*prefixes[1:], text], strict=True):
        ahead.prefetch(shown)  # the update about to be shown...
        ahead.prefetch(coming)  # ... and the engine's next one, already in
        assert ahead.render(shown) == here.render(shown), shown
    assert ahead.render(text, final=True) == render_markdown(text)


def test_the_gui_thread_splits_and_renders_only_what_the_worker_has_not() -> None:
    here, ahead = StreamingRenderer(), StreamingRenderer(ahead=_at_once)
    for prefix in _prefixes(MIXED, seed=1):
        ahead.prefetch(prefix)
        assert ahead.render(prefix) == here.render(prefix)
    assert ahead.prefetched > 0
    assert ahead.block_renders == 0  # every block was ready when its update was shown
    assert here.block_renders >= ahead.prefetched
    assert ahead.parsed_chars == 0 < here.parsed_chars  # and its text already split


def test_a_block_with_a_formula_is_rendered_on_the_gui_thread_only() -> None:
    """Rendering a formula asks the typesetter, which lives on the GUI thread."""
    text = (
        "Intro paragraph.\n\n"
        "Inline $a^2 + b^2$ here.\n\n"
        "```python\nprint(1)\n```\n\n"
        "$$\nE = mc^2\n$$\n\n"
        "- a list\n- without maths\n\n"
        "A price of $5 and $10 is text.\n\n"
        "Last line.\n"
    )
    gui = threading.get_ident()

    class GuiOnly(Recorder):
        threads: set[int]

        def formula(self, tex: str, display: bool) -> Formula:
            self.threads.add(threading.get_ident())
            return super().formula(tex, display)

    plain_source, ahead_source = GuiOnly(), GuiOnly()
    plain_source.threads, ahead_source.threads = set(), set()
    here = StreamingRenderer(maths=plain_source)
    with ThreadPoolExecutor(1) as worker:
        jobs: list[object] = []
        ahead = StreamingRenderer(
            maths=ahead_source, ahead=lambda job: jobs.append(worker.submit(job))
        )
        for prefix in _prefixes(text, seed=2, max_step=12):
            ahead.prefetch(prefix)
            for job in jobs:
                job.result()  # type: ignore[attr-defined]
            assert ahead.render(prefix) == here.render(prefix), prefix
    assert ahead.render(text, final=True) == here.render(text, final=True)
    assert ahead_source.threads == {gui}
    assert ahead_source.asked == plain_source.asked  # each formula asked as often
    assert ahead.prefetched > 0


def test_blocks_rendered_under_the_old_theme_are_not_taken() -> None:
    """A worker that rendered with the light theme, reporting after the switch to dark."""
    held: list[Job] = []
    ahead = StreamingRenderer(ahead=held.append)
    text = "# Title\n\n```python\nx = 1\n```\n\nA paragraph.\n\nThe end"
    ahead.prefetch(text)
    ahead.dark = True
    held.pop()()  # the job, with the options of when it was asked for
    assert ahead.render(text) == StreamingRenderer(dark=True).render(text)
    assert ahead.prefetched == 0


def test_blocks_rendered_before_new_sources_were_cited_are_not_taken() -> None:
    held: list[Job] = []
    ahead = StreamingRenderer(ahead=held.append)
    text = "Known [1] and [2].\n\nMore text [2].\n\nThe end"
    ahead.prefetch(text)
    ahead.citations = {1, 2}
    held.pop()()
    assert ahead.render(text) == StreamingRenderer(citations={1, 2}).render(text)
    assert ahead.prefetched == 0


def test_one_job_renders_the_newest_text_asked_for_meanwhile() -> None:
    held: list[Job] = []
    ahead = StreamingRenderer(ahead=held.append)
    first = "# One\n\nA paragraph.\n\n"
    newest = first + "## Two\n\nAnother paragraph.\n\nStill growing"
    ahead.prefetch(first)
    ahead.prefetch(newest)  # the job has not run yet: it takes this text instead
    assert len(held) == 1
    held.pop()()
    assert ahead.render(newest) == StreamingRenderer().render(newest)
    assert ahead.prefetched == 5 and ahead.block_renders == 0
    ahead.prefetch(newest + " still")
    assert len(held) == 1  # the first job ended: a new one is started


def test_a_job_that_fails_is_logged_once_and_the_answer_is_rendered_here(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_args: object) -> str:
        raise RuntimeError("a bug in rendering")

    monkeypatch.setattr(ahead_module, "render_block", broken)
    jobs: list[Job] = []
    renderer = StreamingRenderer(ahead=jobs.append)
    text = "# One\n\nA paragraph.\n\nMore"
    with caplog.at_level(logging.ERROR, logger="desktop.render.ahead"):
        renderer.prefetch(text)
        jobs.pop()()
        renderer.prefetch(text + " text")
        renderer.prefetch(text + " text and more")
    assert jobs == []  # no job is started for this answer again
    assert caplog.text.count("rendering ahead failed") == 1
    assert renderer.render(text) == render_markdown(text)
