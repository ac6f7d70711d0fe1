"""Test connection: do this base URL, key and protocol work, before anything is saved.

The cheapest proof is the model list (no tokens spent). Some endpoints have none (a
gateway, a proxy that only forwards chat requests); for those one chat request with a
one-token answer shows that the address, the key and the model are right.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop.core.errors import ProviderError
from desktop.core.models import Role
from desktop.core.settings import ProviderSettings
from desktop.providers.base import ChatProvider, ChatRequest, RequestMessage

NO_MODEL_LIST = (404, 405, 501)  # the endpoint has no model list (as opposed to a bad key)


@dataclass(frozen=True, slots=True)
class ConnectionCheck:
    """What worked: the model list (`models`), or else a reply from `model`."""

    models: tuple[str, ...] | None = None
    model: str = ""  # the model that replied to the one-token request


async def check_connection(
    provider: ChatProvider, settings: ProviderSettings, model: str = ""
) -> ConnectionCheck:
    """Raises the provider's own readable `ProviderError` when the connection fails."""
    try:
        return ConnectionCheck(models=tuple(await provider.list_models()))
    except ProviderError as error:
        if error.status_code not in NO_MODEL_LIST or not model:
            raise
    request = ChatRequest(
        model=model,
        messages=(RequestMessage(Role.USER, "Hi"),),
        max_output_tokens=1,
        extra_headers=dict(settings.headers),
        extra_body=dict(settings.extra_body),
    )
    await provider.complete(request)
    return ConnectionCheck(model=model)
