"""Ctrl+C while an answer streams, through Parley's real start-up and shutdown (`_run`):
the answer stops and keeps its text, as with File → Quit. tests/test_main.py sends the
signals to a separately started Parley."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import sys
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.app import _run
from desktop.core.models import MessageStatus, Role
from desktop.core.paths import DataPaths
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.secrets import SecretStore
from desktop.ui.views.main_window import MainWindow
from tests.support.settings_files import write_settings
from tests.support.sse_server import DONE, RecordedRequest, Sleep, chat_chunk, sse_response
from tests.support.waiting import CEILING_S


def _main_window(qapp) -> MainWindow | None:
    return next(
        (w for w in qapp.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()), None
    )


async def _until(predicate, timeout: float = 60.0) -> Any:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (found := predicate()):
        assert loop.time() < deadline, "the expected state never came"
        await asyncio.sleep(0.05)
    return found


def test_ctrl_c_stops_the_streaming_answer_keeping_its_text(
    qapp, loop, memory_keyring, sse_server, tmp_path
):
    write_settings(tmp_path, sse_server.base_url)

    def respond(request: RecordedRequest) -> Any:
        if (request.json or {}).get("stream"):
            return sse_response(
                chat_chunk(content="The first half arrived"),
                Sleep(60),
                chat_chunk(content=" and the rest never did."),
                chat_chunk(finish_reason="stop"),
                DONE,
            )
        return None

    sse_server.route(respond)
    hook = sys.excepthook
    qapp.setQuitOnLastWindowClosed(False)  # as `main` does: Parley quits after its shutdown

    async def body() -> int:
        running = asyncio.ensure_future(_run(qapp, DataPaths(tmp_path), SecretStore(), False))
        window = await _until(lambda: _main_window(qapp))
        edit = window.chat_view.composer.edit
        edit.setFocus()
        QTest.keyClicks(edit, "Tell me everything")
        QTest.keyClick(edit, Qt.Key.Key_Return)
        transcript = window.chat_view.transcript
        await _until(
            lambda: any(
                "The first half" in transcript.message_widget(i).body.toPlainText()
                for i in transcript.message_ids()
            )
        )
        os.kill(os.getpid(), signal.SIGINT)
        return await asyncio.wait_for(running, CEILING_S)

    try:
        status = loop.run_until_complete(body())
    finally:
        sys.excepthook = hook  # `_run` installed Parley's
        qapp.setQuitOnLastWindowClosed(True)
        gc.unfreeze()
        for window in qapp.topLevelWidgets():
            window.deleteLater()
    assert status == 130
    with Database.open(tmp_path / "parley.db") as database:
        repository = ChatRepository(database)
        (conversation,) = repository.list_conversations()
        answer = repository.active_path(conversation.id)[-1]
    assert answer.role is Role.ASSISTANT
    assert (answer.status, answer.text) == (MessageStatus.CANCELLED, "The first half arrived")
