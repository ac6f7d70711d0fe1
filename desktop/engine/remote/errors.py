"""What went wrong talking to a remote store, in one vocabulary for every kind of store.

Backup and sync decide what to do from `RemoteError.problem` (ask for the password again,
retry later, tell the person the disk is full); the person reads `str(error)`, which
names the target and says what to do. Every exception an HTTP request or a file
operation can raise is turned into a RemoteError here, in one place.
"""

from __future__ import annotations

import errno
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from enum import StrEnum
from http import HTTPStatus
from typing import Final

import httpx

from desktop.core.errors import ParleyError
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.providers.http_errors import network_reason


class RemoteProblem(StrEnum):
    AUTH = "auth"  # 401, or the S3 key or signature refused
    FORBIDDEN = "forbidden"  # 403, or no permission on the folder
    NOT_FOUND = "not-found"
    NO_SPACE = "no-space"  # 507, S3 quota or size limit, a full disk
    TIMEOUT = "timeout"
    TLS = "tls"  # the certificate could not be verified, the handshake failed
    UNREACHABLE = "unreachable"  # DNS failure, connection refused or dropped
    CONFLICT = "conflict"  # 412: a create-only write found the object there
    SERVER = "server"  # 5xx
    BAD_RESPONSE = "bad-response"  # an answer Parley cannot read (not WebDAV, bad XML)
    LOCAL = "local"  # any other problem with a local file or folder


_MESSAGES: Final[dict[RemoteProblem, str]] = {
    RemoteProblem.AUTH: QT_TR_NOOP(
        "The server refused the user name or password for {where}. Check them in {settings}"
    ),
    RemoteProblem.FORBIDDEN: QT_TR_NOOP(
        "The account has no permission to do this at {where}. "
        "Check the account's permissions on the server."
    ),
    RemoteProblem.NOT_FOUND: QT_TR_NOOP(
        "Nothing was found at {where}. Check the address in {settings}"
    ),
    RemoteProblem.NO_SPACE: QT_TR_NOOP(
        "The storage at {where} is out of space. Free some space there (or delete old "
        "backups) and try again."
    ),
    RemoteProblem.TIMEOUT: QT_TR_NOOP(
        "The server at {where} did not answer in time. Check the network connection and "
        "try again later."
    ),
    RemoteProblem.TLS: QT_TR_NOOP(
        "A secure connection to {where} could not be made: the server's certificate could "
        "not be verified. Check the address, or set a CA bundle in Settings → Network if it "
        "uses your own certificate authority."
    ),
    RemoteProblem.UNREACHABLE: QT_TR_NOOP(
        "Parley could not connect to {where}. Check the address and the network "
        "connection, and that the server is running."
    ),
    RemoteProblem.CONFLICT: QT_TR_NOOP(
        "A file of that name already exists at {where}, written by another device."
    ),
    RemoteProblem.SERVER: QT_TR_NOOP(
        "The server at {where} had an internal problem. Try again later; if it keeps "
        "happening, ask the server's administrator."
    ),
    RemoteProblem.BAD_RESPONSE: QT_TR_NOOP(
        "The server at {where} gave an answer Parley cannot read. Check that the address "
        "is a WebDAV folder or an S3 endpoint."
    ),
    RemoteProblem.LOCAL: QT_TR_NOOP("Parley could not use the folder {where}."),
}


_SETTINGS_PLACE: ContextVar[str | None] = ContextVar("remote_settings_place", default=None)


def settings_place() -> str:
    """Where the person sets the storage up, for the "check it in ..." of a message:
    File → Back Up… unless the work in progress is sync's (`fixed_in`)."""
    return _SETTINGS_PLACE.get() or tr("File → Back Up…")


@contextmanager
def fixed_in(place: str) -> Iterator[None]:
    """Errors raised inside (in this task, and the threads it starts) name `place`."""
    token = _SETTINGS_PLACE.set(place)
    try:
        yield
    finally:
        _SETTINGS_PLACE.reset(token)


class RemoteError(ParleyError):
    """A remote store operation failed. `str(error)` is a sentence naming the target.

    `detail` (the server's status or own words, the system's error) is appended in
    parentheses when it adds something; `message` replaces the standard sentence when
    the cause is known more precisely (a missing bucket, a wrong region).
    """

    def __init__(
        self,
        problem: RemoteProblem,
        where: str,
        detail: str = "",
        *,
        message: str | None = None,
        status: int | None = None,
    ) -> None:
        text = (
            message
            if message is not None
            else tr(_MESSAGES[problem]).format(where=where, settings=settings_place())
        )
        if detail:
            text = tr("{message} ({detail})").format(message=text, detail=detail)
        super().__init__(text)
        self.problem = problem
        self.where = where
        self.status = status


