"""Parley's command-line arguments, read without Qt: the start-up checks need the data
folder before Qt is loaded, and Qt takes its own options (`-platform`) afterwards."""

from __future__ import annotations

import argparse

from desktop import __version__


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="parley", description="Parley: chat with language models")
    parser.add_argument("--data-dir", help="folder for conversations, settings and logs")
    parser.add_argument("files", nargs="*", help="files to attach to a new chat")
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="start, show the window, round-trip the database, and exit 0",
    )
    parser.add_argument("--version", action="version", version=f"Parley {__version__}")
    args, _qt_args = parser.parse_known_args(argv)
    return args
