"""The sidebar list changes one row at a time and keeps what the person is looking at."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QAbstractItemModelTester, QTest
from PySide6.QtWidgets import QAbstractItemView, QLineEdit

from desktop.core.events import ConversationsChanged
from desktop.core.models import ModelRef
from desktop.core.paths import DataPaths
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.ui.viewmodels.conversations import ConversationListModel
from tests.support.settings_files import write_settings

MODEL = ModelRef("local", "test-model")
Model = ConversationListModel


def seed(folder: Path, days_ago: list[float], pinned: int = 0) -> list[str]:
    """Conversations last updated that many days ago (equal values tie), created in
    order; the first `pinned` of them pinned. Written before Parley starts."""
    paths = DataPaths(folder)
    paths.ensure()
    now = datetime.now(UTC)
    moment = [now]
    with Database.open(paths.database) as database:
        repository = ChatRepository(database, clock=lambda: moment[0])
        ids = []
        for days in days_ago:
            moment[0] = now - timedelta(days=days)
            ids.append(repository.create_conversation(f"{days} days ago").id)
        for conversation_id in ids[:pinned]:
            repository.set_pinned(conversation_id, True)
    return ids


def rows(model: ConversationListModel) -> list[tuple[Any, ...]]:
    """Everything a view can read from each row."""
    roles = (0, Model.HeaderRole, Model.IdRole, Model.PinnedRole, Model.UpdatedRole)
    return [
        tuple(model.data(model.index(row), role) for role in roles)
        for row in range(model.rowCount())
    ]


def count(signal: Any) -> Callable[[], int]:
    seen: list[object] = []
    signal.connect(lambda *args: seen.append(args))
    return lambda: len(seen)


@pytest.mark.parametrize("seed_value", [7, 2024])
def test_random_changes_match_a_fresh_load_without_any_reset(
    driver, sse_server, tmp_path, seed_value
):
    write_settings(tmp_path, sse_server.base_url)
    # Yesterday, the previous 7 days and older, with ties, so sections come and go.
    seed(tmp_path, [1, 1, 3, 3, 3, 12, 40, 40], pinned=1)
    parley = driver.start(tmp_path)
    model = parley.conversations_vm
    tester = QAbstractItemModelTester(  # noqa: F841 (checks every signal while alive)
        model, QAbstractItemModelTester.FailureReportingMode.Warning
    )
    resets = count(model.modelAboutToBeReset)
    rng = random.Random(seed_value)
    day = datetime.now().astimezone().date()  # local midnight rightly rebuilds everything

    async def step(action: str, target: str) -> None:
        if action == "create":
            parley.chat.create_conversation(f"Created {rng.random():.3f}")
        elif action in ("send", "send new"):
            result = await parley.chat.send(None if action == "send new" else target, "Hi", MODEL)
            await driver.until(lambda: not parley.chat.is_generating(result.conversation_id))
        elif action == "rename":
            assert model.setData(model.index(model.row_of(target)), f"Renamed {rng.random():.3f}")
        elif action == "pin":
            model.set_pinned(target, not model.is_pinned(target))
        elif action == "delete":
            model.delete(target)
            await parley.tasks.drain()

    async def body() -> None:
        actions = ["create", "send", "send new", "rename", "pin", "pin", "delete"]
        for _ in range(40):
            ids = [model.id_at(row) for row in range(model.rowCount()) if model.id_at(row)]
            action = rng.choice(actions) if ids else "create"
            await step(action, rng.choice(ids) if ids else "")
            fresh = ConversationListModel(parley.chat, parley.library, parley.tasks)
            assert rows(model) == rows(fresh), action
            fresh.deleteLater()
        if datetime.now().astimezone().date() == day:
            assert resets() == 0

    driver.run(body())


def test_one_change_moves_rows_and_never_resets(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    old, older = seed(tmp_path, [3, 40])
    parley = driver.start(tmp_path)
    model = parley.conversations_vm
    tester = QAbstractItemModelTester(  # noqa: F841
        model, QAbstractItemModelTester.FailureReportingMode.Warning
    )
    resets, moves = count(model.modelAboutToBeReset), count(model.rowsMoved)
    inserts, removals = count(model.rowsInserted), count(model.rowsRemoved)
    assert [model.data(model.index(r)) for r in (0, 2)] == ["Previous 7 days", "Older"]
    day = datetime.now().astimezone().date()

    async def body() -> None:
        result = await parley.chat.send(older, "Back to this one", MODEL)
        await driver.until(lambda: not parley.chat.is_generating(result.conversation_id))
        # "Today" arrived with its first chat and "Older" left with its last.
        assert [model.data(model.index(r)) for r in range(4)] == [
            "Today",
            model.title_of(older),
            "Previous 7 days",
            model.title_of(old),
        ]
        if datetime.now().astimezone().date() != day:
            return  # midnight passed: one full rebuild, rightly
        assert (resets(), moves(), inserts(), removals()) == (0, 1, 1, 1)
        parley.chat.events.emit(ConversationsChanged(None))  # a change no chat explains
        assert resets() == 1

    driver.run(body())


def test_selection_editor_and_scroll_survive_changes_to_other_chats(driver, sse_server, tmp_path):
    write_settings(tmp_path, sse_server.base_url)
    ids = seed(tmp_path, [2 + day / 10 for day in range(120)])
    parley = driver.start(tmp_path)
    parley.window.resize(900, 600)
    model = parley.conversations_vm
    sidebar = parley.window.sidebar
    view = sidebar.list
    bar = view.verticalScrollBar()

    def current() -> str:
        return model.id_at(view.currentIndex().row())

    def selected() -> list[str]:
        return [model.id_at(i.row()) for i in view.selectionModel().selectedIndexes()]

    def top() -> str:
        return model.id_at(view.indexAt(QPoint(1, 1)).row())

    def answered(conversation_id: str) -> bool:
        path = parley.chat.active_path(conversation_id)
        return bool(path) and path[-1].status.is_final

    async def send(conversation_id: str) -> None:
        await parley.chat.send(conversation_id, "More", MODEL)
        await driver.until(lambda: answered(conversation_id))

    async def body() -> None:
        chosen = ids[60]
        parley.window.open_conversation(chosen)
        assert current() == chosen and selected() == [chosen]
        bar.setValue(40)
        await driver.until(lambda: top() != "")
        first_visible = top()
        assert first_visible not in (ids[0], ids[119], chosen)

        await send(ids[119])  # from the bottom to the top: two rows appear above
        parley.chat.rename_conversation(ids[0], "Renamed above")
        model.set_pinned(ids[1], True)
        await parley.chat.delete_conversation(ids[2])
        assert current() == chosen and selected() == [chosen]
        assert top() == first_visible and bar.value() > 40

        sidebar.rename(chosen)
        assert view.state() == QAbstractItemView.State.EditingState
        await send(ids[118])
        assert view.state() == QAbstractItemView.State.EditingState
        editor = view.focusWidget()
        assert isinstance(editor, QLineEdit) and editor.text() == model.title_of(chosen)
        QTest.keyClick(editor, Qt.Key.Key_Escape)
        assert view.state() != QAbstractItemView.State.EditingState

        # The first visible chat itself moves away: the next one takes its place.
        following = model.id_at(view.indexAt(QPoint(1, 1)).row() + 1)
        await send(first_visible)
        assert top() == following
        assert current() == chosen and selected() == [chosen]

        # Scrolled to the very top, the list stays there and shows what arrives.
        bar.setValue(0)
        parley.window.new_chat()
        assert parley.chat_vm.submit("A brand new chat")
        await driver.until(lambda: bool(parley.chat_vm.conversationId))
        created = parley.chat_vm.conversationId
        await driver.until(lambda: answered(created))
        row = model.row_of(created)
        assert model.data(model.index(row - 1)) == "Today"
        assert bar.value() == 0 and view.viewport().rect().contains(
            view.visualRect(model.index(row))
        )
        assert current() == created and selected() == [created]

    driver.run(body())


def test_past_midnight_the_sections_are_rebuilt_in_one_reset(driver, tmp_path):
    parley = driver.start(tmp_path)
    moment = [datetime.now().astimezone()]
    model = ConversationListModel(
        parley.chat, parley.library, parley.tasks, clock=lambda: moment[0]
    )
    resets = count(model.modelAboutToBeReset)

    def headers() -> list[str]:
        return [model.data(model.index(r)) for r in range(model.rowCount()) if not model.id_at(r)]

    first = parley.chat.create_conversation("Late at night").id
    model.roll_over()  # the same day: nothing to do
    assert headers() == ["Today"] and resets() == 0

    moment[0] += timedelta(days=1)
    model.roll_over()  # the midnight timer
    assert headers() == ["Yesterday"] and resets() == 1
    moment[0] += timedelta(days=1)
    parley.chat.rename_conversation(first, "Renamed")  # the first change after midnight
    assert headers() == ["Previous 7 days"] and resets() == 2
    assert model.title_of(first) == "Renamed"
