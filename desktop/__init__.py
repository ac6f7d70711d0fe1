"""Parley: a native desktop chat client for large language models."""

import sys

# httpx imports its command-line client (click and rich: about 40 ms and 2 MB at every
# start) whenever click is installed, and the MCP SDK's dependencies install it; Parley
# never runs that client. With the module marked absent, httpx defines a stub instead.
# (typeshed types the values of sys.modules as modules; None is the documented mark)
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

__version__ = "0.1.0"
