"""MCP servers for the tests, as settings entries and on disk: mcp-server-time, the SDK
test server (tests/support/mcp_test_server.py) over stdio, and mcp-server-git on a
fresh repository; and the process a server runs as."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from desktop.core.settings import parse_settings
from tests.support.paths import ROOT

TIME_SERVER = {
    "id": "time",
    "name": "Time",
    "command": sys.executable,
    "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"],
}
TEST_SERVER = {
    "id": "test",
    "name": "Test server",
    "command": sys.executable,
    "args": ["-m", "tests.support.mcp_test_server", "stdio"],
    "cwd": str(ROOT),
}


def child_pid(parent: int, marker: str) -> int:
    """The pid of this process's child whose command line contains `marker`."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and marker in cmdline:
            return int(entry.name)
    raise AssertionError(f"no child process runs {marker}")


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` as a test identity; its output."""
    identity = ("-c", "user.name=Parley Tests", "-c", "user.email=tests@parley.invalid")
    done = subprocess.run(
        ["git", *identity, *args], cwd=repo, capture_output=True, text=True, check=True
    )
    return done.stdout


def git_repository(tmp_path: Path) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    """A repository with one untracked file, mcp-server-git on it, and settings that
    allow the server to run."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "notes.txt").write_text("not added yet\n")
    git_server = {
        "id": "git",
        "name": "Git",
        "command": sys.executable,
        "args": ["-m", "mcp_server_git", "--repository", str(repo)],
    }
    server = parse_settings({"mcp_servers": [git_server]}).mcp_servers[0]
    settings = {"mcp_servers": [git_server], "mcp_consent": {"git": server.command_line_hash}}
    return repo, git_server, settings
