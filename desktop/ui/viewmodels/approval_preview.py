"""What allowing a call will do, said first: the command and its folder, the file and
its change, the address fetched; else the arguments as indented JSON.

Which one a call is comes from its tool and the shape of its arguments: the built-in
tools by name, an MCP tool by the keys such tools use (`command` and `cwd`, `path` and
`content`, `edits` of old and new text, `url`). A tool that says it only reads is
never shown as running a command or writing a file. Keys a preview does not use are
listed under it ("Other arguments"), so nothing given to the tool goes unmentioned;
the arguments as written stay one click away in the dialog.

Everything here is made of the model's text, so all of it is capped and goes through
`visible` (see `visible_text`); the arguments are parsed once, and JSON nested deeper
than `MAX_DEPTH` is shown as written rather than indented.
"""

from __future__ import annotations

import contextlib
import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from PySide6.QtCore import QCoreApplication

from desktop.core.i18n import tr
from desktop.core.tools import BUILTIN_SOURCE, ToolRisk
from desktop.engine.tools.approval import PendingCall
from desktop.engine.tools.builtin.command import RUN_COMMAND
from desktop.engine.tools.builtin.web import WEB_FETCH
from desktop.engine.tools.builtin.write import WRITE_FILE
from desktop.ui.viewmodels.file_change import FileCheck, LineKind, edits_diff
from desktop.ui.viewmodels.visible_text import both_ends, first_lines, one_line, visible

MAX_LINES = 200  # lines a preview box shows
MAX_CHARS = 20_000  # characters a preview box shows
MAX_PARSED_CHARS = 4 * 1024 * 1024  # longer arguments are not parsed for a preview
MAX_PRETTY_CHARS = 32_768  # longer arguments are shown as written, not indented
MAX_DEPTH = 32  # deeper JSON is shown as written, not indented
MAX_LABEL_CHARS = 1_000  # a path, a folder, a host on a label
MAX_OTHERS_CHARS = 300

RUN_COMMAND_NAME = RUN_COMMAND.definition.name
WRITE_FILE_NAME = WRITE_FILE.definition.name

_COMMAND_KEYS = ("command", "cmd", "command_line", "commandLine", "shell_command", "script")
_ARGV_KEYS = ("args", "argv", "arguments")
_FOLDER_KEYS: tuple[str, ...] = ("cwd", "workdir", "working_directory", "workingDirectory")
_FOLDER_KEYS += ("working_dir", "directory", "dir")
_PATH_KEYS = ("path", "file_path", "filePath", "filename", "file", "target_file")
_CONTENT_KEYS = ("content", "contents", "file_text", "new_content", "newContent", "text")
_EDIT_PAIRS: tuple[tuple[str, str], ...] = (("oldText", "newText"), ("old_text", "new_text"))
_EDIT_PAIRS += (("old_string", "new_string"), ("old_str", "new_str"))
_URL_KEYS = ("url", "uri")


class PreviewKind(StrEnum):
    COMMAND = "command"
    FILE = "file"  # a whole file written
    EDIT = "edit"  # a file changed by old and new text
    URL = "url"
    ARGUMENTS = "arguments"


@dataclass(frozen=True, slots=True)
class Preview:
    """A call's effect in words and one monospace text, every part plain and capped."""

    kind: PreviewKind
    heading: str  # "Run this command", "Replace this file", …
    text: str  # the box: "$ du -sh ~", a file's first lines, a diff, an address
    target: str = ""  # the file's path ("" for none)
    where: str = ""  # "in /home/ana", "on example.com"
    note: str = ""  # what the box leaves out, or the size of the change
    others: str = ""  # "Other arguments: {…}" ("" for none)
    line_kinds: tuple[LineKind, ...] = ()  # one per line of `text` for a diff


# --- the arguments ------------------------------------------------------------------


