"""A web page's readable text, with the standard library's HTML parser.

No JavaScript runs and no styles apply: what a model needs from a page is its words in
reading order. Scripts, styles, `<head>` (but its title), templates and drawings are
dropped; block elements (paragraphs, headings, list items, table rows) end lines and
inline ones (links, emphasis) keep their text in the flow; `<pre>` keeps its spacing.
"""

from __future__ import annotations

import codecs
import re
from html.parser import HTMLParser

# Elements whose content is not text to read (`head` ends early at `<body>`).
_HIDDEN = frozenset(
    {"script", "style", "noscript", "template", "svg", "math", "head", "iframe", "object",
     "canvas", "select", "button"}
)  # fmt: skip
_BLOCKS = frozenset(
    {"address", "article", "aside", "blockquote", "body", "caption", "dd", "details",
     "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
     "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "html", "legend", "li", "main",
     "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "tfoot", "thead",
     "tr", "ul"}
)  # fmt: skip
# Blocks set apart by a blank line; the others by a line break.
_PARAGRAPHS = frozenset(
    {"blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "ol", "p", "pre", "table", "ul"}
)
_CELLS = frozenset({"td", "th"})
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
     "source", "track", "wbr"}
)  # fmt: skip
# Private characters mark what whitespace collapsing must not touch. They cannot come
# from the page: they are removed from the markup first, and a character reference
# cannot make them (`html.unescape` drops control characters).
_LINE = "\x02"  # a block's edge: a line break
_PARAGRAPH = "\x03"  # a paragraph's edge: a blank line
_PRE = str.maketrans({"\n": "\x00", " ": "\x04", "\t": "\x05"})  # spacing kept in <pre>
_UNPRE = str.maketrans({"\x00": "\n", "\x04": " ", "\x05": "\t"})
_PRIVATE = re.compile(r"[\x00\x02-\x05]")
# Markup is read this much at a time, to stop once there is text enough.
_CHUNK_CHARS = 32 * 1024
_SPACES = re.compile(r"[ \t\f\v\r\n\u00a0\u2028\u2029]+")
# A block's edges with the spaces around them, and the line breaks a <pre> starts or
# ends with (HTML ignores the first; the block's edge stands for both).
_EDGES = re.compile(r"[ \x00\x02\x03]*[\x02\x03][ \x00\x02\x03]*")
_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_:.\-]+)""", re.IGNORECASE
)
# Labels the web reads as a superset (WHATWG Encoding): bytes 0x80-0x9F are Windows-1252.
_WEB_ALIASES = {"iso8859-1": "cp1252", "ascii": "cp1252"}


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title: list[str] = []
        self._hidden: list[str] = []  # the hidden elements open, innermost last
        self._in_title = False
        self._pre = 0
        self.size = 0  # characters of text collected (before whitespace is collapsed)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:  # noqa: ARG002  (HTMLParser's signature)
        if tag == "body" and self._hidden == ["head"]:
            self._hidden.clear()  # a page that never closed its <head>
        if tag in _HIDDEN:
            self._hidden.append(tag)
            return
        if tag == "title":
            self._in_title = not self.title and self._hidden in ([], ["head"])
            return
        if self._hidden:
            return
        if tag in _BLOCKS or tag == "br":
            self.parts.append(_PARAGRAPH if tag in _PARAGRAPHS else _LINE)
            if tag == "li":
                self.parts.append("- ")
            elif tag == "pre":
                self._pre += 1
        elif tag in _CELLS:
            self.parts.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            return  # `<svg/>`: nothing opened, nothing to close
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            if tag in self._hidden:  # closes it and anything left open inside
                del self._hidden[self._hidden.index(tag) :]
            return
        if tag == "title":
            self._in_title = False
            return
        if self._hidden:
            return
        if tag in _BLOCKS:
            self.parts.append(_PARAGRAPH if tag in _PARAGRAPHS else _LINE)
            if tag == "pre" and self._pre:
                self._pre -= 1

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title.append(data)
        elif not self._hidden:
            self.parts.append(data.translate(_PRE) if self._pre else data)
            self.size += len(data)


def html_to_text(markup: str, max_chars: int | None = None) -> tuple[str, str]:
    """The page's title and its text: lines separated by "\n", paragraphs by one blank
    line. With `max_chars`, reading stops once the text is longer than that (what
    follows would be cut anyway), so a long page costs what its first part costs."""
    reader = _Reader()
    markup = _PRIVATE.sub("", markup)  # the markers' characters cannot come from the page
    check_at = max_chars
    for start in range(0, len(markup), _CHUNK_CHARS):
        reader.feed(markup[start : start + _CHUNK_CHARS])
        if check_at is not None and max_chars is not None and reader.size > check_at:
            text = tidy("".join(reader.parts))
            if len(text) > max_chars:
                return _title(reader), text
            check_at = 2 * reader.size  # collapsed whitespace: look again when doubled
    reader.close()
    return _title(reader), tidy("".join(reader.parts))


def _title(reader: _Reader) -> str:
    return _SPACES.sub(" ", "".join(reader.title)).strip()


def tidy(text: str) -> str:
    """Whitespace as a reader sees it: runs of spaces collapsed, lines trimmed, at most
    one blank line in a row, the spacing of `<pre>` kept."""
    text = _SPACES.sub(" ", text)
    text = _EDGES.sub(lambda m: "\n\n" if _PARAGRAPH in m.group() else "\n", text)
    return text.translate(_UNPRE).strip()


def charset_of(content_type: str, head: bytes, is_html: bool) -> str:
    """The codec to decode a page with: a byte-order mark, the Content-Type's charset,
    then (for HTML) a `<meta charset>` near the top; UTF-8 when none is usable."""
    for bom, name in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                      (codecs.BOM_UTF16_BE, "utf-16")):  # fmt: skip
        if head.startswith(bom):
            return name
    declared = ""
    match = re.search(r"charset\s*=\s*[\"']?([^\"';\s]+)", content_type, re.IGNORECASE)
    if match:
        declared = match.group(1)
    elif is_html and (found := _META_CHARSET.search(head[:4096])):
        declared = found.group(1).decode("ascii", errors="replace")
    try:
        name = codecs.lookup(declared).name if declared else "utf-8"
    except LookupError:
        return "utf-8"
    if name.startswith("utf-16") and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-8"  # a page claiming UTF-16 without its mark is ASCII-compatible
    return _WEB_ALIASES.get(name, name)
