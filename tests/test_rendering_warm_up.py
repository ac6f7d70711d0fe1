"""The Markdown parser and common lexers are loaded once the first answer starts, not
with the window: a Parley that is only read never holds them."""

from __future__ import annotations

import asyncio

from desktop.app import _warm_up_rendering
from desktop.core.dispatch import EventBus
from desktop.core.events import ConversationsChanged, EngineEvent, GenerationStarted
from tests.support.waiting import CEILING_S


def test_the_warm_up_waits_for_the_first_answer():
    async def main() -> None:
        events: EventBus[EngineEvent] = EventBus()
        warming = _warm_up_rendering(events)
        waiting = warming.send(None)  # run it to its first wait
        events.emit(ConversationsChanged("c1"))  # the sidebar, a rename: not an answer
        assert not waiting.done()
        events.emit(GenerationStarted("c1", "m1"))
        assert waiting.done()
        warming.close()

    asyncio.run(main())


def test_once_an_answer_starts_every_lexer_is_loaded():
    async def main() -> None:
        events: EventBus[EngineEvent] = EventBus()
        warming = asyncio.ensure_future(_warm_up_rendering(events))
        # Called after the task's first step, in which it starts listening.
        asyncio.get_running_loop().call_soon(events.emit, GenerationStarted("c1", "m1"))
        await asyncio.wait_for(warming, CEILING_S)

    asyncio.run(main())
