"""Keyring entries other than providers' keys (a web search engine's key or password):
stored, read and forgotten through the settings service, off the calling thread."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.engine.settings_service import SettingsService
from desktop.storage.secrets import SecretStore
from tests.support.memory_keyring import MemoryKeyring
from tests.support.settings_files import write_settings
from tests.support.waiting import run_within

NAME = "web_search.brave"


def test_a_named_secret_is_stored_read_and_forgotten(
    tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    path = write_settings(tmp_path, "http://127.0.0.1:9/v1")
    before = path.read_text(encoding="utf-8")

    async def main() -> None:
        service = SettingsService(path, SecretStore())
        try:
            assert await service.secret(NAME) is None
            await service.set_secret(NAME, "  brave-key-0123456789\n")
            assert memory_keyring.passwords == {("Parley", NAME): "brave-key-0123456789"}
            assert await service.secret(NAME) == "brave-key-0123456789"
            await service.delete_secret(NAME)
            await service.delete_secret(NAME)  # already gone: not an error
            assert await service.secret(NAME) is None
        finally:
            await service.aclose()

    run_within(main())
    assert memory_keyring.passwords == {}
    assert path.read_text(encoding="utf-8") == before  # the settings file is not touched


def test_a_blank_secret_is_refused(tmp_path: Path, memory_keyring: MemoryKeyring) -> None:
    path = write_settings(tmp_path, "http://127.0.0.1:9/v1")

    async def main() -> None:
        service = SettingsService(path, SecretStore())
        try:
            with pytest.raises(ValueError):
                await service.set_secret(NAME, "   ")
        finally:
            await service.aclose()

    run_within(main())
    assert memory_keyring.passwords == {}
