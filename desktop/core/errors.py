"""Errors the person may see. Messages are written for people, never contain secrets."""

from __future__ import annotations

from desktop.core.i18n import tr


class ParleyError(Exception):
    """Base class: `str(error)` is fit to show in the UI."""


class ProviderError(ParleyError):
    """A request to a model provider failed.

    `status_code` is the HTTP status when there was one; `retryable` tells whether the
    same request may succeed later (rate limits, server errors, dropped connections).
    """

    def __init__(self, message: str, *, status_code: int | None = None, retryable: bool = False):
        super().__init__(message)
        self.status_code = status_code
        self.retryable = retryable


class StreamBrokenError(ProviderError):
    """The stream stopped after data had arrived: what was received is kept."""

    def __init__(self, message: str):
        super().__init__(message, retryable=True)


class SettingsError(ParleyError):
    """The settings file is invalid. `field` is a path such as `providers[0].base_url`."""

    def __init__(self, field: str, problem: str):
        super().__init__(
            tr("{field}: {problem}").format(field=field, problem=problem) if field else problem
        )
        self.field = field
        self.problem = problem


class SecretStoreUnavailable(ParleyError):
    """No usable keyring backend: keys cannot be stored or read."""


class EmptyMessageError(ParleyError):
    """A send with no text and no attachment."""


class TooManyAttachmentsError(ParleyError):
    """A send with more files than one message may carry."""
