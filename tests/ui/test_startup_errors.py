"""What a person sees when Parley cannot start: a box that says why, in plain words."""

from __future__ import annotations

import asyncio
import shutil

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from desktop.app import _run
from desktop.core.paths import DataPaths
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.secrets import SecretStore
from tests.support.paths import SCHEMAS
from tests.support.waiting import CEILING_S


def _start_and_read_the_box(qapp, loop, paths: DataPaths) -> tuple[int, list[dict[str, object]]]:
    """Run the app's start-up (not a smoke test, so failures are shown in a box); note
    each box shown and close it, as a person would."""
    shown: list[dict[str, object]] = []

    def read_and_close_the_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            notices = [w for w in qapp.topLevelWidgets() if w.objectName() == "UpgradeNotice"]
            shown.append(
                {
                    "text": box.text(),
                    "format": box.textFormat(),
                    "notice_visible": any(w.isVisible() for w in notices),
                }
            )
            box.done(0)

    watcher = QTimer(interval=50)
    watcher.timeout.connect(read_and_close_the_box)
    watcher.start()
    try:
        code = loop.run_until_complete(
            asyncio.wait_for(_run(qapp, paths, SecretStore(), smoke=False), CEILING_S)
        )
    finally:
        watcher.stop()
    return code, shown


def test_starting_on_a_full_disk_shows_a_box_saying_the_disk_is_full(
    qapp, loop, memory_keyring, small_disk
):
    paths = DataPaths(small_disk.root / "data")
    paths.ensure()
    with Database.open(paths.database) as db:  # a history from an earlier run
        ChatRepository(db).create_conversation("Kept")
    small_disk.fill()

    code, shown = _start_and_read_the_box(qapp, loop, paths)

    assert code == 1
    assert len(shown) == 1
    text = str(shown[0]["text"])
    assert text.startswith("Parley could not start.")
    assert f"the disk holding {paths.root} is full (0 bytes free)" in text
    assert "damaged" not in text
    assert shown[0]["format"] is Qt.TextFormat.PlainText


def test_an_upgrade_that_does_not_fit_closes_its_notice_before_saying_why(
    qapp, loop, memory_keyring, small_disk
):
    paths = DataPaths(small_disk.root / "data")
    shutil.copytree(SCHEMAS / "v5-without-workspace-file", paths.root)  # step 6 has work
    small_disk.fill(leave=64 * 1024)

    code, shown = _start_and_read_the_box(qapp, loop, paths)

    assert code == 1
    assert len(shown) == 1
    assert "could not keep a copy of the database before upgrading it" in str(shown[0]["text"])
    assert f"the disk holding {paths.root} is full" in str(shown[0]["text"])
    assert shown[0]["notice_visible"] is False  # it would hide the box, staying on top
