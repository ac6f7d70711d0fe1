"""Each provider's own stall timeout, through the registry as the engine builds adapters:
every wire waits that long, and no longer, for a server that says nothing."""

from __future__ import annotations

import httpx
import pytest

from desktop.core.errors import ProviderError
from desktop.core.events import Finished
from desktop.core.models import Role
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.providers.base import ChatRequest, RequestMessage
from desktop.providers.registry import create_provider
from tests.support.provider_calls import run
from tests.support.sse_server import Sleep, SSEServer, default_stream

REQUEST = ChatRequest(model="test-model", messages=(RequestMessage(Role.USER, "Hi"),))
# The OpenAI-compatible kinds take the /v1 address; the others their server's root.
V1_KINDS = {ProviderKind.OPENAI_CHAT, ProviderKind.OPENAI_RESPONSES}


def settings_for(kind: ProviderKind, server: SSEServer, stall_timeout: int) -> ProviderSettings:
    url = server.base_url if kind in V1_KINDS else server.url
    # Built directly, below the settings' 10 s minimum, so the test need not wait long.
    return ProviderSettings("p", "P", kind, url, stall_timeout=stall_timeout)


@pytest.mark.parametrize("kind", list(ProviderKind), ids=[k.value for k in ProviderKind])
def test_a_server_silent_before_its_first_byte_stalls_after_the_providers_timeout(
    sse_server: SSEServer, kind: ProviderKind
) -> None:
    sse_server.enqueue([Sleep(20), *default_stream()])

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = create_provider(settings_for(kind, sse_server, 1), None, client)
            async for _event in provider.stream(REQUEST):
                pass

    with pytest.raises(ProviderError, match=r"accepted the request but sent nothing for 1 s"):
        run(main())
    assert sse_server.requests[0].client_gone.wait(10)


def test_a_server_silent_for_less_than_the_timeout_answers(sse_server: SSEServer) -> None:
    sse_server.enqueue([Sleep(1.5), *default_stream()])

    async def main() -> list[object]:
        async with httpx.AsyncClient(trust_env=False) as client:
            settings = settings_for(ProviderKind.OPENAI_CHAT, sse_server, 10)
            provider = create_provider(settings, None, client)
            return [event async for event in provider.stream(REQUEST)]

    assert isinstance(run(main())[-1], Finished)
