"""Test connection: do this base URL, key and protocol work, before anything is saved.

The cheapest proof is the model list (no tokens spent). Some endpoints have none (a
gateway, a proxy that only forwards chat requests); for those one chat request with a
one-token answer shows that the address, the key and the model are right.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop.core.errors import ProviderError
from desktop.core.i18n import tr
from desktop.core.models import Role
from desktop.core.settings import ProviderSettings
from desktop.providers.base import ChatProvider, ChatRequest, RequestMessage

NO_MODEL_LIST = (404, 405, 501)  # the endpoint has no model list (as opposed to a bad key)


class NoModelListError(ProviderError):
    """The endpoint answered 404 (405, 501) for its model list. From a chat request a 404
    means a wrong address or model; here it only means the server keeps no list, which
    is common (gateways, proxies, small servers), and model ids can be typed instead."""


def no_model_list(error: ProviderError) -> NoModelListError:
    text = tr(
        "This server does not list its models (it answered {status} when asked for them). "
        "Type the model ids under Models, one per line: chatting works without the list, "
        "and Test connection then asks the first model for one token. (If this server "
        "should list its models, check the base URL.)"
    )
    return NoModelListError(text.format(status=error.status_code), status_code=error.status_code)


async def model_list(provider: ChatProvider) -> list[str]:
    """The endpoint's models; raises `NoModelListError` when it keeps no list."""
    try:
        return await provider.list_models()
    except ProviderError as error:
        if error.status_code in NO_MODEL_LIST:
            raise no_model_list(error) from error
        raise


@dataclass(frozen=True, slots=True)
class ConnectionCheck:
    """What worked: the model list (`models`), or else a reply from `model`."""

    models: tuple[str, ...] | None = None
    model: str = ""  # the model that replied to the one-token request


async def check_connection(
    provider: ChatProvider, settings: ProviderSettings, model: str = ""
) -> ConnectionCheck:
    """Raises the provider's own readable `ProviderError` when the connection fails, and
    `NoModelListError` for an endpoint without a model list when no model was typed."""
    try:
        return ConnectionCheck(models=tuple(await model_list(provider)))
    except NoModelListError:
        if not model:
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
