"""A hand-written in-memory keyring backend, installed with `keyring.set_keyring()`."""

from __future__ import annotations

from keyring.backend import KeyringBackend
from keyring.compat import properties
from keyring.errors import PasswordDeleteError


class MemoryKeyring(KeyringBackend):
    """Stores passwords in a dict. `fail_with` makes every call raise, like a locked one."""

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}
        self.fail_with: Exception | None = None

    @properties.classproperty
    def priority(cls) -> float:
        return 5

    def _check(self) -> None:
        if self.fail_with is not None:
            raise self.fail_with

    def get_password(self, service: str, username: str) -> str | None:
        self._check()
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self._check()
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self._check()
        if self.passwords.pop((service, username), None) is None:
            raise PasswordDeleteError("not found")


class InsecureKeyring(MemoryKeyring):
    """Stands in for keyrings.alt's plain-text file backend (priority below 1)."""

    @properties.classproperty
    def priority(cls) -> float:
        return 0.5