def _depth_over(value: Any, limit: int) -> bool:
    """True if `value` nests lists or objects deeper than `limit` (without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def parsed(arguments: str) -> Any:
    """The arguments as JSON values, or None when they are not JSON (or too long or
    too deep to parse: the C parser gives up with RecursionError, not ValueError)."""
    if len(arguments) > MAX_PARSED_CHARS:
        return None
    try:
        return json.loads(arguments or "{}")
    except (ValueError, RecursionError):
        return None


def pretty(arguments: str) -> str:
    """Indented JSON, or the text as written when it is long, not JSON or too deep."""
    if len(arguments) > MAX_PRETTY_CHARS:
        return arguments
    value = parsed(arguments)
    if value is None and arguments.strip() not in ("", "null"):
        return arguments
    if _depth_over(value, MAX_DEPTH):
        return arguments
    try:
        return json.dumps(value, ensure_ascii=False, indent=2)
    except (ValueError, RecursionError):
        return arguments


def _string(args: Mapping[str, Any], keys: tuple[str, ...]) -> tuple[str, str] | None:
    """The first of `keys` whose value is a string: (key, value)."""
    for key in keys:
        if isinstance(args.get(key), str):
            return key, args[key]
    return None


def _others(args: Mapping[str, Any], used: set[str]) -> str:
    rest = {k: v for k, v in args.items() if k not in used}
    if not rest:
        return ""
    try:
        text = json.dumps(rest, ensure_ascii=False)
    except (ValueError, RecursionError):
        text = ", ".join(rest)
    return QCoreApplication.translate("ApprovalPreview", "Other arguments: %1").replace(
        "%1", one_line(text, MAX_OTHERS_CHARS)
    )


def _lines_note(hidden: int) -> str:
    return tr("… and %Ln more line(s)", "", hidden) if hidden else ""


# --- each kind ----------------------------------------------------------------------


def _command(call: PendingCall, args: Mapping[str, Any], folder: str | None) -> Preview | None:
    builtin = call.name == RUN_COMMAND_NAME and call.source == BUILTIN_SOURCE
    found = _string(args, ("command",) if builtin else _COMMAND_KEYS)
    used: set[str] = set()
    if found is not None:
        key, line = found
        used.add(key)
    else:
        key = next((k for k in _COMMAND_KEYS if _is_argv(args.get(k))), "")
        if not key:
            return None
        line, used = shlex.join(args[key]), {key}
    if not builtin:
        argv = next((k for k in _ARGV_KEYS if _is_argv(args.get(k))), None)
        if argv is not None:
            line, used = f"{line} {shlex.join(args[argv])}", used | {argv}
    where_key = None if builtin else _string(args, _FOLDER_KEYS)
    if where_key is not None:
        used.add(where_key[0])
        folder = where_key[1]
    if folder:
        where = QCoreApplication.translate("ApprovalPreview", "in %1").replace(
            "%1", one_line(folder, MAX_LABEL_CHARS)
        )
    elif builtin:
        where = QCoreApplication.translate(
            "ApprovalPreview", "in the chat's workspace folder (none is set: it will not run)"
        )
    else:
        where = QCoreApplication.translate("ApprovalPreview", "in the folder its server chooses")
    return Preview(
        PreviewKind.COMMAND,
        QCoreApplication.translate("ApprovalPreview", "Run this command"),
        both_ends(f"$ {line}", MAX_LINES, MAX_CHARS).text,
        where=where,
        others=_others(args, used),
    )


def _is_argv(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _edits(args: Mapping[str, Any]) -> tuple[list[tuple[str, str]], set[str]] | None:
    listed = args.get("edits")
    if isinstance(listed, list) and listed:
        pairs = []
        for edit in listed:
            pair = _pair(edit) if isinstance(edit, dict) else None
            if pair is None:
                return None
            pairs.append(pair)
        return pairs, {"edits"}
    for old, new in _EDIT_PAIRS:
        if isinstance(args.get(old), str) and isinstance(args.get(new), str):
            return [(args[old], args[new])], {old, new}
    return None


def _pair(edit: Mapping[str, Any]) -> tuple[str, str] | None:
    for old, new in _EDIT_PAIRS:
        if isinstance(edit.get(old), str) and isinstance(edit.get(new), str):
            return edit[old], edit[new]
    return None


def _file(
    call: PendingCall, args: Mapping[str, Any], folder: str | None, check: FileCheck | None
) -> Preview | None:
    path = _string(args, _PATH_KEYS)
    if path is None:
        return None
    builtin = call.name == WRITE_FILE_NAME and call.source == BUILTIN_SOURCE
    target = one_line(path[1], MAX_LABEL_CHARS)
    where = (
        QCoreApplication.translate("ApprovalPreview", "in %1").replace(
            "%1", one_line(folder, MAX_LABEL_CHARS)
        )
        if builtin and folder
        else ""
    )
    edits = _edits(args)
    if edits is not None:
        diff = edits_diff(
            edits[0], QCoreApplication.translate("ApprovalPreview", "Change %1 of %2")
        )
        return Preview(
            PreviewKind.EDIT,
            QCoreApplication.translate("ApprovalPreview", "Change this file"),
            diff.text,
            target=target,
            where=where,
            note=_change_note(diff.added, diff.removed, diff.hidden),
            others=_others(args, {path[0], *edits[1]}),
            line_kinds=diff.kinds,
        )
    content = _string(args, _CONTENT_KEYS)
    if content is None:
        return None
    others = _others(args, {path[0], content[0]})
    if check is not None and check.diff is not None:
        diff = check.diff
        note = (
            _change_note(diff.added, diff.removed, diff.hidden)
            if diff.lines
            else QCoreApplication.translate(
                "ApprovalPreview", "The file already holds exactly this text."
            )
        )
        heading = QCoreApplication.translate("ApprovalPreview", "Replace this file")
        return Preview(
            PreviewKind.FILE, heading, diff.text, target, where, note, others, diff.kinds
        )
    shown = first_lines(content[1], MAX_LINES, MAX_CHARS)
    notes = [_lines_note(shown.hidden_lines)]
    if check is None:
        heading = QCoreApplication.translate("ApprovalPreview", "Write this file")
    elif not check.exists:
        heading = QCoreApplication.translate("ApprovalPreview", "Create this file")
    else:
        heading = QCoreApplication.translate("ApprovalPreview", "Replace this file")
        notes.insert(
            0,
            QCoreApplication.translate(
                "ApprovalPreview", "The file there now is too large or not text to compare."
            ),
        )
    return Preview(PreviewKind.FILE, heading, shown.text, target, where, _joined(notes), others)


def _joined(notes: list[str]) -> str:
    return " · ".join(n for n in notes if n)


def _change_note(added: int, removed: int, hidden: int) -> str:
    counts = f"+{added} −{removed}"
    more = tr("… and %Ln more line(s) of the change", "", hidden) if hidden else ""
    return _joined([counts, more])


def _url(call: PendingCall, args: Mapping[str, Any]) -> Preview | None:
    found = _string(args, _URL_KEYS)
    if found is None:
        return None
    key, url = found
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        host = ""
    if host and not host.isascii():
        with contextlib.suppress(UnicodeError):
            host = f"{host} ({host.encode('idna').decode('ascii')})"
    where = (
        QCoreApplication.translate("ApprovalPreview", "on %1").replace(
            "%1", one_line(host, MAX_LABEL_CHARS)
        )
        if host
        else ""
    )
    heading = (
        QCoreApplication.translate("ApprovalPreview", "Read this web page")
        if call.name == WEB_FETCH
        else QCoreApplication.translate("ApprovalPreview", "Open this address")
    )
    return Preview(
        PreviewKind.URL,
        heading,
        both_ends(url, 20, 4_000).text,
        where=where,
        others=_others(args, {key}),
    )


def _arguments(call: PendingCall) -> Preview:
    shown = first_lines(pretty(call.arguments), MAX_LINES, MAX_CHARS)
    return Preview(
        PreviewKind.ARGUMENTS,
        QCoreApplication.translate("ApprovalPreview", "Use the tool with these arguments"),
        shown.text,
        note=_lines_note(shown.hidden_lines),
    )


def preview(
    call: PendingCall, folder: str | None = None, check: FileCheck | None = None
) -> Preview:
    """What allowing `call` does. `folder` is its chat's workspace folder (where the
    built-in tools work); `check` what is at a built-in write's path now, once known."""
    args = parsed(call.arguments)
    if not isinstance(args, dict):
        return _arguments(call)
    changes = call.risk is not ToolRisk.READ  # unknown tools included: the worst case
    found = (
        (_file(call, args, folder, check) if changes else None)
        or (_command(call, args, folder) if changes else None)
        or _url(call, args)
    )
    return found or _arguments(call)


def needs_check(call: PendingCall, folder: str | None) -> tuple[str, str] | None:
    """(path, content) of a built-in write whose target Parley can look at, else None."""
    if call.name != WRITE_FILE_NAME or call.source != BUILTIN_SOURCE or not folder:
        return None
    args = parsed(call.arguments)
    if not isinstance(args, dict):
        return None
    path, content = args.get("path"), args.get("content")
    return (path, content) if isinstance(path, str) and isinstance(content, str) else None


__all__ = ["Preview", "PreviewKind", "needs_check", "pretty", "preview", "visible"]
