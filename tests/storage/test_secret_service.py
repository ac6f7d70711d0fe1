"""API keys in a real Secret Service (GNOME Keyring over D-Bus), not a test backend.

Runs where `dbus-run-session` and `gnome-keyring-daemon` exist (CI installs them and sets
PARLEY_REQUIRE_SECRET_SERVICE=1 so that a missing daemon fails instead of skipping).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("PARLEY_REQUIRE_SECRET_SERVICE") == "1"
AVAILABLE = bool(shutil.which("dbus-run-session") and shutil.which("gnome-keyring-daemon"))

SCRIPT = """
import keyring
from desktop.storage.secrets import SecretStore
store = SecretStore()
assert store.available, store.unavailable_reason
store.set("parley-test", "sk-real-keyring-789")
other = SecretStore()  # a fresh store reads it back through D-Bus
assert other.get("parley-test") == "sk-real-keyring-789"
store.delete("parley-test")
assert SecretStore().get("parley-test") is None
print("ok", type(keyring.get_keyring()).__name__)
"""


@pytest.mark.skipif(not AVAILABLE and not REQUIRED, reason="no Secret Service tools here")
def test_keys_round_trip_through_a_real_secret_service(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_KEYRING_BACKEND"}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    command = (
        'eval "$(printf parley | gnome-keyring-daemon --unlock --components=secrets)"; '
        f'"{sys.executable}" -c "$SCRIPT"'
    )
    result = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", command],
        env={**env, "SCRIPT": SCRIPT},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("ok")
