"""API keys in the operating system's keyring, and nowhere else.

Only the `keyring` library is used. A backend that is not a real OS keyring (the `fail`
backend, or the low-priority plain-text/encrypted-file backends of keyrings.alt) counts
as unavailable: an API key is never written to a file Parley manages. Providers that
need no key keep working either way.

Keys never appear in log messages or exception text. As defence in depth, every key the
store reads or writes is remembered (in memory only) and `SecretRedactingFilter`, put
on the log handlers, replaces it with "[redacted]" if some code logs it by mistake.
"""

from __future__ import annotations

import logging

import keyring
import keyring.errors
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail

from desktop.core.errors import SecretStoreUnavailable

log = logging.getLogger(__name__)

REDACTED = "[redacted]"
_MIN_SECRET_LEN = 6  # shorter strings would redact ordinary words; real keys are long
_NO_KEYRING = (
    "No system keyring was found (install and unlock a Secret Service such as GNOME "
    "Keyring or KeePassXC). API keys cannot be saved; providers without a key still work."
)


def _effective_priority(backend: KeyringBackend) -> float:
    """A chainer writes to its first backend, so that one decides how safe it is."""
    if isinstance(backend, chainer.ChainerBackend):
        backends = chainer.ChainerBackend.backends
        return float(backends[0].priority) if backends else 0.0
    return float(backend.priority)


class SecretStore:
    """API keys per provider id, under one keyring service name."""

    def __init__(self, service: str = "Parley"):
        self._service = service
        # Replaced, never mutated: log filters read it from other threads.
        self._known: frozenset[str] = frozenset()

    @property
    def service(self) -> str:
        return self._service

    def _problem(self) -> str:
        """Why keys cannot be stored, or "" when they can."""
        try:
            backend = keyring.get_keyring()
            if isinstance(backend, fail.Keyring):
                return _NO_KEYRING
            if _effective_priority(backend) < 1:
                return (
                    f"Only an insecure keyring ({type(backend).__name__}) was found, so API "
                    "keys are not saved. Install and unlock a system keyring such as GNOME "
                    "Keyring, KWallet or KeePassXC; providers without a key still work."
                )
        except Exception as exc:
            return (
                f"The system keyring could not be reached ({type(exc).__name__}). "
                "API keys cannot be saved; providers without a key still work."
            )
        return ""

    @property
    def available(self) -> bool:
        return not self._problem()

    @property
    def unavailable_reason(self) -> str:
        """A sentence for the Settings panel; empty when the keyring works."""
        return self._problem()

    def get(self, provider_id: str) -> str | None:
        """The key, or None when there is none, no keyring, or the keyring fails."""
        if not self.available:
            return None
        try:
            key = keyring.get_password(self._service, provider_id)
        except Exception as exc:  # locked, D-Bus gone, user dismissed the prompt...
            log.warning("Could not read the API key of %s (%s)", provider_id, type(exc).__name__)
            return None
        if key:
            self._remember(key)
        return key or None

    def set(self, provider_id: str, key: str) -> None:
        """Store (or replace) a key. Raises SecretStoreUnavailable, ValueError if blank."""
        key = key.strip()  # pasted keys often carry a newline
        if not key:
            raise ValueError("an API key must not be empty")
        self._remember(key)  # before anything can fail and get logged
        problem = self._problem()
        if problem:
            raise SecretStoreUnavailable(problem)
        try:
            keyring.set_password(self._service, provider_id, key)
        except Exception as exc:
            log.warning("Could not save the API key of %s (%s)", provider_id, type(exc).__name__)
            # `from None`: the backend's exception could echo what it was given.
            raise SecretStoreUnavailable(
                f"The system keyring refused to save the API key for {provider_id} "
                f"({type(exc).__name__})."
            ) from None

    def delete(self, provider_id: str) -> None:
        """Forget a key. A missing key, or no keyring at all, is not an error."""
        if not self.available:
            return
        try:
            keyring.delete_password(self._service, provider_id)
        except keyring.errors.PasswordDeleteError:
            pass
        except Exception as exc:
            log.warning("Could not delete the API key of %s (%s)", provider_id, type(exc).__name__)
            raise SecretStoreUnavailable(
                f"The system keyring could not delete the API key for {provider_id} "
                f"({type(exc).__name__})."
            ) from None

    def _remember(self, key: str) -> None:
        if len(key) >= _MIN_SECRET_LEN and key not in self._known:
            self._known = self._known | {key}

    @property
    def has_secrets(self) -> bool:
        return bool(self._known)

    def redact(self, text: str) -> str:
        """`text` with every key this store has seen replaced by "[redacted]"."""
        # Longest first, so a key that contains another is hidden whole.
        for secret in sorted(self._known, key=len, reverse=True):
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text


class SecretRedactingFilter(logging.Filter):
    """Hides known keys in a record's message, args, traceback and stack text.

    Attach it to *handlers* (the log file, the console): logger-level filters do not see
    records that propagate from child loggers.
    """

    def __init__(self, store: SecretStore):
        super().__init__()
        self._store = store

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._store.has_secrets:
            return True
        redact = self._store.redact
        try:
            message = record.getMessage()
        except Exception:  # malformed args: logging reports it itself later
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            text = logging.Formatter().formatException(record.exc_info)
            if redact(text) != text:
                record.exc_text = redact(text)
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True
