"""Timings for desktop.render: whole documents, hostile inputs and a streamed reply.

Run from the repository root:  python benchmarks/render_bench.py

Prints milliseconds. The streaming session feeds a ~21 KB reply in 2,000 deltas twice in
the same run: through StreamingRenderer (block cache) and through render_markdown on
every delta (the baseline, what a view without the cache would do).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop.render import StreamingRenderer, fallback_reason, render_markdown
from desktop.render.autolinks import CORE_RULE, INLINE_RULE
from desktop.render.markdown import parser

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
    reason = fallback_reason(text)
    return "markdown" if reason is None else f"plain text ({reason})"


def bench_documents() -> None:
    print("Whole documents (render_markdown, median of 3)")
    for label, size in (
        ("21 KB", 21_000),
        ("140 KB", 140_000),
        ("210 KB", 210_000),
        ("2 MB", 2_000_000),
    ):
        text = document(size)
        ms = median_ms(lambda text=text: render_markdown(text), repeat=3)
        print(f"  {label:>7}  {ms:8.1f} ms   {path_of(text)}")


def bench_hostile() -> None:
    print("Hostile inputs (render_markdown, median of 3)")
    cases = {
        "50,000 nested brackets": "[" * 50_000 + "x" + "]" * 50_000,
        "10,000-deep list": "- " * 10_000 + "x",
        "10,000-deep blockquote": "> " * 10_000 + "x",
        "5 MB reply": "All work and no play. " * 240_000,
        "9,999 '- $$a' list items": "- $$a\n" * 9_999,
        "20,000 '*a **a' runs": "*a **a " * 20_000,
        "'www.' x 35,000, one line": "www." * 35_000,
        "'http://' x 20,000": "http://" * 20_000,
    }
    for label, text in cases.items():
        ms = median_ms(lambda text=text: render_markdown(text), repeat=3)
        print(f"  {label:<26} {ms:8.1f} ms   {path_of(text)}")


def bench_autolinks() -> None:
    """Bare URLs, www. and e-mail links; the baseline is the same parser without them."""
    print("Bare links (render_markdown, median of 3): with autolinks / without (baseline)")
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
        with_links = median_ms(lambda text=text: render_markdown(text), repeat=3)
        md.disable([INLINE_RULE, CORE_RULE])
        try:
            without = median_ms(lambda text=text: render_markdown(text), repeat=3)
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


def main() -> None:
    render_markdown(document(2_000))  # warm-up: imports pygments lexers and styles
    bench_documents()
    bench_hostile()
    bench_autolinks()
    bench_streaming()


if __name__ == "__main__":
    main()
