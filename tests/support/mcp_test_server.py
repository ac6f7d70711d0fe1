"""A small MCP server built with the mcp SDK, for Parley's tests.

Run as `python -m tests.support.mcp_test_server stdio`, `... http PORT` (streamable HTTP
at /mcp) or `... sse PORT` (only the older SSE transport, at /sse).
Tools: `echo` (returns its text), `pixel` (an image), `fail` (an error result) and
`crash` (the process exits at once, as a crashing server would).
"""

from __future__ import annotations

import os
import sys

from mcp.server.mcpserver import Image, MCPServer

server = MCPServer("parley-test")

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


@server.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


@server.tool()
def pixel() -> Image:
    """A one-pixel PNG."""
    return Image(data=PNG, format="png")


@server.tool()
def fail() -> str:
    """Always fails."""
    raise ValueError("this tool always fails")


@server.tool()
def crash() -> str:
    """Exit the process at once."""
    print("crashing on purpose", file=sys.stderr, flush=True)
    os._exit(3)


if __name__ == "__main__":
    if sys.argv[1] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    elif sys.argv[1] == "sse":
        server.run("sse", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
