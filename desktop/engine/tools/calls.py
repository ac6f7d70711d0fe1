"""One tool call from the model's request to its recorded result.

`decide` applies the policy (off: refused, auto: to run, ask: pending); `refusal`,
`answered` and `run_call` give the call its final record. Results that report a
refusal are structured (`{"error": kind, "message": ...}`) so a model can tell a
denial from a failure of the tool.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import replace
from typing import Any

from desktop.core.models import CallState, DecidedBy, Decision, ToolCallPart
from desktop.core.tools import ToolPolicy
from desktop.engine.tools.approval import PendingCall
from desktop.engine.tools.outputs import keep
from desktop.engine.tools.registry import Toolbox, ToolFailure, ToolResult
from desktop.engine.tools.service import ToolService

log = logging.getLogger(__name__)


def error_result(kind: str, message: str) -> str:
    return json.dumps({"error": kind, "message": message}, ensure_ascii=False)


def refusal(
    call: ToolCallPart, state: CallState, kind: str, message: str, **record: Any
) -> ToolCallPart:
    return replace(
        call,
        result=error_result(kind, message),
        is_error=True,
        state=state,
        error=message,
        **record,
    )


def decide(call: ToolCallPart, service: ToolService, toolbox: Toolbox) -> ToolCallPart:
    """The call with its policy applied: refused, `RUNNING`-to-be (decision AUTO) or
    `PENDING`. A pending call carries no decision until the person gives one."""
    definition = service.definition(call.name)
    if definition is None:
        return refusal(
            call, CallState.ERROR, "unknown_tool", f"There is no tool named {call.name!r}."
        )
    policy = service.policy(definition)
    if policy is ToolPolicy.OFF:
        return refusal(
            call,
            CallState.ERROR,
            "tool_disabled",
            f"The tool {call.name!r} is disabled in Parley's settings.",
            decision=Decision.DISABLED,
            decided_by=DecidedBy.POLICY,
        )
    if toolbox.get(call.name) is None:
        return refusal(
            call,
            CallState.ERROR,
            "tool_unavailable",
            f"The tool {call.name!r} is not available in this conversation.",
        )
    if policy is ToolPolicy.AUTO:
        return replace(call, decision=Decision.AUTO, decided_by=DecidedBy.POLICY)
    return replace(call, state=CallState.PENDING)


def pending_call(call: ToolCallPart, service: ToolService) -> PendingCall:
    return described(PendingCall(call.call_id, call.name, call.arguments), service)


def described(call: PendingCall, service: ToolService) -> PendingCall:
    """`call` as its tool is known now: with its definition, or, for a tool not known
    (yet), only the source its name tells and no risk (see `PendingCall`)."""
    definition = service.definition(call.name)
    if definition is None:
        return replace(call, description="", source=service.source_of(call.name), risk=None)
    return replace(
        call,
        description=definition.description,
        source=definition.source,
        risk=definition.risk,
    )


def denied(call: ToolCallPart, by: DecidedBy = DecidedBy.PERSON) -> ToolCallPart:
    return refusal(
        call,
        CallState.DENIED,
        "denied",
        "The person denied this tool call. Do not retry it unless they ask.",
        decision=Decision.DENIED,
        decided_by=by,
    )


def interrupted(call: ToolCallPart) -> ToolCallPart:
    """A pending call the run ended on (Stop, a new message, a restart): never run."""
    return refusal(
        call,
        CallState.INTERRUPTED,
        "interrupted",
        "This tool call was not run: the person moved on before approving it.",
        decision=Decision.INTERRUPTED,
        decided_by=DecidedBy.RECOVERY,
    )


def cancelled(call: ToolCallPart) -> ToolCallPart:
    """A running call that Stop cancelled (never an ordinary tool error)."""
    return replace(
        call,
        result=error_result("cancelled", "The person stopped this tool call while it ran."),
        is_error=True,
        state=CallState.CANCELLED,
    )


def lost(call: ToolCallPart) -> ToolCallPart:
    """A call that was running when Parley quit unexpectedly: its outcome is unknown."""
    return replace(
        call,
        result=error_result(
            "interrupted", "Parley closed while this tool ran; whether it finished is unknown."
        ),
        is_error=True,
        state=CallState.INTERRUPTED,
    )


def answered(call: ToolCallPart, text: str) -> ToolCallPart:
    return replace(
        call,
        result=text,
        is_error=False,
        state=CallState.ANSWERED,
        decision=Decision.ANSWERED,
        decided_by=DecidedBy.PERSON,
    )


def unrun(call: ToolCallPart, message: str) -> ToolCallPart:
    return refusal(call, CallState.ERROR, "not_run", message)


async def run_call(call: ToolCallPart, toolbox: Toolbox, service: ToolService) -> ToolCallPart:
    """Run an approved call and record how it went. Cancellation propagates."""
    tool = toolbox.get(call.name)
    assert tool is not None and toolbox.context is not None
    try:
        arguments = json.loads(call.arguments.strip() or "{}")
    except ValueError as error:
        return refusal(
            call, CallState.ERROR, "invalid_arguments", f"Arguments are not JSON: {error}"
        )
    if not isinstance(arguments, dict):
        return refusal(call, CallState.ERROR, "invalid_arguments", "Arguments must be an object.")
    started = time.monotonic()
    try:
        output = await tool.run(arguments, toolbox.context)
    except ToolFailure as failure:
        ms = round((time.monotonic() - started) * 1000)
        return refusal(call, CallState.ERROR, "tool_error", str(failure), duration_ms=ms)
    except Exception as error:  # a bug in a tool must not end the conversation
        log.exception("tool %s failed", call.name)
        ms = round((time.monotonic() - started) * 1000)
        message = f"The tool failed unexpectedly ({type(error).__name__}: {error})."
        return refusal(call, CallState.ERROR, "tool_error", message, duration_ms=ms)
    ms = round((time.monotonic() - started) * 1000)
    text, files = (
        (output.text, output.attachment_ids) if isinstance(output, ToolResult) else (output, ())
    )
    kept = await asyncio.to_thread(keep, text, call.call_id, service.data_root)
    return replace(
        call,
        result=kept.text,
        is_error=False,
        state=CallState.DONE,
        duration_ms=ms,
        result_size=kept.size,
        output_path=kept.path,
        attachment_ids=files,
    )
