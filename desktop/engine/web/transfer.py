"""HTTP for web search and page reading: a deadline per attempt, few retries, capped
bodies, and failures worded with the engine and host.

A search runs inside a model's turn, so it must end in seconds with an answer or a
sentence the person can act on. Rate limits and server errors are retried at most
twice (an engine that is limiting scripted searches is only made angrier by a retry
storm), and a wait the engine asks for that is longer than a turn can afford ends the
search at once instead.

Nothing here logs or words the query or a key: messages name the engine and host.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

import httpx

from desktop.core.i18n import tr
from desktop.engine.web.results import WebError
from desktop.providers.http_errors import network_reason, parse_retry_after

log = logging.getLogger(__name__)

MAX_RETRIES = 2
RETRY_AFTER_CAP_S = 10.0  # a longer wait asked for ends the search instead
SERVER_ERROR_BACKOFF_S = (0.5, 1.0)  # before the first and the second retry
RATE_LIMIT_BACKOFF_S = (1.0, 2.0)  # the same, for a 429 that names no wait
MAX_ANSWER_BYTES = 4 * 1024 * 1024  # a search answer is a few KiB; more is not one
_TRANSIENT = frozenset({500, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    headers: httpx.Headers
    body: bytes
    url: str  # after redirects

    @property
    def content_type(self) -> str:
        value: str = self.headers.get("content-type", "")
        return value.split(";", 1)[0].strip().lower()

    @property
    def retry_after(self) -> float | None:
        return parse_retry_after(self.headers.get("retry-after"))


def host_of(url: str) -> str:
    """The host (and port) of `url`, without any user name or password."""
    try:
        return urlsplit(url).netloc.rpartition("@")[2] or url
    except ValueError:
        return tr("(invalid URL)")


async def read_capped(response: httpx.Response, max_bytes: int) -> tuple[bytes, bool]:
    """The (decompressed) body up to `max_bytes`, and whether there was more."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            return b"".join(chunks)[:max_bytes], True
    return b"".join(chunks), False


def transport_failure(
    exc: BaseException, url: str, timeout_s: float, error: type[WebError], label: str = ""
) -> WebError:
    """A timeout or a connection failure as one sentence naming the host (and `label`,
    the engine, when there is one)."""
    host = host_of(url)
    timed_out = isinstance(exc, (TimeoutError, httpx.TimeoutException))
    if timed_out and label:
        text = tr("{name} ({host}) did not answer within {seconds:g} s.")
    elif timed_out:
        text = tr("{host} did not answer within {seconds:g} s.")
    elif label:
        text = tr("Could not reach {name} ({host}): {reason}.")
    else:
        text = tr("Could not reach {host}: {reason}.")
    reason = "" if timed_out else network_reason(exc)
    return error(text.format(name=label, host=host, seconds=timeout_s, reason=reason))


async def request(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    *,
    label: str,
    timeout_s: float,
    error: type[WebError],
    retry_rate_limits: bool = True,
    params: Mapping[str, str] | None = None,
    headers: Mapping[str, str] | None = None,
    json: Any = None,
    data: Mapping[str, str] | None = None,
    auth: httpx.Auth | None = None,
) -> Answer:
    """The engine's answer, whatever its status, after at most two retries of a 429 or
    a transient 5xx. Raises `error` for a timeout or a connection failure."""
    answer = await _attempt(
        client, method, url, label, timeout_s, error, params, headers, json, data, auth
    )
    for attempt in range(MAX_RETRIES):
        wait = _retry_wait(answer, attempt, retry_rate_limits)
        if wait is None:
            break
        log.warning(
            "%s answered HTTP %d; retry %d of %d in %.1f s",
            label,
            answer.status,
            attempt + 1,
            MAX_RETRIES,
            wait,
        )
        await asyncio.sleep(wait)
        answer = await _attempt(
            client, method, url, label, timeout_s, error, params, headers, json, data, auth
        )
    return answer


def _retry_wait(answer: Answer, attempt: int, retry_rate_limits: bool) -> float | None:
    """How long to wait before trying again, or None not to."""
    asked = answer.retry_after
    if answer.status == HTTPStatus.TOO_MANY_REQUESTS:
        if not retry_rate_limits or (asked is not None and asked > RETRY_AFTER_CAP_S):
            return None
        return asked if asked is not None else RATE_LIMIT_BACKOFF_S[attempt]
    if answer.status in _TRANSIENT:
        if asked is not None and asked <= RETRY_AFTER_CAP_S:
            return max(asked, SERVER_ERROR_BACKOFF_S[attempt])
        return SERVER_ERROR_BACKOFF_S[attempt]
    return None


async def _attempt(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    label: str,
    timeout_s: float,
    error: type[WebError],
    params: Mapping[str, str] | None,
    headers: Mapping[str, str] | None,
    json: Any,
    data: Mapping[str, str] | None,
    auth: httpx.Auth | None,
) -> Answer:
    try:
        async with asyncio.timeout(timeout_s):
            built = client.build_request(
                method,
                url,
                params=params,
                headers=headers,
                json=json,
                data=data,
                timeout=httpx.Timeout(timeout_s),
            )
            response = await client.send(
                built,
                stream=True,
                auth=auth if auth is not None else httpx.USE_CLIENT_DEFAULT,
                follow_redirects=True,  # an instance moved to https, a trailing slash
            )
            try:
                body, too_long = await read_capped(response, MAX_ANSWER_BYTES)
            finally:
                await response.aclose()
    except (TimeoutError, httpx.TransportError) as exc:
        raise transport_failure(exc, url, timeout_s, error, label) from None
    except (httpx.InvalidURL, httpx.TooManyRedirects) as exc:
        raise error(
            tr("{name} ({host}) cannot be asked: {reason}.").format(
                name=label, host=host_of(url), reason=exc
            )
        ) from None
    if too_long:
        raise error(
            tr("{name} ({host}) sent more than {mib} MiB: that is not a search answer.").format(
                name=label, host=host_of(url), mib=MAX_ANSWER_BYTES // (1024 * 1024)
            )
        )
    return Answer(response.status_code, response.headers, body, str(response.url))
