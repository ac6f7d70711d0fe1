"""Markdown documents shared by the render and view tests: one per construct, plus mixed
ones."""

from __future__ import annotations

import random

MIXED = """\
# Release notes

Parley renders **bold**, *italic*, ~~struck~~ and `inline code`, with a
[link](https://example.com) and an image ![logo](https://example.com/logo.png).

## Steps

1. Install it:

   ```bash
   pip install parley
   ```

2. Run it
   - on Linux
   - on macOS

- [ ] write docs
- [x] ship it

> A quote that spans
> two lines.
>
> > And a nested one.

| Feature | Status |
|:--------|-------:|
| Tables  | done   |
| Math    | source |

---

```python
def greet(name: str) -> str:
    return f"Hello, {name}!"
```

    indented code block

$$
E = mc^2
$$

Inline math $a^2 + b^2$ costs $5 and $10 in text.

```mermaid
graph TD; A-->B
```

Setext heading
--------------

Final paragraph with a hard\\
break.
"""

WITH_FOOTNOTE = """\
Here is a claim.[^1]

Another paragraph.

[^1]: The source of the claim.
"""

WITH_REFERENCE = """\
See [the docs][docs] for more.

[docs]: https://example.com/docs
"""

UNTERMINATED_FENCE = """\
Some intro.

```python
def f(x):
    return x * 2
"""

TRICKY = [
    "Foo\n***",
    "Foo\n***x",
    "Foo\n# heading",
    "Foo\n#heading",
    "Foo\n- item",
    "Foo\n2. two",
    "> quote\nlazy continuation",
    "- a\n\n  continued\n- b",
    "$$\nx = 1\n\ny = 2\n$$",
    "$$\na\n- b\n$$",
    "| a | b |\n|---|---|\n| 1 | 2 |\nnext",
    "    code\n\n\n    more code",
    "```\nnever closed\n\n\n# not a heading",
    "~~~\nA\n~~~~\nafter",
    "<div>\n*not html*\n</div>",
    "Title\n=====\ntext",
    "- [ ] a\n- [x] b\n\n1. [X] c",
    "see https://example.com/a_b?x=1.\n(www.python.org) and `https://no.link` me@x.org",
]

_FRAGMENTS = [
    "# Heading",
    "Setext\n===",
    "para one\ncontinues here",
    "with *emph*, **strong**, `code` and ~~strike~~",
    "- a\n- b\n  - nested\n- c",
    "1. one\n2. two\n\n3. three",
    "- [ ] task\n- [x] done",
    "> quote\nlazy line",
    "> q\n>\n> > nested",
    "---",
    "| a | b |\n|---|:-:|\n| 1 | 2 |",
    "```python\ndef f():\n    return 1\n```",
    "```\nplain\n\n\nfence\n```",
    "```mermaid\ngraph TD; A-->B\n```",
    "    indented code\n\n    more",
    "$$\nx^2\n$$",
    "$$a = b$$ (eq)",
    "inline $x$ math, $5 and $10",
    "![img](https://x.org/a.png) [ok](https://x.org) [bad](javascript:alert(1))",
    "<script>alert(1)</script>",
    "Foo\n# interrupting heading",
    "Foo\n***",
    "Foo\n- list interrupts",
    "- item\n\n  continuation\n\n- next",
    "```\nunterminated",
    "$$\nunclosed math",
    "<http://auto.link> and <me@mail.org>",
    "bare https://x.org/a_(b)_c. and www.x.org, or me@x.org!",
]


def random_documents(seed: int, count: int, *, min_parts: int, max_parts: int) -> list[str]:
    """Documents glued from `_FRAGMENTS` with random separators (deterministic per seed)."""
    rng = random.Random(seed)
    documents = []
    for _ in range(count):
        parts = [rng.choice(_FRAGMENTS) for _ in range(rng.randint(min_parts, max_parts))]
        documents.append("".join(part + rng.choice(["\n", "\n\n", "\n \n"]) for part in parts))
    return documents
