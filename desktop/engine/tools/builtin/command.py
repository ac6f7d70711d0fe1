"""Running a command in the workspace: risk "shell", so it asks first by default.

The command runs in its own process group (a new session on POSIX), so a timeout or
Stop kills it and everything it started; Stop then propagates as cancellation. Output
(stdout and stderr interleaved) is read up to `MAX_OUTPUT_BYTES`, the rest discarded.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Mapping
from typing import Any

from desktop.core.tools import ToolDefinition, ToolRisk
from desktop.engine.processes import kill_tree, start_guarded
from desktop.engine.tools.registry import Tool, ToolContext, ToolFailure
from desktop.engine.tools.workspace import workspace_root

DEFAULT_TIMEOUT_S = 60
MAX_TIMEOUT_S = 600
MAX_OUTPUT_BYTES = 1024 * 1024


async def _start(command: str, cwd: str) -> asyncio.subprocess.Process:
    if sys.platform == "win32":
        return await asyncio.create_subprocess_shell(
            command,
            cwd=cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            creationflags=0x00000200,  # CREATE_NEW_PROCESS_GROUP
        )
    return await asyncio.create_subprocess_exec(
        "/bin/sh",
        "-c",
        command,
        cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,
    )


async def _collect(process: asyncio.subprocess.Process) -> tuple[bytes, bool]:
    assert process.stdout is not None
    kept = bytearray()
    dropped = False
    while chunk := await process.stdout.read(65536):
        room = MAX_OUTPUT_BYTES - len(kept)
        kept += chunk[:room]
        dropped = dropped or len(chunk) > room
    await process.wait()
    return bytes(kept), dropped


async def _run_command(arguments: Mapping[str, Any], context: ToolContext) -> str:
    root = workspace_root(context.workspace)
    command = arguments.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ToolFailure("'command' must be a non-empty string.")
    timeout = arguments.get("timeout_s", DEFAULT_TIMEOUT_S)
    if not isinstance(timeout, int | float) or isinstance(timeout, bool) or timeout <= 0:
        raise ToolFailure("'timeout_s' must be a positive number of seconds.")
    timeout = min(float(timeout), MAX_TIMEOUT_S)
    process = await start_guarded(_start(command, str(root)))
    try:
        output, dropped = await asyncio.wait_for(_collect(process), timeout)
    except TimeoutError:
        kill_tree(process)
        await process.wait()
        message = f"The command did not finish within {timeout:g} s and was killed."
        raise ToolFailure(message) from None
    finally:
        # Stop (cancellation) or any failure: never leave the command running.
        if process.returncode is None:
            kill_tree(process)
            with contextlib.suppress(ProcessLookupError):
                await asyncio.shield(process.wait())
    text = output.decode("utf-8", errors="replace")
    if dropped:
        text += f"\n[output cut at {MAX_OUTPUT_BYTES} bytes]"
    return f"exit code {process.returncode}\n{text}"


RUN_COMMAND = Tool(
    ToolDefinition(
        "run_command",
        "Run a shell command in the workspace folder and return its exit code and output.",
        {
            "type": "object",
            "properties": {
                "command": {"type": "string"},
                "timeout_s": {
                    "type": "number",
                    "description": f"default {DEFAULT_TIMEOUT_S}, at most {MAX_TIMEOUT_S}",
                },
            },
            "required": ["command"],
        },
        risk=ToolRisk.SHELL,
    ),
    _run_command,
    needs_workspace=True,
)
