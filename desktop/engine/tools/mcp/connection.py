"""One MCP server's connection: started when first needed, restarted after a crash.

The SDK's transports are anyio context managers that must be entered and left in the
same task, so each connection runs in a task of its own that holds them open until the
server is stopped or fails; calls from generations go through its `ClientSession`.

The server's messages pass through a relay, so the end of its output (a stdio process
that exited, a dropped HTTP stream) is noticed when it happens, even while idle: the
connection is then marked "stopped unexpectedly" and `on_change` says so. A call the
crash breaks fails (it may have had effects, so it is never silently repeated); the next
use restarts the server after a backoff that doubles with every consecutive crash, and
after `max_restarts` it stays stopped until the settings change. The server's stderr is
appended to `logs/mcp-<id>.log`.

An HTTP server is tried over streamable HTTP first; when its endpoint refuses the POST
with a 4xx (404/405 from a server that only has the older SSE transport), the SDK's SSE
client connects to the same URL, and the transport that worked is kept for this run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from desktop.core.mcp_settings import McpServerSettings, McpTransport
from desktop.engine.tools.registry import ToolFailure

if TYPE_CHECKING:  # the SDK itself is imported when a server first starts (see `_serve`)
    import httpx2
    from mcp import types
    from mcp.client.session import ClientSession

log = logging.getLogger(__name__)

CALL_TIMEOUT_S = 60.0
START_TIMEOUT_S = 30.0


@dataclass(frozen=True, slots=True)
class Backoff:
    first_s: float = 0.5
    max_s: float = 30.0
    max_restarts: int = 5

    def delay(self, crashes: int) -> float:
        return min(self.first_s * 2.0 ** (crashes - 1), self.max_s)


DEFAULT_BACKOFF = Backoff()


class HttpTransport(StrEnum):
    STREAMABLE = "streamable-http"
    SSE = "sse"


def _open_log(path: Path) -> TextIO:
    """The server's stderr goes straight to this file (the SDK needs a real file)."""
    return path.open("a", encoding="utf-8")


def _is_client_error(status: int) -> bool:
    return HTTPStatus.BAD_REQUEST <= status < HTTPStatus.INTERNAL_SERVER_ERROR


def log_path(logs_dir: Path, server_id: str) -> Path:
    return logs_dir / f"mcp-{server_id}.log"


class _PostStatus:
    """Remembers how the server answered the POSTs to its endpoint: the only place the
    SDK's streamable client leaves the HTTP status a fallback decision needs."""

    def __init__(self, url: str) -> None:
        import httpx2  # the SDK's HTTP client, loaded with the SDK

        self._url = httpx2.URL(url)
        self.refused = False

    async def __call__(self, response: httpx2.Response) -> None:
        request = response.request
        if request.method == "POST" and request.url.copy_with(query=None) == self._url:
            self.refused = self.refused or _is_client_error(response.status_code)


