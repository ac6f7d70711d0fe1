"""MCP servers as tool sources, against real servers started as subprocesses:
mcp-server-time and mcp-server-git over stdio, and a server built with the mcp SDK over
stdio, streamable HTTP and SSE (tests/support/mcp_test_server.py)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from mcp import types

from desktop.core.errors import SettingsError
from desktop.core.mcp_settings import McpServerSettings, has_consent
from desktop.core.models import CallState, DecidedBy, Decision
from desktop.core.paths import DataPaths
from desktop.core.settings import Settings, dump_settings, parse_settings
from desktop.core.tools import ToolPolicy, ToolRisk
from desktop.engine.tools.mcp.connection import Backoff, HttpTransport
from desktop.engine.tools.mcp.events import McpConsentWanted, McpServersChanged
from desktop.engine.tools.mcp.manager import McpManager
from desktop.engine.tools.mcp.naming import mcp_tool_name
from desktop.engine.tools.mcp.results import result_text, storable_images
from desktop.engine.tools.registry import ToolFailure
from desktop.engine.tools.service import ToolService, conversation_search
from desktop.engine.turn.chat_service import ChatService
from desktop.storage.attachments import AttachmentStore
from tests.support.chat_wire import call_answer, tool_messages
from tests.support.engine_harness import TOOLS_MODEL, ToolHarness
from tests.support.mcp_servers import TEST_SERVER, TIME_SERVER, child_pid, git, git_repository
from tests.support.mcp_test_server import PNG
from tests.support.paths import ROOT
from tests.support.sse_server import default_stream


class MemorySettings:
    """The settings store `McpManager` reads and saves (plain, in memory)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def save(self, settings: Settings) -> None:
        self.settings = settings


def settings_with(*servers: dict[str, Any], consent: bool = True) -> Settings:
    settings = parse_settings({"mcp_servers": list(servers)})
    if consent:
        settings = replace(
            settings, mcp_consent={s.id: s.command_line_hash for s in settings.mcp_servers}
        )
    return settings


def manage(tmp_path: Path, settings: Settings, **options: Any) -> tuple[McpManager, MemorySettings]:
    store = MemorySettings(settings)
    return McpManager(store, tmp_path / "logs", **options), store


# --- settings and names ------------------------------------------------------------------


def test_servers_round_trip_and_errors_name_the_field():
    settings = settings_with(
        TIME_SERVER, {"id": "web", "transport": "http", "url": "http://127.0.0.1:9/mcp"}
    )
    assert parse_settings(dump_settings(settings)) == settings
    for bad, field in (
        ({"id": "x", "command": ""}, "mcp_servers[0].command"),
        ({"id": "x", "transport": "http", "url": "ftp://h"}, "mcp_servers[0].url"),
        ({"id": "x", "command": "a", "env": {"BAD NAME": "1"}}, "mcp_servers[0].env.BAD NAME"),
        ({"id": "x", "command": "a", "args": [1]}, "mcp_servers[0].args[0]"),
        ({"id": "X!", "command": "a"}, "mcp_servers[0].id"),
    ):
        with pytest.raises(SettingsError) as error:
            parse_settings({"mcp_servers": [bad]})
        assert error.value.field == field


def test_consent_is_bound_to_the_exact_command_line():
    server = McpServerSettings("s", "S", command="python", args=("-m", "srv"))
    consent = {"s": server.command_line_hash}
    assert has_consent(consent, server)
    for changed in (
        replace(server, args=("-m", "other")),
        replace(server, env={"TOKEN": "x"}),
        replace(server, cwd="/tmp"),
        replace(server, command="python3"),
    ):
        assert not has_consent(consent, changed)
    assert has_consent({}, McpServerSettings("h", "H", transport="http", url="http://h/mcp"))


def test_names_are_provider_safe_short_and_unique():
    taken: set[str] = set()
    assert mcp_tool_name("time", "get_current_time", taken) == "mcp__time__get_current_time"
    assert mcp_tool_name("my server", "do.it/now", taken) == "mcp__my_server__do_it_now"
    long_a = mcp_tool_name("s", "x" * 80 + "a", taken)
    long_b = mcp_tool_name("s", "x" * 80 + "b", taken)
    for name in (long_a, long_b):
        assert len(name) <= 64 and all(c.isalnum() or c in "_-" for c in name)
    assert long_a != long_b


