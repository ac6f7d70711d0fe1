"""The approval gate: an object the engine awaits and the person answers.

Plain asyncio, no Qt: the generation awaits `settled()`; view-models call the answer
methods. Once closed (Stop, a new send, the generation ended) every answer is refused,
so an approval that arrives late can never run a call.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from desktop.core.models import Decision
from desktop.core.tools import ToolRisk


class ApprovalClosed(Exception):
    """The request was closed before every call was decided."""


@dataclass(frozen=True, slots=True)
class PendingCall:
    """A call waiting for the person, with everything the dialog shows.

    `risk` None means the tool's definition is not known (yet): after a restart an MCP
    server is not running until something starts it, so a restored call knows only its
    name, and `source` is the server read from it ("" when even that is unknown). Such
    a call is shown with the most cautious wording until `ApprovalRequest.describe`
    gives it its definition; it never defaults to a harmless-looking built-in.
    """

    call_id: str
    name: str
    arguments: str
    description: str = ""
    source: str = ""
    risk: ToolRisk | None = None

    @property
    def known(self) -> bool:
        return self.risk is not None

    @property
    def pretty_arguments(self) -> str:
        try:
            value = json.loads(self.arguments or "{}")
        except ValueError:
            return self.arguments
        return json.dumps(value, ensure_ascii=False, indent=2)


@dataclass(frozen=True, slots=True)
class Answer:
    """What the person decided for one call; `text` only for `Decision.ANSWERED`."""

    decision: Decision
    text: str = ""


class ApprovalRequest:
    """The pending calls of one assistant message and the person's answers to them."""

    def __init__(
        self,
        conversation_id: str,
        message_id: str,
        calls: Sequence[PendingCall],
        on_change: Callable[[ApprovalRequest], None] | None = None,
    ) -> None:
        self.conversation_id = conversation_id
        self.message_id = message_id
        self.calls = tuple(calls)
        self._answers: dict[str, Answer] = {}
        self._open = True
        self._suspended = False
        self._on_change = on_change
        self._changed = asyncio.Event()

    @property
    def is_open(self) -> bool:
        return self._open

    @property
    def suspended(self) -> bool:
        """Closed because Parley is quitting: the calls stay pending, on disk, and are
        asked about again at the next start."""
        return self._suspended

    @property
    def answers(self) -> dict[str, Answer]:
        return dict(self._answers)

    def undecided(self) -> list[PendingCall]:
        return [c for c in self.calls if c.call_id not in self._answers]

    def describe(self, described: Sequence[PendingCall]) -> bool:
        """Take what is now known of the calls' tools (same ids; arguments unchanged),
        e.g. once their MCP server is up; True if anything the dialog shows changed."""
        by_id = {c.call_id: c for c in described}
        calls = tuple(
            replace(c, description=d.description, source=d.source, risk=d.risk)
            if (d := by_id.get(c.call_id)) is not None and d.name == c.name
            else c
            for c in self.calls
        )
        if not self._open or calls == self.calls:
            return False
        self.calls = calls
        self._notify()
        return True

    def is_settled(self) -> bool:
        return not self.undecided()

    # --- the person's answers -------------------------------------------------------

    def approve_once(self, *call_ids: str) -> bool:
        return self._decide(call_ids, Answer(Decision.APPROVED_ONCE))

    def always_allow(self, *call_ids: str) -> bool:
        """Refused while a call's tool is not known: a grant is bound to the definition
        the person was shown."""
        if any(c.call_id in call_ids and not c.known for c in self.calls):
            return False
        return self._decide(call_ids, Answer(Decision.ALWAYS_ALLOWED))

    def deny(self, *call_ids: str) -> bool:
        return self._decide(call_ids, Answer(Decision.DENIED))

    def answer(self, call_id: str, text: str) -> bool:
        """The person's `text` becomes the call's result instead of running it."""
        return self._decide((call_id,), Answer(Decision.ANSWERED, text))

    def _decide(self, call_ids: Sequence[str], answer: Answer) -> bool:
        known = {c.call_id for c in self.calls}
        if not self._open or not call_ids or not set(call_ids) <= known:
            return False
        for call_id in call_ids:
            self._answers[call_id] = answer
        self._changed.set()
        self._notify()
        return True

    # --- the engine's side ----------------------------------------------------------

    async def settled(self) -> dict[str, Answer]:
        """Wait until every call is decided, then close (the answers are final) and
        return them; raises ApprovalClosed if the request was closed first."""
        while self._open and not self.is_settled():
            self._changed.clear()
            await self._changed.wait()
        if not self.close():
            raise ApprovalClosed(self.message_id)
        return self.answers

    def close(self) -> bool:
        """No more answers; returns False if it was already closed."""
        if not self._open:
            return False
        self._open = False
        self._changed.set()
        self._notify()
        return True

    def suspend(self) -> bool:
        """Close for a quit, leaving the calls pending (see `suspended`)."""
        if not self._open:
            return False
        self._suspended = True
        return self.close()

    def _notify(self) -> None:
        if self._on_change is not None:
            self._on_change(self)
