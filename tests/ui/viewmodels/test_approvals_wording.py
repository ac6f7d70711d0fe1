"""What the approval dialog is given to show of a call: the view-model decides the words
and flags (an unknown tool worded as the worst it could be), the dialog only shows them."""

from __future__ import annotations

import json

from desktop.core.tools import BUILTIN_SOURCE, ToolRisk
from desktop.engine.tools.approval import PendingCall
from desktop.ui.viewmodels.approvals import call_view


def test_a_tool_not_known_yet_is_worded_as_the_worst_and_cannot_be_always_allowed(qapp):
    view = call_view(PendingCall("c1", "mcp__git__git_add", "{}", source="Git"))
    assert view.source == "From the MCP server “Git”"
    assert view.risk == "May change files or run commands" and view.risky
    assert "has not started" in view.about
    assert not view.can_always_allow and view.always_allow_tip


def test_a_known_tool_shows_its_risk_description_and_pretty_arguments_whole(qapp):
    call = PendingCall(
        "c1", "read_file", '{"path":"a.txt"}', "Reads a file.", BUILTIN_SOURCE, ToolRisk.READ
    )
    view = call_view(call)
    assert (view.source, view.risk) == ("Built-in tool", "Reads only")
    assert not view.risky  # Allow once is its default answer
    assert view.about == "Reads a file."
    assert view.arguments == json.dumps({"path": "a.txt"}, indent=2)
    assert view.cut_note == ""
    assert view.can_always_allow and view.always_allow_tip == ""


def test_arguments_too_long_to_show_whole_say_so_with_their_size(qapp):
    arguments = json.dumps({"content": "x" * 250_000})
    call = PendingCall("c1", "write_file", arguments, "", BUILTIN_SOURCE, ToolRisk.WRITE)
    view = call_view(call)
    assert view.arguments == arguments  # as written: too long to indent
    note = view.cut_note.replace(",", "")
    assert f"the first 50000 and the last 50000 of {len(arguments)} characters" in note
    assert view.can_always_allow  # a grant is for the tool, not these arguments
