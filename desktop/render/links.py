"""Which link targets may leave the app, and the private links the chat view handles
(a code block's Copy, a citation's number).

Model output is untrusted. A link is only ever opened in the system browser or mail
client, so the allow-list is tiny: http, https and mailto. The same check runs when the
HTML is made (unsafe targets lose their link) and again when a link is clicked.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
COPY_SCHEME = "parley-copy"
CITE_SCHEME = "parley-cite"

# Whitespace the person cannot see or that browsers drop inside URLs ("java\tscript:"),
# C0/C1 controls, and zero-width / bidi marks that hide what a link really is.
_HIDDEN_CHARS_RE = re.compile(
    "[\x00-\x20\x7f-\x9f\u00a0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]"
)
_SCHEME_RE = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_ASCII_WHITESPACE = " \t\n\r\f\v"


def is_safe_link(url: str) -> bool:
    """True only for a well-formed http(s) URL with a host, or a non-empty mailto: link.

    Surrounding ASCII whitespace is ignored; anything hidden inside the URL (tabs,
    newlines, control characters, zero-width or bidi marks) rejects it, as do other
    schemes (javascript:, data:, file:, vbscript:, custom ones) and relative links.
    """
    if not isinstance(url, str):
        return False
    candidate = url.strip(_ASCII_WHITESPACE)
    if not candidate or _HIDDEN_CHARS_RE.search(candidate):
        return False
    match = _SCHEME_RE.match(candidate)
    if match is None:
        return False
    scheme = match.group(1).lower()
    if scheme not in SAFE_SCHEMES:
        return False
    rest = candidate[match.end() :]
    if scheme == "mailto":
        return bool(rest)
    if "\\" in candidate:  # browsers read "https:\\host" as "https://host"; be strict
        return False
    try:
        parts = urlsplit(candidate)
    except ValueError:  # e.g. an invalid IPv6 literal
        return False
    return rest.startswith("//") and bool(parts.hostname)


def copy_href(index: int) -> str:
    """The link behind a code block's "Copy" affordance (index into `code_blocks()`)."""
    return f"{COPY_SCHEME}:{index}"


def copy_index(url: str) -> int | None:
    """The code block index behind a copy link, or None if `url` is not one of ours."""
    prefix = f"{COPY_SCHEME}:"
    if not url.startswith(prefix):
        return None
    number = url[len(prefix) :]
    if not number.isascii() or not number.isdigit():
        return None
    return int(number)


def cite_href(number: int) -> str:
    """The link behind a citation marker ``[n]``: the source numbered `number`."""
    return f"{CITE_SCHEME}:{number}"


def cite_number(url: str) -> int | None:
    """The source number behind a citation link, or None if `url` is not one."""
    prefix = f"{CITE_SCHEME}:"
    if not url.startswith(prefix):
        return None
    number = url[len(prefix) :]
    if not number.isascii() or not number.isdigit() or number.startswith("0"):
        return None
    return int(number)
