"""Timings for desktop.render: whole documents, hostile inputs and a streamed reply.

Run from the repository root:  python benchmarks/render_bench.py [--unguarded-timeout S]

Prints milliseconds. Whole documents are rendered as Parley does and unguarded (see
below). The streaming session feeds a ~21 KB reply in 2,000 deltas twice in the same
run: through StreamingRenderer (block cache) and through render_markdown on every delta
(the baseline, what a view without the cache would do).

Hostile inputs are measured from text to painted widget: GUI-thread CPU time
(`time.thread_time`) of rendering, Qt's HTML import and layout in the message view's
`RichText` at the transcript's column width, and painting one viewport of it, once
complete and per update while it streams. Each is shown beside the cost model's
prediction for what is formatted (see desktop/render/cost.py) and two baselines from the
same run: an ordinary 21 KB answer through the same path, and the hostile input
unguarded (formatted as markdown whenever markdown-it accepts it and the old size limits
allow, else one plain `<pre>`, with no soft breaks and no nesting cap, as before the
formatting budget), in a child process stopped after `--unguarded-timeout` seconds:
complete, and streamed in 4 updates (each rendered whole and written into the view as
the view writes a streaming answer; its worst update).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from desktop.render import StreamingRenderer, render_markdown, render_message, shown_source
from desktop.render.autolinks import CORE_RULE, INLINE_RULE
from desktop.render.cost import text_cost
from desktop.render.guard import normalize_source
from desktop.render.markdown import parser, render_fragment

_SECTION = """\
## Section {n}: handling input

