"""SecretStore over the real keyring library, with an in-memory backend."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import keyring
import pytest
from keyring.backends import fail
from keyring.errors import KeyringLocked

from desktop.core.errors import SecretStoreUnavailable
from desktop.storage.secrets import SecretRedactingFilter, SecretStore
from tests.support.memory_keyring import InsecureKeyring, MemoryKeyring

KEY = "sk-test-0123456789abcdef"


@pytest.fixture
def swap_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    try:
        yield
    finally:
        keyring.set_keyring(previous)


def test_set_get_delete(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    assert store.available and store.unavailable_reason == ""
    assert store.get("openai") is None
    store.set("openai", f"  {KEY}\n")
    assert memory_keyring.passwords == {("Parley", "openai"): KEY}
    assert store.get("openai") == KEY
    store.delete("openai")
    assert store.get("openai") is None
    store.delete("openai")  # missing is fine


def test_the_service_name_separates_stores(memory_keyring: MemoryKeyring) -> None:
    SecretStore("Parley-test").set("openai", KEY)
    assert SecretStore().get("openai") is None
    assert SecretStore("Parley-test").get("openai") == KEY


def test_blank_keys_are_refused(memory_keyring: MemoryKeyring) -> None:
    with pytest.raises(ValueError):
        SecretStore().set("openai", "  \n")
    assert memory_keyring.passwords == {}


def test_the_fail_backend_is_unavailable_with_a_plain_reason(swap_keyring: None) -> None:
    keyring.set_keyring(fail.Keyring())
    store = SecretStore()
    assert not store.available
    assert store.unavailable_reason.startswith("No system keyring was found")
    assert store.get("openai") is None
    store.delete("openai")  # nothing stored, nothing to do
    with pytest.raises(SecretStoreUnavailable, match="No system keyring") as caught:
        store.set("openai", KEY)
    assert KEY not in str(caught.value)


def test_a_low_priority_file_backend_is_not_trusted(swap_keyring: None) -> None:
    backend = InsecureKeyring()
    keyring.set_keyring(backend)
    store = SecretStore()
    assert not store.available
    assert "insecure keyring" in store.unavailable_reason
    with pytest.raises(SecretStoreUnavailable):
        store.set("openai", KEY)
    assert backend.passwords == {}  # the key was not written to the unsafe backend


def test_keyring_errors_on_read_return_none_and_log_no_key(
    memory_keyring: MemoryKeyring, caplog: pytest.LogCaptureFixture
) -> None:
    store = SecretStore()
    store.set("openai", KEY)
    memory_keyring.fail_with = KeyringLocked(f"locked while holding {KEY}")
    with caplog.at_level(logging.WARNING):
        assert store.get("openai") is None
    assert "openai" in caplog.text and "KeyringLocked" in caplog.text
    assert KEY not in caplog.text


def test_keyring_errors_on_write_raise_without_the_key(memory_keyring: MemoryKeyring) -> None:
    memory_keyring.fail_with = KeyringLocked(f"refused {KEY}")
    with pytest.raises(SecretStoreUnavailable) as caught:
        SecretStore().set("openai", KEY)
    assert KEY not in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_redact_hides_every_known_key(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("a", KEY)
    memory_keyring.passwords[("Parley", "b")] = "other-secret-value"
    store.get("b")  # read keys are remembered too
    assert store.redact(f"x {KEY} y other-secret-value z") == "x [redacted] y [redacted] z"
    assert store.redact("nothing here") == "nothing here"


def _capture(store: SecretStore) -> tuple[logging.Logger, list[str], logging.Handler]:
    lines: list[str] = []

    class ListHandler(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = ListHandler()
    handler.addFilter(SecretRedactingFilter(store))
    parent = logging.getLogger("parley_test_redaction")
    parent.addHandler(handler)
    parent.setLevel(logging.DEBUG)
    return parent.getChild("child"), lines, handler


def test_the_filter_redacts_keys_logged_by_mistake(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    store.set("openai", KEY)
    logger, lines, handler = _capture(store)
    try:
        logger.info("sending with header Authorization: Bearer %s", KEY)
        logger.info(f"f-string leak {KEY}")
        logger.info("harmless %d", 42)
        try:
            raise RuntimeError(f"server echoed {KEY}")
        except RuntimeError:
            logger.exception("request failed")
    finally:
        logging.getLogger("parley_test_redaction").removeHandler(handler)

    output = "\n".join(lines)
    assert KEY not in output
    assert "Bearer [redacted]" in output
    assert "f-string leak [redacted]" in output
    assert "harmless 42" in output
    assert "RuntimeError: server echoed [redacted]" in output


def test_the_filter_is_a_no_op_before_any_key_is_seen() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "hello %s", ("world",), None)
    assert SecretRedactingFilter(SecretStore()).filter(record)
    assert record.msg == "hello %s" and record.args == ("world",)
