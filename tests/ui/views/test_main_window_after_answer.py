"""After the answer, through the real window: suggestion chips that send, the cost of
each answer and of the chat, the composer's context meter, and Settings → Usage &
models."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.core.models import ModelRef
from desktop.engine.after_answer import AfterAnswer
from desktop.engine.utility import UtilityModel
from desktop.ui.viewmodels.usage import compact
from tests.support.chat_wire import kind_of
from tests.support.settings_files import saved_settings, write_after_answer_settings
from tests.support.sse_server import (
    RecordedRequest,
    Sleep,
    completion_body,
    default_stream,
    json_response,
)
from tests.support.ui_actions import bodies, type_and_send


def route(server, suggestion_delay: float = 0.0) -> None:
    def respond(request: RecordedRequest) -> Any:
        kind = kind_of(request)
        if kind == "chat":
            return default_stream("Hello from the test server.")
        if kind == "title":
            return json_response(completion_body("Trip ideas"))
        if kind == "suggestions":
            steps = json_response(
                completion_body(
                    '```json\n["What about Rome?", "Cheap flights?", "Best time?"]\n```'
                )
            )
            return [steps[0], Sleep(suggestion_delay), *steps[1:]]
        return None

    server.route(respond)


def test_suggestion_chips_appear_after_the_answer_and_a_click_sends_one(
    driver, sse_server, tmp_path
):
    write_after_answer_settings(tmp_path, sse_server.base_url)
    route(sse_server)
    parley = driver.start(tmp_path)
    after = AfterAnswer(parley.repository, UtilityModel(parley.settings))
    after.start(parley.chat)
    chips = parley.window.chat_view.suggestions

    async def body() -> None:
        assert not chips.isVisible()
        type_and_send(parley, "Plan a trip")
        await driver.until(lambda: chips.isVisible())
        assert [b.text() for b in chips.buttons()] == [
            "What about Rome?",
            "Cheap flights?",
            "Best time?",
        ]
        # The title came in the background too, and the header follows it.
        await driver.until(lambda: parley.window.chat_view.title.text() == "Trip ideas")

        route(sse_server, suggestion_delay=2.0)  # the next chips come later
        QTest.mouseClick(chips.buttons()[1], Qt.MouseButton.LeftButton)
        assert not chips.isVisible()  # gone as soon as one is chosen
        await driver.until(lambda: len(bodies(parley)) == 4 and not parley.chat_vm.busy)
        assert bodies(parley)[2] == "Cheap flights?"
        assert not chips.isVisible()  # the new answer's suggestions are not in yet
        await after.close()

    driver.run(body())


def test_each_answer_shows_its_cost_and_the_header_the_chats_totals(driver, sse_server, tmp_path):
    prices = {"local/test-model": {"input": 1000, "output": 2000}}
    write_after_answer_settings(tmp_path, sse_server.base_url, prices=prices, currency="EUR")
    parley = driver.start(tmp_path)
    view = parley.window.chat_view

    async def body() -> None:
        type_and_send(parley, "Hello")
        await driver.until(lambda: len(bodies(parley)) == 2 and not parley.chat_vm.busy)
        # 12 input tokens at 1000 and 5 output tokens at 2000 per million.
        transcript = view.transcript
        answer = transcript.message_widget(transcript.message_ids()[-1])
        await driver.until(lambda: "0.0220 EUR" in answer.meta.text())
        await driver.until(lambda: view.usage.text() == "17 tokens · 0.0220 EUR")
        assert "Input: 12 tokens" in view.usage.toolTip()

        type_and_send(parley, "Again")
        await driver.until(lambda: len(bodies(parley)) == 4 and not parley.chat_vm.busy)
        await driver.until(lambda: view.usage.text() == "34 tokens · 0.0440 EUR")

    driver.run(body())


def test_the_context_meter_counts_the_next_request_and_the_draft_against_the_context_length(
    driver, sse_server, tmp_path
):
    write_after_answer_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    composer = parley.window.chat_view.composer
    meter, model = composer.meter, parley.chat_vm.meter

    async def body() -> None:
        await driver.until(lambda: model.idle)
        empty = model.tokens  # an empty chat's request still has its system prompt
        assert 0 < empty < 100 and meter.text() == f"{empty} / 1k"
        # Typing moves the count at once, by the draft's estimate.
        composer.edit.setPlainText("x" * 400)  # about 100 tokens of Latin text
        assert (meter.text(), meter.property("level")) == (f"{empty + 100} / 1k", "ok")
        composer.edit.setPlainText("x" * 3600)
        assert (meter.text(), meter.property("level")) == (f"{empty + 900} / 1k", "high")
        composer.edit.setPlainText("x" * 4400)
        assert (meter.text(), meter.property("level")) == (f"{compact(empty + 1100)} / 1k", "full")
        composer.edit.clear()
        await driver.until(lambda: model.idle)
        assert model.tokens == empty
        type_and_send(parley, "Hello")
        await driver.until(lambda: len(bodies(parley)) == 2 and not parley.chat_vm.busy)
        # The chat itself now counts: two messages and their overhead.
        await driver.until(lambda: model.idle and model.tokens > empty)
        assert meter.text().endswith(" / 1k") and meter.property("level") == "ok"
        # Another model without a known context length shows the count alone.
        parley.chat_vm.models.select_model(1)
        assert meter.text().endswith("tokens")

    driver.run(body())


def test_usage_settings_save_the_utility_model_prices_and_currency(driver, sse_server, tmp_path):
    write_after_answer_settings(tmp_path, sse_server.base_url)
    parley = driver.start(tmp_path)
    parley.window.show_settings()
    dialog = parley.window._settings_dialog
    page = dialog.usage
    assert dialog.title_of(page) == "Usage & models"
    labels = [page.utility.itemText(i) for i in range(page.utility.count())]
    assert labels == ["The conversation's own model", "test-model — Local", "mini — Local"]

    page.utility.setFocus()
    QTest.keyClick(page.utility, Qt.Key.Key_Down, Qt.KeyboardModifier.NoModifier)
    QTest.keyClick(page.utility, Qt.Key.Key_Down, Qt.KeyboardModifier.NoModifier)
    assert saved_settings(tmp_path)["utility_model"] == "local/mini"
    assert parley.settings.settings.utility_model == ModelRef("local", "mini")

    page.table.item(1, 1).setText("0.15")  # mini's input: not saved until output is typed
    assert "prices" not in saved_settings(tmp_path)
    page.table.item(1, 2).setText("0,6")
    assert saved_settings(tmp_path)["prices"] == {"local/mini": {"input": 0.15, "output": 0.6}}
    assert dialog.bar.detail.text() == "Prices changed"

    page.table.item(1, 3).setText("lots")
    assert "must be a number" in page.price_problem.text()
    assert page.price_problem.property("tone") == "error"
    assert saved_settings(tmp_path)["prices"] == {"local/mini": {"input": 0.15, "output": 0.6}}

    page.table.item(1, 3).setText("")
    page.table.item(1, 1).setText("")
    page.table.item(1, 2).setText("")
    assert "prices" not in saved_settings(tmp_path)

    page.currency.setText("gbp")
    page.currency.editingFinished.emit()
    assert saved_settings(tmp_path)["currency"] == "GBP"
    assert page.currency.text() == "GBP"