The parser reads **each line** once and keeps a small amount of state; see the
[reference](https://example.com/docs/{n}) for the details. Use `parse_line()` when the
input arrives in pieces, and remember that *every* call may raise `ValueError`.

- keep the buffer small
- flush on newline
  - unless the line is a continuation
- report errors with the line number

```python
def parse_line(buffer: list[str], line: str) -> dict[str, int] | None:
    \"\"\"Parse one line of input {n}.\"\"\"
    if line.endswith("\\\\"):
        buffer.append(line[:-1])
        return None
    text = "".join(buffer) + line
    buffer.clear()
    return {{word: len(word) for word in text.split()}}
```

| Option | Default | Meaning |
|:-------|--------:|---------|
| `size` | 4096 | bytes read per call |
| `strict` | no | raise on malformed lines |

> Note: the limit applies per connection, not per process.

"""


def document(size: int) -> str:
    """A reply-like markdown document of about `size` characters."""
    parts: list[str] = []
    total = 0
    n = 0
    while total < size:
        n += 1
        section = _SECTION.format(n=n)
        parts.append(section)
        total += len(section)
    return "".join(parts)[:size]


def median_ms(action: Callable[[], object], repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


def path_of(text: str) -> str:
    """What the plan chose: markdown, plain text, or markdown then plain text."""
    source = shown_source(text)
    end = render_message(text).plan.markdown_end
    shown = "" if len(source) == len(text) else f", {len(source):,} of {len(text):,} shown"
    if end == len(source):
        return f"markdown{shown}"
    if end == 0:
        return f"plain text{shown}"
    return f"markdown for {end:,} characters, then plain text{shown}"


def bench_documents() -> None:
    print("Whole documents (median of 3): render_markdown / unguarded_html (baseline)")
    for label, size in (
        ("21 KB", 21_000),
        ("140 KB", 140_000),
        ("210 KB", 210_000),
        ("2 MB", 2_000_000),
    ):
        text = document(size)
        ms = median_ms(lambda text=text: render_markdown(text), repeat=3)
        before = median_ms(lambda text=text: unguarded_html(text), repeat=3)
        print(f"  {label:>7}  {ms:8.1f} ms / {before:8.1f} ms   {path_of(text)}")


def bench_autolinks() -> None:
    """Bare URLs, www. and e-mail links; the baseline is the same parser without them."""
    print("Bare links (as markdown, median of 3): with autolinks / without (baseline)")
    cases = {
        "21 KB document": document(21_000),
        "4,000 lines with a URL": "see https://example.com/a_b?x=1.\n" * 4_000,
        "8,000 lines with www.": "www.example.com/x\n" * 8_000,
        "6,000 e-mail addresses": "mail me@example.org now " * 6_000,
        "'www.' x 35,000, one line": "www." * 35_000,
        "'(www.' x 28,000": "(www." * 28_000,
        "'http://' x 20,000": "http://" * 20_000,
        "'a@' x 70,000": "a@" * 70_000,
        "'http://x' + 140,000 ')'": "http://x" + ")" * 140_000,
    }
    md = parser()
    for label, text in cases.items():
        source = normalize_source(text)  # as markdown, whatever the formatting budget says

        def render(source: str = source) -> object:
            return render_fragment(source, dark=False)

        with_links = median_ms(render, repeat=3)
        md.disable([INLINE_RULE, CORE_RULE])
        try:
            without = median_ms(render, repeat=3)
        finally:
            md.enable([INLINE_RULE, CORE_RULE])
        print(f"  {label:<26} {with_links:8.1f} ms / {without:8.1f} ms   {path_of(text)}")


def bench_streaming(deltas: int = 2_000) -> None:
    text = document(21_000)
    step = len(text) / deltas
    prefixes = [text[: round(step * (i + 1))] for i in range(deltas)]
    print(f"Streaming a {len(text) / 1000:.0f} KB reply in {deltas} deltas")

    def session(render: Callable[[str], str]) -> list[float]:
        timings = []
        for prefix in prefixes:
            start = time.perf_counter()
            render(prefix)
            timings.append((time.perf_counter() - start) * 1000)
        return timings

    renderer = StreamingRenderer()
    cached = session(renderer.render)
    baseline = session(render_markdown)
    assert renderer.render(text) == render_markdown(text)
    for label, timings in (("with block cache", cached), ("without (baseline)", baseline)):
        ordered = sorted(timings)
        print(
            f"  {label:<19} total {sum(timings):8.0f} ms   mean {statistics.mean(timings):6.2f} ms"
            f"   p95 {ordered[int(len(ordered) * 0.95)]:6.2f} ms   max {ordered[-1]:6.2f} ms"
        )
    print(
        f"  speed-up {sum(baseline) / sum(cached):.1f}x; blocks rendered {renderer.block_renders}"
    )


# --- hostile input, from text to painted widget ---------------------------------------

WIDTH = 816  # the transcript's widest text column (MAX_TEXT_WIDTH) minus the margins
VIEW_HEIGHT = 640  # one viewport of it is painted


def code_file(lines: int) -> str:
    """Python source of `lines` lines, like a file a model prints whole."""
    body = []
    for number in range(lines // 8 + 1):
        body += [
            f"def handle_{number}(request: dict[str, int], retries: int = 3) -> list[str]:",
            f'    """Handle request {number}; retried on a timeout."""',
            "    results: list[str] = []",
            "    for key, value in sorted(request.items()):",
            f'        if value > {number % 97} and key.startswith("x"):',
            '            results.append(f"{key}={value}")  # keep it',
            "    return results",
            "",
        ]
    return "\n".join(body[:lines]) + "\n"


def fenced_file(lines: int) -> str:
    return f"Here is the file:\n\n```python\n{code_file(lines)}```\n\nThat is all.\n"


HOSTILE: dict[str, Callable[[], str]] = {
    "10 MB answer on one line": lambda: "x" * 10_000_000,
    "1 MB answer on one line": lambda: "x" * 1_000_000,
    "100,000 characters, one line": lambda: "7" * 100_000,
    "300,000 characters, one line": lambda: "7" * 300_000,
    "5,000-row table": lambda: "| a | b | c |\n|---|---|---|\n" + "| x | y | z |\n" * 5_000,
    "9,000 '- $$ a' lines": lambda: "- $$ a\n" * 9_000,
    "'_' x 50k, 'a', '_' x 50k": lambda: "_" * 50_000 + "a" + "_" * 50_000,
    "'*a **a ' x 20,000": lambda: "*a **a " * 20_000,
    "'<http://a' x 16,600": lambda: "<http://a" * 16_600,  # just under the old size limit
    "'<http://a' x 20,000": lambda: "<http://a" * 20_000,
    "3,000 '> - [a](b) *c* `d`'": lambda: "> - [a](b) *c* `d`\n" * 3_000,
    "50,000 nested brackets": lambda: "[" * 50_000 + "x" + "]" * 50_000,
    "10,000-deep list": lambda: "- " * 10_000 + "x",
    "5 MB reply of prose": lambda: "All work and no play. " * 240_000,
    "6,000 empty fences": lambda: "```\nx\n```\n" * 6_000,
    "6,000 mermaid fences": lambda: "```mermaid\nx\n```\n" * 6_000,
    "4,500 fences, each a new name": lambda: "".join(f"```l{n}\nx\n```\n" for n in range(4_500)),
    "every pygments language once": lambda: "".join(
        f"```{alias}\nx = 1\n```\n" for alias in sorted(_one_alias_per_lexer())
    ),
    "6,000 indented code blocks": lambda: "    x\n\nb\n\n" * 6_000,
    "6,000 $$ blocks": lambda: "$$\nx\n$$\n\n" * 6_000,
    "20,000 '# a' headings": lambda: "# a\n" * 20_000,
    "30,000 one-letter paragraphs": lambda: "a\n\n" * 30_000,
    "1,300-line Python file": lambda: fenced_file(1_300),
    "270-line Python file": lambda: fenced_file(270),
    "120-row table of six cells": lambda: wide_table(120),
}


def wide_table(rows: int) -> str:
    """A table like a model's summary of options: six cells a row, some markup in them."""
    head = "| name | type | default | required | description | since |\n" + "|---" * 6 + "|\n"
    return head + "".join(
        f"| `opt{n}` | int | 4096 | no | bytes read per call, see **docs** | 1.{n} |\n"
        for n in range(rows)
    )


def _one_alias_per_lexer() -> set[str]:
    from pygments.lexers._mapping import LEXERS

    return {aliases[0] for _module, _name, aliases, _files, _types in LEXERS.values() if aliases}


BASELINE = "ordinary 21 KB answer"


def qt_app() -> object:
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def message_view() -> object:
    """The widget an answer's text is shown in, styled as in the transcript."""
    from desktop.render import document_css
    from desktop.ui.views.rich_text import RichText

    view = RichText()
    view.document().setDefaultStyleSheet(document_css(False))
    view.set_wrap_width(WIDTH)
    return view


def to_widget_ms(text: str, html_for: Callable[[str], str]) -> float:
    """GUI-thread CPU from `text` to a laid out widget with one viewport painted."""
    view = message_view()
    start = time.thread_time()
    view.set_html(html_for(text))
    height = view.heightForWidth(WIDTH)
    view.resize(WIDTH, min(height, VIEW_HEIGHT))
    view.grab()
    return (time.thread_time() - start) * 1000


def stream_ms(text: str, updates: int) -> list[float]:
    """Per update, as the view-model and view do while `text` streams in `updates` steps."""
    view, renderer = message_view(), StreamingRenderer()
    step = max(1, len(text) // updates)
    timings = []
    for end in range(step, len(text) + step, step):
        start = time.thread_time()
        view.set_html(renderer.render(text[:end]), growing=True)
        height = view.heightForWidth(WIDTH)
        view.resize(WIDTH, min(height, VIEW_HEIGHT))
        view.grab()
        timings.append((time.thread_time() - start) * 1000)
    return timings


def unguarded_html(text: str) -> str:
    """What the view got before the formatting budget: all of it as markdown when under the
    old size limits (150,000 characters, 10,000 lines) and markdown-it's own limits, else
    one plain `<pre>`; no soft breaks, no nesting cap."""
    from markdown_it.common.utils import escapeHtml

    from desktop.render.guard import fallback_reason
    from desktop.render.markdown import is_cut_short, parser
    from desktop.render.rules import ENV_KEY, RenderContext

    md = parser()
    names = ("em_open", "em_close", "strong_open", "strong_close", "s_open", "s_close")
    capped = {name: md.renderer.rules.pop(name) for name in names if name in md.renderer.rules}
    try:
        source = normalize_source(text)
        if len(source) <= 150_000 and source.count("\n") < 10_000 and not fallback_reason(source):
            env = {ENV_KEY: RenderContext(dark=False)}
            tokens = md.parse(source, env)
            if not is_cut_short(tokens):
                return str(md.renderer.render(tokens, md.options, env))
        return f'<pre style="white-space: pre-wrap;">{escapeHtml(source)}</pre>'
    finally:
        md.renderer.rules.update(capped)


def unguarded_stream_ms(text: str, updates: int) -> float:
    """The worst of `updates` unguarded updates: each prefix rendered whole, written into
    the view as a streaming answer is."""
    view = message_view()
    worst = 0.0
    for number in range(1, updates + 1):
        start = time.thread_time()
        view.set_html(unguarded_html(text[: len(text) * number // updates]), growing=True)
        height = view.heightForWidth(WIDTH)
        view.resize(WIDTH, min(height, VIEW_HEIGHT))
        view.grab()
        worst = max(worst, (time.thread_time() - start) * 1000)
    return worst


def unguarded_child(label: str, timeout: float, *, streamed: bool = False) -> str:
    """The unguarded cost, measured in a child process that is stopped after `timeout`."""
    command = [sys.executable, __file__, "--unguarded", label]
    if streamed:
        command.append("--streamed")
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f} s"
    if result.returncode != 0:
        raise SystemExit(f"unguarded {label} failed:\n{result.stderr}")
    return f"{json.loads(result.stdout.strip().splitlines()[-1]):.0f} ms"


def bench_hostile(unguarded_timeout: float) -> None:
    qt_app()
    ordinary = document(21_000)
    baseline = statistics.median(to_widget_ms(ordinary, render_markdown) for _ in range(3))
    print(
        "Hostile inputs, text to painted widget (GUI-thread CPU, ms): Parley / predicted by "
        "the cost model (measured / predicted) / unguarded; "
        f"baseline: {BASELINE} {baseline:.0f} ms"
    )
    for label, make in HOSTILE.items():
        text = make()
        parley = statistics.median(to_widget_ms(text, render_markdown) for _ in range(3))
        predicted = predicted_ms(text)
        before = unguarded_child(label, unguarded_timeout)
        ratio = f"({parley / predicted:.2f})"
        print(
            f"  {label:<30} {parley:7.0f} / {predicted:4.0f} {ratio:>6} / {before:>8}"
            f"   {path_of(text)}"
        )


def predicted_ms(text: str) -> float:
    """The cost model's prediction for `text` as shown: its formatted part, then the rest
    unformatted (plain text and code frames)."""
    from desktop.render import unformatted

    source = shown_source(text)
    end = render_message(text).plan.markdown_end
    return (text_cost(source[:end]) + unformatted.cost(source[end:])) / 1000


def bench_hostile_streaming(unguarded_timeout: float) -> None:
    qt_app()
    print(
        "Hostile inputs streamed in 100 updates: per update mean / worst (GUI-thread CPU, ms);"
        " unguarded, worst of 4 updates"
    )
    cases = {BASELINE: lambda: document(21_000), **HOSTILE}
    for label, make in cases.items():
        timings = stream_ms(make(), updates=100)
        before = (
            unguarded_child(label, unguarded_timeout, streamed=True) if label in HOSTILE else ""
        )
        print(f"  {label:<30} {statistics.mean(timings):7.1f} / {max(timings):7.1f}   {before:>8}")


def warm_up() -> None:
    """What the app does half a second after start-up: load the common lexers and styles."""
    from desktop.render.highlight import COMMON_LANGUAGES
    from desktop.render.highlight import warm_up as load

    render_markdown(document(2_000))
    for language in COMMON_LANGUAGES:
        load(language)


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--unguarded", metavar="INPUT", help=argparse.SUPPRESS)
    arguments.add_argument("--streamed", action="store_true", help=argparse.SUPPRESS)
    arguments.add_argument("--unguarded-timeout", type=float, default=60.0)
    options = arguments.parse_args()
    warm_up()
    if options.unguarded:
        qt_app()
        text = HOSTILE[options.unguarded]()
        if options.streamed:
            print(json.dumps(unguarded_stream_ms(text, updates=4)))
        else:
            print(json.dumps(to_widget_ms(text, unguarded_html)))
        return
    bench_documents()
    bench_hostile(options.unguarded_timeout)
    bench_hostile_streaming(options.unguarded_timeout)
    bench_autolinks()
    bench_streaming()


if __name__ == "__main__":
    main()