class McpConnection:
    def __init__(
        self,
        server: McpServerSettings,
        logs_dir: Path,
        *,
        call_timeout: float = CALL_TIMEOUT_S,
        backoff: Backoff = DEFAULT_BACKOFF,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_change: Callable[[McpConnection], None] | None = None,
    ) -> None:
        self.server = server
        self.log_file = log_path(logs_dir, server.id)
        self._call_timeout = call_timeout
        self._backoff = backoff
        self._sleep = sleep
        self._on_change = on_change
        self._session: ClientSession | None = None
        self._task: asyncio.Task[None] | None = None
        self._done: asyncio.Event | None = None
        self._lock = asyncio.Lock()
        self._crashes = 0
        self.starts = 0  # how many times the server was started (for the person and tests)
        self.tools: list[types.Tool] = []
        self.stopped_unexpectedly = False  # it crashed and was not restarted yet
        self.http_transport: HttpTransport | None = None  # what worked, for an HTTP server

    @property
    def running(self) -> bool:
        return self._session is not None

    def restart_delay(self) -> float | None:
        """Seconds the next use waits before restarting a crashed server; None when it
        crashed too often to be restarted again."""
        if self._crashes > self._backoff.max_restarts:
            return None
        return self._backoff.delay(self._crashes) if self._crashes else 0.0

    async def ensure_started(self) -> ClientSession:
        async with self._lock:
            if self._session is not None:
                return self._session
            if self._crashes > self._backoff.max_restarts:
                raise ToolFailure(
                    f"The MCP server {self.server.name!r} crashed {self._crashes} times and was "
                    f"not restarted again; see {self.log_file}."
                )
            if self._crashes:
                await self._sleep(self._backoff.delay(self._crashes))
            return await self._start()

    async def _start(self) -> ClientSession:
        ready: asyncio.Future[ClientSession] = asyncio.get_running_loop().create_future()
        self._done = asyncio.Event()
        self._task = asyncio.create_task(self._hold(ready, self._done))
        self.starts += 1
        try:
            session = await asyncio.wait_for(asyncio.shield(ready), START_TIMEOUT_S)
        except Exception as error:
            self._crashes += 1
            await self._end()
            self._changed()
            raise ToolFailure(
                f"The MCP server {self.server.name!r} did not start ({error}); see {self.log_file}."
            ) from None
        self._session = session
        self.stopped_unexpectedly = False
        self._changed()
        return session

    def _transports(self) -> list[HttpTransport | None]:
        if self.server.transport is not McpTransport.HTTP:
            return [None]
        if self.http_transport is not None:
            return [self.http_transport]
        return [HttpTransport.STREAMABLE, HttpTransport.SSE]

    async def _hold(self, ready: asyncio.Future[ClientSession], done: asyncio.Event) -> None:
        try:
            candidates = self._transports()
            for index, kind in enumerate(candidates):
                refused = _PostStatus(self.server.url)
                try:
                    await self._serve(kind, refused, ready, done)
                    return
                except Exception as error:
                    last = index == len(candidates) - 1
                    if ready.done() or last or not refused.refused:
                        raise
                    log.info("MCP server %s: no streamable HTTP (%s)", self.server.id, error)
        except Exception as error:  # reported to whoever waits for the start
            log.warning("MCP server %s ended: %s", self.server.id, error)
            if not ready.done():
                ready.set_exception(error)

    async def _serve(
        self,
        kind: HttpTransport | None,
        refused: _PostStatus,
        ready: asyncio.Future[ClientSession],
        done: asyncio.Event,
    ) -> None:
        """Hold one session open until stopped, or until the server's output ends."""
        # The SDK takes about two seconds to import: it is loaded here, when a server
        # first starts, not with the window (a person may never use MCP).
        import anyio
        from mcp.client.session import ClientSession

        sink, relayed = anyio.create_memory_object_stream[Any](0)
        ended = asyncio.Event()

        async def relay(source: Any) -> None:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                async with sink:
                    async for item in source:
                        await sink.send(item)
            ended.set()

        try:
            async with (
                self._transport(kind, refused) as (read, write),
                anyio.create_task_group() as group,
            ):
                group.start_soon(relay, read)
                async with ClientSession(relayed, write) as session:
                    await session.initialize()
                    self.tools = await _all_tools(session)
                    self.http_transport = kind
                    ready.set_result(session)
                    await _first_of(done, ended)
                    if not done.is_set():
                        self._lost(session)
                group.cancel_scope.cancel()
        finally:
            sink.close()
            relayed.close()

    @contextlib.asynccontextmanager
    async def _transport(
        self, kind: HttpTransport | None, refused: _PostStatus
    ) -> AsyncIterator[Any]:
        server = self.server
        if kind is HttpTransport.SSE:
            from mcp.client.sse import sse_client

            async with sse_client(server.url, headers=dict(server.headers)) as streams:
                yield streams
            return
        if kind is HttpTransport.STREAMABLE:
            import httpx2
            from mcp.client.streamable_http import streamable_http_client

            async with (
                httpx2.AsyncClient(
                    headers=dict(server.headers), event_hooks={"response": [refused]}
                ) as client,
                streamable_http_client(server.url, http_client=client) as streams,
            ):
                yield streams
            return
        from mcp.client.stdio import StdioServerParameters, stdio_client

        self.log_file.parent.mkdir(parents=True, exist_ok=True)
        params = StdioServerParameters(
            command=server.command,
            args=list(server.args),
            env=dict(server.env) or None,
            cwd=server.cwd or None,
        )
        with _open_log(self.log_file) as errlog:
            async with stdio_client(params, errlog=errlog) as streams:
                yield streams

    async def list_tools(self) -> list[types.Tool]:
        await self.ensure_started()
        return self.tools

    async def call(self, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
        from mcp import types
        from mcp.shared.exceptions import MCPError

        session = await self.ensure_started()
        try:
            result = await session.call_tool(
                tool, arguments, read_timeout_seconds=self._call_timeout
            )
        except MCPError as error:
            if error.code == types.REQUEST_TIMEOUT:
                raise ToolFailure(
                    f"The MCP server did not answer within {self._call_timeout:g} s."
                ) from None
            if error.code == types.CONNECTION_CLOSED:
                await self._crashed(session)
                raise ToolFailure(
                    f"The MCP server {self.server.name!r} stopped unexpectedly; it is "
                    f"restarted at the next call. See {self.log_file}."
                ) from None
            raise ToolFailure(f"The MCP server refused the call: {error.message}") from None
        except (OSError, ConnectionError) as error:
            await self._crashed(session)
            raise ToolFailure(f"The MCP server {self.server.name!r} failed: {error}") from None
        self._crashes = 0
        return result

    def _lost(self, session: ClientSession) -> bool:
        """Count one crash of `session`, once, whoever notices it first (the relay or a
        call it broke)."""
        if self._session is not session:
            return False
        self._session = None
        self._crashes += 1
        self.stopped_unexpectedly = True
        log.warning("MCP server %s stopped unexpectedly", self.server.id)
        self._changed()
        return True

    async def _crashed(self, session: ClientSession) -> None:
        if self._lost(session):
            await self._end()

    async def _end(self) -> None:
        self._session = None
        task, self._task = self._task, None
        if self._done is not None:
            self._done.set()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 10)

    async def stop(self) -> None:
        async with self._lock:
            was_running = self.running
            await self._end()
        if was_running:
            self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self)


async def _first_of(*events: asyncio.Event) -> None:
    waiters = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()


async def _all_tools(session: ClientSession) -> list[types.Tool]:
    from mcp import types

    tools: list[types.Tool] = []
    cursor: str | None = None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tools
