"""The approval gate around one model step's tool calls.

`settle_calls` decides each call by policy, asks the person about the rest (through the
`ask` coroutine the generation provides, which persists the pause and awaits the
`ApprovalRequest`), then runs what was allowed. `save` writes changed calls back into
the answer before every wait, so a cancellation at any await finds each call in its
true state: a pending one is never run, a running one is marked cancelled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace

from desktop.core.models import CallState, DecidedBy, Decision, ToolCallPart
from desktop.core.tools import ToolRisk
from desktop.engine.tools.approval import Answer, PendingCall
from desktop.engine.tools.calls import answered, decide, denied, pending_call, run_call, unrun
from desktop.engine.tools.registry import Toolbox
from desktop.engine.tools.service import ToolService

Save = Callable[[Sequence[ToolCallPart]], None]
Ask = Callable[[list[PendingCall]], Awaitable[Mapping[str, Answer]]]

_RUNNABLE = (Decision.AUTO, Decision.APPROVED_ONCE, Decision.ALWAYS_ALLOWED)


async def settle_calls(
    calls: Sequence[ToolCallPart], service: ToolService, toolbox: Toolbox, save: Save, ask: Ask
) -> None:
    decided = [decide(call, service, toolbox) for call in calls]
    save(decided)
    pending = [c for c in decided if c.state is CallState.PENDING]
    if pending:
        answers = await ask([pending_call(c, service) for c in pending])
        decided = apply_answers(decided, answers, service)
        save(decided)
    await run_allowed(decided, service, toolbox, save)


def apply_answers(
    calls: Sequence[ToolCallPart], answers: Mapping[str, Answer], service: ToolService
) -> list[ToolCallPart]:
    """Pending calls with the person's decisions; "always allow" is saved as a grant."""
    out: list[ToolCallPart] = []
    for call in calls:
        answer = answers.get(call.call_id)
        if call.state is not CallState.PENDING or answer is None:
            out.append(call)
            continue
        if answer.decision is Decision.DENIED:
            out.append(denied(call))
        elif answer.decision is Decision.ANSWERED:
            out.append(answered(call, answer.text))
        else:
            definition = service.definition(call.name)
            if answer.decision is Decision.ALWAYS_ALLOWED and definition is not None:
                service.allow_always(definition)
            out.append(
                replace(call, state=None, decision=answer.decision, decided_by=DecidedBy.PERSON)
            )
    return out


async def run_allowed(
    calls: Sequence[ToolCallPart], service: ToolService, toolbox: Toolbox, save: Save
) -> None:
    """Run the allowed calls: reading tools together, the others one at a time."""
    allowed = [c for c in calls if c.state is None and c.decision in _RUNNABLE]
    missing = [c for c in allowed if toolbox.get(c.name) is None]
    if missing:
        save([unrun(c, f"The tool {c.name!r} is no longer available.") for c in missing])
    runnable = [c for c in allowed if c not in missing]
    reads = [c for c in runnable if _risk(c, toolbox) is ToolRisk.READ]
    if reads:
        save([replace(c, state=CallState.RUNNING) for c in reads])
        save(await asyncio.gather(*(run_call(c, toolbox, service) for c in reads)))
    for call in runnable:
        if call in reads:
            continue
        save([replace(call, state=CallState.RUNNING)])
        save([await run_call(call, toolbox, service)])


def _risk(call: ToolCallPart, toolbox: Toolbox) -> ToolRisk:
    tool = toolbox.get(call.name)
    return tool.definition.risk if tool is not None else ToolRisk.SHELL
