"""MCP servers as sources of tools, through the official `mcp` SDK.

`McpManager` (manager.py) is a `ToolSource` for `ToolService(sources=[...])`: it starts
the configured servers lazily (a stdio server only with the person's consent for its
exact command line), names their tools `mcp__{server}__{tool}` (naming.py) and turns
their results into text (results.py). `McpConnection` (connection.py) is one server's
lifecycle: started when first needed, restarted with backoff after a crash, stderr in
`logs/mcp-<id>.log`, a timeout per call. `McpManager.stop()` is called on quit.
"""

from desktop.engine.tools.mcp.manager import McpManager

__all__ = ["McpManager"]