def missing_object(where: str, name: str) -> RemoteError:
    return RemoteError(
        RemoteProblem.NOT_FOUND,
        where,
        message=tr("There is no file named {name} at {where}.").format(where=where, name=name),
    )


def already_there(where: str, name: str) -> RemoteError:
    """A create-only write found `name` there (another device wrote it first)."""
    return RemoteError(
        RemoteProblem.CONFLICT,
        where,
        message=tr("A file named {name} already exists at {where}.").format(where=where, name=name),
    )


def problem_for_status(status: int) -> RemoteProblem | None:
    """The problem an HTTP status means; None for a success or an unexpected status."""
    if status < HTTPStatus.BAD_REQUEST:
        return None
    known = {
        401: RemoteProblem.AUTH,
        403: RemoteProblem.FORBIDDEN,
        404: RemoteProblem.NOT_FOUND,
        408: RemoteProblem.TIMEOUT,
        410: RemoteProblem.NOT_FOUND,
        412: RemoteProblem.CONFLICT,
        413: RemoteProblem.NO_SPACE,
        504: RemoteProblem.TIMEOUT,
        507: RemoteProblem.NO_SPACE,
    }
    if status in known:
        return known[status]
    return RemoteProblem.SERVER if status >= HTTPStatus.INTERNAL_SERVER_ERROR else None


def status_error(status: int, where: str, detail: str = "") -> RemoteError:
    """The error for an HTTP answer with `status` that the operation did not expect."""
    problem = problem_for_status(status)
    shown = tr("HTTP {status}").format(status=status)
    if detail:
        shown = f"{shown}: {detail}"
    if problem is None:
        return RemoteError(
            RemoteProblem.BAD_RESPONSE,
            where,
            shown,
            message=tr("The server at {where} gave an unexpected answer.").format(where=where),
            status=status,
        )
    return RemoteError(problem, where, shown, status=status)


def _causes(error: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _tls_failure(error: BaseException) -> ssl.SSLError | None:
    for cause in _causes(error):
        if isinstance(cause, ssl.SSLError):
            return cause
    return None


def transport_error(error: httpx.TransportError, where: str) -> RemoteError:
    """The error for an HTTP request that got no usable answer."""
    tls = _tls_failure(error)
    if tls is not None:
        reason = getattr(tls, "verify_message", None) or getattr(tls, "reason", None) or ""
        return RemoteError(RemoteProblem.TLS, where, str(reason))
    if isinstance(error, httpx.TimeoutException):
        return RemoteError(RemoteProblem.TIMEOUT, where)
    if isinstance(error, httpx.ConnectError | httpx.ProxyError):
        return RemoteError(RemoteProblem.UNREACHABLE, where, network_reason(error))
    if isinstance(error, httpx.RemoteProtocolError):
        return RemoteError(
            RemoteProblem.BAD_RESPONSE,
            where,
            message=tr(
                "The connection to {where} broke off in the middle of an answer. "
                "Try again; if it keeps happening, check the server or the proxy."
            ).format(where=where),
        )
    return RemoteError(
        RemoteProblem.UNREACHABLE,
        where,
        message=tr(
            "The connection to {where} was interrupted. Check the network connection and try again."
        ).format(where=where),
    )


def os_error(error: OSError, where: str) -> RemoteError:
    """The error for a failed file operation in (or on the way to) the folder `where`."""
    code = error.errno
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG):
        return RemoteError(RemoteProblem.NO_SPACE, where)
    if isinstance(error, PermissionError) or code == errno.EROFS:
        return RemoteError(
            RemoteProblem.FORBIDDEN,
            where,
            message=tr(
                "Parley is not allowed to write to the folder {where}. Check the folder's "
                "permissions, or choose another folder in {settings}"
            ).format(where=where, settings=settings_place()),
        )
    if isinstance(error, FileNotFoundError):
        return RemoteError(
            RemoteProblem.NOT_FOUND,
            where,
            message=tr("The folder {where} does not exist.").format(where=where),
        )
    return RemoteError(RemoteProblem.LOCAL, where, error.strerror or str(error))
