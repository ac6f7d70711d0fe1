"""What the approval dialog says a call will do: the command and its folder, the file and
its change, the address; everything capped and every hidden character made visible."""

from __future__ import annotations

import json

from desktop.core.tools import BUILTIN_SOURCE, ToolRisk
from desktop.engine.tools.approval import PendingCall
from desktop.ui.viewmodels.approval_preview import (
    MAX_CHARS,
    MAX_LINES,
    PreviewKind,
    pretty,
    preview,
)
from desktop.ui.viewmodels.file_change import FileCheck, LineKind, check_write, file_diff
from desktop.ui.viewmodels.visible_text import visible


def builtin(name: str, arguments: object, risk: ToolRisk = ToolRisk.SHELL) -> PendingCall:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return PendingCall("c1", name, text, "", BUILTIN_SOURCE, risk)


def mcp(name: str, arguments: object, risk: ToolRisk | None = ToolRisk.WRITE) -> PendingCall:
    return PendingCall("c1", f"mcp__srv__{name}", json.dumps(arguments), "", "srv", risk)


def test_a_command_is_shown_as_a_command_in_the_folder_it_runs_in(qapp):
    shown = preview(builtin("run_command", {"command": "du -sh ~", "timeout_s": 5}), "/home/ana")
    assert shown.kind is PreviewKind.COMMAND and shown.heading == "Run this command"
    assert shown.text == "$ du -sh ~"
    assert shown.where == "in /home/ana"
    assert shown.others == 'Other arguments: {"timeout_s": 5}'  # nothing goes unmentioned


def test_an_mcp_command_joins_its_argv_and_names_its_own_folder(qapp):
    call = mcp("exec", {"command": "git", "args": ["log", "--format=%h %s"], "cwd": "/srv/app"})
    shown = preview(call)
    assert shown.text == "$ git log '--format=%h %s'"
    assert (shown.where, shown.others) == ("in /srv/app", "")
    assert preview(mcp("exec", {"command": "ls"})).where == "in the folder its server chooses"


def test_a_tool_that_only_reads_is_never_shown_as_running_a_command(qapp):
    shown = preview(mcp("explain", {"command": "rm -rf /"}, ToolRisk.READ))
    assert shown.kind is PreviewKind.ARGUMENTS
    assert shown.text == json.dumps({"command": "rm -rf /"}, indent=2)


def test_an_edit_of_old_and_new_text_is_a_diff(qapp):
    edits = [{"oldText": "a\nb\nc", "newText": "a\nB\nc"}, {"oldText": "x", "newText": "y"}]
    shown = preview(mcp("edit_file", {"path": "/p/app.py", "edits": edits, "dryRun": False}))
    assert (shown.kind, shown.heading, shown.target) == (
        PreviewKind.EDIT,
        "Change this file",
        "/p/app.py",
    )
    assert shown.text.split("\n") == [
        "Change 1 of 2",
        " a",
        "-b",
        "+B",
        " c",
        "Change 2 of 2",
        "-x",
        "+y",
    ]
    hunk, same, removed, added = LineKind.HUNK, LineKind.SAME, LineKind.REMOVED, LineKind.ADDED
    assert shown.line_kinds == (hunk, same, removed, added, same, hunk, removed, added)
    assert shown.note == "+2 −2" and shown.others == 'Other arguments: {"dryRun": false}'


def test_a_builtin_write_creates_or_replaces_as_the_disk_says(qapp, tmp_path):
    (tmp_path / "notes.txt").write_text("one\ntwo\nthree\n", encoding="utf-8")
    call = builtin(
        "write_file", {"path": "notes.txt", "content": "one\n2\nthree\n"}, ToolRisk.WRITE
    )
    assert preview(call, str(tmp_path)).heading == "Write this file"  # not looked at yet
    check = check_write(str(tmp_path), "notes.txt", "one\n2\nthree\n")
    assert check is not None and check.exists and check.diff is not None
    shown = preview(call, str(tmp_path), check)
    assert (shown.heading, shown.target, shown.where) == (
        "Replace this file",
        "notes.txt",
        f"in {tmp_path}",
    )
    assert shown.text.split("\n") == ["@@ -1,3 +1,3 @@", " one", "-two", "+2", " three"]
    assert shown.note == "+1 −1"

    assert check_write(str(tmp_path), "new.txt", "x") == FileCheck(exists=False)
    new = builtin("write_file", {"path": "new.txt", "content": "first\nsecond"}, ToolRisk.WRITE)
    created = preview(new, str(tmp_path), FileCheck(exists=False))
    assert (created.heading, created.text) == ("Create this file", "first\nsecond")
    # A path the tool refuses is not looked at.
    assert check_write(str(tmp_path), "../outside.txt", "x") is None
    assert check_write(str(tmp_path), "/etc/passwd", "x") is None


