"""Bare URLs and e-mail addresses in text become links, as GitHub's autolink extension does.

What is linked (GFM "autolinks (extension)"):

- ``http://`` and ``https://`` followed by a host (``https://localhost:8080/x`` too);
- ``www.`` followed by a host with a dot, at the start of a line, after whitespace or
  after ``*``, ``_``, ``~`` or ``(``; the link gets ``http://``;
- e-mail addresses (``me@example.org``, ``mailto:me@example.org``); the link gets
  ``mailto:``.

A link runs to the next whitespace or ``<``, then drops trailing ``? ! . , : * _ ~ ' "``
and ``;``, an entity-like tail (``&hl;``), and any ``)`` that has no ``(`` in the link,
so "(see https://en.wikipedia.org/wiki/Set_(mathematics))." keeps the inner pair. Hosts
whose last two labels hold an underscore are not linked (unless the host has more than
ten labels, where GitHub stops checking). Nothing is linked inside code,
math, links (or their text) and image descriptions. Other schemes (``ftp://``,
``xmpp:``) stay text: Parley would not open them anyway (see `links.is_safe_link`).

Two differences from GitHub, both deliberate: ``www.`` needs something after the dot
(GitHub links the "www" of "www. " on its own), and an unmatched trailing ``]`` is
dropped like an unmatched ``)``, so "[see https://example.com]" does not swallow the
bracket.

Scheme URLs are found while inline markup is parsed (an inline rule at ``://``), so
``https://example.com/#__init__`` stays one link instead of turning ``__init__`` bold;
``www.`` and e-mail links are found afterwards in plain text (a core rule), as GitHub
does for e-mail. Both are linear in the input: every candidate is decided by scanning
its host and path once, and a candidate that is linked consumes the text it scanned.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

_SCHEMES = ("https", "http")  # longest first
_HOST_RE = re.compile(r"[\w.-]*")
_PATH_STOP_RE = re.compile(r"[\s<]")
_TRAILING = frozenset("?!.,:*_~'\"")
# GitHub stops checking hosts for underscores past ten dots (its scan was quadratic on
# hostile hosts); ours is not, but we match it.
_MAX_CHECKED_DOTS = 10

# www.: only where GitHub looks for it. E-mail: the local part starts after a character
# that cannot be in it, so each run of such characters is scanned once.
_CANDIDATE_RE = re.compile(
    r"(?P<www>(?<![^\s*_~(])www\.)|(?<![A-Za-z0-9.+_-])(?P<email>(?:mailto:)?[A-Za-z0-9.+_-]+@)"
)
# What markdown-it's link normalisation leaves unchanged (ASCII, no character it would
# percent-encode, every % starting an escape).
_PLAIN_URL_RE = re.compile(r"(?:[A-Za-z0-9;/?:@&=+$,\-_.!~*'()#]|%[0-9A-Fa-f]{2})*")
_EMAIL_DOMAIN_RE = re.compile(r"(?:[A-Za-z0-9_-]|\.(?=[A-Za-z0-9]))+")

# Tokens after which a "www." at the start of a text token counts as after whitespace or
# "*_~": line breaks, and emphasis or strikethrough markers.
_WWW_MAY_FOLLOW = frozenset(
    {
        "softbreak",
        "hardbreak",
        "em_open",
        "em_close",
        "strong_open",
        "strong_close",
        "s_open",
        "s_close",
        "task_checkbox",
    }
)


INLINE_RULE = "parley_url"
CORE_RULE = "parley_autolinks"


def install(md: MarkdownIt) -> None:
    """Add the inline rule for scheme URLs and the core rule for www. and e-mail links.

    The core rule must run before the rule that checks link targets, so call this
    before pushing that one.
    """
    md.inline.ruler.after("text", INLINE_RULE, _scheme_url)
    md.core.ruler.push(CORE_RULE, _link_www_and_email)


def url_end(text: str, start: int, host_start: int, limit: int, *, need_dot: bool) -> int:
    """Where the URL starting at `start` ends, or -1 when its host is not valid.

    `host_start` is where the host begins (after ``://``, or at ``www.``); nothing past
    `limit` is looked at.
    """
    host_end = _HOST_RE.match(text, host_start, limit).end()  # type: ignore[union-attr]
    if not _valid_host(text[host_start:host_end], need_dot=need_dot):
        return -1
    stop = _PATH_STOP_RE.search(text, host_end, limit)
    end = _trim(text, start, stop.start() if stop else limit)
    return end if end > host_start else -1


def _valid_host(host: str, *, need_dot: bool) -> bool:
    dots = host.count(".")
    if need_dot and not dots:
        return False
    if "_" not in host or dots > _MAX_CHECKED_DOTS:
        return True
    return not any("_" in label for label in host.rsplit(".", 2)[-2:])


def _trim(text: str, start: int, end: int) -> int:
    """Drop trailing punctuation, unmatched closing brackets and an entity-like tail."""
    opening = {")": text.count("(", start, end), "]": text.count("[", start, end)}
    closing = {")": text.count(")", start, end), "]": text.count("]", start, end)}
    while end > start:
        char = text[end - 1]
        if char in closing:
            if closing[char] <= opening[char]:
                break
            closing[char] -= 1
            end -= 1
        elif char in _TRAILING:
            end -= 1
        elif char == ";":
            letters = end - 2
            while letters > start and text[letters].isascii() and text[letters].isalpha():
                letters -= 1
            end = letters if letters < end - 2 and text[letters] == "&" else end - 1
        else:
            break
    return end


def _href(url: str, md: MarkdownIt) -> str:
    """`url` percent-encoded where needed; most URLs need nothing, and checking is cheap."""
    return url if _PLAIN_URL_RE.fullmatch(url) else md.normalizeLink(url)


def _link_tokens(text: str, href: str, md: MarkdownIt, level: int) -> list[Token]:
    """A link showing `text` as written, as GitHub does (no decoding of %XX)."""
    link_open = Token("link_open", "a", 1, level=level, markup="linkify", info="auto")
    link_open.attrs = {"href": _href(href, md)}
    label = Token("text", "", 0, level=level + 1, content=text)
    link_close = Token("link_close", "a", -1, level=level, markup="linkify", info="auto")
    return [link_open, label, link_close]


# --- http:// and https:// (inline rule) -----------------------------------------------


def _scheme_url(state: StateInline, silent: bool) -> bool:
    """At ``://`` after "http" or "https" in the pending text: link the URL.

    Not in silent mode, which markdown-it uses to find where link text ends: there a
    URL must not run past the ``]``. Link text itself is parsed with ``linkLevel`` set.
    """
    pos = state.pos
    src = state.src
    if silent or state.linkLevel > 0 or not src.startswith("://", pos):
        return False
    scheme = _pending_scheme(state.pending)
    host_start = pos + 3
    if not scheme or host_start >= state.posMax or not src[host_start].isalnum():
        return False
    start = pos - len(scheme)
    end = url_end(src, start, host_start, state.posMax, need_dot=False)
    if end < 0:
        return False
    state.pending = state.pending[: -len(scheme)]
    url = src[start:end]
    link_open = state.push("link_open", "a", 1)
    link_open.attrs = {"href": _href(url, state.md)}
    link_open.markup, link_open.info = "linkify", "auto"
    label = state.push("text", "", 0)
    label.content = url
    link_close = state.push("link_close", "a", -1)
    link_close.markup, link_close.info = "linkify", "auto"
    state.pos = end
    return True


def _pending_scheme(pending: str) -> str:
    """The scheme (as written) that `pending` ends with, if it starts a word; else ""."""
    for scheme in _SCHEMES:
        if pending[-len(scheme) :].lower() == scheme:
            before = pending[-len(scheme) - 1 : -len(scheme)]
            if before.isascii() and before.isalpha():
                return ""
            return pending[-len(scheme) :]
    return ""


# --- www. and e-mail (core rule) ------------------------------------------------------


def _link_www_and_email(state: StateCore) -> None:
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        in_link = 0
        previous: Token | None = None
        for token in block.children:
            if token.type == "link_open":
                in_link += 1
            elif token.type == "link_close":
                in_link = max(in_link - 1, 0)
            if (
                token.type == "text"
                and not in_link
                and ("www." in token.content or "@" in token.content)
            ):
                www_at_start = previous is None or previous.type in _WWW_MAY_FOLLOW
                children.extend(_split_text(token, state.md, www_at_start=www_at_start))
            else:
                children.append(token)
            previous = token
        block.children = children


def _split_text(token: Token, md: MarkdownIt, *, www_at_start: bool) -> list[Token]:
    """`token` cut into text and links; just `[token]` when nothing is linked."""
    text = token.content
    pieces: list[Token] = []
    done = 0  # end of the last link
    search_at = 0
    while (match := _CANDIDATE_RE.search(text, search_at)) is not None:
        start = match.start()
        if match.group("www") is not None:
            end = _www_end(text, start, www_at_start)
        else:
            end = _email_end(text, match.end())
        if end < 0:
            search_at = start + 1
            continue
        link = text[start:end]
        if start > done:
            pieces.append(_text_token(text[done:start], token.level))
        href = _link_target(link, www=match.group("www") is not None)
        pieces.extend(_link_tokens(link, href, md, token.level))
        done = search_at = end
    if not pieces:
        return [token]
    if done < len(text):
        pieces.append(_text_token(text[done:], token.level))
    return pieces


def _link_target(link: str, *, www: bool) -> str:
    if www:
        return "http://" + link
    return link if link.startswith("mailto:") else "mailto:" + link


def _text_token(content: str, level: int) -> Token:
    return Token("text", "", 0, level=level, content=content)


def _www_end(text: str, start: int, www_at_start: bool) -> int:
    host_start = start + len("www.")
    if (start == 0 and not www_at_start) or host_start >= len(text):
        return -1
    if not (text[host_start].isalnum() or text[host_start] in "-_"):
        return -1
    return url_end(text, start, start, len(text), need_dot=True)


def _email_end(text: str, after_at: int) -> int:
    """End of an e-mail address whose domain starts at `after_at` (just after the @)."""
    domain = _EMAIL_DOMAIN_RE.match(text, after_at)
    if domain is None:
        return -1
    end = domain.end()
    name = domain.group()
    if "." not in name or not (name[-1].isascii() and name[-1].isalpha()):
        return -1
    if end < len(text) and text[end] == "@":
        return -1  # "a@b.c@d.e": GitHub tries the later @ instead
    return end
