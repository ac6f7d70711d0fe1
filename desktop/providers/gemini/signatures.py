"""Gemini thought signatures: kept as they came, given back where they came.

Gemini attaches an opaque `thoughtSignature` to parts of its answer and wants each back,
unchanged, on the part it came on when the conversation continues; Gemini 3 refuses a
tool continuation (HTTP 400) when the first function call of any step of the turn lacks
its signature. Google's rules (ai.google.dev, "Thought signatures"):

- in a step that calls functions, the signature sits on the first `functionCall` part
  (parallel calls included: only the first carries one);
- in a step without calls it sits on the last part; sending it back is recommended;
- when streaming, it may arrive on a part of its own, with empty text (or none), in the
  last chunk (Google's own SDKs put such a signature on the part before it).

Parley keeps every signature the wire carries. Each model step yields `ReasoningSignature`
events carrying all of the step's signatures so far, the latest replacing the earlier:
in the common case of one signature in its usual place (the first call, or the last
part of a step without calls), the signature itself; otherwise `PARTS_PREFIX` + a JSON
list saying where each came: `{"on": "call", "index": i}` (the step's i-th call),
`{"on": "text"}` (its text) or `{"on": "end"}` (a part without text, or a thought). A
call's signature goes out as soon as the call arrives, the others at the end of the step.
The engine keeps the value on the step's reasoning part and hands it back as
`RequestMessage.reasoning_signature`; `request.build_body` puts each signature back where it
came: a call's on that call, the text's on the text part, one that came on a part of its
own on the first call when that has none (where Gemini validates it), else on the last
part, else (that place taken too) on an empty text part of its own, as it came. Each
assistant `RequestMessage` is one model step: a step's signatures belong to that step
alone. When a Gemini 3 model sees calls whose first has no signature (a conversation
begun with another model) the documented placeholder that skips validation
is sent instead, so the history stays usable.
"""

from __future__ import annotations

import json
from typing import Any

# Documented by Google for function calls that have no signature of their own.
SKIP_SIGNATURE = "skip_thought_signature_validator"
# A step's signatures with where each came, when there is more than one or one is not
# where Gemini usually puts it (see the module docstring).
PARTS_PREFIX = "gemini-parts:"


def signature_value(signatures: list[dict[str, Any]], calls: int) -> str:
    """A step's signatures as one `ReasoningSignature` value (see the module docstring)."""
    if len(signatures) == 1:
        only = signatures[0]
        usual = only.get("index") == 0 if only["on"] == "call" else calls == 0
        if usual or only["on"] == "end":
            return str(only["signature"])
    return PARTS_PREFIX + json.dumps(signatures, separators=(",", ":"))


def stored_signatures(value: str | None) -> list[dict[str, Any]]:
    """A `ReasoningSignature` value back as a list of `{"on", "index"?, "signature"}`;
    a plain value came where Gemini usually puts it, so it counts as `"end"`."""
    if not value:
        return []
    if not value.startswith(PARTS_PREFIX):
        return [{"on": "end", "signature": value}]
    try:
        items = json.loads(value[len(PARTS_PREFIX) :])
    except json.JSONDecodeError:
        return []
    return [
        item
        for item in (items if isinstance(items, list) else ())
        if isinstance(item, dict) and isinstance(item.get("signature"), str) and item["signature"]
    ]
