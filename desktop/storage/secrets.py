"""API keys in the operating system's keyring, or in a store the person chose.

Only the `keyring` library is used. A backend that is not a real OS keyring (the `fail`
backend, or the low-priority plain-text/encrypted-file backends of keyrings.alt) is not
used just because it happens to be installed: an API key is never written to a file
unless the person asked for it. They ask by naming the backend, as the `keyring` library
documents, in `PYTHON_KEYRING_BACKEND` or in its `keyringrc.cfg`; Parley then uses it
and says plainly (`notice`) what it is and where the keys are. A backend that asks for
its password on a terminal (keyrings.alt's EncryptedKeyring) can only work when Parley
was started from one and runs in its foreground: otherwise it counts as unavailable,
saying why. Providers that
need no key keep working either way.

`keyring` is imported when a key is first read, written or asked about, not with the
window: finding its backends loads 10 MB of modules (D-Bus clients, entry points), and
a person whose providers need no key never needs it.

Keys never appear in log messages or exception text. As defence in depth, every key the
store reads or writes is remembered (in memory only) and `SecretRedactingFilter`, put
on the log handlers, replaces it with "[redacted]" if some code logs it by mistake.
"""

from __future__ import annotations

import configparser
import logging
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from desktop.core.errors import SecretStoreUnavailable
from desktop.core.i18n import QT_TR_NOOP, tr

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

log = logging.getLogger(__name__)

REDACTED = "[redacted]"
_MIN_SECRET_LEN = 6  # shorter strings would redact ordinary words; real keys are long
_NO_KEYRING = QT_TR_NOOP(
    "No system keyring was found (install and unlock a Secret Service such as GNOME "
    "Keyring or KeePassXC). API keys cannot be saved; providers without a key still work."
)


# File backends that ask for a password with `getpass`, i.e. on a terminal.
_TERMINAL_PROMPTS = frozenset(
    {"keyrings.alt.file.EncryptedKeyring", "keyrings.cryptfile.cryptfile.CryptFileKeyring"}
)


def _keyring() -> ModuleType:
    import keyring
    import keyring.errors  # the exceptions `delete` tells apart

    return keyring


def _name(backend: KeyringBackend) -> str:
    return f"{type(backend).__module__}.{type(backend).__qualname__}"


def chosen_backend() -> str:
    """The backend the person named, as `keyring` reads it: the environment variable
    first, then `default-keyring` in keyringrc.cfg; "" when none was named."""
    named = os.environ.get("PYTHON_KEYRING_BACKEND", "").strip()
    if named:
        return named
    from keyring.util import platform_

    config = configparser.ConfigParser()
    try:
        config.read(Path(platform_.config_root()) / "keyringrc.cfg", encoding="utf-8")
        return config.get("backend", "default-keyring", fallback="").strip()
    except (configparser.Error, OSError, UnicodeDecodeError):
        return ""