# --- servers ---------------------------------------------------------------------------


def test_no_stdio_server_starts_without_consent_and_a_changed_command_asks_again(tmp_path):
    async def main() -> None:
        manager, store = manage(tmp_path, settings_with(TEST_SERVER, consent=False))
        assert await manager.tools() == []
        assert manager.connection("test") is None  # no process was started
        assert [s.id for s in manager.awaiting_consent()] == ["test"]

        manager.give_consent("test")
        assert manager.awaiting_consent() == []
        assert {t.name for t in await manager.tools()} >= {"mcp__test__echo"}
        started = manager.connection("test")
        assert started is not None and started.starts == 1

        server = store.settings.mcp_servers[0]
        changed = replace(server, args=(*server.args, "--changed"))
        store.save(replace(store.settings, mcp_servers=(changed,)))
        assert await manager.tools() == []
        assert manager.connection("test") is None and not started.running
        assert [s.id for s in manager.awaiting_consent()] == ["test"]
        await manager.stop()

    asyncio.run(main())


def test_results_errors_and_images_of_a_stdio_server(tmp_path):
    async def main() -> None:
        manager, _ = manage(tmp_path, settings_with(TEST_SERVER))
        tools = {t.name: t for t in await manager.tools()}
        echo = tools["mcp__test__echo"]
        assert echo.definition.source == "Test server"
        assert echo.definition.risk is ToolRisk.WRITE  # no readOnlyHint: it asks
        assert await echo.run({"text": "hello"}, None) == "hello"  # type: ignore[arg-type]
        image = await tools["mcp__test__pixel"].run({}, None)  # type: ignore[arg-type]
        assert image.startswith("[image: image/png, ") and image.endswith(" bytes]")
        with pytest.raises(ToolFailure, match="Error executing tool fail"):
            await tools["mcp__test__fail"].run({}, None)  # type: ignore[arg-type]
        await manager.stop()
        assert not manager.connection("test")

    asyncio.run(main())


