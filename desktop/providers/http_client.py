"""The application's httpx client, built from the network settings.

One client (one connection pool) serves every provider. The proxy follows the system by
default (httpx reads the environment, the Windows registry and macOS settings through
`urllib.request.getproxies`), can be turned off or set by hand; an extra CA bundle is
trusted on top of the system's certificates (a company proxy that inspects TLS).
"""

from __future__ import annotations

import ssl
from pathlib import Path

import httpx

from desktop import __version__
from desktop.core.errors import SettingsError
from desktop.core.i18n import tr
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.core.settings import NetworkSettings, ProxyMode


def ssl_context(ca_bundle: str) -> ssl.SSLContext | bool:
    """The system's trust store, plus `ca_bundle` when one is set."""
    if not ca_bundle:
        return True
    path = Path(ca_bundle).expanduser()
    context = ssl.create_default_context()
    try:
        context.load_verify_locations(cafile=str(path))
    except FileNotFoundError:
        raise SettingsError(
            "network.ca_bundle", tr("{path} does not exist").format(path=path)
        ) from None
    except (OSError, ssl.SSLError) as error:
        raise SettingsError(
            "network.ca_bundle",
            tr("{path} is not a readable PEM certificate file ({error})").format(
                path=path, error=error
            ),
        ) from None
    return context


def make_client(network: NetworkSettings) -> httpx.AsyncClient:
    """A client for `network`; raises SettingsError for an unusable CA bundle."""
    proxy = network.proxy_url if network.proxy_mode is ProxyMode.CUSTOM else None
    return httpx.AsyncClient(
        timeout=httpx.Timeout(STALL_TIMEOUT_S, connect=CONNECT_TIMEOUT_S),
        trust_env=network.proxy_mode is ProxyMode.SYSTEM,
        proxy=proxy,
        verify=ssl_context(network.ca_bundle),
        headers={"User-Agent": f"Parley/{__version__}"},
    )