def _effective_priority(backend: KeyringBackend) -> float:
    """A chainer writes to its first backend, so that one decides how safe it is."""
    from keyring.backends import chainer

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
            from keyring.backends import fail

            backend = _keyring().get_keyring()
            if isinstance(backend, fail.Keyring):
                return tr(_NO_KEYRING)
            name = _name(backend)
            if name == chosen_backend():
                if name in _TERMINAL_PROMPTS and not _on_a_terminal():
                    return tr(
                        "The keyring you chose ({keyring}) asks for its "
                        "password on a terminal, and Parley was not started from one (or "
                        "runs in its background), so API keys cannot be saved. Start Parley "
                        "from a terminal, in its foreground, or choose "
                        "a Secret Service such as GNOME Keyring or KeePassXC (see the "
                        "README, API keys); providers without a key still work."
                    ).format(keyring=type(backend).__name__)
                return ""  # the person's own choice, named on purpose
            if _effective_priority(backend) < 1:
                return tr(
                    "Only an insecure keyring ({keyring}) was found, so API "
                    "keys are not saved. Install and unlock a system keyring such as GNOME "
                    "Keyring, KWallet or KeePassXC; providers without a key still work."
                ).format(keyring=type(backend).__name__)
        except Exception as exc:
            words = f": {str(exc)[:200]}" if str(exc) else ""
            return tr(
                "The system keyring could not be reached ({reason}). "
                "API keys cannot be saved; providers without a key still work."
            ).format(reason=f"{type(exc).__name__}{words}")
        return ""

    @property
    def available(self) -> bool:
        return not self._problem()

    @property
    def notice(self) -> str:
        """What the person should know about a store they chose that is not a system
        keyring (where the keys are, whether they are encrypted); "" otherwise."""
        try:
            backend = _keyring().get_keyring()
            if self._problem() or _effective_priority(backend) >= 1:
                return ""
        except Exception:  # a backend that cannot even say how safe it is
            return ""
        where = getattr(backend, "file_path", "")
        name = type(backend).__name__
        if "Plaintext" in name:
            if where:
                text = tr(
                    "API keys are stored by {keyring} in {path}, not encrypted: "
                    "anyone who can read your files can read them. A Secret Service such as "
                    "GNOME Keyring or KeePassXC keeps them safer."
                )
            else:
                text = tr(
                    "API keys are stored by {keyring}, not encrypted: "
                    "anyone who can read your files can read them. A Secret Service such as "
                    "GNOME Keyring or KeePassXC keeps them safer."
                )
        elif where:
            text = tr(
                "API keys are stored by {keyring} in {path}, the keyring you "
                "chose instead of the system's."
            )
        else:
            text = tr(
                "API keys are stored by {keyring}, the keyring you chose instead of the system's."
            )
        return text.format(keyring=name, path=where)

    @property
    def unavailable_reason(self) -> str:
        """A sentence for the Settings panel; empty when the keyring works."""
        return self._problem()

    def get(self, provider_id: str) -> str | None:
        """The key, or None when there is none, no keyring, or the keyring fails."""
        if not self.available:
            return None
        try:
            key = _keyring().get_password(self._service, provider_id)
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
            raise ValueError(tr("an API key must not be empty"))
        self._remember(key)  # before anything can fail and get logged
        problem = self._problem()
        if problem:
            raise SecretStoreUnavailable(problem)
        try:
            _keyring().set_password(self._service, provider_id, key)
        except Exception as exc:
            log.warning("Could not save the API key of %s (%s)", provider_id, type(exc).__name__)
            # `from None`: the backend's exception could echo what it was given.
            raise SecretStoreUnavailable(
                tr(
                    "The system keyring refused to save the API key for {provider} ({kind})."
                ).format(provider=provider_id, kind=type(exc).__name__)
            ) from None

    def delete(self, provider_id: str) -> None:
        """Forget a key. A missing key, or no keyring at all, is not an error."""
        if not self.available:
            return
        keyring = _keyring()
        try:
            keyring.delete_password(self._service, provider_id)
        except keyring.errors.PasswordDeleteError:
            pass
        except Exception as exc:
            log.warning("Could not delete the API key of %s (%s)", provider_id, type(exc).__name__)
            raise SecretStoreUnavailable(
                tr(
                    "The system keyring could not delete the API key for {provider} ({kind})."
                ).format(provider=provider_id, kind=type(exc).__name__)
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


def _on_a_terminal() -> bool:
    """Whether a password prompt could be answered now. `getpass` asks on the
    controlling terminal (/dev/tty; stdin when there is none), and only the terminal's
    foreground job may read from it: Parley started with `&` has a terminal, yet the
    kernel stops the whole process at its first read (SIGTTIN) and the window freezes.
    (keyrings.cryptfile, up to 1.3.9, takes its password from nowhere else: a
    KEYRING_CRYPTFILE_PASSWORD variable is a convention of other programs, which set
    `keyring_key` themselves.)"""
    if os.name != "posix":  # Windows: getpass reads the console Parley runs in
        try:
            return sys.stdin is not None and sys.stdin.isatty()
        except (OSError, ValueError):
            return False
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:  # no controlling terminal
        return False
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(fd)


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