@pytest.mark.slow
def test_a_crashed_server_is_restarted_with_backoff_and_its_stderr_is_logged(tmp_path):
    async def main() -> None:
        manager, _ = manage(
            tmp_path, settings_with(TEST_SERVER), backoff=Backoff(first_s=0.05, max_restarts=1)
        )
        tools = {t.name: t for t in await manager.tools()}
        with pytest.raises(ToolFailure, match="stopped unexpectedly"):
            await tools["mcp__test__crash"].run({}, None)  # type: ignore[arg-type]
        assert await tools["mcp__test__echo"].run({"text": "back"}, None) == "back"  # type: ignore[arg-type]
        connection = manager.connection("test")
        assert connection is not None and connection.starts == 2
        assert "crashing on purpose" in manager.log_file("test").read_text()

        for _ in range(2):  # bounded: after max_restarts crashes in a row it stays down
            with pytest.raises(ToolFailure):
                await tools["mcp__test__crash"].run({}, None)  # type: ignore[arg-type]
        with pytest.raises(ToolFailure, match="not restarted again"):
            await tools["mcp__test__echo"].run({"text": "x"}, None)  # type: ignore[arg-type]
        await manager.stop()

    asyncio.run(main())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(transport: str, path: str) -> Iterator[str]:
    """The test server on a free loopback port, over `transport`; yields its URL."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.mcp_test_server", transport, str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                    break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError("the MCP test server exited") from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}{path}"
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture
def http_server() -> Iterator[str]:
    yield from _serve("http", "/mcp")


@pytest.fixture
def sse_only_server() -> Iterator[str]:
    yield from _serve("sse", "/sse")


def test_a_streamable_http_server(tmp_path, http_server):
    async def main() -> None:
        web = {"id": "web", "name": "Web", "transport": "http", "url": http_server}
        manager, _ = manage(tmp_path, settings_with(web, consent=False))
        tools = {t.name: t for t in await manager.tools()}
        assert await tools["mcp__web__echo"].run({"text": "over http"}, None) == "over http"  # type: ignore[arg-type]
        connection = manager.connection("web")
        assert connection is not None
        assert connection.http_transport is HttpTransport.STREAMABLE
        await manager.stop()

    asyncio.run(main())


def test_a_server_with_only_sse_is_reached_over_sse_and_the_transport_is_kept(
    tmp_path, sse_only_server
):
    async def main() -> None:
        web = {"id": "old", "name": "Old", "transport": "http", "url": sse_only_server}
        manager, _ = manage(tmp_path, settings_with(web, consent=False))
        tools = {t.name: t for t in await manager.tools()}
        assert await tools["mcp__old__echo"].run({"text": "over sse"}, None) == "over sse"  # type: ignore[arg-type]
        connection = manager.connection("old")
        assert connection is not None
        assert connection.http_transport is HttpTransport.SSE
        # a restart in this run goes straight to the transport that worked
        assert connection._transports() == [HttpTransport.SSE]
        await connection.stop()
        assert await tools["mcp__old__echo"].run({"text": "again"}, None) == "again"  # type: ignore[arg-type]
        assert connection.starts == 2
        await manager.stop()

    asyncio.run(main())


def test_a_missing_http_endpoint_is_not_mistaken_for_an_sse_server(tmp_path, http_server):
    async def main() -> None:
        wrong = http_server.removesuffix("/mcp") + "/nothing-here"
        web = {"id": "web", "name": "Web", "transport": "http", "url": wrong}
        manager, _ = manage(tmp_path, settings_with(web, consent=False))
        assert await manager.tools() == []  # 404 on POST, and no SSE stream on GET either
        connection = manager.connection("web")
        assert connection is not None and not connection.running
        assert connection.http_transport is None
        await manager.stop()

    asyncio.run(main())


def test_a_server_that_crashes_while_idle_is_noticed_at_once_and_restarts_on_next_use(
    tmp_path,
):
    async def main() -> None:
        manager, _ = manage(
            tmp_path, settings_with(TEST_SERVER), backoff=Backoff(first_s=0.05, max_restarts=2)
        )
        events: list[object] = []
        manager.events.subscribe(events.append)
        tools = {t.name: t for t in await manager.tools()}
        connection = manager.connection("test")
        assert connection is not None and connection.running
        assert manager.listed() and McpServersChanged("test") in events
        pid = child_pid(os.getpid(), "tests.support.mcp_test_server")
        events.clear()

        os.kill(pid, signal.SIGKILL)
        for _ in range(200):  # noticed with no call made
            if connection.stopped_unexpectedly:
                break
            await asyncio.sleep(0.02)
        assert connection.stopped_unexpectedly and not connection.running
        assert connection.restart_delay() == 0.05
        assert events == [McpServersChanged("test")] and manager.listed() == []

        assert await tools["mcp__test__echo"].run({"text": "back"}, None) == "back"  # type: ignore[arg-type]
        assert connection.starts == 2 and not connection.stopped_unexpectedly
        await manager.stop()

    asyncio.run(main())


def test_servers_waiting_for_consent_are_announced_when_tools_are_listed(tmp_path):
    async def main() -> None:
        manager, _ = manage(tmp_path, settings_with(TEST_SERVER, consent=False))
        events: list[object] = []
        manager.events.subscribe(events.append)
        assert await manager.tools() == []
        assert events == [McpConsentWanted(("test",))]
        manager.give_consent("test")
        events.clear()
        assert await manager.tools()
        assert not any(isinstance(e, McpConsentWanted) for e in events)
        await manager.stop()

    asyncio.run(main())


# --- in the tool loop ----------------------------------------------------------------------


class McpHarness(ToolHarness):
    def __init__(self, tmp_path: Path, server: Any, settings: dict[str, Any]) -> None:
        super().__init__(tmp_path, server)
        path = self.root / "settings.json"
        data = json.loads(path.read_text())
        path.write_text(json.dumps({**data, **settings}))

    def _start(self) -> None:
        super()._start()
        self.store = AttachmentStore(DataPaths(self.root).attachments, self.db.engine)
        self.mcp = McpManager(self.settings, self.root / "logs", attachments=self.store)
        self.tools = ToolService(
            DataPaths(self.root),
            self.settings,
            search=conversation_search(self.db),
            sources=[self.mcp],
        )
        self.chat = ChatService(self.repo, self.settings, tools=self.tools)
        self.events.clear()
        self.chat.events.subscribe(self.events.append)

    async def __aexit__(self, *exc: object) -> None:
        await self.mcp.stop()
        await super().__aexit__(*exc)


def test_mcp_server_time_result_reaches_the_model_and_a_changed_definition_asks_again(
    tmp_path, sse_server
):
    server = parse_settings({"mcp_servers": [TIME_SERVER]}).mcp_servers[0]
    stale = "0" * 64  # a grant given for an earlier definition of convert_time
    settings = {
        "mcp_servers": [TIME_SERVER],
        "mcp_consent": {"time": server.command_line_hash},
        "tools": {"always_allow": {"mcp__time__convert_time": stale}},
    }
    sse_server.script(
        call_answer("call_1", "mcp__time__get_current_time", {"timezone": "UTC"}),
        default_stream("It is late."),
    )

    async def main() -> None:
        async with McpHarness(tmp_path, sse_server, settings) as h:
            result = await h.chat.send(None, "What time is it in UTC?", TOOLS_MODEL)
            await h.wait_finished()
            first, second = (r.json for r in sse_server.requests)
            offered = {t["function"]["name"] for t in first["tools"]}
            assert {"mcp__time__get_current_time", "mcp__time__convert_time"} <= offered
            sent = json.loads(tool_messages(second)["call_1"])
            assert sent["timezone"] == "UTC" and "datetime" in sent
            (call,) = h.calls(result.assistant_message_id)
            assert call.state is CallState.DONE
            # mcp-server-time marks its tools readOnlyHint, so they run by policy
            assert (call.decision, call.decided_by) == (Decision.AUTO, DecidedBy.POLICY)
            assert "mcp__time__convert_time" not in h.settings.settings.tools.always_allow

    asyncio.run(main())


def test_mcp_server_git_reads_by_policy_and_a_denied_write_leaves_the_repository_alone(
    tmp_path, sse_server
):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README.md").write_text("Parley\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-q", "-m", "First commit")
    (repo / "notes.txt").write_text("not added yet\n")
    status_before = git(repo, "status", "--porcelain")
    git_server = {
        "id": "git",
        "name": "Git",
        "command": sys.executable,
        "args": ["-m", "mcp_server_git", "--repository", str(repo)],
    }
    server = parse_settings({"mcp_servers": [git_server]}).mcp_servers[0]
    settings = {
        "mcp_servers": [git_server],
        "mcp_consent": {"git": server.command_line_hash},
        "tools": {"policies": {"mcp__git__git_status": "auto"}},
    }
    sse_server.script(
        call_answer("call_s", "mcp__git__git_status", {"repo_path": str(repo)}),
        call_answer("call_a", "mcp__git__git_add", {"repo_path": str(repo), "files": ["."]}),
        default_stream("Left it as it was."),
    )

    async def main() -> None:
        async with McpHarness(tmp_path, sse_server, settings) as h:
            tools = {t.name: t for t in await h.mcp.tools()}
            assert {"mcp__git__git_status", "mcp__git__git_log", "mcp__git__git_add"} <= set(tools)
            assert all(len(name) <= 64 for name in tools)
            add = tools["mcp__git__git_add"].definition
            assert add.risk is ToolRisk.WRITE and h.tools.policy(add) is ToolPolicy.ASK

            result = await h.chat.send(None, "What is the state of the repository?", TOOLS_MODEL)
            request = await h.wait_approval()
            assert [c.name for c in request.calls] == ["mcp__git__git_add"]
            assert request.deny("call_a")
            await h.wait_finished()

            status_call, add_call = h.calls(result.assistant_message_id)
            assert (status_call.state, status_call.decided_by) == (CallState.DONE, DecidedBy.POLICY)
            sent = tool_messages(sse_server.requests[1].json)["call_s"]
            assert "notes.txt" in sent and "Untracked" in sent
            assert (add_call.state, add_call.decided_by) == (CallState.DENIED, DecidedBy.PERSON)
            assert git(repo, "status", "--porcelain") == status_before == "?? notes.txt\n"

    asyncio.run(main())


def test_a_restored_call_to_a_server_not_yet_started_is_worded_cautiously_then_described(
    tmp_path, sse_server
):
    repo, _server, settings = git_repository(tmp_path)
    add = {"repo_path": str(repo), "files": ["notes.txt"]}
    sse_server.script(call_answer("call_a", "mcp__git__git_add", add))

    async def main() -> None:
        async with McpHarness(tmp_path, sse_server, settings) as h:
            await h.chat.send(None, "Stage my notes", TOOLS_MODEL)
            await h.wait_approval()
            await h.mcp.stop()
            await h.restart()  # as at the next start: no MCP server runs yet
            (request,) = h.chat.pending_approvals()
            (call,) = request.calls
            assert (call.name, call.source, call.risk, call.description) == (
                "mcp__git__git_add",
                "Git",  # read from the name, as settings name the server
                None,  # not known: never "reads only"
                "",
            )
            assert not call.known
            assert not request.always_allow("call_a")  # no grant for an unseen definition

            await h.chat.describe_restored()  # starts the allowed server, runs nothing
            (call,) = request.calls
            assert (call.source, call.risk) == ("Git", ToolRisk.WRITE)
            assert call.description.startswith("Adds file contents to the staging area")
            assert request.is_open and request.undecided() == [call]
            assert call.pretty_arguments == json.dumps(add, indent=2)
            assert git(repo, "status", "--porcelain") == "?? notes.txt\n"  # not run

    asyncio.run(main())


def test_an_unknown_tools_source_comes_from_its_name(tmp_path):
    settings = MemorySettings(settings_with({**TIME_SERVER, "id": "my_time", "name": "Clock"}))
    tools = ToolService(DataPaths(tmp_path), settings)
    assert tools.source_of("mcp__my_time__get_current_time") == "Clock"
    assert tools.source_of("mcp__git__git_add") == "git"  # not configured: its id
    assert tools.source_of("current_time") == "built-in"
    assert tools.source_of("gone_tool") == ""


def test_an_image_result_is_kept_as_an_attachment_of_the_call(tmp_path, sse_server):
    settings = {
        "mcp_servers": [TEST_SERVER],
        "mcp_consent": {"test": settings_with(TEST_SERVER).mcp_consent["test"]},
        "tools": {"policies": {"mcp__test__pixel": "auto"}},
    }
    sse_server.script(call_answer("call_p", "mcp__test__pixel", {}), default_stream("A dot."))

    async def main() -> None:
        async with McpHarness(tmp_path, sse_server, settings) as h:
            result = await h.chat.send(None, "Draw a pixel", TOOLS_MODEL)
            await h.wait_finished()
            (call,) = h.calls(result.assistant_message_id)
            assert call.state is CallState.DONE and len(call.attachment_ids) == 1
            (image,) = h.store.get_many(call.attachment_ids)
            assert (image.name, image.mime) == ("test-pixel-1.png", "image/png")
            assert h.store.read_bytes(image) == PNG
            expected = f"[image: image/png, {len(PNG)} bytes, attached]"
            assert call.result == expected
            assert tool_messages(sse_server.requests[1].json)["call_p"] == expected

    asyncio.run(main())


def test_only_png_jpeg_and_webp_images_are_offered_for_keeping():
    def image(mime: str, data: str = "iVBORw0KGgo=") -> types.ImageContent:
        return types.ImageContent(type="image", data=data, mime_type=mime)

    result = types.CallToolResult(
        content=[
            types.TextContent(type="text", text="two pictures"),
            image("image/png"),
            image("image/gif"),
            image("image/webp", data="not base64!"),
        ]
    )
    assert [(i.index, i.mime) for i in storable_images(result)] == [(1, "image/png")]
    assert result_text(result, attached={1}).splitlines() == [
        "two pictures",
        "[image: image/png, 8 bytes, attached]",
        "[image: image/gif, 8 bytes]",
        f"[image: image/webp, {len('not base64!')} bytes]",
    ]
