"""Tools the model may call, and the gate that asks the person first.

How it fits together
--------------------
`ToolService` (service.py) knows the tools a conversation may use (built-ins, and the
workspace tools when the conversation has a workspace folder) and the person's policy
for each (`Settings.tools`: auto / ask / off per tool name, "always allow" grants bound
to `ToolDefinition.definition_hash`). `ChatService(..., tools=ToolService(...))` turns
the loop on; without it, answers that ask for tools end with a notice instead.

After a model step that ends in tool calls, each call is decided by policy: off gives a
structured error result, auto runs it, ask leaves it `CallState.PENDING`. If any call is
pending, the message is saved as `awaiting_approval`, an `ApprovalRequest` is opened and
the generation awaits it; nothing runs while it waits. When no call is left undecided,
approved calls run (reading tools concurrently, the rest one by one), results go on the
`ToolCallPart`s and the next model step is requested (at most `MAX_TOOL_STEPS`).

API for view-models
-------------------
- Event `desktop.core.events.ApprovalsChanged(conversation_id, message_id)`: a request
  opened, changed or closed. Then read the open ones again:
- `ChatService.pending_approvals() -> list[ApprovalRequest]` (every open request, also
  those restored after a restart) and `ChatService.approval(conversation_id)`.
- `ApprovalRequest` (approval.py): `conversation_id`, `message_id`, `calls` (tuple of
  `PendingCall`: `call_id`, `name`, `source` ("built-in" or an MCP server name),
  `description`, `risk` (`ToolRisk`, or None while the tool is not known: a call
  restored after a restart before its MCP server is up; `ChatService.describe_restored`
  starts the servers and fills it in), `arguments` (the model's JSON text, complete),
  `pretty_arguments` (indented JSON, or the raw text when it is not JSON)),
  `undecided()` (the calls still waiting), `is_open`, and the answers, each for one or
  several call ids at once:
  `approve_once(*ids)`, `always_allow(*ids)` (refused for a call whose tool is not
  known), `deny(*ids)`, `answer(call_id, text)`.
  Each returns False (and changes nothing) once the request is closed (Stop, a new
  send, the generation ended): a late answer can never run a call.
- A tool card reads the `ToolCallPart` (desktop/core/models.py): `name`, `arguments`,
  `result` (a 4 KiB preview when the output was large), `is_error`, and the record:
  `state` (`CallState`), `decision` (`Decision`), `decided_by` (`DecidedBy`: policy,
  person or recovery), `duration_ms`, `result_size` (bytes), `output_path` (relative
  to the data folder, e.g. "tool_outputs/call_1.txt"), `error`.
- Settings page: `ToolService.definitions(workspace=True)` lists every built-in
  `ToolDefinition` (name, description, parameters, risk, source); policies are edited
  as `Settings.tools` (`ToolSettings.policy(definition)` gives the effective one).
"""

from desktop.engine.tools.approval import ApprovalClosed, ApprovalRequest, PendingCall
from desktop.engine.tools.service import MAX_TOOL_STEPS, ToolService

__all__ = ["MAX_TOOL_STEPS", "ApprovalClosed", "ApprovalRequest", "PendingCall", "ToolService"]
