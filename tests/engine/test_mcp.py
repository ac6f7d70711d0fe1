"""MCP servers as tool sources, against real servers started as subprocesses:
mcp-server-time over stdio, and a server built with the mcp SDK over stdio and
streamable HTTP (tests/support/mcp_test_server.py)."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from desktop.core.errors import SettingsError
from desktop.core.mcp_settings import McpServerSettings, has_consent
from desktop.core.models import CallState, DecidedBy, Decision
from desktop.core.paths import DataPaths
from desktop.core.settings import Settings, dump_settings, parse_settings
from desktop.core.tools import ToolRisk
from desktop.engine.chat_service import ChatService
from desktop.engine.tools.mcp.connection import Backoff
from desktop.engine.tools.mcp.manager import McpManager
from desktop.engine.tools.mcp.naming import mcp_tool_name
from desktop.engine.tools.registry import ToolFailure
from desktop.engine.tools.service import ToolService, conversation_search
from tests.engine.test_tool_loop import (
    TOOLS_MODEL,
    ToolHarness,
    call_answer,
    tool_messages,
)
from tests.support.sse_server import default_stream

ROOT = Path(__file__).resolve().parents[2]
TIME_SERVER = {
    "id": "time",
    "name": "Time",
    "command": sys.executable,
    "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"],
}
TEST_SERVER = {
    "id": "test",
    "name": "Test server",
    "command": sys.executable,
    "args": ["-m", "tests.support.mcp_test_server", "stdio"],
    "cwd": str(ROOT),
}


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


@pytest.fixture
def http_server() -> Iterator[str]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.mcp_test_server", "http", str(port)],
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
                import time

                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)


def test_a_streamable_http_server(tmp_path, http_server):
    async def main() -> None:
        web = {"id": "web", "name": "Web", "transport": "http", "url": http_server}
        manager, _ = manage(tmp_path, settings_with(web, consent=False))
        tools = {t.name: t for t in await manager.tools()}
        assert await tools["mcp__web__echo"].run({"text": "over http"}, None) == "over http"  # type: ignore[arg-type]
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
        self.mcp = McpManager(self.settings, self.root / "logs")
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
