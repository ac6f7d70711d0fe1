"""The README's way to keep keys on a machine without a Secret Service, for real: the
keyrings.alt file backend named in PYTHON_KEYRING_BACKEND, in a fresh process with no
terminal (as when Parley is started from a desktop menu), with its own data folder; and
the encrypted one on a real terminal (a pseudo-terminal), in its foreground and in its
background, as a shell runs `parley` and `parley &`."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import termios
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAINTEXT = "keyrings.alt.file.PlaintextKeyring"
ENCRYPTED = "keyrings.alt.file.EncryptedKeyring"
KEY = "sk-fallback-key-0123456789"

STORE = f"""
from desktop.storage.secrets import SecretStore
store = SecretStore()
assert store.available, store.unavailable_reason
store.set("openai", "{KEY}")
print(store.notice)
"""
READ = """
from desktop.storage.secrets import SecretStore
print(SecretStore().get("openai"))
"""
PROBLEM = """
from desktop.storage.secrets import SecretStore
store = SecretStore()
print(store.available, store.unavailable_reason)
"""


def _environment(home: Path, backend: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_KEYRING_BACKEND"}
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        PYTHONPATH=str(ROOT),
    )
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)  # no Secret Service to find
    if backend is not None:
        env["PYTHON_KEYRING_BACKEND"] = backend
    return env


def parley_python(script: str, home: Path, backend: str | None) -> str:
    """`script` in a session of its own: no controlling terminal, as from a menu."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=_environment(home, backend),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        start_new_session=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


# Runs `script` as the terminal's foreground job, or as a job of its own process group
# (what a shell with job control makes of `parley &`) while this one keeps the terminal.
ON_A_TERMINAL = """
import subprocess, sys
job = subprocess.run(
    [sys.executable, "-c", sys.argv[1]],
    process_group=0 if sys.argv[2] == "background" else None,
    capture_output=True, text=True, timeout=120,
)
print(job.stdout.strip() or job.stderr.strip())
"""


def _take_the_terminal() -> None:
    """In the child, a session leader already: stdin becomes its controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def on_a_terminal(script: str, home: Path, backend: str, job: str) -> str:
    """`script` started from a real (pseudo-)terminal, as the `job` "foreground" or
    "background"."""
    leader, follower = os.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-c", ON_A_TERMINAL, script, job],
            env=_environment(home, backend),
            stdin=follower,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            start_new_session=True,
            preexec_fn=_take_the_terminal,
        )
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_named_file_keyring_stores_and_reads_back_a_key_without_a_terminal(tmp_path):
    notice = parley_python(STORE, tmp_path, PLAINTEXT)
    stored = tmp_path / "data" / "python_keyring" / "keyring_pass.cfg"
    assert stored.is_file()
    assert f"stored by PlaintextKeyring in {stored}, not encrypted" in notice
    # Another run of Parley reads it back.
    assert parley_python(READ, tmp_path, PLAINTEXT) == KEY


def test_a_file_keyring_that_was_not_named_is_still_not_trusted(tmp_path):
    """keyrings.alt installed is not a choice: keyring would pick its plain-text file by
    itself where nothing better exists, and Parley refuses to write keys there."""
    said = parley_python(PROBLEM, tmp_path, None)
    assert said.startswith("False Only an insecure keyring (")
    assert not (tmp_path / "data" / "python_keyring").exists()


def test_the_encrypted_file_keyring_without_a_terminal_says_why_it_cannot_work(tmp_path):
    said = parley_python(PROBLEM, tmp_path, ENCRYPTED)
    assert said.startswith("False The keyring you chose (EncryptedKeyring) asks for its")
    assert "Parley was not started from one" in said


def test_the_encrypted_file_keyring_works_in_the_foreground_of_a_terminal(tmp_path):
    assert on_a_terminal(PROBLEM, tmp_path, ENCRYPTED, "foreground") == "True"


def test_the_encrypted_file_keyring_is_refused_in_the_background_of_a_terminal(tmp_path):
    """Its password prompt would read the terminal from a background job: the kernel
    would stop Parley (SIGTTIN), window and all. So it says why instead."""
    said = on_a_terminal(PROBLEM, tmp_path, ENCRYPTED, "background")
    assert said.startswith("False The keyring you chose (EncryptedKeyring) asks for its")
    assert "runs in its background" in said
