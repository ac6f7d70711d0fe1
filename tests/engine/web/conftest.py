from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.web_servers import WebServer


@pytest.fixture
def web_server() -> Iterator[WebServer]:
    """A started loopback server shaped like the search engines (web_servers.py)."""
    server = WebServer().start()
    try:
        yield server
    finally:
        server.stop()
