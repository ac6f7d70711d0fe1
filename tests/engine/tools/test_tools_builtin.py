"""Built-in tools on real folders, the approval object, and grants bound to definitions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from desktop.core.models import Decision
from desktop.core.paths import DataPaths
from desktop.core.settings import Settings, ToolSettings
from desktop.core.tools import ToolDefinition, ToolPolicy, ToolRisk
from desktop.engine.tools.approval import ApprovalClosed, ApprovalRequest, PendingCall
from desktop.engine.tools.builtin.files import LIST_FILES, READ_FILE, SEARCH_FILES
from desktop.engine.tools.builtin.write import WRITE_FILE
from desktop.engine.tools.outputs import PREVIEW_BYTES, SPILL_BYTES, keep
from desktop.engine.tools.registry import Tool, ToolContext, ToolFailure
from desktop.engine.tools.service import ToolService


class MemorySettings:
    """Settings kept in memory: what `ToolService` reads and saves."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.saves = 0

    def save(self, settings: Settings) -> None:
        self.settings = settings
        self.saves += 1


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "src" / "main.py").write_text("import os\nprint('hello')\n# TODO: more\n")
    (root / "README.md").write_text("Read me\n")
    (tmp_path / "secret.txt").write_text("top secret\n")
    return root


def context(tmp_path: Path, workspace: Path | None) -> ToolContext:
    return ToolContext("c1", workspace, tmp_path / "data" / "tool_outputs")


def call(tool: Tool, ctx: ToolContext, **arguments: Any) -> str:
    return asyncio.run(tool.run(arguments, ctx))


def test_list_read_and_search_inside_the_workspace(tmp_path, workspace):
    ctx = context(tmp_path, workspace)
    assert call(LIST_FILES, ctx).splitlines() == ["README.md (8 B)", "src/"]
    assert "src/main.py" in call(LIST_FILES, ctx, recursive=True)
    assert call(READ_FILE, ctx, path="src/main.py", start_line=2, end_line=2) == "print('hello')\n"
    assert call(SEARCH_FILES, ctx, pattern="todo") == "src/main.py:3: # TODO: more"
    assert call(SEARCH_FILES, ctx, pattern=r"pri\w+", regex=True).startswith("src/main.py:2:")


@pytest.mark.parametrize(
    "path", ["../secret.txt", "src/../../secret.txt", "/etc/hostname", "link/secret.txt", "out"]
)
def test_paths_that_leave_the_workspace_are_refused(tmp_path, workspace, path):
    (workspace / "link").symlink_to(tmp_path, target_is_directory=True)
    (workspace / "out").symlink_to(tmp_path / "secret.txt")
    ctx = context(tmp_path, workspace)
    for tool, extra in ((READ_FILE, {}), (WRITE_FILE, {"content": "pwned"}), (LIST_FILES, {})):
        with pytest.raises(ToolFailure, match="Refused"):
            call(tool, ctx, path=path, **extra)
    assert (tmp_path / "secret.txt").read_text() == "top secret\n"


def test_walks_do_not_follow_a_symlink_out_of_the_workspace(tmp_path, workspace):
    (workspace / "link").symlink_to(tmp_path, target_is_directory=True)
    ctx = context(tmp_path, workspace)
    assert "secret" not in call(LIST_FILES, ctx, recursive=True)
    assert call(SEARCH_FILES, ctx, pattern="top secret") == "No matches."


def test_write_creates_folders_inside_the_workspace(tmp_path, workspace):
    ctx = context(tmp_path, workspace)
    assert call(WRITE_FILE, ctx, path="new/dir/a.txt", content="é") == (
        "Wrote 2 bytes to new/dir/a.txt."
    )
    assert (workspace / "new" / "dir" / "a.txt").read_text(encoding="utf-8") == "é"


def test_without_a_workspace_only_saved_outputs_can_be_read(tmp_path):
    ctx = context(tmp_path, None)
    with pytest.raises(ToolFailure, match="no workspace"):
        call(READ_FILE, ctx, path="README.md")
    with pytest.raises(ToolFailure, match="does not name"):
        call(READ_FILE, ctx, path="tool-output:../../etc/passwd")


