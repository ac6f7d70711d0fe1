"""The Markdown parser and common lexers are loaded once the first answer starts, not
with the window: a Parley that is only read never holds them."""

from __future__ import annotations

import asyncio

from desktop.app import _warm_up_rendering
from desktop.core.dispatch import EventBus
from desktop.core.events import ConversationsChanged, EngineEvent, GenerationStarted
from tests.support.waiting import CEILING_S


def test_the_warm_up_waits_for_the_first_answer_then_loads_every_lexer():
    async def main() -> None:
        events: EventBus[EngineEvent] = EventBus()
        warming = asyncio.ensure_future(_warm_up_rendering(events))
        for _ in range(20):  # the window, the sidebar: anything but an answer
            events.emit(ConversationsChanged("c1"))
            await asyncio.sleep(0)
        assert not warming.done()
        events.emit(GenerationStarted("c1", "m1"))
        await asyncio.wait_for(warming, CEILING_S)
        assert warming.exception() is None

    asyncio.run(main())
