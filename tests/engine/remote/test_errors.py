"""The one mapping from HTTP statuses and system errors to what went wrong."""

from __future__ import annotations

import errno

import pytest

from desktop.engine.remote.errors import (
    RemoteProblem,
    os_error,
    problem_for_status,
    status_error,
)


@pytest.mark.parametrize(
    ("status", "problem"),
    [
        (200, None),
        (207, None),
        (304, None),
        (400, None),
        (401, RemoteProblem.AUTH),
        (403, RemoteProblem.FORBIDDEN),
        (404, RemoteProblem.NOT_FOUND),
        (412, RemoteProblem.CONFLICT),
        (413, RemoteProblem.NO_SPACE),
        (500, RemoteProblem.SERVER),
        (502, RemoteProblem.SERVER),
        (504, RemoteProblem.TIMEOUT),
        (507, RemoteProblem.NO_SPACE),
    ],
)
def test_statuses(status: int, problem: RemoteProblem | None) -> None:
    assert problem_for_status(status) is problem


def test_an_unexpected_status_is_a_bad_response_naming_it() -> None:
    error = status_error(418, "https://h/dav", "I'm a teapot")
    assert error.problem is RemoteProblem.BAD_RESPONSE and error.status == 418
    assert str(error) == (
        "The server at https://h/dav gave an unexpected answer. (HTTP 418: I'm a teapot)"
    )


@pytest.mark.parametrize(
    ("error", "problem"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), RemoteProblem.NO_SPACE),
        (OSError(errno.EDQUOT, "Disk quota exceeded"), RemoteProblem.NO_SPACE),
        (PermissionError(errno.EACCES, "Permission denied"), RemoteProblem.FORBIDDEN),
        (OSError(errno.EROFS, "Read-only file system"), RemoteProblem.FORBIDDEN),
        (FileNotFoundError(errno.ENOENT, "No such file"), RemoteProblem.NOT_FOUND),
        (OSError(errno.EIO, "Input/output error"), RemoteProblem.LOCAL),
    ],
)
def test_system_errors(error: OSError, problem: RemoteProblem) -> None:
    mapped = os_error(error, "/media/disk/Parley")
    assert mapped.problem is problem
    assert "/media/disk/Parley" in str(mapped)