def test_large_text_is_saved_whole_with_a_preview(tmp_path):
    small = keep("short", "call_1", tmp_path)
    assert (small.text, small.path) == ("short", None)
    text = "".join(f"{n:06d}\n" for n in range(10_000))
    kept = keep(text, "call/../x", tmp_path)
    assert kept.path == "tool_outputs/call____x.txt"
    assert (tmp_path / kept.path).read_text() == text and kept.size == len(text) > SPILL_BYTES
    assert kept.text.startswith(text[:PREVIEW_BYTES]) and "tool-output:call____x" in kept.text
    ctx = ToolContext("c1", None, tmp_path / "tool_outputs")
    assert call(READ_FILE, ctx, path="tool-output:call____x", start_line=3, end_line=4) == (
        "000002\n000003\n"
    )


# --- policies and grants ------------------------------------------------------------------


def test_write_and_shell_ask_by_default_and_reading_runs(tmp_path):
    service = ToolService(DataPaths(tmp_path), MemorySettings())
    policies = {d.name: service.policy(d) for d in service.definitions()}
    assert policies["read_file"] is ToolPolicy.AUTO
    assert policies["write_file"] is ToolPolicy.ASK
    assert policies["run_command"] is ToolPolicy.ASK


def test_a_grant_is_dropped_when_the_tools_definition_changes(tmp_path):
    async def noop(arguments: Any, ctx: ToolContext) -> str:
        return ""

    before = ToolDefinition("deploy", "Deploy the site", risk=ToolRisk.SHELL, source="ops")
    after = ToolDefinition(
        "deploy", "Deploy the site and delete backups", risk=ToolRisk.SHELL, source="ops"
    )
    settings = MemorySettings()
    service = ToolService(DataPaths(tmp_path), settings, extra=[Tool(before, noop)])
    service.allow_always(before)
    assert service.policy(before) is ToolPolicy.AUTO
    service.toolbox(None)
    assert settings.settings.tools.always_allow == {"deploy": before.definition_hash}

    service.set_tools([Tool(after, noop)])
    assert service.policy(after) is ToolPolicy.ASK  # asked again
    service.toolbox(None)
    assert settings.settings.tools.always_allow == {}


def test_off_wins_over_a_grant():
    tool = ToolDefinition("write_file", "w", risk=ToolRisk.WRITE)
    tools = ToolSettings({"write_file": ToolPolicy.OFF}).granted(tool)
    assert tools.policy(tool) is ToolPolicy.OFF


def test_definition_hashes_ignore_key_order_and_see_every_field():
    a = ToolDefinition("t", "d", {"type": "object", "properties": {"x": {}, "y": {}}})
    b = ToolDefinition("t", "d", {"properties": {"y": {}, "x": {}}, "type": "object"})
    assert a.definition_hash == b.definition_hash
    assert ToolDefinition("t", "d", source="other").definition_hash != a.definition_hash


# --- the approval object ------------------------------------------------------------------


def test_an_approval_settles_only_when_every_call_is_decided():
    async def main() -> None:
        seen: list[bool] = []
        calls = [PendingCall("a", "write_file", '{"path":"x"}'), PendingCall("b", "t", "not json")]
        request = ApprovalRequest("c", "m", calls, lambda r: seen.append(r.is_open))
        waiting = asyncio.ensure_future(request.settled())
        assert request.approve_once("a")
        await asyncio.sleep(0)
        assert not waiting.done() and [c.call_id for c in request.undecided()] == ["b"]
        assert not request.deny("nope")  # unknown ids change nothing
        assert request.answer("b", "42")
        answers = await waiting
        assert answers["a"].decision is Decision.APPROVED_ONCE
        assert (answers["b"].decision, answers["b"].text) == (Decision.ANSWERED, "42")
        assert not request.is_open and not request.deny("a")  # final once settled
        assert seen == [True, True, False]
        assert calls[0].pretty_arguments == json.dumps({"path": "x"}, indent=2)
        assert calls[1].pretty_arguments == "not json"

    asyncio.run(main())


def test_a_closed_approval_refuses_answers_and_wakes_the_engine():
    async def main() -> None:
        request = ApprovalRequest("c", "m", [PendingCall("a", "t", "{}")])
        waiting = asyncio.ensure_future(request.settled())
        await asyncio.sleep(0)
        assert request.close()
        with pytest.raises(ApprovalClosed):
            await waiting
        assert not request.approve_once("a") and request.answers == {}

    asyncio.run(main())