def test_a_long_new_file_shows_its_first_lines_and_counts_the_rest(qapp):
    content = "\n".join(f"line {n}" for n in range(1, 1001))
    shown = preview(mcp("write_file", {"path": "big.txt", "content": content}))
    assert shown.text.split("\n") == [f"line {n}" for n in range(1, MAX_LINES + 1)]
    assert shown.note.startswith("… and 800 more line")  # English plurals: added later


def test_a_long_diff_is_cut_and_counted(qapp):
    diff = file_diff("", "\n".join(str(n) for n in range(1000)))
    assert diff is not None and len(diff.lines) == MAX_LINES
    # Shown or not, every line is counted: the hunk's, the empty old one, 1000 new ones.
    assert (diff.added, diff.removed, diff.hidden) == (1000, 1, 1002 - MAX_LINES)


def test_a_fetch_shows_the_address_and_its_real_host(qapp):
    url = "https://docs.example.com@evil.example/login"
    shown = preview(builtin("web_fetch", {"url": url}, ToolRisk.READ))
    assert (shown.kind, shown.heading, shown.text) == (PreviewKind.URL, "Read this web page", url)
    assert shown.where == "on evil.example"


def test_hidden_characters_are_shown_as_marks(qapp):
    command = "echo safe\u202e#fdp ;\x1b[2J\x00\u200b\r\nnext\u2028line"
    shown = preview(builtin("run_command", {"command": command}), "/w")
    assert shown.text == (
        "$ echo safe⟨RLO⟩#fdp ;⟨ESC⟩[2J⟨NUL⟩⟨ZWSP⟩\nnext⟨U+2028⟩line"
    )  # the Windows line end is a line end; nothing that moves or hides text is left
    assert visible("tag\U000e0041\U000e0042") == "tag⟨U+E0041⟩⟨U+E0042⟩"
    assert visible("a\tb\nc") == "a\tb\nc"


def test_a_megabyte_of_arguments_is_cut_to_its_ends(qapp):
    command = "START " + "x" * 1_000_000 + " END"
    shown = preview(builtin("run_command", {"command": command}), "/w")
    assert shown.text.startswith("$ START xxx") and shown.text.endswith("xxx END")
    assert len(shown.text) < MAX_CHARS + 100
    assert "characters not shown" in shown.text  # and says so between the ends

    many = "\n".join(f"step {n}" for n in range(5000))
    lines = preview(builtin("run_command", {"command": many}), "/w").text.split("\n")
    assert lines[0] == "$ step 0" and lines[-1] == "step 4999"  # the end is never hidden
    assert any(line.startswith("… 4,800 line") for line in lines)


def test_json_nested_too_deep_is_shown_as_written_without_failing(qapp):
    deep = "[" * 50_000 + "]" * 50_000  # the C parser gives up with RecursionError
    shown = preview(PendingCall("c1", "mcp__srv__tool", deep, "", "srv", None))
    assert shown.kind is PreviewKind.ARGUMENTS
    assert shown.text.startswith("[[[[") and len(shown.text) < MAX_CHARS + 100
    short_but_deep = "[" * 5_000 + "]" * 5_000  # short enough to be parsed for indenting
    assert pretty(short_but_deep) == short_but_deep
    nested = '{"a":' * 100 + "1" + "}" * 100  # parses, but too deep to indent
    assert pretty(nested) == nested
    assert pretty('{"a": [1]}') == '{\n  "a": [\n    1\n  ]\n}'
